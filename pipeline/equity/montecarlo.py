"""Monte Carlo equity kernel: every trial used, cost linear in the players.

A trial deals, in this order (the plan is built by :mod:`.plan`):

1. *fixed* players (one combo left) hold their cards in every trial;
2. *range* players draw a combo each from their weighted ranges (Walker's
   alias method, O(1) a draw), by the exact law of the enumeration whenever a
   list short enough allows it (:func:`.plan._lists`): ranges that share no
   card with another independently; colliding ranges as one row of the list of
   their assignments with no card shared, or as a row of all but the largest
   followed by the largest redrawn while he clashes with it (the rows weighing
   his choices), or all redrawn on a clash.  The counts then stay integers;
3. *deck* players (``random`` or any range holding every live combo at equal
   weight) and the missing board cards are dealt straight from the remaining
   cards, each a uniform live card (:func:`.dealing.deal_bits_block`, four
   cards to a generator output; with importance weights, from a partial
   Fisher–Yates shuffle of the deck).

Step 3 is exact as it stands: whatever the range players hold, every deck
player's completion count is the same, so dealing from the rest of the deck
is the conditional law the exact enumeration weighs.  When colliding ranges
have too many assignments to list, step 2 falls back on drawing the range
players in a random order, a player whose combo clashes with one drawn
earlier redrawing alone.  That samples player ``k`` from his range restricted
to the combos still available, so a trial with order ``o`` and combos ``c`` has
probability ``prod_k w_k(c_k) / A_k`` where ``A_k`` is the weight still available
to ``k`` at his turn.  The exact enumeration weighs the assignment
``prod_k w_k(c_k)``, so the trial carries the importance weight
``omega = prod_k A_k / W_k`` (``W_k`` his whole range's weight; sequential
importance sampling, as in Rosenbluth and Rosenbluth, J. Chem. Phys. 23, 1955)
and the estimate is the self-normalised ratio ``sum omega x / sum omega``,
whose standard error comes from the delta method.

Trials are dealt a block at a time and then evaluated player by player over
the block, so that the table lookups of different trials overlap in the CPU;
the evaluation and the deal are written out in the loop because a numba call
that passes the table arrays costs more than the lookups it makes (2x on
heads-up trials).  The lookups are scalar loads on every path: as AVX2 gathers,
eight trials a step, they ran at half the loads' rate (:func:`evaluate_bits_block`);
the deal is one stream of draws on every path.

Trials run in chunks; chunk ``i`` draws from its own xoroshiro128++ stream
seeded from ``(seed, i)`` (:mod:`pipeline.core.rng`), so a result depends on the seed and
the trial count, never on the threads or the SIMD path.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
from numba import njit

from ..core.bits import FAST_PDEP
from ..core.rng import chunk_state
from ..evaluator.kernels import (
    FLUSH_FLAGS,
    FLUSH_SLOTS,
    HASH_MASK,
    HASH_SHIFT,
    RANK_SUM_MASK,
    Tables,
    board_state,
    flush_shift,
    flush_suit,
)
from .dealing import LANES, card_lanes, deal_bits_block, deal_ranges_block, rank_bits
from .plan import DealPlan
from .scoring import SHARE_UNIT, equity_fraction, wins_ties_units

# counts (P, P) int64 of an unweighted chunk: column j the trials the player is one of exactly
# j + 1 winners (:mod:`.scoring`; ties, pot shares and their squares follow exactly)
# wsums (P, P + 2) float64 of a weighted chunk: columns 0..P-1 the sums of omega by number of
# winners as above, column P the sum of omega^2*x, column P + 1 of omega^2*x^2, where x is the
# pot share (0..1)
BLOCK = 256    # trials dealt, then evaluated, together
HS = np.uint64(HASH_SHIFT)
HM = np.uint64(HASH_MASK)
NO_FLUSH = np.uint64(FLUSH_SLOTS)   # where the rank table starts in the lookup table
RANKS13 = np.uint64(0x1FFF)


def deal_lanes(plan: DealPlan) -> Optional[np.ndarray]:
    """The ``lanes`` of :func:`monte_carlo_chunk` for ``plan``: where its trials take their card indexes at once
    (:func:`.dealing.deal_bits_block`), each card's count of live cards and Lemire's threshold for it
    (:func:`.dealing.card_lanes`), else None.  At once from six cards a trial up (a board alone ran 4% slower
    so: the three-way ranges, 18.8 against 18.1 ns a trial), at most :data:`~.dealing.LANES`; where ``pdep`` is
    slow (:data:`~pipeline.core.bits.FAST_PDEP`, whose absence the at-once deal spares most) from two cards up."""
    cards = 5 - plan.board.size + 2 * plan.dplayers.size
    if not plan.bits or not (5 if FAST_PDEP else 1) < cards <= LANES:
        return None
    return card_lanes(int(plan.live).bit_count() - 2 * (plan.listed.size + plan.alone.size), cards)


@njit(cache=True, nogil=True)
def monte_carlo_chunk(trials: int, seed: int, chunk: int, plan: DealPlan, counts: np.ndarray, wsums: np.ndarray,
                      wtot: np.ndarray, T: Tables, lookup: np.ndarray, offsets: np.ndarray,
                      lanes: Optional[np.ndarray]) -> None:
    """Run ``trials`` trials of chunk ``chunk`` of ``plan`` (:func:`.plan.plan_deal`; its own deck:
    :meth:`~.plan.DealPlan.for_chunk`, shuffled in place); add to ``counts`` (unweighted plans) or
    ``wsums``/``wtot`` (weighted plans: sums of omega and omega squared).  ``lookup`` and ``offsets`` are the
    tables that value the hands of plans dealt as bits (:func:`pipeline.evaluator.simd.lookup_values`,
    :func:`~pipeline.evaluator.simd.offsets32`); ``lanes`` is :func:`deal_lanes` of ``plan`` (None: the cards
    drawn one by one; numba compiles the kernel apart for each)."""
    s0, s1 = chunk_state(seed, chunk)
    hole_keys, hole_cards, board = plan.hole_keys, plan.hole_cards, plan.board
    P = hole_keys.size
    R = plan.rplayers.size
    bkey0, bsuit0, _ = board_state(board, np.uint64(0), T.card_keys)
    keys = np.empty((P, BLOCK), np.uint64)
    for p in range(P):
        keys[p, :] = hole_keys[p]
    bkeys = np.empty(BLOCK, np.uint64)
    omegas = np.ones(BLOCK, np.float64)
    values = np.empty((P, BLOCK), np.int32)
    top = np.empty(BLOCK, np.int32)         # the showdown's scratch
    holders = np.empty(BLOCK, np.int32)
    if plan.bits:       # cards as bits of the suited layout: keys and suited masks only
        suited = np.empty((P, BLOCK), np.uint64)
        for p in range(P):
            suited[p, :] = plan.hole_suited[p]
        bsuited = np.empty(BLOCK, np.uint64)
        pending = np.empty(BLOCK, np.int64)          # a player's trials holding a flush
        picks = np.empty((1 + plan.alone.size, BLOCK), np.int64)     # what each trial drew (the deal's rows)
        dkeys = np.empty((plan.dplayers.size, BLOCK), np.uint64)
        dsuited = np.empty((plan.dplayers.size, BLOCK), np.uint64)
        bit_keys = np.zeros(64, np.uint64)      # the key of the card at each bit of the suited layout
        for c in range(52):
            bit_keys[16 * (c & 3) + (c >> 2)] = T.card_keys[c]
        drawn = np.empty(LANES, np.uint32)
        by_rank = None if FAST_PDEP else rank_bits(plan.live)     # where pdep is slow: cards ranked at once
        done = 0
        while done < trials:
            nb = min(BLOCK, trials - done)
            done += nb
            s0, s1 = deal_bits_block(nb, s0, s1, plan.rplayers, plan.roffsets, plan.alias_prob, plan.alias_idx,
                                     plan.requal, plan.ckeys, plan.csuited, plan.listed, plan.rows, plan.row_mask,
                                     plan.row_prob, plan.row_alias, plan.row_cut, plan.row_total, plan.alone,
                                     plan.reject, plan.choices, plan.choice_count, plan.live,
                                     5 - board.size, plan.dplayers, bkey0, bsuit0, bkeys, bsuited, keys, suited,
                                     bit_keys, picks, dkeys, dsuited, lanes, drawn, by_rank)
            evaluate_bits_block(nb, bkeys, bsuited, keys, suited, values, lookup, offsets, pending)
            showdown_block(nb, values, omegas, False, counts, wsums, wtot, top, holders)
        return
    hole = np.empty((P, BLOCK, 2), np.uint8)
    for p in range(P):
        hole[p, :, 0] = hole_cards[p, 0]
        hole[p, :, 1] = hole_cards[p, 1]
    bcards = np.empty((BLOCK, 5), np.uint8)
    for i in range(board.size):
        bcards[:, i] = board[i]
    scratch = np.empty(3 * R + 1, np.int64)   # the range players' order and cards in a trial
    scratch[:R] = np.arange(R)
    done = 0
    while done < trials:
        nb = min(BLOCK, trials - done)
        done += nb
        s0, s1 = deal_ranges_block(nb, s0, s1, plan, bkey0, bkeys, bcards, keys, hole, omegas, scratch, T.card_keys)
        evaluate_block(nb, bkeys, bcards, keys, hole, values, T)
        showdown_block(nb, values, omegas, plan.weighted, counts, wsums, wtot, top, holders)


@njit(cache=True, nogil=True)
def evaluate_bits_block(nb: int, bkeys: np.ndarray, bsuited: np.ndarray, keys: np.ndarray, suited: np.ndarray,
                        values: np.ndarray, lookup: np.ndarray, offsets: np.ndarray, pending: np.ndarray) -> None:
    """:func:`evaluate_block` for cards kept as suited masks, on every path: each player's hands over the block
    valued first as hands without a flush, by the rank hash's two scalar lookups (``lookup`` is
    :func:`~pipeline.evaluator.simd.lookup_values`: the flush table, the rank table after it; ``offsets``
    :func:`~pipeline.evaluator.simd.offsets32`), the trials where his hand is a flush listed in ``pending``
    without a branch, then valued from their suit's 13 bits of the board's mask OR the player's.

    Measured per trial, deal included (AMD EPYC Zen 4, 2,000,000 trials, AVX2 and AVX-512 targets): six-way
    ranges 48.5-50.6 ns with the AVX2 gathers this replaced (two 8 x 32-bit gathers a player and 8 trials)
    against 45.1-46.5 ns, AA against five random hands 40.6-41.5 against 38.6-39.6, the three-way ranges
    25.3-26.1 against 24.1-25.2: the gathers ran at half the loads' rate, as in the seven-card evaluator.
    A branch on the flush was as fast on random boards, but mispredicts where flushes are common."""
    for p in range(keys.shape[0]):
        pk, ps, pv = keys[p], suited[p], values[p]
        count = 0
        for b in range(nb):
            key = bkeys[b] + pk[b]
            rs = key & RANK_SUM_MASK
            pv[b] = lookup[np.uint64(offsets[rs >> HS]) + (rs & HM) + NO_FLUSH]
            pending[count] = b
            count += (key & FLUSH_FLAGS) != 0
        for e in range(count):
            b = pending[e]
            pv[b] = lookup[((bsuited[b] | ps[b]) >> flush_shift(bkeys[b] + pk[b])) & RANKS13]


@njit(cache=True, nogil=True)
def evaluate_block(nb: int, bkeys: np.ndarray, bcards: np.ndarray, keys: np.ndarray, hole: np.ndarray,
                   values: np.ndarray, T: Tables) -> None:
    """``values[p, b]``: player ``p``'s hand value in trial ``b``, player by player over the
    block so that the table lookups of different trials overlap in the CPU."""
    rank_offsets, rank_values, flush_values = T.rank_offsets, T.rank_values, T.flush_values   # locals: registers
    for p in range(keys.shape[0]):
        for b in range(nb):
            # hand_value written out: a call passing the table arrays costs more than the lookup
            key = bkeys[b] + keys[p, b]
            if key & FLUSH_FLAGS:
                suit = flush_suit(key)     # rare: the flush suit's ranks from the cards
                ranks = 0
                for i in range(5):
                    c = bcards[b, i]
                    if c & 3 == suit:
                        ranks |= 1 << (c >> 2)
                for i in range(2):
                    c = hole[p, b, i]
                    if c & 3 == suit:
                        ranks |= 1 << (c >> 2)
                values[p, b] = flush_values[ranks]
            else:
                rs = key & RANK_SUM_MASK
                values[p, b] = rank_values[rank_offsets[rs >> HS] + (rs & HM)]


@njit(cache=True, nogil=True)
def showdown_block(nb: int, values: np.ndarray, omegas: np.ndarray, weighted: bool, counts: np.ndarray,
                   wsums: np.ndarray, wtot: np.ndarray, top: np.ndarray, holders: np.ndarray) -> None:
    """Each trial's showdown: the best value, then who holds it; added to ``counts`` (or to
    ``wsums``/``wtot`` with the trial's importance weight).  ``top`` and ``holders`` (int32, a block's
    length) are the caller's scratch, made once a chunk rather than twice a block."""
    P = values.shape[0]
    if P == 2 and not weighted:     # heads-up: no branches, three sums
        first = 0
        second = 0
        for b in range(nb):
            first += values[0, b] > values[1, b]
            second += values[1, b] > values[0, b]
        counts[0, 0] += first
        counts[1, 0] += second
        counts[0, 1] += nb - first - second
        counts[1, 1] += nb - first - second
        return
    if not weighted:    # player by player over the block: loops the compiler vectorizes
        # top: the best value so far; holders: how many hold it
        for b in range(nb):
            top[b] = values[0, b]
            holders[b] = 1
        for p in range(1, P):
            for b in range(nb):
                v, t = values[p, b], top[b]
                holders[b] = 1 if v > t else holders[b] + (v == t)
                top[b] = max(t, v)
        for p in range(P):  # won alone or split two ways: one pass, no branch (AK vs AK chops 1 in 3)
            alone = 0
            two = 0
            for b in range(nb):
                best = values[p, b] == top[b]
                alone += best & (holders[b] == 1)
                two += best & (holders[b] == 2)
            counts[p, 0] += alone
            counts[p, 1] += two
        for b in range(nb):             # the rarer pots shared three ways or more
            if holders[b] > 2:
                for p in range(P):
                    if values[p, b] == top[b]:
                        counts[p, holders[b] - 1] += 1
        return
    for b in range(nb):
        omega = omegas[b]
        if omega == 0.0:
            continue
        best = values[0, b]
        for p in range(1, P):
            best = max(best, values[p, b])
        nbest = 0
        winner = 0
        for p in range(P):
            if values[p, b] == best:
                nbest += 1
                winner = p
        if weighted:
            wtot[0] += omega
            wtot[1] += omega * omega
            x = 1.0 / nbest
            for p in range(P):
                if values[p, b] == best:
                    wsums[p, nbest - 1] += omega
                    wsums[p, P] += omega * omega * x
                    wsums[p, P + 1] += omega * omega * x * x
        elif nbest == 1:
            counts[winner, 0] += 1
        else:
            for p in range(P):
                if values[p, b] == best:
                    counts[p, nbest - 1] += 1


class MonteCarloTotals:
    """Running totals of merged chunks and the estimates derived from them.

    Unweighted runs add integer counts (Python ints: no overflow however many
    trials); weighted runs add float sums of omega.  Each player's standard
    error is the sample one, for weighted runs by the delta method for a ratio
    estimator: ``sum omega^2 (x - mean)^2 / (sum omega)^2``; NaN after one trial,
    whose sample has no spread to tell it (0 would claim an error it cannot know).
    """

    def __init__(self, players: int, weighted: bool):
        self.weighted = weighted
        self.trials = 0
        self.counts = [[0] * players for _ in range(players)]
        self.wsums = np.zeros((players, players + 2), np.float64)
        self.wtot = np.zeros(2, np.float64)

    def add(self, trials: int, counts: np.ndarray, wsums: np.ndarray, wtot: np.ndarray) -> None:
        self.trials += int(trials)
        if self.weighted:
            self.wsums += wsums
            self.wtot += wtot
        else:
            for mine, got in zip(self.counts, counts.tolist()):
                for k in range(len(mine)):
                    mine[k] += got[k]

    def player(self, p: int) -> tuple[float, float, float, None, None, None, float, list]:
        """``(win, tie, equity, None, None, None, stderr, shares)`` of player ``p`` (PlayerEquity's
        fields): ``shares`` by number of winners, integers for unweighted runs, else the weighted
        sums scaled to the trials."""
        P = len(self.counts)
        if self.weighted:
            s = self.wtot[0]
            if s <= 0.0:
                return (float("nan"),) * 3 + (None,) * 3 + (float("nan"), [float("nan")] * P)
            w = self.wsums[p]
            mean = sum(w[j] / (j + 1) for j in range(P)) / s
            var = max(w[P + 1] - 2 * mean * w[P] + mean * mean * self.wtot[1], 0.0) / (s * s) \
                if self.trials > 1 else math.nan
            return (float(w[0] / s), float(w[1:P].sum() / s), float(mean), None, None, None, float(np.sqrt(var)),
                    [float(w[j] * self.trials / s) for j in range(P)])
        n = self.trials
        row = self.counts[p]
        wins, ties, shares = wins_ties_units(row)
        sq = sum(m * (SHARE_UNIT // (j + 1)) ** 2 for j, m in enumerate(row))
        mean = equity_fraction(wins, shares, n)
        var = max(sq / SHARE_UNIT**2 / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else math.nan
        return (wins / n, ties / n, float(mean), None, None, None, float(np.sqrt(var / n)), list(row))

    def max_stderr(self) -> float:
        """The largest standard error over the players."""
        return max(self.player(p)[6] for p in range(len(self.counts)))
