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

The batch evaluator (:func:`.evaluator.evaluate_omaha`) reads the same values in a
layout built for one random board a row, where the cost is cache misses, not work:
:attr:`OmahaTables.high_pairs` holds ``pair_high`` over the 91 *unordered* rank pairs
(the table is symmetric), each board's row padded to 96 entries and aligned, so a row
is three 64-byte lines (``pair_high``'s 169 columns are six); 1.2 MB, not 2.1, so it
stays in a core's L2.  :attr:`OmahaTables.flush_pairs` does the same for
``flush_pair``, behind a zero row 0 that a board without a flush reads.  A board's row
comes from one lookup of its rank key (:data:`BOARD_MULTIPLIERS`, summed over its five
cards with the suit counters of :attr:`OmahaTables.board_key`) in
:attr:`OmahaTables.board_row`, not the hold'em hash's two dependent ones, and a card
pair's column and common suit from :attr:`OmahaTables.pair_code`.

The tables take about 5.5 MB and are built in a fraction of a second from the
hold'em evaluator's (:mod:`pipeline.evaluator.tables`), once a process.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ..evaluator.kernels import HASH_MASK, HASH_SHIFT, RANK_MULTIPLIERS, SUITED_BITS, Tables
from ..evaluator.tables import rank_multisets, tables

BOARD_CLASSES = 6175          # rank multisets of five cards with at most four of a rank
FLUSH_MASKS = 2288            # 13-bit masks of 3, 4 or 5 ranks: C(13,3) + C(13,4) + C(13,5)
NO_LOW = 0
# rank 0..12 (2..A) -> low rank 0..7 (A, 2..8) or -1
LOW_RANK = np.array([1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, 0], np.int64)
# Rank multipliers of the batch evaluator's board key: each the smallest integer above the previous
# that keeps every sum of five ranks (at most four of a rank) unique -- a greedy search like
# benchmarks/search_rank_multipliers.py's for seven cards; build_omaha_tables checks the property.
# The largest sum, 4 * 79415 + 43258, sizes board_row (0.7 MB, of which a board reads one entry).
BOARD_MULTIPLIERS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
BOARD_KEYS = 4 * BOARD_MULTIPLIERS[-1] + BOARD_MULTIPLIERS[-2] + 1
PAIR_COLUMNS = 96     # a row of high_pairs / flush_pairs: 91 unordered rank pairs, padded to three cache lines
OFFSUIT = 4           # the suit of a pair_code whose two cards differ in suit


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
    # the batch evaluator's layout of the same values (see the module doc)
    board_key: np.ndarray      # (52,) uint64: BOARD_MULTIPLIERS[rank] | 1 << (32 + 4 * suit)
    suit_bit: np.ndarray       # (52,) uint64: 1 << (16 * suit + rank), the card's bit in a suited mask
    board_row: np.ndarray      # (BOARD_KEYS,) uint16: board rank class of a five-card rank key (0 if none)
    high_pairs: np.ndarray     # (6175 * 96,) uint16: pair_high[b, 13*r1+r2] at 96 * b + pair column
    flush_row: np.ndarray      # (8192,) uint16: 1 + flush_index of a suit's rank mask, 0 if not 3-5 ranks
    flush_pairs: np.ndarray    # (2289 * 96,) uint16: row 0 zeros, then flush_pair[f, 13*r1+r2] at 96 * (f + 1) + column
    pair_code: np.ndarray      # (4096,) uint16: cards a, b at 64 * a + b: pair column | suit (or OFFSUIT) << 7


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


def pair_column(r1: int, r2: int) -> int:
    """Column 0..90 of the unordered rank pair r1, r2 in :attr:`OmahaTables.high_pairs` rows."""
    hi, lo = max(r1, r2), min(r1, r2)
    return hi * (hi + 1) // 2 + lo


def _aligned(values: np.ndarray, align: int = 64) -> np.ndarray:
    """A flat copy of ``values`` whose data starts on an ``align``-byte boundary (a row of 96 uint16
    then spans exactly three cache lines)."""
    buf = np.zeros(values.nbytes + align, np.uint8)
    off = -buf.ctypes.data % align
    out = buf[off:off + values.nbytes].view(values.dtype)
    out[:] = values.reshape(-1)
    return out


def _batch_layout(pair_high: np.ndarray, flush_index: np.ndarray, flush_pair: np.ndarray,
                  boards: np.ndarray) -> tuple:
    """The batch evaluator's tables (see the module doc) from the pair tables."""
    board_key = np.array([BOARD_MULTIPLIERS[c >> 2] | 1 << (32 + 4 * (c & 3)) for c in range(52)], np.uint64)
    suit_bit = SUITED_BITS.copy()
    keys = np.array(BOARD_MULTIPLIERS, np.int64)[boards].sum(axis=1)
    assert len(np.unique(keys)) == BOARD_CLASSES and keys.max() < BOARD_KEYS
    board_row = np.zeros(BOARD_KEYS, np.uint16)
    board_row[keys] = np.arange(BOARD_CLASSES)
    for t in (pair_high, flush_pair):    # a pair's value does not depend on the order of its ranks
        assert (t.reshape(-1, 13, 13) == t.reshape(-1, 13, 13).transpose(0, 2, 1)).all()
    order = [13 * hi + lo for hi in range(13) for lo in range(hi + 1)]    # by pair_column: 0, 1, .. 90
    assert [pair_column(c // 13, c % 13) for c in order] == list(range(91))
    high = np.zeros((BOARD_CLASSES, PAIR_COLUMNS), np.uint16)
    high[:, :91] = pair_high[:, order]
    flush = np.zeros((FLUSH_MASKS + 1, PAIR_COLUMNS), np.uint16)
    flush[1:, :91] = flush_pair[:, order]
    flush_row = np.where(flush_index >= 0, flush_index + 1, 0).astype(np.uint16)
    pair_code = np.zeros(64 * 64, np.uint16)
    for a in range(52):
        for b in range(52):
            suit = a & 3 if a & 3 == b & 3 else OFFSUIT
            pair_code[64 * a + b] = pair_column(a >> 2, b >> 2) | suit << 7
    return board_key, suit_bit, board_row, _aligned(high), flush_row, _aligned(flush), pair_code


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
                       ranks, low, *_batch_layout(pair_high, flush_index, flush_pair, ranks))


@lru_cache(maxsize=1)
def omaha_tables() -> OmahaTables:
    """The Omaha tables of this process, built on first use."""
    return build_omaha_tables(tables())
