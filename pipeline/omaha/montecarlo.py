"""Monte Carlo Omaha equity: seeded trials, every player's hand and the board drawn each trial.

A trial draws, in player order, each *range* player's hand from his weighted range
(Walker's alias method, :func:`pipeline.equity.plan.alias_table`); a hand sharing a
card with one drawn before (or with the board and dead cards) rejects the whole trial,
so accepted trials follow the exact law of the enumeration — every assignment weighed
by the product of its weights, every completion equally likely — and carry no
importance weight.  *Deck* players (``random``) and the missing board cards are then
dealt from the live deck by a partial Fisher–Yates shuffle that skips the cards the
range players hold (:func:`pipeline.equity.dealing.next_live_card`).

Chunk ``i`` draws from its own xoroshiro128++ stream seeded from ``(seed, i)``
(:func:`pipeline.core.rng.chunk_state`), so a result depends on the seed and the trial
count, never on the threads.  The tally is :mod:`.showdown`'s; ``squares[p]`` sums the
squared pot shares, for the standard errors.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.rng import below, chunk_state
from ..equity.dealing import alias_step, next_live_card
from .kernels import board_classes, high_value, hole_pairs, low_value
from .showdown import score_board
from .tables import OmahaTables

MAX_REJECTIONS = 1000      # clashing draws per trial, on average, before a chunk gives up


@njit(cache=True, nogil=True)
def monte_carlo_tally(trials: int, seed: int, chunk: int, range_of: np.ndarray, hands: np.ndarray,
                      masks: np.ndarray, prob: np.ndarray, alias: np.ndarray, equal: np.ndarray,
                      offsets: np.ndarray, k: int, used: np.uint64, known: np.ndarray, deck: np.ndarray,
                      hilo: bool, unit: int, OT: OmahaTables, tally: np.ndarray, squares: np.ndarray) -> int:
    """Run ``trials`` trials into ``tally`` and ``squares``; player ``p`` draws from range
    ``range_of[p]`` (its hands ``hands[offsets[r]:offsets[r+1]]``) or, when -1, from the deck.
    Returns the rejected draws, or -1 when they passed :data:`MAX_REJECTIONS` per trial."""
    P = range_of.size
    n = k * (k - 1) // 2
    s0, s1 = chunk_state(seed, chunk)
    holes = np.empty((P, k), np.int64)
    cols = np.empty((P, 15), np.int64)
    suits = np.empty((P, 15), np.int64)
    lows = np.empty((P, 15), np.int64)
    high = np.zeros(P, np.int64)
    low = np.zeros(P, np.int64)
    before = np.zeros(P, np.int64)
    board = np.empty(5, np.int64)
    nk = known.size
    board[:nk] = known
    L = deck.size
    rejected = 0
    done = 0
    while done < trials:
        taken = used
        clash = False
        for p in range(P):
            r = range_of[p]
            if r < 0:
                continue
            lo = offsets[r]
            s0, s1, i = below(s0, s1, offsets[r + 1] - lo)
            if not equal[r]:
                s0, s1, i = alias_step(s0, s1, i, prob[lo + i], alias[lo + i])
            i += lo
            if masks[i] & taken:
                clash = True
                break
            taken |= masks[i]
            holes[p] = hands[i]
        if clash:
            rejected += 1
            if rejected > MAX_REJECTIONS * (done + 1):
                return -1
            continue
        pos = 0
        for p in range(P):
            if range_of[p] < 0:
                for j in range(k):
                    s0, s1, c, pos = next_live_card(s0, s1, deck, pos, L, taken)
                    holes[p, j] = c
        for j in range(nk, 5):
            s0, s1, c, pos = next_live_card(s0, s1, deck, pos, L, taken)
            board[j] = c
        bclass, fsuit, fclass, low_set = board_classes(board, OT)
        for p in range(P):
            hole_pairs(holes[p], p, cols, suits, lows)
            high[p] = high_value(cols, suits, p, n, bclass, fsuit, fclass, OT)
            if hilo:
                low[p] = low_value(lows, p, n, low_set, OT)
            before[p] = tally[p, 2 * P]
        score_board(high, low, hilo, unit, tally, 1)
        for p in range(P):
            x = (tally[p, 2 * P] - before[p]) / unit
            squares[p] += x * x
        done += 1
    return rejected
