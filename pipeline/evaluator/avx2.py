"""The evaluator's AVX2 path: eight seven-card hands a step, their checks included.

The same work as the AVX-512 blocks of :mod:`.simd`, for CPUs with AVX2 and no AVX-512 (AMD before Zen 4,
Intel's desktop parts and its servers before Skylake-SP), in 256-bit registers: the eight hands' keys as
two halves of four 64-bit lanes while their bytes are counted, then eight 32-bit lanes for the table
lookups of prebuilt hands, each of them one AVX2 gather of eight 32-bit values (``vpgatherdd``).

Seven-card hands (``hands7_block_avx2``), eight rows of a C-ordered uint8 ``(n, 7)`` array:

* the 56 bytes are read as four 16-byte loads, two rows each, so that every row lands in its own 64-bit
  lane of the 128-bit half it was loaded to (AVX2's byte shuffle does not cross halves): a byte shuffle per
  half-block then spreads the rows to one lane each, the byte after each row zero;
* an id outside the deck (``lowest``..51, ``lowest`` its first card: :mod:`.decks`) is one byte compare of
  ``id - lowest`` (an id below wraps above) on the card bytes; then the pad byte is set to 0xFF (no card
  equals it) and a repeated card is an equal pair of bytes within a lane, the lane rotated by one to four
  bytes (a byte shuffle each) and compared with itself: all 21 pairs of the seven cards;
* the rank sum is looked up in registers, one byte of the multipliers at a time (three 16-entry byte tables
  indexed by ``id >> 2``; the pad's index reads a zero), each summed over the row by ``psadbw``; the suit
  counters likewise, from two byte tables (``16**suit`` split over clubs-diamonds and hearts-spades);
* the eight rank sums and counters are gathered into eight 32-bit lanes, and the rank sums stored (0 for a
  flush): the caller (:func:`~.simd.evaluate_hands7`) looks them up by scalar loads a chunk at a time and
  values the flushes afterwards, as on the AVX-512 path (gathers there ran at half the loads' rate).

Prebuilt hands were valued here too, eight a step by two gathers each, a flush in its lane; scalar loads 64
hands at a time replaced them (:func:`pipeline.evaluator.hands._evaluate_chunks`: 1.3x by board), as they had
in Monte Carlo (:func:`pipeline.equity.montecarlo.evaluate_bits_block`).
"""
from __future__ import annotations

from typing import Any, Callable, cast

import numpy as np
from llvmlite import ir
from numba.extending import intrinsic

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
from .kernels import RANK_MULTIPLIERS

_B16, _B32, _Q4, _D8, _M8, _M32 = vector(I8, 16), vector(I8, 32), vector(I64, 4), vector(I32, 8), vector(I1, 8), \
    vector(I1, 32)
_ZERO_BYTE = 0x80           # a byte shuffle's index with its top bit set writes a zero
_LOW_DWORDS = list(range(0, 16, 2))     # the low 32-bit halves of eight 64-bit lanes held in two registers
_HIGH_DWORDS = list(range(1, 16, 2))


def _byte_shuffle(builder: Any, table: Any, index: Any) -> Any:
    """AVX2's ``vpshufb``: in each 16-byte half, byte ``index[i] & 15`` of ``table``'s half, or zero where
    ``index[i]`` has its top bit set."""
    return builder.call(declare(builder, "llvm.x86.avx2.pshuf.b", _B32, [_B32, _B32]), [table, index])


def _row_sums(builder: Any, table: Any, index: Any) -> Any:
    """Per 64-bit lane, the sum of ``table``'s bytes at the lane's eight indexes (``vpshufb``, ``vpsadbw``)."""
    fn = declare(builder, "llvm.x86.avx2.psad.bw", _Q4, [_B32, _B32])
    return builder.call(fn, [_byte_shuffle(builder, table, index), const(_B32, [0])])


def _split(builder: Any, pair: list, halves: list) -> Any:
    """Eight 32-bit values: the low (or high) halves of the four 64-bit lanes of ``pair[0]``, then of ``pair[1]``."""
    return builder.shuffle_vector(builder.bitcast(pair[0], _D8), builder.bitcast(pair[1], _D8), const(_D8, halves))


def _multiplier_bytes(k: int) -> list:
    """Byte ``k`` of each rank's multiplier, a 16-entry table (ranks 13..15: zero) repeated per half."""
    return [(m >> 8 * k) & 0xFF for m in RANK_MULTIPLIERS] + [0, 0, 0]


def _hands7_body_avx2(builder: Any, first: Any, lowest: Any) -> tuple:
    """The AVX2 block's work (:func:`~.intrinsics.seven_card_block`): ``(rank sums, flush lanes, bad)`` of the
    eight rows of 56 bytes at ``first``, a card outside ``lowest``..51 (an i8, the deck's first card) bad."""
    loads = []
    for at in (0, 14, 28, 40):          # rows 0-1, 2-3, 4-5, 6-7: all inside the block's 56 bytes
        load = builder.load(builder.bitcast(builder.gep(first, [ir.Constant(I64, at)]), _B16.as_pointer()))
        load.align = 1
        loads.append(load)
    z = _ZERO_BYTE
    two_rows = list(range(7)) + [z] + list(range(7, 14)) + [z]     # a half's two rows, one to a lane
    halves = []
    for h, last in ((0, two_rows), (2, [b + 2 if b != z else z for b in two_rows])):
        both = builder.shuffle_vector(loads[h], loads[h + 1], ir.Constant(vector(I32, 32), list(range(32))))
        halves.append(_byte_shuffle(builder, both, const(_B32, two_rows + last)))
    low = broadcast(builder, lowest, _B32)
    shifted = [builder.sub(h, low) for h in halves]        # the pad bytes (zero) wrap too: not compared
    deck = builder.icmp_unsigned(">", builder.call(declare(builder, "llvm.umax.v32i8", _B32, [_B32, _B32]),
                                                   shifted), builder.sub(const(_B32, [51]), low))
    any_of = declare(builder, "llvm.vector.reduce.or.v32i1", I1, [_M32])
    bad = builder.call(any_of, [builder.and_(deck, const(_M32, [1] * 7 + [0]))])
    pad = const(_B32, [0] * 7 + [0xFF])
    lanes = [builder.or_(h, pad) for h in halves]
    same = None
    for shift in range(1, 5):      # byte b against byte b - shift (mod 8): every pair of the seven cards
        turn = const(_B32, [8 * (b // 8) + (b - shift) % 8 for b in range(16)] * 2)
        for lane in lanes:
            eq = builder.icmp_unsigned("==", lane, _byte_shuffle(builder, lane, turn))
            same = eq if same is None else builder.or_(same, eq)
    bad = builder.or_(bad, builder.call(any_of, [same]))
    rank_sums, counters = [], []
    for lane in lanes:
        rank = builder.and_(builder.lshr(lane, const(_B32, [2])), const(_B32, [0x3F]))   # the pad: 63
        total = None
        for k in range(3):
            part = _row_sums(builder, const(_B32, _multiplier_bytes(k)), rank)
            part = builder.shl(part, const(_Q4, [8 * k])) if k else part
            total = part if total is None else builder.add(total, part)
        rank_sums.append(total)
        suit = builder.and_(lane, const(_B32, [0x83]))        # the pad's top bit: a zero from both tables
        clubs_diamonds = _row_sums(builder, const(_B32, [1, 16] + [0] * 14), suit)
        hearts_spades = _row_sums(builder, const(_B32, [0, 0, 1, 16] + [0] * 12), suit)
        counters.append(builder.or_(clubs_diamonds, builder.shl(hearts_spades, const(_Q4, [8]))))
    rank_sum = _split(builder, rank_sums, _LOW_DWORDS)
    count = _split(builder, counters, _LOW_DWORDS)
    flags = builder.and_(builder.add(count, const(_D8, [0x3333])), const(_D8, [0x8888]))
    flush = builder.icmp_unsigned("!=", flags, const(_D8, [0]))
    return rank_sum, flush, bad


# typed for mypy as the call the kernel makes (an intrinsic's own signature starts with numba's typing context)
hands7_block_avx2 = cast(Callable[[Any, Any, Any, Any], np.uint64],
                         intrinsic(seven_card_block("avx2", _hands7_body_avx2)))
