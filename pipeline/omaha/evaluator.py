"""The Omaha evaluator: the best hand of exactly two hole cards and three board cards.

Omaha hands hold 4, 5 or 6 hole cards (Omaha, five-card and six-card Omaha); a
hand is the best five-card hand using exactly two of them with exactly three of
the five board cards: C(k, 2) × C(5, 3) = 60, 100 or 150 combinations.

*High* values are the hold'em evaluator's (:mod:`pipeline.evaluator`): integers,
higher wins, comparable with any hold'em value.  They come from the per-board pair
tables of :mod:`.tables`: the board is reduced once to its rank class, flush suit
and low-rank set, and the hand's value is the best of its C(k, 2) hole pairs'
entries (:mod:`.kernels`), not 60–150 five-card evaluations.

*Low* values are 8-or-better, ace-to-five (the low half of Omaha hi/lo): five
distinct ranks 8 or lower, the ace low, straights and flushes not counting
against.  A low is named by its 8-bit mask of ranks (bit 0 the ace, bit 7 the
eight); for two lows of five ranks the one with the smaller mask is the better
(the highest rank where they differ decides, as ace-to-five compares from the
top), so the value is ``256 - mask``: higher wins, and :data:`NO_LOW` (0) means
no qualifying low.

>>> from pipeline.core.cards import parse_cards as cards
>>> from pipeline.evaluator import describe
>>> describe(int(evaluate_omaha([cards("AsKs2d3d")], [cards("QsJsTs4c5h")])[0]))
'a Royal Flush'
>>> describe(int(evaluate_omaha([cards("AhKhQhJh")], [cards("Th9h2c3d4s")])[0]))   # any five of the nine: a royal flush
'high card Ace'
>>> low_ranks(int(evaluate_omaha_low([cards("As2d9c9h")], [cards("3c4d7hKsQd")])[0]))
'7-4-3-2-A'
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..core.cards import CardError
from .kernels import LOW_COLUMN, board_classes
from .tables import NO_LOW, OmahaTables, omaha_tables

HOLE_SIZES = (4, 5, 6)


@njit(cache=True, nogil=True)
def _evaluate(holes: np.ndarray, boards: np.ndarray, low: bool, out: np.ndarray, OT: OmahaTables) -> None:
    """Each row's value.  A board equal to the row before's is not classified again (an
    enumeration that lists its hands board by board pays for its boards once); the hole
    pairs are looked up straight from the cards, the flush entry read for every pair and
    kept only for a pair of the flush suit (a multiply, not a branch the suits would defeat)."""
    n, k = holes.shape
    pair_high, flush_pair, low_pair = OT.pair_high, OT.flush_pair, OT.low_pair
    bclass = fsuit = fclass = low_set = -1
    for i in range(n):
        same = i > 0
        if same:
            for q in range(5):
                if boards[i, q] != boards[i - 1, q]:
                    same = False
        if not same:
            bclass, fsuit, fclass, low_set = board_classes(boards[i], OT)
        best = 0
        f = max(fclass, 0)
        for a in range(k):
            ca = holes[i, a]
            for b in range(a + 1, k):
                cb = holes[i, b]
                col = 13 * (ca >> 2) + (cb >> 2)
                if low:
                    c = LOW_COLUMN[col]
                    v = low_pair[low_set, c] if c >= 0 else 0
                else:
                    v = max(pair_high[bclass, col],
                            flush_pair[f, col] * ((ca & 3) == fsuit) * ((cb & 3) == fsuit))
                best = max(best, v)
        out[i] = best


@njit(cache=True, nogil=True)
def _bad_row(holes: np.ndarray, boards: np.ndarray) -> int:
    """The first row whose cards are not distinct ids 0..51, else -1 (one pass, no copies)."""
    one = np.uint64(1)
    for i in range(holes.shape[0]):
        seen = np.uint64(0)
        count = 0
        for j in range(holes.shape[1] + 5):
            c = holes[i, j] if j < holes.shape[1] else boards[i, j - holes.shape[1]]
            if c < 0 or c > 51:
                return i
            seen |= one << np.uint64(c)
            count += 1
        bits = 0
        while seen:
            seen &= seen - one
            bits += 1
        if bits != count:
            return i
    return -1


def _checked(holes: Any, boards: Any) -> tuple[np.ndarray, np.ndarray]:
    holes = np.atleast_2d(np.asarray(holes))
    boards = np.atleast_2d(np.asarray(boards))
    if holes.dtype.kind not in "iu" or boards.dtype.kind not in "iu" or holes.ndim != 2 or boards.ndim != 2:
        raise CardError(f"holes and boards must be integer arrays of card ids, got {holes.dtype} {holes.shape} "
                        f"and {boards.dtype} {boards.shape}")
    if holes.shape[1] not in HOLE_SIZES or boards.shape[1] != 5 or len(holes) != len(boards):
        raise CardError(f"Omaha needs (n, 4|5|6) hole cards and (n, 5) boards, got {holes.shape} and {boards.shape}")
    holes = np.ascontiguousarray(holes, np.int64)     # no copy when the caller's arrays already are
    boards = np.ascontiguousarray(boards, np.int64)
    bad = _bad_row(holes, boards)
    if bad >= 0:
        raise CardError(f"row {bad}: hole cards {holes[bad].tolist()} and board {boards[bad].tolist()} are not "
                        "distinct card ids 0..51")
    return holes, boards


def evaluate_omaha(holes: Any, boards: Any) -> np.ndarray:
    """High values (int32, higher wins, the hold'em evaluator's scale) of each row's ``holes``
    (n, 4|5|6) with its board (n, 5): the best hand of exactly two hole and three board cards."""
    h, b = _checked(holes, boards)
    out = np.empty(len(h), np.int32)
    _evaluate(h, b, False, out, omaha_tables())
    return out


def evaluate_omaha_low(holes: Any, boards: Any) -> np.ndarray:
    """8-or-better low values (int32, higher wins, :data:`NO_LOW` where none qualifies) of each row."""
    h, b = _checked(holes, boards)
    out = np.empty(len(h), np.int32)
    _evaluate(h, b, True, out, omaha_tables())
    return out


def low_ranks(value: int) -> str:
    """``'7-5-4-3-A'``: the ranks of a low value, highest first (``'-'`` for no low)."""
    if value == NO_LOW:
        return "-"
    mask = 256 - value
    names = "A2345678"
    return "-".join(names[r] for r in range(7, -1, -1) if mask >> r & 1)
