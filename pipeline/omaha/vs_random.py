"""Omaha hands against k random hands, seeded Monte Carlo with one deal shared by a block of hands.

A trial deals a board and k opponent hands from the full deck, values them once, and
then scores *every* hand of the block that shares no card with the deal: for hand ``H``
the accepted trials are exactly the deals disjoint from ``H``, each equally likely — the
law of ``H`` against k random hands — so every row is an unbiased estimate with its own
sample count, while the board's classes, the opponents' values and the table rows they
touch are paid once per trial instead of once per hand (about half the trials meet a
given hand against one opponent, one in fifteen against five).

Pot shares are integers in units of ``lcm(1..k+1)``: ``units`` sums them and ``squares``
their squares, so equities and standard errors come from exact integers.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..core.rng import chunk_state, deal_card
from .kernels import board_classes, high_value, hole_pairs
from .tables import OmahaTables


def share_unit(opponents: int) -> int:
    """Units of a pot that split among up to ``opponents + 1`` players stays whole."""
    return math.lcm(*range(1, opponents + 2))


@njit(cache=True, nogil=True)
def block_vs_random(hands: np.ndarray, opponents: int, trials: int, seed: int, stream: int, unit: int,
                    OT: OmahaTables, samples: np.ndarray, wins: np.ndarray, ties: np.ndarray,
                    units: np.ndarray, squares: np.ndarray) -> None:
    """Add ``trials`` shared deals to each hand's counts (all (N,) int64)."""
    N, k = hands.shape
    npairs = k * (k - 1) // 2
    cols = np.empty((N, 15), np.int64)
    suits = np.empty((N, 15), np.int64)
    lows = np.empty((N, 15), np.int64)
    masks = np.zeros(N, np.uint64)
    for i in range(N):
        hole_pairs(hands[i], i, cols, suits, lows)
        for j in range(k):
            masks[i] |= np.uint64(1) << np.uint64(hands[i, j])
    ocols = np.empty((opponents, 15), np.int64)
    osuits = np.empty((opponents, 15), np.int64)
    olows = np.empty((opponents, 15), np.int64)
    deck = np.arange(52)
    board = np.empty(5, np.int64)
    hole = np.empty(k, np.int64)
    s0, s1 = chunk_state(seed, stream)
    for _ in range(trials):
        pos = 0
        dealt = np.uint64(0)
        for q in range(5):
            s0, s1, c, pos = deal_card(s0, s1, deck, pos, 52)
            board[q] = c
            dealt |= np.uint64(1) << np.uint64(c)
        bclass, fsuit, fclass, _ = board_classes(board, OT)
        top = -1
        count = 0
        for o in range(opponents):
            for j in range(k):
                s0, s1, c, pos = deal_card(s0, s1, deck, pos, 52)
                hole[j] = c
                dealt |= np.uint64(1) << np.uint64(c)
            hole_pairs(hole, o, ocols, osuits, olows)
            v = high_value(ocols, osuits, o, npairs, bclass, fsuit, fclass, OT)
            if v > top:
                top, count = v, 1
            elif v == top:
                count += 1
        split = unit // (count + 1)
        for i in range(N):
            if masks[i] & dealt:
                continue
            v = high_value(cols, suits, i, npairs, bclass, fsuit, fclass, OT)
            samples[i] += 1
            if v > top:
                wins[i] += 1
                units[i] += unit
                squares[i] += unit * unit
            elif v == top:
                ties[i] += 1
                units[i] += split
                squares[i] += split * split
