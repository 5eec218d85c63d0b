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
from ..core.inputs import integer
from .kernels import LOW_BIT, LOW_COLUMN
from .tables import NO_LOW, PAIR_COLUMNS, OmahaTables, omaha_tables

HOLE_SIZES = (4, 5, 6)


_U = np.uint64
_RANK_KEY = np.uint64(0xFFFFFFFF)
_THREE = np.uint64(0x5555)     # + 5 on each 4-bit suit counter of a board key: its bit 3 is set from three cards up
_FLAGS = np.uint64(0x8888)
_RANKS = np.uint64(0x1FFF)
_COLUMN = np.uint64(0x7F)
_ROW = np.uint64(PAIR_COLUMNS)


@njit(cache=True, nogil=True, inline="always")
def _pair(ca: np.uint64, cb: np.uint64, pair_code: np.ndarray, high_pairs: np.ndarray, flush_pairs: np.ndarray,
          hrow: np.uint64, frow: np.uint64, fsuit: np.uint64) -> int:
    """High value of hole cards ``ca``, ``cb`` with three of a board whose rows start at ``hrow`` and
    ``frow``: the flush row read only when the two are of the board's flush suit ``fsuit``, else the zero row."""
    p = _U(pair_code[(ca << _U(6)) | cb])
    col = p & _COLUMN
    f = frow if p >> _U(7) == fsuit else _U(0)
    return max(high_pairs[hrow + col], flush_pairs[f + col])


@njit(cache=True, nogil=True)
def _evaluate(holes: np.ndarray, boards: np.ndarray, low: bool, out: np.ndarray, OT: OmahaTables) -> int:
    """Each row's value into ``out``; returns the first row whose cards are not distinct ids 0..51
    (its value and the later rows' unset), else -1.

    Written for random boards, one a row (:mod:`.tables`' batch layout): each row's cards are
    checked where they are read, the board's rank key and suit counters summed in one word and
    its rows found with one lookup each, the flush suit found without a branch; indices are
    unsigned (no negative-index fix-up per lookup) and a 4-card hand's six pairs written out."""
    n, k = holes.shape
    board_key, suit_bit, board_row, pair_code = OT.board_key, OT.suit_bit, OT.board_row, OT.pair_code
    high_pairs, flush_row, flush_pairs, low_pair = OT.high_pairs, OT.flush_row, OT.flush_pairs, OT.low_pair
    one = _U(1)
    for i in range(n):
        total = _U(0)        # the cards' bits added equal them or-ed exactly when no card repeats
        seen = _U(0)
        top = _U(0)          # the largest id, unsigned: a negative one is huge
        for j in range(k):
            c = _U(holes[i, j])
            bit = one << (c & _U(63))
            total += bit
            seen |= bit
            top = max(top, c)
        for j in range(5):
            c = _U(boards[i, j])
            bit = one << (c & _U(63))
            total += bit
            seen |= bit
            top = max(top, c)
        if top > _U(51) or total != seen:
            return i
        if low:
            low_set = 0
            for q in range(5):
                low_set |= LOW_BIT[boards[i, q] >> 2]
            best = 0
            for a in range(k):
                ca = holes[i, a]
                for b in range(a + 1, k):
                    c = LOW_COLUMN[13 * (ca >> 2) + (holes[i, b] >> 2)]
                    best = max(best, low_pair[low_set, c] if c >= 0 else 0)
            out[i] = best
            continue
        b0, b1, b2, b3, b4 = _U(boards[i, 0]), _U(boards[i, 1]), _U(boards[i, 2]), _U(boards[i, 3]), _U(boards[i, 4])
        key = board_key[b0] + board_key[b1] + board_key[b2] + board_key[b3] + board_key[b4]
        suited = suit_bit[b0] | suit_bit[b1] | suit_bit[b2] | suit_bit[b3] | suit_bit[b4]
        hrow = _U(board_row[key & _RANK_KEY]) * _ROW
        flags = ((key >> _U(32)) + _THREE) & _FLAGS     # at most one suit holds three of five cards
        fsuit = (flags >> _U(7) & one) + _U(2) * (flags >> _U(11) & one) + _U(3) * (flags >> _U(15) & one)
        frow = _U(flush_row[suited >> (_U(16) * fsuit) & _RANKS]) * _ROW     # 0 (zeros) without three of a suit
        if k == 4:
            h0, h1, h2, h3 = _U(holes[i, 0]), _U(holes[i, 1]), _U(holes[i, 2]), _U(holes[i, 3])
            best = max(max(_pair(h0, h1, pair_code, high_pairs, flush_pairs, hrow, frow, fsuit),
                           _pair(h0, h2, pair_code, high_pairs, flush_pairs, hrow, frow, fsuit)),
                       max(_pair(h0, h3, pair_code, high_pairs, flush_pairs, hrow, frow, fsuit),
                           _pair(h1, h2, pair_code, high_pairs, flush_pairs, hrow, frow, fsuit)),
                       max(_pair(h1, h3, pair_code, high_pairs, flush_pairs, hrow, frow, fsuit),
                           _pair(h2, h3, pair_code, high_pairs, flush_pairs, hrow, frow, fsuit)))
        else:
            best = 0
            for a in range(k):
                ca = _U(holes[i, a])
                for b in range(a + 1, k):
                    best = max(best, _pair(ca, _U(holes[i, b]), pair_code, high_pairs, flush_pairs, hrow, frow,
                                           fsuit))
        out[i] = best
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
    return holes, boards


def _raise_bad(bad: int, holes: np.ndarray, boards: np.ndarray) -> None:
    if bad >= 0:
        raise CardError(f"row {bad}: hole cards {holes[bad].tolist()} and board {boards[bad].tolist()} are not "
                        "distinct card ids 0..51")


def evaluate_omaha(holes: Any, boards: Any) -> np.ndarray:
    """High values (int32, higher wins, the hold'em evaluator's scale) of each row's ``holes``
    (n, 4|5|6) with its board (n, 5): the best hand of exactly two hole and three board cards."""
    h, b = _checked(holes, boards)
    out = np.empty(len(h), np.int32)
    _raise_bad(_evaluate(h, b, False, out, omaha_tables()), h, b)
    return out


def evaluate_omaha_low(holes: Any, boards: Any) -> np.ndarray:
    """8-or-better low values (int32, higher wins, :data:`NO_LOW` where none qualifies) of each row."""
    h, b = _checked(holes, boards)
    out = np.empty(len(h), np.int32)
    _raise_bad(_evaluate(h, b, True, out, omaha_tables()), h, b)
    return out


def low_ranks(value: int) -> str:
    """``'7-5-4-3-A'``: the ranks of a low value (:func:`evaluate_omaha_low`'s), highest first (``'-'`` for no
    low); :class:`CardError` for anything that is not one."""
    value = integer(value, "low value", 0, 255, error=CardError, strict=True)
    if value == NO_LOW:
        return "-"
    mask = 256 - value
    if bin(mask).count("1") != 5:
        raise CardError(f"low value {value} is not the value of a low (five ranks of eight)")
    names = "A2345678"
    return "-".join(names[r] for r in range(7, -1, -1) if mask >> r & 1)
