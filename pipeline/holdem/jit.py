"""How the betting kernel's per-hand functions are compiled: numba, cached, with no reference counting.

numba's runtime (NRT) counts the references to every array a compiled function
binds — each argument, each view, each array taken out of a named tuple — with
an atomic add when it is bound and another when it dies.  A hand calls a dozen
such functions (the hand itself, every decision, the hand weight, the showdown,
the pots) holding some 30 arrays between them: ``perf`` found 46% of a heads-up
hand's time (tag vs random, weights from the tables) in ``NRT_incref`` and
``NRT_decref``.

The per-hand functions allocate nothing: every array they touch is allocated
once per run by their caller and outlives the call.  So they are compiled with
the runtime off (numba's ``_nrt=False``): no counting at all.  A function that
needs the runtime (one that allocates) then fails to compile rather than run,
so this can neither leak nor free anything.  The same kernel played 2.5x the
hands a CPU second (1.12 M vs 437 k, tag vs random; 2.6 M vs 865 k random vs
random), with the same results.
"""
from __future__ import annotations

from typing import Any, Callable, cast

import numpy as np
from llvmlite import ir  # numba's own dependency, without type stubs (mypy ignores its imports)
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# numba's private switch ``_nrt`` is not in its typed signature (it is one of its target options)
hand_kernel = njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
"""The decorator of a function the betting kernel calls every hand: cached, releases the GIL, no NRT."""

hand_kernel_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")  # type: ignore[call-overload]
""":data:`hand_kernel`, inlined into its callers by numba (small helpers)."""


@intrinsic
def _prefetch(typingctx: Any, array: Any, index: Any) -> Any:
    """Ask the processor to bring the cache line of ``array[index]`` (a 1-D array's element, a 2-D array's row
    start) closer, without waiting for it: LLVM's ``llvm.prefetch`` (read, to all cache levels).  A hand-weight
    table read misses the cache (the tables are 800 MB) and stalls the hand 0.5-1 µs on this machine; asked a
    street ahead, the row is there when the weight is read.  ``index`` must be inside the array."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aty = signature.args[0]
        ary = context.make_array(aty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        where = [context.cast(builder, args[1], signature.args[1], types.intp)] + [zero] * (aty.ndim - 1)
        ptr = cgutils.get_item_pointer(context, builder, aty, ary, where)
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


prefetch = cast(Callable[[np.ndarray, int], None], _prefetch)   # as kernels call it (numba adds the typing context)
