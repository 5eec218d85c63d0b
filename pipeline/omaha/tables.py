"""Per-board tables of Omaha: a hand's value is a few lookups of its hole *pairs*, not 60 evaluations.

In Omaha a hand is two hole cards with three board cards.  Without a flush the
value of a combination depends only on the ranks, so for a board's rank multiset
(6,175 of them: five ranks, at most four of a kind) the best non-flush value of a
hole *rank pair* (169 ordered pairs, ``13 * r1 + r2``) is fixed once, as the best
over the board's ten triples: :attr:`OmahaTables.pair_high`.  A flush needs three
board cards of one suit — at most one suit of five cards has three — and two hole
cards of that suit; its value depends only on the board's ranks in that suit
(3 to 5 of 13: 2,288 masks) and the hole pair's ranks: :attr:`OmahaTables.flush_pair`.
A 4-card hand's high value is then the best of its six pairs' entries (ten for 5 cards,
fifteen for 6) and, on a three-suited board, of its pairs in that suit.

The 8-or-better low works the same way on rank *sets*: the board's distinct ranks
ace..8 (an 8-bit mask, three or more needed) and a hole pair of two distinct low
ranks (``8 * a + b``) give the best low of :attr:`OmahaTables.low_pair` — the pair's
ranks with the three lowest board ranks outside them, as a smaller mask is a
better ace-to-five low — valued ``256 - mask`` (0: no low), as :mod:`.evaluator` does.

The tables take about 3 MB and are built in a fraction of a second from the
hold'em evaluator's (:mod:`pipeline.evaluator.tables`), once a process.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ..evaluator.kernels import HASH_MASK, HASH_SHIFT, RANK_MULTIPLIERS, Tables
from ..evaluator.tables import rank_multisets, tables

BOARD_CLASSES = 6175          # rank multisets of five cards with at most four of a rank
FLUSH_MASKS = 2288            # 13-bit masks of 3, 4 or 5 ranks: C(13,3) + C(13,4) + C(13,5)
NO_LOW = 0
# rank 0..12 (2..A) -> low rank 0..7 (A, 2..8) or -1
LOW_RANK = np.array([1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, 0], np.int64)


class OmahaTables(NamedTuple):
    """The hold'em tables plus Omaha's per-board pair tables (see the module doc)."""

    card_keys: np.ndarray      # (52,) uint64: the hold'em card keys (their low 32 bits: rank multipliers)
    rank_offsets: np.ndarray   # (rows,) uint64: the hold'em rank hash's row displacements
    board_index: np.ndarray    # (slots,) int32: board rank class 0..6174 of a hash slot, -1 if not five ranks
    pair_high: np.ndarray      # (6175, 169) uint16: best non-flush value, board class x hole ranks 13*r1+r2
    flush_index: np.ndarray    # (8192,) int32: class 0..2287 of a suit's 3-5-rank mask on the board, else -1
    flush_pair: np.ndarray     # (2288, 169) uint16: best flush value, board suit mask x hole ranks (0: none)
    low_pair: np.ndarray       # (256, 64) uint16: best low value, board low-rank set x hole low ranks 8*a+b
    board_ranks: np.ndarray    # (6175, 5) int64: the ranks of each board rank class, ascending
    board_low: np.ndarray      # (6175,) int64: the low-rank set of each board rank class


@njit(cache=True, nogil=True)
def _slot(rank_sum: np.uint64, offsets: np.ndarray) -> int:
    return int(offsets[rank_sum >> np.uint64(HASH_SHIFT)] + (rank_sum & np.uint64(HASH_MASK)))


@njit(cache=True, nogil=True)
def _fill_pair_high(boards: np.ndarray, mults: np.ndarray, T: Tables, out: np.ndarray) -> None:
    """``out[b, 13*r1 + r2]``: best value of ranks r1, r2 with three of board class b's five ranks."""
    for b in range(boards.shape[0]):
        for r1 in range(13):
            for r2 in range(13):
                best = 0
                for i in range(5):
                    for j in range(i + 1, 5):
                        for k in range(j + 1, 5):
                            ranks = (r1, r2, boards[b, i], boards[b, j], boards[b, k])
                            ok = True
                            for x in ranks:          # at most four of a rank in the five
                                c = 0
                                for y in ranks:
                                    if y == x:
                                        c += 1
                                if c > 4:
                                    ok = False
                            if not ok:
                                continue
                            s = np.uint64(0)
                            for x in ranks:
                                s += np.uint64(mults[x])
                            v = T.rank_values[_slot(s, T.rank_offsets)]
                            if v > best:
                                best = v
                out[b, 13 * r1 + r2] = best


@njit(cache=True, nogil=True)
def _fill_flush_pair(masks: np.ndarray, T: Tables, out: np.ndarray) -> None:
    """``out[m, 13*r1 + r2]``: best flush of suited hole ranks r1 != r2 with three of mask ``masks[m]``."""
    for m in range(masks.size):
        board = masks[m]
        for r1 in range(13):
            for r2 in range(13):
                pair = (1 << r1) | (1 << r2)
                if r1 == r2 or pair & board:
                    continue
                best = 0
                for i in range(13):
                    for j in range(i + 1, 13):
                        for k in range(j + 1, 13):
                            t = (1 << i) | (1 << j) | (1 << k)
                            if t & board == t:
                                v = T.flush_values[pair | t]
                                if v > best:
                                    best = v
                out[m, 13 * r1 + r2] = best


def _low_pair() -> np.ndarray:
    out = np.zeros((256, 64), np.uint16)
    for board in range(256):
        for a in range(8):
            for b in range(8):
                if a == b:
                    continue
                rest = [r for r in range(8) if board >> r & 1 and r not in (a, b)]
                if len(rest) >= 3:
                    mask = (1 << a) | (1 << b) | sum(1 << r for r in rest[:3])
                    out[board, 8 * a + b] = 256 - mask
    return out


def build_omaha_tables(T: Tables) -> OmahaTables:
    """The pair tables from the hold'em evaluator's tables ``T`` (a fraction of a second)."""
    mults = np.array(RANK_MULTIPLIERS, np.int64)
    boards, slots = [], []
    for counts in rank_multisets((5,)):
        boards.append([r for r in range(13) for _ in range(counts[r])])
        s = int(np.dot(counts, mults))
        slots.append(int(T.rank_offsets[s >> HASH_SHIFT]) + (s & HASH_MASK))
    assert len(boards) == BOARD_CLASSES
    board_index = np.full(len(T.rank_values), -1, np.int32)
    board_index[np.array(slots)] = np.arange(BOARD_CLASSES, dtype=np.int32)
    pair_high = np.zeros((BOARD_CLASSES, 169), np.uint16)
    _fill_pair_high(np.array(boards, np.int64), mults, T, pair_high)
    masks = np.array([m for m in range(1 << 13) if 3 <= bin(m).count("1") <= 5], np.int64)
    assert len(masks) == FLUSH_MASKS
    flush_index = np.full(1 << 13, -1, np.int32)
    flush_index[masks] = np.arange(FLUSH_MASKS, dtype=np.int32)
    flush_pair = np.zeros((FLUSH_MASKS, 169), np.uint16)
    _fill_flush_pair(masks, T, flush_pair)
    ranks = np.array(boards, np.int64)
    low = np.zeros(BOARD_CLASSES, np.int64)
    for q in range(5):
        lr = LOW_RANK[ranks[:, q]]
        low |= np.where(lr >= 0, 1 << np.maximum(lr, 0), 0)
    return OmahaTables(T.card_keys, T.rank_offsets, board_index, pair_high, flush_index, flush_pair, _low_pair(),
                       ranks, low)


@lru_cache(maxsize=1)
def omaha_tables() -> OmahaTables:
    """The Omaha tables of this process, built on first use."""
    return build_omaha_tables(tables())
