"""Monte Carlo equity kernel: every trial used, cost linear in the players.

A trial deals, in this order (the plan is built by :mod:`.deal`):

1. *fixed* players (one combo left) hold their cards in every trial;
2. *range* players draw a combo each, in a random order, from their weighted
   range (Walker's alias method, O(1) a draw); a combo that shares a card
   with one drawn earlier in the trial is redrawn for that player alone;
3. *deck* players (``random`` or any range holding every live combo at equal
   weight) and the missing board cards are dealt straight from the remaining
   deck by a partial Fisher–Yates shuffle.

Step 3 is exact as it stands: whatever the range players hold, every deck
player's completion count is the same, so dealing from the rest of the deck
is the conditional law the exact enumeration weighs.  Step 2 is not: redrawing
player ``k`` samples from his range restricted to the combos still available,
so a trial with order ``o`` and combos ``c`` has probability
``prod_k w_k(c_k) / A_k`` where ``A_k`` is the weight still available to ``k``
at his turn.  The exact enumeration weighs the assignment ``prod_k w_k(c_k)``,
so the trial carries the importance weight ``omega = prod_k A_k / W_k``
(``W_k`` his whole range's weight; sequential importance sampling, as in
Rosenbluth and Rosenbluth, J. Chem. Phys. 23, 1955) and the estimate is the
self-normalised ratio ``sum omega x / sum omega``, whose standard error comes
from the delta method.  When no two range players can share a card, ``omega``
is always 1 and the counts stay integers.

Trials are dealt a block at a time and then evaluated player by player over
the block, so that the table lookups of different trials overlap in the CPU;
the evaluation and the deal are written out in the loop because a numba call
that passes the table arrays costs more than the lookups it makes (2x on
heads-up trials).

Trials run in chunks; chunk ``i`` draws from its own xoroshiro128++ stream
seeded from ``(seed, i)`` (:mod:`.rng`), so a result depends on the seed and
the trial count, never on the threads.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluator.kernels import (
    FLUSH_FLAGS,
    HASH_MASK,
    HASH_SHIFT,
    RANK_SUM_MASK,
    board_state,
    flush_suit,
    suit_ranks,
    suited_bit,
)
from .rng import below, chunk_state, uniform
from .scoring import SHARE_UNIT, equity_fraction

# counts (P, 11) int64 of an unweighted chunk: column 0 sole wins, column k = 2..10 the
# k-way ties (from which ties, pot shares and their squares follow exactly)
# wsums (P, 5) float64 columns of a weighted chunk: sums of omega*win, omega*tie,
# omega*x, omega^2*x, omega^2*x^2 where x is the pot share (0..1)
W_WIN, W_TIE, W_X, W_W2X, W_W2X2 = 0, 1, 2, 3, 4
BLOCK = 256    # trials dealt, then evaluated, together
HS = np.uint64(HASH_SHIFT)
HM = np.uint64(HASH_MASK)


@njit(cache=True, nogil=True)
def monte_carlo_chunk(trials: int, seed: int, chunk: int,
                      hole_keys: np.ndarray, hole_suited: np.ndarray, base_used: np.uint64,
                      board: np.ndarray, deck: np.ndarray,
                      rplayers: np.ndarray, roffsets: np.ndarray, rcombos: np.ndarray,
                      rmasks: np.ndarray, rweights: np.ndarray, rtotal: np.ndarray,
                      alias_prob: np.ndarray, alias_idx: np.ndarray, weighted: bool,
                      dplayers: np.ndarray, requal: np.ndarray, card_weight: np.ndarray,
                      pair_weight: np.ndarray, counts: np.ndarray, wsums: np.ndarray, wtot: np.ndarray,
                      card_keys: np.ndarray, rank_offsets: np.ndarray, rank_values: np.ndarray,
                      flush_values: np.ndarray) -> None:
    """Run ``trials`` trials of chunk ``chunk``; add to ``counts`` (unweighted plans) or
    ``wsums``/``wtot`` (weighted plans: sums of omega and omega squared).  The plan's
    arrays come from :meth:`.deal.DealPlan.kernel_args`.

    ``hole_keys``/``hole_suited`` (P,) hold the fixed players' cards (zero for
    the others) and are used as scratch; ``deck`` (live cards not in
    ``base_used``) is shuffled in place.
    """
    s0, s1 = chunk_state(seed, chunk)
    P = hole_keys.size
    R = rplayers.size
    D = dplayers.size
    missing = 5 - board.size
    L = deck.size
    bkey0, bsuited0, _ = board_state(board, np.uint64(0), card_keys)
    order = np.arange(R)
    held = np.empty(2 * R, np.int64)      # cards of the range players drawn so far in a trial
    # one block of trials at a time: deal them all, then evaluate player by player over
    # the block, so the table lookups of different trials overlap in the CPU
    keys = np.empty((P, BLOCK), np.uint64)
    suits = np.empty((P, BLOCK), np.uint64)
    for p in range(P):
        keys[p, :] = hole_keys[p]
        suits[p, :] = hole_suited[p]
    bkeys = np.empty(BLOCK, np.uint64)
    bsuits = np.empty(BLOCK, np.uint64)
    omegas = np.empty(BLOCK, np.float64)
    values = np.empty((P, BLOCK), np.int32)
    one = np.uint64(1)
    done = 0
    while done < trials:
        nb = min(BLOCK, trials - done)
        done += nb
        for b in range(nb):
            taken = base_used
            omega = 1.0
            # 2. range players, in random order when their draws can collide
            if weighted:
                for k in range(R - 1, 0, -1):
                    s0, s1, j = below(s0, s1, k + 1)
                    order[k], order[j] = order[j], order[k]
            for q in range(R):
                k = order[q]
                lo, hi = roffsets[k], roffsets[k + 1]
                avail = rtotal[k]
                if weighted and q > 0:
                    # weight still available: inclusion-exclusion over the cards held so far,
                    # recounted combo by combo when cancellation leaves too little to trust
                    for a in range(2 * q):
                        avail -= card_weight[k, held[a]]
                        for b2 in range(a):
                            avail += pair_weight[k, held[a], held[b2]]
                    if avail < 1e-9 * rtotal[k]:
                        avail = 0.0
                        for i in range(lo, hi):
                            if not rmasks[i] & taken:
                                avail += rweights[i]
                    if avail <= 0.0:
                        omega = 0.0
                        break
                    omega *= avail / rtotal[k]
                n = hi - lo
                got = -1
                for _try in range(64):
                    s0, s1, i = below(s0, s1, n)
                    if not requal[k]:
                        s0, s1, u = uniform(s0, s1)
                        if u >= alias_prob[lo + i]:
                            i = alias_idx[lo + i]
                    i += lo
                    if not rmasks[i] & taken:
                        got = i
                        break
                if got < 0:       # heavily blocked: draw from the available combos by a scan
                    s0, s1, u = uniform(s0, s1)
                    u *= avail
                    for i in range(lo, hi):
                        if not rmasks[i] & taken:
                            got = i
                            u -= rweights[i]
                            if u < 0.0:
                                break
                taken |= rmasks[got]
                c1, c2 = rcombos[got, 0], rcombos[got, 1]
                held[2 * q] = c1
                held[2 * q + 1] = c2
                p = rplayers[k]
                keys[p, b] = card_keys[c1] + card_keys[c2]
                suits[p, b] = suited_bit(c1) | suited_bit(c2)
            omegas[b] = omega
            if omega == 0.0:      # no combo left for a range player: a trial of weight zero
                bkeys[b] = bkey0
                bsuits[b] = bsuited0
                continue
            # 3. the board, then the deck players, from what is left of the deck
            pos = 0
            bkey = bkey0
            bsuited = bsuited0
            for _d in range(missing):
                while True:   # partial Fisher-Yates: the next card left in the deck
                    s0, s1, j = below(s0, s1, L - pos)
                    j += pos
                    c = deck[j]
                    deck[j] = deck[pos]
                    deck[pos] = c
                    pos += 1
                    if R == 0 or not (taken >> np.uint64(c)) & one:
                        break
                bkey += card_keys[c]
                bsuited |= suited_bit(c)
            bkeys[b] = bkey
            bsuits[b] = bsuited
            for q in range(D):
                p = dplayers[q]
                while True:   # partial Fisher-Yates: the next card left in the deck
                    s0, s1, j = below(s0, s1, L - pos)
                    j += pos
                    c = deck[j]
                    deck[j] = deck[pos]
                    deck[pos] = c
                    pos += 1
                    if R == 0 or not (taken >> np.uint64(c)) & one:
                        break
                while True:   # partial Fisher-Yates: the next card left in the deck
                    s0, s1, j = below(s0, s1, L - pos)
                    j += pos
                    c2 = deck[j]
                    deck[j] = deck[pos]
                    deck[pos] = c2
                    pos += 1
                    if R == 0 or not (taken >> np.uint64(c2)) & one:
                        break
                keys[p, b] = card_keys[c] + card_keys[c2]
                suits[p, b] = suited_bit(c) | suited_bit(c2)
        for p in range(P):
            for b in range(nb):
                # hand_value written out: a call passing the table arrays costs more than the lookup
                key = bkeys[b] + keys[p, b]
                if key & FLUSH_FLAGS:
                    values[p, b] = flush_values[suit_ranks(bsuits[b] | suits[p, b], flush_suit(key))]
                else:
                    rs = key & RANK_SUM_MASK
                    values[p, b] = rank_values[rank_offsets[rs >> HS] + (rs & HM)]
        # showdowns: the best value, then who holds it
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
                        wsums[p, W_WIN if nbest == 1 else W_TIE] += omega
                        wsums[p, W_X] += omega * x
                        wsums[p, W_W2X] += omega * omega * x
                        wsums[p, W_W2X2] += omega * omega * x * x
            elif nbest == 1:
                counts[winner, 0] += 1
            else:
                for p in range(P):
                    if values[p, b] == best:
                        counts[p, nbest] += 1


class MonteCarloTotals:
    """Running totals of merged chunks and the estimates derived from them.

    Unweighted runs add integer counts (Python ints: no overflow however many
    trials); weighted runs add float sums of omega.  Each player's standard
    error is the sample one, for weighted runs by the delta method for a ratio
    estimator: ``sum omega^2 (x - mean)^2 / (sum omega)^2``.
    """

    def __init__(self, players: int, weighted: bool):
        self.weighted = weighted
        self.trials = 0
        self.counts = [[0] * 11 for _ in range(players)]
        self.wsums = np.zeros((players, 5), np.float64)
        self.wtot = np.zeros(2, np.float64)

    def add(self, trials: int, counts: np.ndarray, wsums: np.ndarray, wtot: np.ndarray) -> None:
        self.trials += int(trials)
        if self.weighted:
            self.wsums += wsums
            self.wtot += wtot
        else:
            for mine, got in zip(self.counts, counts.tolist()):
                for k in range(11):
                    mine[k] += got[k]

    def player(self, p: int) -> tuple[float, float, float, None, None, None, float]:
        """``(win, tie, equity, None, None, None, stderr)`` of player ``p`` (PlayerEquity's fields)."""
        if self.weighted:
            s = self.wtot[0]
            if s <= 0.0:
                return (float("nan"),) * 3 + (None,) * 3 + (float("nan"),)
            w = self.wsums[p]
            mean = w[W_X] / s
            var = max(w[W_W2X2] - 2 * mean * w[W_W2X] + mean * mean * self.wtot[1], 0.0) / (s * s)
            return (float(w[W_WIN] / s), float(w[W_TIE] / s), float(mean), None, None, None, float(np.sqrt(var)))
        n = self.trials
        wins = self.counts[p][0]
        ties = sum(self.counts[p][2:])
        shares = sum(m * (SHARE_UNIT // k) for k, m in enumerate(self.counts[p]) if k >= 2)
        sq = wins * SHARE_UNIT**2 + sum(m * (SHARE_UNIT // k) ** 2 for k, m in enumerate(self.counts[p]) if k >= 2)
        mean = equity_fraction(wins, shares, n)
        var = max(sq / SHARE_UNIT**2 / n - mean * mean, 0.0) * n / max(n - 1, 1)
        return (wins / n, ties / n, float(mean), None, None, None, float(np.sqrt(var / n)))

    def max_stderr(self) -> float:
        """The largest standard error over the players."""
        return max(self.player(p)[6] for p in range(len(self.counts)))
