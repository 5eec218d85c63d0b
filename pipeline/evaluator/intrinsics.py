"""What the evaluator's vector paths (:mod:`.simd`: AVX-512, :mod:`.avx2`) share to emit LLVM IR through llvmlite.

Each path is a numba ``@intrinsic`` whose code generator writes LLVM IR: generic vector operations where LLVM
picks the instructions well, x86 intrinsics (``llvm.x86.*``) where it does not.  An x86 intrinsic that the
compilation target lacks cannot be compiled, yet every kernel holds the blocks of both paths (it picks one at
run time, :func:`pipeline.core.cpu.simd_level`): so a block whose path the target cannot run compiles to a
trap instead (:func:`unsupported`), which :func:`~pipeline.core.cpu.simd_path` never lets a kernel reach.
Numba keys its cache by the target, so a kernel compiled with the trap never runs on a CPU that has the path.
"""
from __future__ import annotations

from typing import Any, Callable, cast

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..core.cpu import NEEDS, target_features

# How far ahead the paths ask for their input (:mod:`.simd`): 36 blocks of cards, 32 of keys.  Measured on
# large arrays of hands from few distinct ones: 512 bytes gave 606 M hands/s, 1,024 to 8,192 gave 740-800.
PREFETCH_BYTES = 2048

I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)


def vector(element: ir.Type, count: int) -> ir.VectorType:
    """LLVM's ``<count x element>``."""
    return ir.VectorType(element, count)


def const(t: ir.VectorType, values: list) -> ir.Constant:
    """A constant vector of type ``t``: ``values``, repeated to fill it."""
    return ir.Constant(t, values if len(values) == t.count else values * (t.count // len(values)))


def declare(builder: Any, name: str, ret: ir.Type, args: list) -> Any:
    """The function (an LLVM intrinsic) ``name`` of the builder's module, declared on first use."""
    return cgutils.get_or_insert_function(builder.module, ir.FunctionType(ret, args), name)


def broadcast(builder: Any, scalar: Any, t: ir.VectorType) -> Any:
    """A vector of type ``t`` holding ``scalar`` (of its element type) in every lane."""
    one = builder.insert_element(ir.Constant(t, ir.Undefined), scalar, ir.Constant(I32, 0))
    return builder.shuffle_vector(one, ir.Constant(t, ir.Undefined), const(vector(I32, t.count), [0]))


def prefetch(builder: Any, at: Any, ahead: int) -> None:
    """Ask for the cache line ``ahead`` bytes past ``at`` into L1 (a hint: it never faults, so the end of an
    array needs no test)."""
    fn = declare(builder, "llvm.prefetch.p0", ir.VoidType(), [I8.as_pointer(), I32, I32, I32])
    line = builder.gep(builder.bitcast(at, I8.as_pointer()), [ir.Constant(I64, ahead)])
    builder.call(fn, [line, ir.Constant(I32, 0), ir.Constant(I32, 3), ir.Constant(I32, 1)])


def _prefetch_item(typingctx: Any, array: Any, index: Any) -> tuple:
    """``prefetch_item(array, i)`` in a kernel: :func:`prefetch` of the line holding ``array[i]`` of a contiguous
    1-d array, ``i`` past its end included (no bound test: a prefetch never faults)."""
    sig = types.void(array, index)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        prefetch(builder, builder.gep(data, [args[1]]), 0)
        return context.get_dummy_value()

    return sig, codegen


# typed for mypy as the call a kernel makes (an intrinsic's own signature starts with numba's typing context)
prefetch_item = cast(Callable[[Any, Any], None], intrinsic(_prefetch_item))


def unsupported(path: str) -> bool:
    """Whether numba's compilation target lacks what ``path`` (``"avx2"``, ``"avx512"``) needs."""
    have = target_features()
    return not all(f in have for f in NEEDS[path])


def trap(context: Any, builder: Any, result: ir.Type) -> Any:
    """A block of a path the target cannot run: a trap (never reached, :mod:`pipeline.core.cpu`), then a zero
    of the block's result type (``None`` for a block that returns nothing)."""
    builder.call(declare(builder, "llvm.trap", ir.VoidType(), []), [])
    return context.get_dummy_value() if result is None else ir.Constant(result, 0)


def seven_card_block(path: str, body: Callable[[Any, Any, Any], tuple]) -> Callable:
    """The typing and code of a seven-card block intrinsic ``(cards, row, out, lowest) -> uint64`` of ``path``:
    rows ``row .. row+7`` of a C-ordered uint8 ``(n, 7)`` array, of a deck whose first card id is ``lowest`` (a
    uint8: 0, or 16 for the short deck, :mod:`.decks`).  ``body(builder, first, lowest)`` gets the address of
    the block's first card (the input :data:`PREFETCH_BYTES` ahead asked for) and ``lowest`` (an i8), and
    returns ``(rank_sums, flush, bad)``: eight int32, eight i1 and one i1.  The block stores the rank sums (0
    for a flush) at ``out[row:row+8]`` for the caller's lookups and returns the flush lanes (bits 0..7) and
    ``bad`` (bit 8: a row of the block holds an id outside ``lowest``..51 or a repeated card)."""
    def typer(typingctx: Any, cards: Any, row: Any, out: Any, lowest: Any) -> tuple:
        sig = types.uint64(cards, types.int64, out, types.uint8)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if unsupported(path):
                return trap(context, builder, I64)
            cards_at, out_at = (context.make_array(signature.args[i])(context, builder, args[i]).data for i in (0, 2))
            row = args[1]
            first = builder.gep(cards_at, [builder.mul(row, ir.Constant(I64, 7))])
            prefetch(builder, first, PREFETCH_BYTES)
            rank_sums, flush, bad = body(builder, first, args[3])
            d8 = vector(I32, 8)
            at = builder.bitcast(builder.gep(out_at, [row]), d8.as_pointer())
            builder.store(builder.select(flush, const(d8, [0]), rank_sums), at).align = 4
            lanes = builder.zext(builder.bitcast(flush, I8), I64)
            return builder.or_(lanes, builder.shl(builder.zext(bad, I64), ir.Constant(I64, 8)))

        return sig, codegen

    return typer
