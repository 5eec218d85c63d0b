"""Exact Omaha equity: every completion of the board, for every deal of the players' ranges.

For one deal (a hand per player) each board is summarised once
(:func:`.kernels.board_classes`) and every player's value is a few lookups of the
hole pairs he summarised once before the loop (:func:`.kernels.hole_pairs`); the
showdown goes into the integer tally of :mod:`.showdown`.  Ranges are dealt by
enumerating the *assignments* (a hand per player, no card shared) between
``start`` and ``stop`` of the odometer over the players' hands, each weighted by
the product of its hands' weights: integers stay integers (``tally``), the weighted
sums go beside them (``wtally``), so unweighted ranges give exact rationals.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .kernels import add_card, classify, flush_value, high_value, hole_pairs, low_value, nonflush_values
from .showdown import score_board
from .tables import BOARD_CLASSES, OmahaTables


@njit(cache=True, nogil=True)
def deal_tally(holes: np.ndarray, known: np.ndarray, deck: np.ndarray, hilo: bool, unit: int,
               OT: OmahaTables, tally: np.ndarray) -> int:
    """Add every board completing ``known`` from ``deck`` for the hands ``holes`` (P, k) to
    ``tally``; returns the number of boards.

    The boards are walked in lexicographic order with the sums of their first cards kept
    per depth (:func:`.kernels.add_card`), so a step costs one card, not five; preflop each
    hand's non-flush value is first tabled for all 6,175 board rank classes."""
    P, k = holes.shape
    n = k * (k - 1) // 2
    cols = np.empty((P, 15), np.int64)
    suits = np.empty((P, 15), np.int64)
    lows = np.empty((P, 15), np.int64)
    for p in range(P):
        hole_pairs(holes[p], p, cols, suits, lows)
    nk = known.size
    m = 5 - nk
    L = deck.size
    if m > L:
        return 0
    tabled = m == 5
    nonflush = np.zeros((P, BOARD_CLASSES if tabled else 1), np.uint16)
    if tabled:
        for p in range(P):
            nonflush_values(cols, p, n, OT, nonflush[p])
    sums = np.zeros(m + 1, np.uint64)
    suiteds = np.zeros(m + 1, np.uint64)
    lowsets = np.zeros(m + 1, np.int64)
    s, su, lo = np.uint64(0), np.uint64(0), 0
    for q in range(nk):
        s, su, lo = add_card(known[q], s, su, lo, OT)
    sums[0], suiteds[0], lowsets[0] = s, su, lo
    idx = np.arange(m)
    high = np.zeros(P, np.int64)
    low = np.zeros(P, np.int64)
    boards = 0
    depth = 0                       # the sums of cards idx[:depth] are current
    while True:
        for j in range(depth, m):
            sums[j + 1], suiteds[j + 1], lowsets[j + 1] = add_card(deck[idx[j]], sums[j], suiteds[j], lowsets[j], OT)
        bclass, fsuit, fclass, low_set = classify(sums[m], suiteds[m], lowsets[m], OT)
        for p in range(P):
            if tabled:
                high[p] = max(nonflush[p, bclass], flush_value(cols, suits, p, n, fsuit, fclass, OT))
            else:
                high[p] = high_value(cols, suits, p, n, bclass, fsuit, fclass, OT)
        if hilo:
            for p in range(P):
                low[p] = low_value(lows, p, n, low_set, OT)
        score_board(high, low, hilo, unit, tally)
        boards += 1
        j = m - 1
        while j >= 0 and idx[j] == L - m + j:
            j -= 1
        if j < 0:
            return boards
        idx[j] += 1
        for q in range(j + 1, m):
            idx[q] = idx[q - 1] + 1
        depth = j


@njit(cache=True, nogil=True)
def _assignment(number: int, sizes: np.ndarray, offsets: np.ndarray, out: np.ndarray) -> None:
    """Hand indices of assignment ``number`` of the odometer (last player fastest)."""
    for p in range(sizes.size - 1, -1, -1):
        out[p] = offsets[p] + number % sizes[p]
        number //= sizes[p]


@njit(cache=True, nogil=True)
def assignments_tally(start: int, stop: int, hands: np.ndarray, weights: np.ndarray, masks: np.ndarray,
                      offsets: np.ndarray, used: np.uint64, known: np.ndarray, hilo: bool, unit: int,
                      OT: OmahaTables, tally: np.ndarray, wtally: np.ndarray) -> tuple:
    """Enumerate assignments ``start..stop-1`` (player ``p``'s hands ``hands[offsets[p]:offsets[p+1]]``):
    those sharing no card with each other or ``used`` are scored over every board.  Returns
    ``(boards, weighted boards)``."""
    P = offsets.size - 1
    k = hands.shape[1]
    sizes = offsets[1:] - offsets[:-1]
    pick = np.empty(P, np.int64)
    holes = np.empty((P, k), np.int64)
    local = np.zeros_like(tally)
    boards = 0
    wboards = 0.0
    deck = np.empty(52, np.int64)
    for a in range(start, stop):
        _assignment(a, sizes, offsets, pick)
        m = used
        w = 1.0
        ok = True
        for p in range(P):
            hm = masks[pick[p]]
            if hm & m:
                ok = False
                break
            m |= hm
            w *= weights[pick[p]]
            holes[p] = hands[pick[p]]
        if not ok:
            continue
        L = 0
        for c in range(52):
            if not (m >> np.uint64(c)) & np.uint64(1):
                deck[L] = c
                L += 1
        local[:] = 0
        nb = deal_tally(holes, known, deck[:L], hilo, unit, OT, local)
        tally += local
        wtally += w * local
        boards += nb
        wboards += w * nb
    return boards, wboards
