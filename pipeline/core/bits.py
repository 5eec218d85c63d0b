"""Bit operations on 64-bit words that numba does not spell: population count, lowest set bit, the j-th set bit.

Each is one instruction where the CPU has it (``popcnt``, ``tzcnt``, BMI2's ``pdep``), emitted as an LLVM
intrinsic inline in the kernel that calls it.  :func:`nth_set_bit` is how the Monte Carlo kernels deal a card
from a 64-bit mask of live cards without a deck array and without skipping held cards: the ``j``-th live card
for ``j`` uniform is a uniform live card.  ``pdep`` is used only where it is fast (Intel since Haswell, AMD
since Zen 3: :data:`FAST_PDEP`); elsewhere a branch-free halving search by population counts gives the same bit,
and the Monte Carlo deal, whose cards would chain one search after another, ranks them all at once instead
(:func:`pipeline.equity.dealing.live_ranks`).

>>> from numba import njit
>>> @njit
... def third(x):
...     return nth_set_bit(np.uint64(x), 2)
>>> int(third(0b1011010))
16
"""
from __future__ import annotations

from typing import Any, Callable, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .cpu import target_cpu

_I64 = ir.IntType(64)


def _popcount(typingctx: Any, x: Any) -> tuple:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


def _lowest_bit_index(typingctx: Any, x: Any) -> tuple:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


def _pdep_codegen(typingctx: Any, src: Any, mask: Any) -> tuple:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_I64, _I64]),
                                            "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


# typed for mypy as the calls the kernels make (an intrinsic's own signature starts with numba's typing context)
popcount = cast(Callable[[Any], np.uint64], intrinsic(_popcount))
popcount.__doc__ = """The number of set bits of the uint64 ``x`` (LLVM's ``ctpop``)."""
lowest_bit_index = cast(Callable[[Any], np.uint64], intrinsic(_lowest_bit_index))
lowest_bit_index.__doc__ = """The index of the lowest set bit of the uint64 ``x`` (``x`` != 0; LLVM's ``cttz``)."""
_pdep = cast(Callable[[Any, Any], np.uint64], intrinsic(_pdep_codegen))   # BMI2's parallel bit deposit (x86)


def _fast_pdep() -> bool:
    """Whether numba's target (:func:`~.cpu.target_cpu`: this CPU, unless NUMBA_CPU_NAME names another) has BMI2's
    ``pdep`` in hardware at one instruction (AMD before Zen 3 microcodes it)."""
    name, features = target_cpu()
    return "bmi2" in features and name not in ("znver1", "znver2", "bdver4", "bdver3", "bdver2")


FAST_PDEP = _fast_pdep()
_ONE = np.uint64(1)


@njit(cache=True, nogil=True, inline="always")
def _nth_set_bit_pdep(x: np.uint64, j: int) -> np.uint64:
    return _pdep(_ONE << np.uint64(j), x)


@njit(cache=True, nogil=True, inline="always")
def _nth_set_bit_search(x: np.uint64, j: int) -> np.uint64:
    """The same bit by halving: keep the half of the remaining window that holds the ``j``-th set bit."""
    uj = np.uint64(j)
    shift = np.uint64(0)
    for width in (32, 16, 8, 4, 2, 1):
        w = np.uint64(width)
        low: np.uint64 = popcount((x >> shift) & ((_ONE << w) - _ONE))
        up = uj >= low
        shift += w * np.uint64(up)
        uj -= low * np.uint64(up)
    return _ONE << shift


nth_set_bit = _nth_set_bit_pdep if FAST_PDEP else _nth_set_bit_search
nth_set_bit.__doc__ = """The ``j``-th lowest set bit of ``x`` as a one-bit word (``0 <= j < popcount(x)``)."""
