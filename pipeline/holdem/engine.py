"""One hand of fixed-limit Texas Hold'em, played inside a numba kernel (ACPC limit rules, thesis §2).

Seats ``0..n-1`` sit clockwise; ``button`` marks the dealer.  The small blind
(half a big blind) sits left of the button and the big blind left of it;
heads-up the button posts the small blind (reverse blinds).  Preflop the seat
left of the big blind acts first (heads-up the button), after the flop the
first player still in left of the button.  Bets are one big blind preflop and
on the flop, two on the turn and river; at most four bets a round, the big
blind counting as the first preflop.  A player whose stack runs out is all in
and acts no more; a call or raise he cannot afford puts in what he has.  An
all-in raise for less than the street's largest raise counts toward the cap
but does not reopen the betting: a player who has acted since may only call
or fold, unless such short raises add up to a full one (the TDA rule, as
pokerkit plays it).  Raising is not offered when no other player could put
in more.  The end of the hand is :mod:`.settle`.

Everything a history needs is written to the ``log`` array, one row per action:
``(street, seat, action, units put in, the street's bet level after it)``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.hand_classes import class_of
from ..core.rng import DEAL_STREAM, seed_stream, stream_deal
from ..evaluator.kernels import KEY_BASE, Tables, hand_value, suited_bit
from .genes import gene_decision
from .jit import hand_kernel
from .policies import (
    CALL,
    CFR,
    EVOLVED,
    FOLD,
    O_CAN_RAISE,
    O_CATEGORY,
    O_NTH,
    O_PLAYERS,
    O_POS_CLASS,
    O_POSITION,
    O_POT,
    O_POT_ODDS,
    O_RAISES,
    O_RAISES_PREV,
    O_SEAT,
    O_SEATS,
    O_STREET,
    O_TO_CALL,
    O_WEIGHT,
    P_SAMPLES,
    RAISE,
    RLCARD_V1,
    decide,
    position_class,
)
from .rlcard_v1 import rlcard_v1
from .seating import Seats
from .settle import BB, award, return_uncalled, showdown_values
from .strategy import strategy_decision
from .tree import CHANCE, hulhe
from .weights import HandWeights, WeightTables, prefetch_row, sampled_weight, situation_at, weight_at

MAX_LOG = 256
MAX_BETS = 4
A_SB, A_BB, A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE = range(7)
ACTION_NAMES = ("posts small blind", "posts big blind", "folds", "checks", "calls", "bets", "raises")
# per-seat statistics (int64 counters)
S_HANDS, S_VPIP, S_PFR, S_AGGR, S_CALLS, S_FLOP, S_WTSD, S_WSD = range(8)
N_STATS = 8
BOARD_SEEN = (0, 3, 4, 5)
WS_ROWS = 12           # scratch rows: 10 per-seat rows, a deck for the weight sampler, a deck for dealing
WS_DECK = 10
MAX_SEATS = 10
# the heads-up betting tree (.tree), followed by every heads-up hand so that a ``cfr`` seat knows its node
TREE_CHILD = hulhe().child
TREE_KIND = hulhe().kind


@hand_kernel
def _log(log: np.ndarray, n_log: int, street: int, seat: int, action: int, amount: int, level: int) -> int:
    log[n_log, 0] = street
    log[n_log, 1] = seat
    log[n_log, 2] = action
    log[n_log, 3] = amount
    log[n_log, 4] = level
    return n_log + 1


@hand_kernel
def _put(seat: int, units: int, stack: np.ndarray, street_in: np.ndarray, contrib: np.ndarray) -> int:
    """Move up to ``units`` from a stack into the pot; return what moved."""
    x = min(units, stack[seat])
    stack[seat] -= x
    street_in[seat] += x
    contrib[seat] += x
    return x


class Work(NamedTuple):
    """Scratch space of :func:`play_hand`, allocated once per run so that a hand allocates nothing."""

    ws: np.ndarray       # (WS_ROWS, 52) int64: per-seat rows, the weight sampler's deck, the dealing deck
    fws: np.ndarray      # (seats + 1, 16) float64: the observation, each seat's weight of this street
    dcache: np.ndarray   # (seats, 4, 10) float64: table weights kept for the deal by position, street, opponents
    rng: np.ndarray      # (1,) uint64: the hand's action stream (:func:`pipeline.core.rng.seed_stream`)
    rows: np.ndarray     # (seats, 4) int64: the tables' row of each position's hole on each street, -1 not yet


class Tally(NamedTuple):
    """What a run adds up over its hands."""

    stats: np.ndarray    # (seats, N_STATS) int64: the counters S_HANDS .. S_WSD
    used: np.ndarray     # (seats, genes) uint8: the genes an evolved seat consulted


class Outcome(NamedTuple):
    """One hand's result, written by :func:`play_hand`."""

    net: np.ndarray        # (seats,) int64: units won or lost
    won: np.ndarray        # (seats,) int64: winnings
    returned: np.ndarray   # (seats,) int64: an uncalled bet given back
    values: np.ndarray     # (seats,) int64: showdown hand values, -1 = not shown
    pots: np.ndarray       # (seats,) int64: the pots after rake
    pot_share: np.ndarray  # (seats, seats) int64: what a seat took from pot p
    log: np.ndarray        # (MAX_LOG, 5) int64: the actions


def new_work(n: int) -> Work:
    """Scratch space for a table of ``n`` seats (``dcache`` and ``rows`` reset to -1: nothing kept)."""
    return Work(np.zeros((WS_ROWS, 52), np.int64), np.zeros((n + 1, 16), np.float64),
                np.full((n, 4, MAX_SEATS), -1.0), np.zeros(1, np.uint64), np.full((n, 4), -1, np.int64))


@hand_kernel
def new_deal(work: Work) -> None:
    """Forget what the last deal kept (its table weights and rows): a new deal's cards are coming."""
    work.dcache[:] = -1.0
    work.rows[:] = -1


def new_outcome(n: int) -> Outcome:
    """Result arrays for a table of ``n`` seats."""
    return Outcome(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                   np.zeros(n, np.int64), np.zeros((n, n), np.int64), np.zeros((MAX_LOG, 5), np.int64))


@hand_kernel
def _weight(seat: int, position: int, street: int, opponents: int, holes: np.ndarray, board: np.ndarray,
            weights: HandWeights, samples: int, work: Work, wcache: np.ndarray, T: Tables) -> float:
    """Hand weight of ``seat`` now, reusing the value computed this street for as many opponents.

    Preflop from the class table; after the flop from the weight tables
    (:class:`.weights.WeightTables`) when ``weights`` holds them, else by
    sampling ``samples`` deals.  A table value is kept in
    ``work.dcache[position, street, opponents]`` for the rest of the deal: the
    duplicate replays give a position the same cards, so every seat that sits
    there later reads it back (the tables are exact lookups, so this changes no
    result; the sampler, random, is never cached across hands).
    """
    if wcache[seat, 0] == street and wcache[seat, 1] == opponents:
        return wcache[seat, 2]
    dcache = work.dcache
    if street == 0:
        w = weights.preflop[class_of(holes[seat, 0], holes[seat, 1]), opponents]
    elif weights.tables.flop1.shape[0] > 0:
        w = dcache[position, street, opponents]
        if w < 0.0:
            i = work.rows[position, street]
            if i < 0:
                i = situation_at(holes[seat, 0], holes[seat, 1], board, BOARD_SEEN[street], weights.tables)
                work.rows[position, street] = i
            w = weight_at(i, BOARD_SEEN[street], opponents, weights.tables)
            dcache[position, street, opponents] = w
    else:
        w = sampled_weight(holes[seat, 0], holes[seat, 1], board, BOARD_SEEN[street], opponents, samples, work.rng,
                           work.ws[WS_DECK], T)
    wcache[seat, 0] = street
    wcache[seat, 1] = opponents
    wcache[seat, 2] = w
    return w


@hand_kernel
def _prefetch_weights(button: int, n_in: int, holes: np.ndarray, board: np.ndarray, needs_w: np.ndarray,
                      folded: np.ndarray, rows: np.ndarray, wt: WeightTables) -> None:
    """At the flop, ask at once for every table row that the seats still in that read the hand weight will
    read on the flop, turn and river (found once a deal per position, kept in ``rows``), chosen by the
    players in now (one opponent or more).  A row is 0.5-1 µs away in memory on this machine, and the
    processor waits for a prefetch as for a read; asked together, the rows arrive in about the time of one."""
    n = holes.shape[0]
    opponents = n_in - 1
    for k in range(n):
        if not needs_w[k] or folded[k]:
            continue
        p = (k - button) % n
        for s in range(1, 4):
            i = rows[p, s]
            if i < 0:
                i = situation_at(holes[k, 0], holes[k, 1], board, BOARD_SEEN[s], wt)
                rows[p, s] = i
            prefetch_row(i, BOARD_SEEN[s], opponents, wt)


@hand_kernel
def play_hand(button: int, holes: np.ndarray, board: np.ndarray, seats: Seats, weights: HandWeights, T: Tables,
              work: Work, tally: Tally, out: Outcome) -> tuple:
    """Play one hand to the end; return ``(log rows, rake, last street dealt, pots, showdown)``.

    ``holes`` (n, 2) and ``board`` (5,) are the cards of each seat and the
    runout; ``seats`` the table's policies, stacks and rake
    (:meth:`.seating.Table.arrays`); ``weights`` the hand weights
    (:func:`.weights.hand_weights`); ``T`` the evaluator's tables.  The
    deal's kept weights (``work.dcache``) are reset by the caller at each
    deal.  Writes the hand's result to ``out`` (:class:`Outcome`) and adds
    the statistics and the evolved seats' used genes to ``tally``.
    """
    n = seats.kinds.size
    kinds, params, needs_w, genes, layout = seats.kinds, seats.params, seats.needs_weight, seats.genes, seats.layout
    group_tab, stacks0, rake_bp, rake_cap = seats.group_tab, seats.stacks, seats.rake_bp, seats.rake_cap
    ws, fws, rng = work.ws, work.fws, work.rng
    stats, used = tally
    net, won, returned, values, pots, pot_share, log = out
    ws[:WS_DECK, :n] = 0
    stack, contrib, street_in, folded = ws[0, :n], ws[1, :n], ws[2, :n], ws[3, :n]
    need, vpip, pfr, saw_flop, nth, acted = ws[4, :n], ws[5, :n], ws[6, :n], ws[7, :n], ws[8, :n], ws[9, :n]
    for k in range(n):
        stack[k] = stacks0[k]
    obs = fws[0]
    wcache = fws[1:n + 1, :3]
    wcache[:, :] = -1.0
    tabled = weights.tables.flop1.shape[0] > 0      # hand weights after the flop from the tables
    bkey = KEY_BASE
    bsuited = np.uint64(0)
    won[:] = 0
    returned[:] = 0
    pot_share[:, :] = 0
    values[:] = -1
    for k in range(n):
        stats[k, S_HANDS] += 1
    if n == 2:
        sb, bb = button, 1 - button
    else:
        sb, bb = (button + 1) % n, (button + 2) % n
    n_log = _log(log, 0, 0, sb, A_SB, _put(sb, BB // 2, stack, street_in, contrib), BB // 2)
    n_log = _log(log, n_log, 0, bb, A_BB, _put(bb, BB, stack, street_in, contrib), BB)
    n_in = n
    last_street = 0
    raises_prev = 0
    node = 0                  # heads-up: the hand's node of the betting tree (.tree), the root after the blinds
    for street in range(4):
        if n_in < 2:
            break
        last_street = street
        bet = BB if street < 2 else 2 * BB
        if street == 0:
            level, bets = BB, 1
            first = button if n == 2 else (button + 3) % n
        else:
            level, bets = 0, 0
            street_in[:] = 0
            first = (button + 1) % n
            for i in range(BOARD_SEEN[street - 1], BOARD_SEEN[street]):
                bkey += T.card_keys[board[i]]
                bsuited |= suited_bit(board[i])
            if street == 1:
                for k in range(n):
                    if not folded[k]:
                        saw_flop[k] = True
                        stats[k, S_FLOP] += 1
        if tabled and street == 1:
            _prefetch_weights(button, n_in, holes, board, needs_w, folded, work.rows, weights.tables)
        can_act = 0
        for k in range(n):
            need[k] = not folded[k] and stack[k] > 0
            can_act += need[k]
        if can_act == 0 or (can_act == 1 and street > 0):
            continue
        raises = 0
        full_raise = 0        # the largest raise this street: a raise at least this big reopens the betting
        short_sum = 0         # raises by all-in players since, smaller together than a full raise
        acted[:] = 0          # who has acted since the betting was last reopened
        j = first
        while n_in >= 2:
            found = False
            for step in range(n):
                if need[(j + step) % n]:
                    j = (j + step) % n
                    found = True
                    break
            if not found:
                break
            need[j] = False
            to_call = level - street_in[j]
            others = 0
            deep = 0          # others who could put in more than the current bet
            for k in range(n):
                if k != j and not folded[k] and stack[k] > 0:
                    others += 1
                    if street_in[k] + stack[k] > level:
                        deep += 1
            if to_call <= 0 and others == 0:
                j = (j + 1) % n
                continue
            can_raise = (bets < MAX_BETS and stack[j] > to_call and deep > 0 and to_call >= full_raise
                         and not (acted[j] and 0 < short_sum < full_raise))
            acted[j] = 1
            pot = 0
            for k in range(n):
                pot += contrib[k]
            position = (j - button) % n
            obs[O_STREET] = street
            obs[O_SEAT] = j
            obs[O_POSITION] = position
            obs[O_RAISES] = raises
            obs[O_RAISES_PREV] = raises_prev
            obs[O_PLAYERS] = n_in
            obs[O_POT] = pot / BB
            obs[O_TO_CALL] = max(to_call, 0) / BB
            obs[O_POT_ODDS] = max(to_call, 0) / (pot + max(to_call, 0))
            obs[O_SEATS] = n
            obs[O_CAN_RAISE] = 1.0 if can_raise else 0.0
            obs[O_POS_CLASS] = position_class(position, n)
            obs[O_NTH] = nth[j]
            nth[j] += 1
            h0, h1 = holes[j, 0], holes[j, 1]
            if street == 0:
                obs[O_CATEGORY] = 1.0 if (h0 >> 2) == (h1 >> 2) else 0.0
            elif kinds[j] == EVOLVED:          # only the gene tables read the hand's category after the flop
                obs[O_CATEGORY] = hand_value(bkey + T.card_keys[h0] + T.card_keys[h1],
                                             bsuited | suited_bit(h0) | suited_bit(h1), T) >> 12
            obs[O_WEIGHT] = _weight(j, position, street, n_in - 1, holes, board, weights, int(params[j, P_SAMPLES]),
                                    work, wcache, T) if needs_w[j] else 0.0
            if kinds[j] == EVOLVED and street > 0:
                a = gene_decision(genes[j], used[j], layout, obs)
            elif kinds[j] == RLCARD_V1:
                a = rlcard_v1(h0, h1, board, BOARD_SEEN[street], to_call > 0, can_raise)
            elif kinds[j] == CFR:
                if TREE_KIND[node] == CHANCE:
                    node = TREE_CHILD[node, 0]
                a = strategy_decision(seats.strategy, node, street, h0, h1, board, rng)
            else:
                a = decide(kinds[j], params[j], obs, group_tab[class_of(h0, h1)], rng)
            if a == FOLD and to_call <= 0:
                a = CALL
            capped = a == RAISE and not can_raise     # a raise the cap (or the stacks) turned into a call
            if capped:
                a = CALL
            if n == 2 and node >= 0:
                if TREE_KIND[node] == CHANCE:
                    node = TREE_CHILD[node, 0]
                node = TREE_CHILD[node, int(a)]
            if a == FOLD:
                folded[j] = True
                n_in -= 1
                n_log = _log(log, n_log, street, j, A_FOLD, 0, level)
            elif a == CALL:
                if to_call <= 0:
                    n_log = _log(log, n_log, street, j, A_CHECK, 0, level)
                else:
                    x = _put(j, to_call, stack, street_in, contrib)
                    n_log = _log(log, n_log, street, j, A_CALL, x, level)
                    if street == 0:
                        vpip[j] = True
                    elif not capped:              # the aggression factor counts the calls a player chose
                        stats[j, S_CALLS] += 1
            else:
                x = _put(j, level + bet - street_in[j], stack, street_in, contrib)
                raised = street_in[j] - level
                level = street_in[j]
                if raised >= full_raise:
                    acted[:] = 0
                    acted[j] = 1
                    full_raise = raised
                if stack[j] > 0:
                    short_sum = 0
                else:
                    short_sum += raised
                    if short_sum >= full_raise:
                        short_sum = 0
                n_log = _log(log, n_log, street, j, A_BET if bets == 0 else A_RAISE, x, level)
                bets += 1
                raises += 1
                if street == 0:
                    vpip[j] = True
                    pfr[j] = True
                else:
                    stats[j, S_AGGR] += 1
                for k in range(n):
                    if k != j and not folded[k] and stack[k] > 0:
                        need[k] = True
            j = (j + 1) % n
        raises_prev = raises
    return_uncalled(contrib, stack, returned)
    showdown = n_in >= 2
    if showdown:
        last_street = 3
        showdown_values(holes, board, folded, values, T)
    else:
        for k in range(n):
            values[k] = -1 if folded[k] else 0
    total = 0
    for k in range(n):
        total += contrib[k]
    rake = min(rake_cap, total * rake_bp // 10000) if last_street > 0 else 0
    n_pots = award(contrib, folded, values, button, rake, won, pots, pot_share)
    for k in range(n):
        net[k] = won[k] - contrib[k]
        stats[k, S_VPIP] += vpip[k]
        stats[k, S_PFR] += pfr[k]
        if showdown and not folded[k]:
            stats[k, S_WTSD] += saw_flop[k]
            stats[k, S_WSD] += saw_flop[k] and won[k] > 0
        if not showdown:
            values[k] = -1
    return n_log, rake, last_street, n_pots, showdown


@hand_kernel
def deal_hand(seed: int, h: int, n: int, duplicate: bool, cards: np.ndarray, holes: np.ndarray,
              board: np.ndarray, rng: np.ndarray, deck: np.ndarray) -> int:
    """Deal hand number ``h`` of a run: write the seats' hole cards and the board; return the button.

    The button is seat ``h mod n``.  Cards go by position: the ``p``-th seat left
    of the button gets the deal's ``p``-th pair, so under ``duplicate`` (the
    deal repeated for ``n`` consecutive hands) each position keeps its cards
    while the seats' policies move through the positions.
    """
    per = n if duplicate else 1
    seed_stream(rng, seed, h // per, DEAL_STREAM)
    for i in range(52):
        deck[i] = i
    for i in range(2 * n + 5):                  # a partial shuffle of the 52 cards
        cards[i] = stream_deal(rng, deck, i, 52)
    button = h % n
    for p in range(n):
        seat = (button + p) % n
        holes[seat, 0] = cards[2 * p]
        holes[seat, 1] = cards[2 * p + 1]
    for i in range(5):
        board[i] = cards[2 * n + i]
    return button
