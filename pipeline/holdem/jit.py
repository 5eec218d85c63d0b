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

from numba import njit

# numba's private switch ``_nrt`` is not in its typed signature (it is one of its target options)
hand_kernel = njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
"""The decorator of a function the betting kernel calls every hand: cached, releases the GIL, no NRT."""

hand_kernel_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")  # type: ignore[call-overload]
""":data:`hand_kernel`, inlined into its callers by numba (small helpers)."""
