"""numba's own start — the registries of its CPU target, filled by the first kernel a process loads — done
without importing SciPy (:func:`numba_started`).

>>> numba_started()
>>> import sys
>>> "numba.np.arraymath" in sys.modules
True
"""
from __future__ import annotations

import contextlib

__all__ = ["BLAS_PROBE", "numba_started"]

BLAS_PROBE = "scipy.linalg.cython_blas"     # what numba imports to learn whether a BLAS is at hand


def numba_started() -> None:
    """Fill the registries of numba's CPU target now, as the first kernel a process loads would, without
    importing SciPy: numba probes for a BLAS by importing :data:`BLAS_PROBE`, and SciPy's import (its
    ``scipy.linalg``, its array-API layer cloning numpy's namespace, ``numpy.f2py`` among it) was 0.2 s of the
    fork server's 0.7 s start, on the cluster's critical path, and 0.6 s of a run's client (issue 38), for a
    library no part of pokerpipe uses (SciPy comes with peers: POT, open-spiel).  The probe is answered
    "absent" while the registries load; then numba's one use of the answer (``numba.np.arraymath._HAVE_BLAS``:
    whether np.correlate/np.convolve of floats compile to a BLAS dot) is set to whether SciPy is installed,
    found without importing it, so that a kernel compiled here is the one compiled anywhere else; a kernel
    that calls BLAS imports SciPy then, as numba does.  Nothing here may fail: numba's internals changed
    only lose the saving.

    While the registries load, an import of :data:`BLAS_PROBE` by another thread of this process fails: call
    it before the process's other threads use SciPy (the fork server, first thing; the client's side-output
    thread, whose first kernel it precedes)."""
    with contextlib.suppress(Exception):
        import importlib.util
        import sys

        blocked = "numba.np.arraymath" not in sys.modules and BLAS_PROBE not in sys.modules
        if blocked:
            sys.modules[BLAS_PROBE] = None  # type: ignore[assignment]  # "import halted": ImportError at once
        try:
            from numba.core.registry import cpu_target

            cpu_target.target_context.refresh()
            cpu_target.typing_context.refresh()
        finally:
            if blocked and BLAS_PROBE in sys.modules and sys.modules[BLAS_PROBE] is None:
                del sys.modules[BLAS_PROBE]
        if blocked:
            from numba.np import arraymath

            if hasattr(arraymath, "_HAVE_BLAS"):
                arraymath._HAVE_BLAS = importlib.util.find_spec("scipy") is not None
