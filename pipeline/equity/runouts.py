"""Exact equity after the flop by runouts: each runout's hand values computed once and shared by every deal.

On a flop, turn or river the board is mostly known and the ranges are what
vary.  The combo-by-combo enumeration (:mod:`.exact`) scores every runout of
every combo assignment, so a hand against a range of 60 combos evaluates the
hand 60 times on each runout.  Here the loops are the other way round, as
range-versus-range tools do it:

1. the runouts (the missing turn and river cards) are enumerated once, up to
   the suit permutations that fix the board, the dead cards and every range
   with its weights (:func:`range_symmetries`): each canonical runout stands
   for its orbit, counted by multiplicity (``AhKh`` against ``22+`` on
   ``Qh7h2c`` keeps diamonds and spades interchangeable: 564 runouts of 1,081);
2. on a runout, every combo of every range that does not touch it is valued
   once (one key sum, one lookup) into a value table;
3. the combo assignments with no card shared (listed once, with their card
   masks and weight products) are scored from that table: an assignment
   touching the runout is skipped by one mask test, the others compare
   ``P`` table entries.

Heads-up with two large ranges the assignment list would be long (a
thousand combos each: a million pairs), so two players are counted instead
by a sweep (:func:`.runout_sweep._sweep_two`): both ranges' live combos in order of value,
running totals of the other player's combos below and equal, less those
sharing a card with the hand (per-card totals) plus the identical combo —
inclusion–exclusion over the two cards, linear after the sort.

The counts are the integers of :mod:`.exact` (by number of winners, over
every assignment and board), checked equal to it and to a plain brute force
in ``tests/equity/test_runouts.py``.
"""
from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np
from numba import njit

from ..evaluator.kernels import (
    FLUSH_FLAGS,
    RANK_KEYS,
    RANK_SUM_MASK,
    Tables,
    board_state,
    flush_suit,
    suit_ranks,
    suited_bit,
)
from ..ranges.syntax import Range
from .exact import _walk
from .ranksets import HM, HS
from .runout_sweep import _sweep_pays, _sweep_two, _twins
from .runout_symmetries import canonical_runouts, range_symmetries

MAX_LISTED = 1 << 23          # combo assignments listed at most (times players: 4 bytes each)


class RunoutPlan(NamedTuple):
    """One exact postflop question as arrays for the kernels."""

    board: np.ndarray       # (b,) int64 known board cards
    runouts: np.ndarray     # (R, 5 - b) int64 canonical runouts
    mult: np.ndarray        # (R,) int64 size of each runout's orbit
    combos: np.ndarray      # (N, 2) int64 every player's combos, player by player
    masks: np.ndarray       # (N,) uint64
    weights: np.ndarray     # (N,) float64
    offsets: np.ndarray     # (P + 1,) int64
    assign: np.ndarray      # (A, P) int32 rows of combos with no card shared; (0, P) when swept
    amask: np.ndarray       # (A,) uint64 cards of each assignment
    aweight: np.ndarray     # (A,) float64 weight product of each assignment
    twin: np.ndarray        # (N,) int64 heads-up: the other player's combo of the same two cards, or -1
    # assignments grouped by the players' rank pairs, for runouts on which nobody can make a flush:
    group_rp: np.ndarray    # (G, P) int64 each player's rank pair (slot in pair_ranks)
    group_n: np.ndarray     # (G, 3) float64: assignments, weight sum (col 2 unused)
    group_card: np.ndarray  # (52, G, 2) float64: of them, those holding a card (count, weight)
    group_pair: np.ndarray  # (52, 52, G, 1 | 2) float64: those holding two given cards, the lower id first
    #                         (flop: two-card runouts); count, and weight unless every weight is 1;
    #                         card-major, so one runout reads its groups' entries from consecutive memory
    pair_ranks: np.ndarray  # (U, 2) int64 the distinct rank pairs of the groups


def plan(ranges: list[Range], board: list[int], dead: list[int], used: int) -> Optional[RunoutPlan]:
    """The arrays of an exact postflop run, or None when its assignment list would be too long to hold
    (three or more players with large ranges: :mod:`.exact` streams those)."""
    P = len(ranges)
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    masks = np.ascontiguousarray(np.concatenate([r.masks for r in ranges]).astype(np.uint64))
    weights = np.ascontiguousarray(np.concatenate([r.weights for r in ranges]).astype(np.float64))
    offsets = np.cumsum([0] + [len(r) for r in ranges]).astype(np.int64)
    sizes = [len(r) for r in ranges]
    if P == 2 and min(sizes) > 1 and _sweep_pays(sizes[0], sizes[1]):
        assign = np.zeros((0, P), np.int32)
    else:
        if math.prod(sizes) * P > MAX_LISTED:
            return None
        rows = np.empty((math.prod(sizes), P), np.int64)
        n = _walk(masks, offsets, np.uint64(used), rows, True, -1)
        assign = rows[:n].astype(np.int32)
    amask = np.bitwise_or.reduce(masks[assign], axis=1) if len(assign) else np.zeros(0, np.uint64)
    aweight = np.prod(weights[assign], axis=1) if len(assign) else np.zeros(0, np.float64)
    twin = _twins(combos, offsets) if P == 2 else np.full(len(combos), -1, np.int64)
    held = used                               # the cards of every combo of some player (a fixed hand's)
    for r in ranges:
        held |= int(np.bitwise_and.reduce(r.masks))
    live = np.array([c for c in range(52) if not held >> c & 1], np.int64)
    runouts, mult = canonical_runouts(live, 5 - len(board), range_symmetries(ranges, board, dead))
    return RunoutPlan(np.array(board, np.int64), runouts, mult, combos, masks, weights, offsets,
                      np.ascontiguousarray(assign), np.ascontiguousarray(amask, np.uint64),
                      np.ascontiguousarray(aweight, np.float64), twin,
                      *_groups(combos, assign, weights, 5 - len(board)))


MAX_GROUP_CELLS = 1 << 24     # float64 cells of the per-group pair counts at most (128 MiB)


def _groups(combos: np.ndarray, assign: np.ndarray, weights: np.ndarray, k: int) -> tuple:
    """The listed assignments grouped by every player's rank pair, with their counts and weights, overall, per
    card and per pair of cards: on a runout where no flush is possible a combo's value depends on its ranks
    alone, so a group is scored once, for as many assignments as miss the runout's cards (inclusion–exclusion
    over the one or two runout cards).  Empty (no groups) when there is nothing to list, when grouping saves
    little, or when the pair counts would not fit.
    """
    P = assign.shape[1]
    empty = (np.zeros((0, P), np.int64), np.zeros((0, 3)), np.zeros((52, 0, 2)), np.zeros((52, 52, 0, 2)),
             np.zeros((0, 2), np.int64))
    if len(assign) == 0 or k == 0 or P > 8:
        return empty
    ranks = combos >> 2
    pair = 13 * ranks.max(axis=1) + ranks.min(axis=1)                  # (N,) 0..168
    code = np.zeros(len(assign), np.int64)
    for q in range(P):
        code = code * 169 + pair[assign[:, q]]
    codes, group = np.unique(code, return_inverse=True)
    G = len(codes)
    if G * 52 * 52 * 2 * (k == 2) > MAX_GROUP_CELLS or G * 4 > len(assign):
        return empty
    rows = np.empty((G, P), np.int64)
    rest = codes.copy()
    for q in range(P - 1, -1, -1):
        rows[:, q] = rest % 169
        rest //= 169
    n = np.zeros((G, 3))
    card = np.zeros((52, G, 2))
    unit = bool(np.all(weights[assign] == 1.0))       # then the pairs' weights are their counts: one channel
    pairs = np.zeros((52, 52, G, 1 if unit else 2) if k == 2 else (52, 52, 0, 2))
    _fill_groups(assign, combos, weights, group.ravel().astype(np.int64), n, card, pairs, k == 2)
    distinct, slot = np.unique(rows, return_inverse=True)
    pair_ranks = np.stack([distinct // 13, distinct % 13], axis=1).astype(np.int64)
    return slot.reshape(G, P).astype(np.int64), n, card, pairs, pair_ranks


@njit(cache=True, nogil=True)
def _fill_groups(assign: np.ndarray, combos: np.ndarray, weights: np.ndarray, group: np.ndarray, n: np.ndarray,
                 card: np.ndarray, pairs: np.ndarray, two: bool) -> None:
    A, P = assign.shape
    cards = np.empty(2 * P, np.int64)
    for a in range(A):
        g = group[a]
        w = 1.0
        for q in range(P):
            i = assign[a, q]
            w *= weights[i]
            cards[2 * q] = combos[i, 0]
            cards[2 * q + 1] = combos[i, 1]
        n[g, 0] += 1.0
        n[g, 1] += w
        for x in range(2 * P):
            card[cards[x], g, 0] += 1.0
            card[cards[x], g, 1] += w
            if two:                          # the runout's two cards come in ascending order: one order kept
                for y in range(2 * P):
                    if cards[x] < cards[y]:
                        pairs[cards[x], cards[y], g, 0] += 1.0
                        if pairs.shape[3] > 1:
                            pairs[cards[x], cards[y], g, 1] += w


@njit(cache=True, nogil=True)
def runout_counts(lo: int, hi: int, p: RunoutPlan, dead_mask: np.uint64, counts: np.ndarray, wcounts: np.ndarray,
                  T: Tables) -> tuple:
    """Score runouts ``lo .. hi-1`` of the plan: adds to ``counts`` (P, P) int64 and ``wcounts`` (P, P)
    float64 by number of winners (:mod:`.scoring`), each runout weighted by its multiplicity; returns
    ``(boards, weighted boards)`` — assignments times boards, as :func:`.exact.exact_counts` counts them."""
    P = p.offsets.size - 1
    N = p.combos.shape[0]
    K = T.card_keys
    rank_offsets, rank_values, flush_values = T.rank_offsets, T.rank_values, T.flush_values  # locals: registers
    masks = p.masks
    bkey, bsuited, _ = board_state(p.board, dead_mask, K)
    values = np.empty(N, np.int32)
    ckeys = np.empty(N, np.uint64)
    csuited = np.empty(N, np.uint64)
    for i in range(N):
        c1, c2 = p.combos[i, 0], p.combos[i, 1]
        ckeys[i] = K[c1] + K[c2]
        csuited[i] = suited_bit(c1) | suited_bit(c2)
    vals = np.empty(P, np.int32)
    local = np.zeros((P, P), np.int64)
    wlocal = np.zeros((P, P))
    unit = True
    for i in range(N):
        if p.weights[i] != 1.0:
            unit = False
    start_counts = counts.copy()
    start_w = wcounts.copy()
    card_all = np.zeros((2, 2, 52))
    card_below = np.zeros((2, 2, 52))
    card_eq = np.zeros((2, 2, 52))
    boards = 0
    wboards = 0.0
    k = p.runouts.shape[1]
    board_suits = np.zeros(4, np.int64)
    for c in p.board:
        board_suits[c & 3] += 1
    G = p.group_rp.shape[0]
    U = p.pair_ranks.shape[0]
    pair_values = np.empty(U, np.int32)
    for r in range(lo, hi):
        key = bkey
        suited = bsuited
        rmask = np.uint64(0)
        most = 0
        for j in range(k):
            c = p.runouts[r, j]
            key += K[c]
            suited |= suited_bit(c)
            rmask |= np.uint64(1) << np.uint64(c)
        for s in range(4):
            n_s = board_suits[s]
            for j in range(k):
                n_s += (p.runouts[r, j] & 3) == s
            most = max(most, n_s)
        m = p.mult[r]
        if G > 0 and most < 3:                # nobody can make a flush: values by rank pair, assignments by group
            rs0 = key & RANK_SUM_MASK
            for u in range(U):
                rs = rs0 + RANK_KEYS[p.pair_ranks[u, 0]] + RANK_KEYS[p.pair_ranks[u, 1]]
                pair_values[u] = rank_values[rank_offsets[rs >> HS] + (rs & HM)]
            a1 = p.runouts[r, 0]
            a2 = p.runouts[r, k - 1]
            nb, wb = _groups_on(p, pair_values, a1, a2, k, vals, local, wlocal)
            boards += m * int(round(nb))
            wboards += m * wb
            for q in range(P):
                for j in range(P):
                    counts[q, j] += m * local[q, j]
                    wcounts[q, j] += m * wlocal[q, j]
                    local[q, j] = 0
                    wlocal[q, j] = 0.0
            continue
        for i in range(N):
            if masks[i] & rmask:
                values[i] = -1
            else:
                hk = key + ckeys[i]
                if hk & FLUSH_FLAGS:
                    values[i] = flush_values[suit_ranks(suited | csuited[i], flush_suit(hk))]
                else:
                    rs = hk & RANK_SUM_MASK
                    values[i] = rank_values[rank_offsets[rs >> HS] + (rs & HM)]
        if p.assign.shape[0] == 0:
            nb, wb = _sweep_two(values, p, m, counts, wcounts, card_all, card_below, card_eq)
            boards += nb
            wboards += wb
            continue
        if P == 2 and unit:
            nb = _two_unit(values, p.assign, p.amask, rmask, local)
        elif P == 3 and unit:
            nb = _three_unit(values, p.assign, p.amask, rmask, local)
        else:
            nb, wb = _any(values, p.assign, p.amask, p.aweight, rmask, local, wlocal, vals)
            wboards += m * wb
        boards += m * nb
        for q in range(P):
            for j in range(P):
                counts[q, j] += m * local[q, j]
                if not unit:
                    wcounts[q, j] += m * wlocal[q, j]
                local[q, j] = 0
                wlocal[q, j] = 0.0
    if unit:                                     # every weight 1: the weighted sums are the counts
        for q in range(P):
            for j in range(P):
                wcounts[q, j] = start_w[q, j] + (counts[q, j] - start_counts[q, j])
        wboards = float(boards)
    return boards, wboards


@njit(cache=True, nogil=True, inline="always")
def _credit(vals: np.ndarray, local: np.ndarray, wlocal: np.ndarray, count: int, w: float) -> None:
    """One showdown of ``vals`` (P,) standing for ``count`` deals of weight ``w``: each holder of the best value
    gains them in the column of the number of holders less one (:mod:`.scoring`)."""
    best = vals[0]
    nbest = 1
    for q in range(1, vals.size):
        if vals[q] > best:
            best = vals[q]
            nbest = 1
        elif vals[q] == best:
            nbest += 1
    for q in range(vals.size):
        if vals[q] == best:
            local[q, nbest - 1] += count
            wlocal[q, nbest - 1] += w


@njit(cache=True, nogil=True)
def _groups_on(p: RunoutPlan, pair_values: np.ndarray, a1: int, a2: int, k: int, vals: np.ndarray,
               local: np.ndarray, wlocal: np.ndarray) -> tuple:
    """Every group on one flush-free runout of cards ``a1``, ``a2`` (the same card on a turn): the assignments
    that miss both cards (inclusion–exclusion), scored once per group; returns (assignments, weight)."""
    P = p.group_rp.shape[1]
    total = 0.0
    wtotal = 0.0
    for g in range(p.group_rp.shape[0]):
        n = p.group_n[g, 0] - p.group_card[a1, g, 0]
        w = p.group_n[g, 1] - p.group_card[a1, g, 1]
        if k == 2:
            both = p.group_pair[a1, a2, g, 0]          # a1 < a2: runouts are ascending
            n += both - p.group_card[a2, g, 0]
            w += (both if p.group_pair.shape[3] == 1 else p.group_pair[a1, a2, g, 1]) - p.group_card[a2, g, 1]
        if n < 0.5:
            continue
        for q in range(P):
            vals[q] = pair_values[p.group_rp[g, q]]
        _credit(vals, local, wlocal, int(round(n)), w)
        total += n
        wtotal += w
    return total, wtotal


@njit(cache=True, nogil=True)
def _two_unit(values: np.ndarray, assign: np.ndarray, amask: np.ndarray, rmask: np.uint64,
              local: np.ndarray) -> int:
    """Heads-up pairs of unit weight on one runout, into ``local`` (2, 2); returns the pairs scored."""
    w0 = w1 = t = n = 0
    for a in range(assign.shape[0]):
        if amask[a] & rmask:
            continue
        v0 = values[assign[a, 0]]
        v1 = values[assign[a, 1]]
        w0 += v0 > v1
        w1 += v1 > v0
        t += v0 == v1
        n += 1
    local[0, 0] += w0
    local[1, 0] += w1
    local[0, 1] += t
    local[1, 1] += t
    return n


@njit(cache=True, nogil=True)
def _three_unit(values: np.ndarray, assign: np.ndarray, amask: np.ndarray, rmask: np.uint64,
                local: np.ndarray) -> int:
    """Three-way assignments of unit weight on one runout, into ``local`` (3, 3); returns how many."""
    s0 = s1 = s2 = d01 = d02 = d12 = t = n = 0
    for a in range(assign.shape[0]):
        if amask[a] & rmask:                  # a branch: measured faster here than adding zeros (0.63 vs 0.87 ms)
            continue
        v0 = values[assign[a, 0]]
        v1 = values[assign[a, 1]]
        v2 = values[assign[a, 2]]
        best = max(v0, max(v1, v2))
        b0 = v0 == best
        b1 = v1 == best
        b2 = v2 == best
        k = b0 + b1 + b2
        s0 += b0 & (k == 1)
        s1 += b1 & (k == 1)
        s2 += b2 & (k == 1)
        d01 += b0 & b1 & (k == 2)
        d02 += b0 & b2 & (k == 2)
        d12 += b1 & b2 & (k == 2)
        t += k == 3
        n += 1
    local[0, 0] += s0
    local[1, 0] += s1
    local[2, 0] += s2
    local[0, 1] += d01 + d02
    local[1, 1] += d01 + d12
    local[2, 1] += d02 + d12
    local[0, 2] += t
    local[1, 2] += t
    local[2, 2] += t
    return n


@njit(cache=True, nogil=True)
def _any(values: np.ndarray, assign: np.ndarray, amask: np.ndarray, aweight: np.ndarray, rmask: np.uint64,
         local: np.ndarray, wlocal: np.ndarray, vals: np.ndarray) -> tuple:
    """Any number of players, any weights, on one runout; returns (assignments, their weight)."""
    P = assign.shape[1]
    n = 0
    wn = 0.0
    for a in range(assign.shape[0]):
        if amask[a] & rmask:
            continue
        for q in range(P):
            vals[q] = values[assign[a, q]]
        w = aweight[a]
        _credit(vals, local, wlocal, 1, w)
        n += 1
        wn += w
    return n, wn
