"""Omaha's inner kernels on the pair tables of :mod:`.tables`: one board's classes, one hand's values.

A board is summarised once (:func:`board_classes`): its rank class, the suit that
holds three or more of its cards with that suit's rank class, and its set of low
ranks.  A hand is summarised once too (:func:`hole_pairs`): for each of its
C(k, 2) pairs, the rank-pair column of the high tables, the pair's suit (-1 when
the two differ) and the low-pair column (-1 unless two distinct ranks ace..8).
A hand's value on a board is then a handful of lookups (:func:`high_value`,
:func:`low_value`), shared by every player and every runout that meets them.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluator.kernels import HASH_MASK, HASH_SHIFT, RANK_SUM_MASK
from .tables import LOW_RANK, OmahaTables

_HS = np.uint64(HASH_SHIFT)
_HM = np.uint64(HASH_MASK)
_RANKS = np.uint64(0x1FFF)
# hole rank pair 13*r1+r2 -> its column 8*a+b of the low table, -1 unless two distinct low ranks
LOW_COLUMN = np.array([8 * LOW_RANK[r1] + LOW_RANK[r2] if LOW_RANK[r1] >= 0 and LOW_RANK[r2] >= 0 and r1 != r2
                       else -1 for r1 in range(13) for r2 in range(13)], np.int64)
LOW_BIT = np.array([1 << r if r >= 0 else 0 for r in LOW_RANK], np.int64)   # rank -> its bit of a low set


@njit(cache=True, nogil=True, inline="always")
def add_card(c: int, s: np.uint64, suited: np.uint64, low: int, OT: OmahaTables) -> tuple:
    """``(rank sum, suited mask, low set)`` of some board cards with card ``c`` added."""
    return (s + OT.card_keys[c], suited | (np.uint64(1) << np.uint64(16 * (c & 3) + (c >> 2))),
            low | LOW_BIT[c >> 2])


@njit(cache=True, nogil=True, inline="always")
def classify(s: np.uint64, suited: np.uint64, low: int, OT: OmahaTables) -> tuple:
    """``(rank class, flush suit or -1, flush class or -1, low-rank set)`` of five cards summed by
    :func:`add_card`.

    Branch-free (the suits of random boards defeat a branch predictor: written with branches,
    a board took ten times as long): the suits' rank masks sit in one 64-bit word, the flush
    suit is the largest of four ``4 * class + suit`` codes, low ranks come from a table."""
    r = s & RANK_SUM_MASK
    bclass = OT.board_index[OT.rank_offsets[r >> _HS] + (r & _HM)]
    code = -1
    for u in range(4):
        f = OT.flush_index[(suited >> np.uint64(16 * u)) & _RANKS]
        code = max(code, 4 * f + u if f >= 0 else -1)
    return bclass, code & 3 if code >= 0 else -1, code >> 2, low


@njit(cache=True, nogil=True, inline="always")
def board_classes(board: np.ndarray, OT: OmahaTables) -> tuple:
    """:func:`classify` of five board cards."""
    s = np.uint64(0)
    suited = np.uint64(0)
    low = 0
    for q in range(5):
        s, suited, low = add_card(board[q], s, suited, low, OT)
    return classify(s, suited, low, OT)


@njit(cache=True, nogil=True, inline="always")
def hole_pairs(hole: np.ndarray, p: int, cols: np.ndarray, suits: np.ndarray, lows: np.ndarray) -> int:
    """Fill row ``p`` of the pair columns (see the module doc) from ``hole``; returns the number of pairs."""
    n = 0
    k = hole.size
    for a in range(k):
        ca = hole[a]
        for b in range(a + 1, k):
            cb = hole[b]
            col = 13 * (ca >> 2) + (cb >> 2)
            cols[p, n] = col
            suits[p, n] = ca & 3 if ca & 3 == cb & 3 else -1
            lows[p, n] = LOW_COLUMN[col]
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def flush_value(cols: np.ndarray, suits: np.ndarray, p: int, n: int, fsuit: int, fclass: int,
                OT: OmahaTables) -> int:
    """Best flush (0: none) of hand ``p``'s pairs on a board whose suit ``fsuit`` (-1: none) has three cards or more."""
    best = 0
    if fsuit >= 0:
        for j in range(n):
            if suits[p, j] == fsuit:
                v = OT.flush_pair[fclass, cols[p, j]]
                if v > best:
                    best = v
    return best


@njit(cache=True, nogil=True, inline="always")
def high_value(cols: np.ndarray, suits: np.ndarray, p: int, n: int, bclass: int, fsuit: int, fclass: int,
               OT: OmahaTables) -> int:
    """High value (the hold'em scale) of hand ``p``'s ``n`` pairs on a board of :func:`board_classes`."""
    best = 0
    for j in range(n):
        v = OT.pair_high[bclass, cols[p, j]]
        if v > best:
            best = v
    return max(best, flush_value(cols, suits, p, n, fsuit, fclass, OT))


@njit(cache=True, nogil=True)
def nonflush_values(cols: np.ndarray, p: int, n: int, OT: OmahaTables, out: np.ndarray) -> None:
    """``out[b]``: hand ``p``'s best non-flush value on every board rank class ``b`` — worth it when a
    hand meets thousands of boards (a preflop enumeration), each then one lookup."""
    for b in range(out.size):
        best = 0
        for j in range(n):
            v = OT.pair_high[b, cols[p, j]]
            if v > best:
                best = v
        out[b] = best


@njit(cache=True, nogil=True, inline="always")
def low_value(lows: np.ndarray, p: int, n: int, low_set: int, OT: OmahaTables) -> int:
    """8-or-better low value (0: none) of hand ``p``'s ``n`` pairs with the board's low-rank set."""
    best = 0
    for j in range(n):
        c = lows[p, j]
        if c >= 0:
            v = OT.low_pair[low_set, c]
            if v > best:
                best = v
    return best
