"""The evaluator's AVX-512 path, and the kernel that runs it or the AVX2 one (:mod:`.avx2`): eight seven-card
hands a step, their checks included.

:func:`pipeline.evaluate` must refuse a hand holding an id outside the deck or a repeated card.  Checked card
by card, that costs as much as the evaluation (a bound test and a bit per card: half the kernel's rate, issue
24).  Here the checks ride on the vector work that computes the keys, eight rows of a C-ordered uint8
``(n, 7)`` array at a time (56 bytes, one masked load):

* each row is moved into its own 64-bit lane, its seventh byte followed by a pad byte;
* an id outside the deck is one byte compare over the 56 bytes: ``id - lowest > 51 - lowest`` unsigned, where
  ``lowest`` is the deck's first card (0 for the 52-card deck, 16 for the short deck, :mod:`.decks`), so an id
  below it wraps above as a negative id does;
* a repeated card is an equal pair of bytes within a lane: the lane rotated by one to four bytes, compared
  bytewise with itself, covers all 21 pairs of the seven cards;
* the key (:mod:`.tables`) is the rank multipliers' sum, each looked up in registers (a two-table permute
  of the 13 multipliers indexed by ``id >> 2``), plus the suit counters, counted for the whole row at
  once (a byte table of ``16**suit`` split over two bytes, summed by ``psadbw``);
* the block writes its rank sums (0 for a flush); the two lookups of the rank hash run as scalar loads
  (:func:`evaluate_hands7`), two blocks behind in the same loop, so that the load units work on one block's
  rank sums while the vector units compute the next block's: in a loop of their own after the blocks they
  added their time to the blocks' (AVX2, AMD EPYC Zen 4: 405 and 437 M hands/s, random and by board, against
  513 and 565 with the two overlapped), and as gathers in the block they ran at about half the loads' rate;
* a flush (3% of hands, in a fifth of the blocks) is valued after its chunk of rows, from a list of the
  blocks holding one made without a branch: a branch per block mispredicts on them, which cost a third of
  the rate.  (Valuing them in their lanes, a suited mask built by a shift per card, measured 8% slower.)

Both paths ask for their input :data:`PREFETCH_BYTES` ahead of the block in hand: on arrays larger than the
cache, with table reads that hit it (hands sharing boards), the hardware's own prefetch fell behind and the
rate with it (290 against 720 M hands/s; the ``pool`` rows of benchmarks/bench_vs_ompeval.py).

A block that fails is re-read by :func:`~.kernels.check_cards` to name its first bad row.  The values are
the kernel's, bit for bit (tests/evaluator).  The x86 intrinsics here need AVX-512 F and BW; :mod:`.avx2` does
the same work in 256-bit registers for CPUs without them.  The kernels below run either, by the ``level`` they
are given (:func:`pipeline.core.cpu.simd_level`: the best the CPU has, or ``POKERPIPE_SIMD``); on the scalar
path :func:`pipeline.evaluate` keeps :func:`~.kernels.evaluate_checked`.

Prebuilt hands (:mod:`.hands`: keys and suited masks accumulated beforehand) need no key work: their kernel
is scalar loads, 64 hands at a time, on both vector paths (:func:`~.hands._evaluate_chunks`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, cast

import numpy as np
from llvmlite import ir
from numba import njit
from numba.extending import intrinsic

from ..core.cpu import AVX512
from .avx2 import hands7_block_avx2
from .decks import STANDARD, Deck
from .intrinsics import (
    I1,
    I8,
    I32,
    I64,
    broadcast,
    const,
    declare,
    seven_card_block,
    vector,
)
from .kernels import (
    FLUSH_FLAGS,
    HASH_MASK,
    HASH_SHIFT,
    KEY_BASE,
    RANK_MULTIPLIERS,
    SUITED_BITS,
    Tables,
    check_cards,
    evaluate_checked,
    flush_shift,
    trailing_zeros,
)
from .tables import tables

_B64, _Q8, _D8, _M8, _M64 = vector(I8, 64), vector(I64, 8), vector(I32, 8), vector(I1, 8), vector(I1, 64)


def _hands7_body(builder: Any, first: Any, lowest: Any) -> tuple:
    """The AVX-512 block's work (:func:`~.intrinsics.seven_card_block`): ``(rank sums, flush lanes, bad)`` of the
    eight rows of 56 bytes at ``first``, a card outside ``lowest``..51 (an i8, the deck's first card) bad."""
    first = builder.bitcast(first, _B64.as_pointer())
    load = declare(builder, "llvm.masked.load.v64i8.p0", _B64, [_B64.as_pointer(), I32, _M64, _B64])
    raw = builder.call(load, [first, ir.Constant(I32, 1), const(_M64, [1] * 56 + [0] * 8), const(_B64, [0])])
    lanes = []           # lane k: bytes 7k .. 7k+6 of the block, then a pad byte (0xFF)
    for k in range(8):
        lanes += [7 * k + b for b in range(7)] + [64]
    lane_bytes = builder.shuffle_vector(raw, const(_B64, [0xFF]), ir.Constant(ir.VectorType(I32, 64), lanes))
    lane = builder.bitcast(lane_bytes, _Q8)
    any_of = declare(builder, "llvm.vector.reduce.or.v64i1", I1, [_M64])
    card_bytes = const(_M64, [1] * 7 + [0])
    low = broadcast(builder, lowest, _B64)
    bad = builder.call(any_of, [builder.and_(builder.icmp_unsigned(">", builder.sub(lane_bytes, low),
                                                                   builder.sub(const(_B64, [51]), low)),
                                             card_bytes)])
    rotate = declare(builder, "llvm.fshl.v8i64", _Q8, [_Q8, _Q8, _Q8])
    for shift in range(1, 5):      # byte b against byte b - shift (mod 8): every pair of the seven cards
        turned = builder.bitcast(builder.call(rotate, [lane, lane, const(_Q8, [8 * shift])]), _B64)
        pairs = const(_M64, [int(b != 7 and (b - shift) % 8 != 7) for b in range(8)])
        same = builder.and_(builder.icmp_unsigned("==", lane_bytes, turned), pairs)
        bad = builder.or_(bad, builder.call(any_of, [same]))
    permute2 = declare(builder, "llvm.x86.avx512.vpermi2var.q.512", _Q8, [_Q8, _Q8, _Q8])
    low = const(_Q8, list(RANK_MULTIPLIERS[:8]))
    high = const(_Q8, list(RANK_MULTIPLIERS[8:]) + [0, 0, 0])
    key = const(_Q8, [int(KEY_BASE)])
    for j in range(7):             # the permute reads bits 0..3 of its index: the rank bits of byte j
        rank = builder.lshr(lane, const(_Q8, [8 * j + 2]))
        key = builder.add(key, builder.call(permute2, [low, rank, high]))
    suit = builder.or_(builder.and_(lane_bytes, const(_B64, [3])), const(_B64, [0] * 7 + [4]))
    shuffle = declare(builder, "llvm.x86.avx512.pshuf.b.512", _B64, [_B64, _B64])
    byte_sum = declare(builder, "llvm.x86.avx512.psad.bw.512", _Q8, [_B64, _B64])
    clubs_diamonds = builder.call(byte_sum, [builder.call(shuffle, [const(_B64, [1, 16] + [0] * 14), suit]),
                                             const(_B64, [0])])
    hearts_spades = builder.call(byte_sum, [builder.call(shuffle, [const(_B64, [0, 0, 1, 16] + [0] * 12), suit]),
                                            const(_B64, [0])])
    counters = builder.or_(clubs_diamonds, builder.shl(hearts_spades, const(_Q8, [8])))
    key = builder.add(key, builder.shl(counters, const(_Q8, [32])))
    flush = builder.icmp_unsigned("!=", builder.and_(key, const(_Q8, [int(FLUSH_FLAGS)])), const(_Q8, [0]))
    rank_sum = builder.trunc(builder.and_(key, const(_Q8, [0xFFFFFFFF])), _D8)
    return rank_sum, flush, bad


# typed for mypy as the call the kernel makes (an intrinsic's own signature starts with numba's typing context)
hands7_block = cast(Callable[[Any, Any, Any, Any], np.uint64],
                    intrinsic(seven_card_block("avx512", _hands7_body)))


@lru_cache(maxsize=None)
def offsets32(deck: Deck = STANDARD) -> np.ndarray:
    """The rank hash's row displacements of ``deck``'s tables as uint32 (they are below 2**18): half the cache
    lines of the uint64 ones the scalar kernels read, for the seven-card lookups (3-7% faster on an AMD EPYC)."""
    return tables(deck).rank_offsets.astype(np.uint32)


@lru_cache(maxsize=None)
def lookup_values(deck: Deck = STANDARD) -> np.ndarray:
    """The flush table, then the rank table (``deck``'s): one table for a lookup that reads a flush at its rank
    mask and any other hand :data:`~.kernels.FLUSH_SLOTS` past its rank slot (Monte Carlo,
    :mod:`pipeline.equity.trials`; built once per process and deck from :func:`~.tables.tables`)."""
    T = tables(deck)
    return np.concatenate([T.flush_values, T.rank_values])


_HS, _HM = np.uint64(HASH_SHIFT), np.uint64(HASH_MASK)
LAG = 16            # rows between a block's rank sums and their lookups (two blocks)
CHUNK = 1 << 13     # rows whose flushes are valued together, while their cards are in the cache


@njit(cache=True, nogil=True)
def evaluate_hands7(cards: np.ndarray, out: np.ndarray, T: Tables, values: np.ndarray, offsets: np.ndarray,
                    level: int, lowest: int = 0) -> int:
    """:func:`~.kernels.evaluate_checked` for a C-ordered uint8 ``(n, 7)`` array, eight rows a step at ``level``
    (AVX512: :func:`hands7_block`, AVX2: :func:`~.avx2.hands7_block_avx2`; ``values`` and ``offsets`` are the rank
    hash's tables of the deck ``T`` is, ``T.rank_values`` and :func:`offsets32`): the index of the first row
    holding an id outside ``lowest``..51 (``lowest`` the deck's first card, :mod:`.decks`) or a repeated card,
    else -1.

    The blocks write rank sums, looked up :data:`LAG` rows behind the block in hand, by scalar loads in the
    blocks' loop: the blocks alone ran at 1,040 M hands/s and the lookups alone at 1,200-1,600, one after the
    other at 430-520, interleaved at 530-700 (AVX2, AMD EPYC Zen 4, 16,384 hands in the cache).  Gathers, in
    the block or in that loop, ran at half the loads' rate.  The blocks holding a flush (a fifth of
    them) are listed without a branch and valued after the lookups (:func:`value_flushes`): a branch per block
    mispredicts on them (416 M hands/s against 602 without flushes, issue 24)."""
    n = cards.shape[0]
    pending = np.empty(CHUNK // 8, np.uint64)
    byte = np.uint64(8)
    low = np.uint8(lowest)
    r = 0
    whole = n - n % 8
    while r < whole:
        start = r
        end = min(r + CHUNK, whole)
        count = 0
        looked = start      # rows before it hold values, from it rank sums
        while r < end:
            if level == AVX512:
                flags = hands7_block(cards, r, out, low)
            else:
                flags = hands7_block_avx2(cards, r, out, low)
            if flags >> byte:
                return r + check_cards(cards[r:r + 8], lowest)
            pending[count] = (np.uint64(r) << byte) | flags
            count += flags != 0
            r += 8
            if r - looked > LAG:    # the block LAG rows back: its loads overlap the next block's vector work
                for i in range(looked, looked + 8):
                    s = np.uint64(out[i])
                    out[i] = values[np.uint64(offsets[s >> _HS]) + (s & _HM)]
                looked += 8
        for i in range(looked, end):
            s = np.uint64(out[i])
            out[i] = values[np.uint64(offsets[s >> _HS]) + (s & _HM)]
        value_flushes(cards, out, pending, count, T)
    if r < n:
        bad = evaluate_checked(cards[r:], out[r:], T, lowest)
        if bad >= 0:
            return r + bad
    return -1


@njit(cache=True, nogil=True)
def value_flushes(cards: np.ndarray, out: np.ndarray, pending: np.ndarray, count: int, T: Tables) -> None:
    """The flushes of the ``count`` blocks listed in ``pending`` (row of the block << 8 | its flush lanes): each
    flush's suit from its key, its ranks from the suited mask of its cards (:data:`SUITED_BITS`, one load and OR a
    card; a compare and shift a card, as before, ran 7-8% slower on the whole kernel)."""
    K, flush_values = T.card_keys, T.flush_values
    one, byte = np.uint64(1), np.uint64(8)
    for e in range(count):
        lanes = pending[e] & np.uint64(0xFF)
        first = pending[e] >> byte
        while lanes:
            lane = trailing_zeros(lanes)
            lanes &= lanes - one
            i = first + lane
            key = KEY_BASE
            mask = np.uint64(0)
            for j in range(7):
                c = cards[i, j]
                key += K[c]
                mask |= SUITED_BITS[c]
            ranks = (mask >> flush_shift(key)) & np.uint64(0x1FFF)
            out[i] = flush_values[ranks]
