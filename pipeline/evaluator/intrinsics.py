"""What the evaluator's vector paths (:mod:`.simd`: AVX-512, :mod:`.avx2`) share to emit LLVM IR through llvmlite.

Each path is a numba ``@intrinsic`` whose code generator writes LLVM IR: generic vector operations where LLVM
picks the instructions well, x86 intrinsics (``llvm.x86.*``) where it does not.  An x86 intrinsic that the
compilation target lacks cannot be compiled, yet every kernel holds the blocks of both paths (it picks one at
run time, :func:`pipeline.core.cpu.simd_level`): so a block whose path the target cannot run compiles to a
trap instead (:func:`unsupported`), which :func:`~pipeline.core.cpu.simd_path` never lets a kernel reach.
Numba keys its cache by the target, so a kernel compiled with the trap never runs on a CPU that has the path.
"""
from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba.core import cgutils

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


def pointers(builder: Any, base: Any, index: Any, size: int, element: ir.Type) -> Any:
    """Eight pointers ``base + size * index`` for eight 64-bit indexes (llvmlite's gep takes no vector index)."""
    q8 = vector(I64, 8)
    start = builder.insert_element(ir.Constant(q8, ir.Undefined), builder.ptrtoint(base, I64), ir.Constant(I32, 0))
    start = builder.shuffle_vector(start, ir.Constant(q8, ir.Undefined), const(vector(I32, 8), [0]))
    return builder.inttoptr(builder.add(start, builder.mul(index, const(q8, [size]))),
                            ir.VectorType(element.as_pointer(), 8))


def prefetch(builder: Any, at: Any, ahead: int) -> None:
    """Ask for the cache line ``ahead`` bytes past ``at`` into L1 (a hint: it never faults, so the end of an
    array needs no test)."""
    fn = declare(builder, "llvm.prefetch.p0", ir.VoidType(), [I8.as_pointer(), I32, I32, I32])
    line = builder.gep(builder.bitcast(at, I8.as_pointer()), [ir.Constant(I64, ahead)])
    builder.call(fn, [line, ir.Constant(I32, 0), ir.Constant(I32, 3), ir.Constant(I32, 1)])


def unsupported(path: str) -> bool:
    """Whether numba's compilation target lacks what ``path`` (``"avx2"``, ``"avx512"``) needs."""
    have = target_features()
    return not all(f in have for f in NEEDS[path])


def trap(context: Any, builder: Any, result: ir.Type) -> Any:
    """A block of a path the target cannot run: a trap (never reached, :mod:`pipeline.core.cpu`), then a zero
    of the block's result type (``None`` for a block that returns nothing)."""
    builder.call(declare(builder, "llvm.trap", ir.VoidType(), []), [])
    return context.get_dummy_value() if result is None else ir.Constant(result, 0)
