"""The Omaha evaluator: the best hand of exactly two hole cards and three board cards.

Omaha hands hold 4, 5 or 6 hole cards (Omaha, five-card and six-card Omaha); a
hand is the best five-card hand using exactly two of them with exactly three of
the five board cards: C(k, 2) × C(5, 3) = 60, 100 or 150 combinations.

*High* values are the hold'em evaluator's (:mod:`pipeline.evaluator`): integers,
higher wins, comparable with any hold'em value.  The board's ten three-card
subsets are summed into keys once per board (the work an enumeration shares
between players and runouts), each hole pair once per hand, and each of the
60–150 combinations is one addition and one table lookup; a flush is possible
only where the pair and the triple are of one suit, so the suit test is on the
two small masks, not the key.

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
from ..evaluator.kernels import KEY_BASE, RANK_SUM_MASK, Tables, rank_value, suited_bit
from ..evaluator.tables import tables

NO_LOW = 0
HOLE_SIZES = (4, 5, 6)
# the ten three-card subsets of a board's five cards, and the pairs of k hole cards
TRIPLES = np.array([(a, b, c) for a in range(5) for b in range(a + 1, 5) for c in range(b + 1, 5)], np.int64)
PAIRS = {k: np.array([(a, b) for a in range(k) for b in range(a + 1, k)], np.int64) for k in HOLE_SIZES}
LOW_RANK = np.array([1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, 0], np.int64)   # 2..8 -> 1..7, A -> 0, 9..K: none


@njit(cache=True, nogil=True, inline="always")
def _suit_of(cards_suited: np.uint64) -> int:
    """The suit of cards whose suited mask ``cards_suited`` holds one suit only, else -1."""
    for s in range(4):
        if cards_suited == (cards_suited & (np.uint64(0x1FFF) << np.uint64(16 * s))):
            return s
    return -1


@njit(cache=True, nogil=True)
def board_parts(board: np.ndarray, T: Tables, keys: np.ndarray, suits: np.ndarray, ranks: np.ndarray,
                lows: np.ndarray) -> None:
    """The board's ten triples: rank-key sums ``keys``, their one suit or -1 (``suits``), their
    13-bit rank masks ``ranks`` and 8-bit low masks ``lows`` (-1 unless three distinct low ranks)."""
    for t in range(10):
        key = np.uint64(0)
        suited = np.uint64(0)
        rmask = 0
        lmask = 0
        ok = True
        for q in range(3):
            c = board[TRIPLES[t, q]]
            key += T.card_keys[c]
            suited |= suited_bit(c)
            rmask |= 1 << (c >> 2)
            lr = LOW_RANK[c >> 2]
            if lr < 0 or lmask & (1 << lr):
                ok = False
            else:
                lmask |= 1 << lr
        keys[t] = key & RANK_SUM_MASK
        suits[t] = _suit_of(suited)
        ranks[t] = rmask
        lows[t] = lmask if ok else -1


@njit(cache=True, nogil=True)
def hand_high(hole: np.ndarray, bkeys: np.ndarray, bsuits: np.ndarray, branks: np.ndarray, T: Tables) -> int:
    """The best high value of ``hole`` (k cards) with a board given by :func:`board_parts`."""
    k = hole.size
    best = 0
    for a in range(k):
        ca = hole[a]
        for b in range(a + 1, k):
            cb = hole[b]
            pkey = (KEY_BASE + T.card_keys[ca] + T.card_keys[cb]) & RANK_SUM_MASK
            suit = ca & 3 if ca & 3 == cb & 3 else -1
            prank = (1 << (ca >> 2)) | (1 << (cb >> 2))
            for t in range(10):
                v = rank_value(pkey + bkeys[t], T)
                if suit >= 0 and bsuits[t] == suit:
                    v = max(v, T.flush_values[prank | branks[t]])
                if v > best:
                    best = v
    return best


@njit(cache=True, nogil=True)
def hand_low(hole: np.ndarray, blows: np.ndarray) -> int:
    """The best 8-or-better low value of ``hole`` with the board's triple low masks ``blows``."""
    k = hole.size
    best = 256
    for a in range(k):
        ra = LOW_RANK[hole[a] >> 2]
        if ra < 0:
            continue
        for b in range(a + 1, k):
            rb = LOW_RANK[hole[b] >> 2]
            if rb < 0 or rb == ra:
                continue
            pm = (1 << ra) | (1 << rb)
            for t in range(10):
                tm = blows[t]
                if tm >= 0 and not (tm & pm) and (tm | pm) < best:
                    best = tm | pm
    return NO_LOW if best == 256 else 256 - best


@njit(cache=True, nogil=True)
def _evaluate(holes: np.ndarray, boards: np.ndarray, low: bool, out: np.ndarray, T: Tables) -> None:
    bkeys = np.empty(10, np.uint64)
    bsuits = np.empty(10, np.int64)
    branks = np.empty(10, np.int64)
    blows = np.empty(10, np.int64)
    for i in range(holes.shape[0]):
        board_parts(boards[i], T, bkeys, bsuits, branks, blows)
        out[i] = hand_low(holes[i], blows) if low else hand_high(holes[i], bkeys, bsuits, branks, T)


@njit(cache=True, nogil=True)
def _bad_row(holes: np.ndarray, boards: np.ndarray) -> int:
    for i in range(holes.shape[0]):
        seen = np.uint64(0)
        for row in (holes[i], boards[i]):
            for c in row:
                if c < 0 or c > 51 or (seen >> np.uint64(c)) & np.uint64(1):
                    return i
                seen |= np.uint64(1) << np.uint64(c)
    return -1


def _checked(holes: Any, boards: Any) -> tuple[np.ndarray, np.ndarray]:
    holes = np.atleast_2d(np.asarray(holes))
    boards = np.atleast_2d(np.asarray(boards))
    if holes.dtype.kind not in "iu" or boards.dtype.kind not in "iu" or holes.ndim != 2 or boards.ndim != 2:
        raise CardError(f"holes and boards must be integer arrays of card ids, got {holes.dtype} {holes.shape} "
                        f"and {boards.dtype} {boards.shape}")
    if holes.shape[1] not in HOLE_SIZES or boards.shape[1] != 5 or len(holes) != len(boards):
        raise CardError(f"Omaha needs (n, 4|5|6) hole cards and (n, 5) boards, got {holes.shape} and {boards.shape}")
    holes, boards = holes.astype(np.int64), boards.astype(np.int64)
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
    _evaluate(h, b, False, out, tables())
    return out


def evaluate_omaha_low(holes: Any, boards: Any) -> np.ndarray:
    """8-or-better low values (int32, higher wins, :data:`NO_LOW` where none qualifies) of each row."""
    h, b = _checked(holes, boards)
    out = np.empty(len(h), np.int32)
    _evaluate(h, b, True, out, tables())
    return out


def low_ranks(value: int) -> str:
    """``'7-5-4-3-A'``: the ranks of a low value, highest first (``'-'`` for no low)."""
    if value == NO_LOW:
        return "-"
    mask = 256 - value
    names = "A2345678"
    return "-".join(names[r] for r in range(7, -1, -1) if mask >> r & 1)
