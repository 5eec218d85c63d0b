"""numba's own start — the registries of its CPU target, filled by the first kernel a process loads — done
without importing SciPy (:func:`numba_started`).

>>> numba_started()
>>> import sys
>>> "numba.np.arraymath" in sys.modules
True
"""
from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
from collections.abc import Iterator
from typing import Any

__all__ = ["BLAS_PROBE", "numba_started", "start_numba_without_scipy"]

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
        import sys

        with _probe_answered_absent("numba.np.arraymath" not in sys.modules):
            from numba.core.registry import cpu_target

            cpu_target.target_context.refresh()
            cpu_target.typing_context.refresh()


def start_numba_without_scipy() -> None:
    """Have numba's start, whenever this process's first kernel loads, skip SciPy's import as
    :func:`numba_started` does, without starting numba now: the command line's (:mod:`jobs.launch`), whose
    command may refuse its input before any kernel runs, and would then have paid for numba's registries
    (0.35 s of CPU) for nothing.  The registries import ``numba.np.arraymath``, whose import probes for a
    BLAS: a finder placed first on :data:`sys.meta_path` wraps that one import in the same answer, and leaves.
    A warm ``pokerpipe equity AhKh QsQd`` spent 0.35 s of its 1.6 s of CPU importing ``scipy.linalg``
    (AMD EPYC Zen 1).  Where numba has started already, there is nothing to skip; nothing here may fail."""
    import sys

    if "numba.np.arraymath" not in sys.modules and not any(isinstance(f, _ArraymathFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _ArraymathFinder())


class _ArraymathFinder(importlib.abc.MetaPathFinder):
    """:func:`start_numba_without_scipy`'s finder: wraps the first import of ``numba.np.arraymath`` in
    :func:`_probe_answered_absent`, then leaves :data:`sys.meta_path`."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        import sys

        if name != "numba.np.arraymath":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        loader = getattr(spec, "loader", None)
        run = getattr(loader, "exec_module", None)
        if run is None:
            return spec

        def exec_module(module: Any) -> None:
            with _probe_answered_absent(True):     # the module is listed already while it runs
                run(module)

        with contextlib.suppress(Exception):
            loader.exec_module = exec_module  # type: ignore[union-attr]
        return spec


@contextlib.contextmanager
def _probe_answered_absent(first: bool) -> Iterator[None]:
    """Within the block, where ``first`` (numba's registries, and so ``numba.np.arraymath``, not yet loaded), an
    import of :data:`BLAS_PROBE` fails at once (unless SciPy's BLAS is imported already); after it, numba's
    answer, ``numba.np.arraymath._HAVE_BLAS``, is whether SciPy is installed."""
    import importlib.util
    import sys

    blocked = first and BLAS_PROBE not in sys.modules
    if blocked:
        sys.modules[BLAS_PROBE] = None  # type: ignore[assignment]  # "import halted": ImportError at once
    try:
        yield
    finally:
        if blocked and BLAS_PROBE in sys.modules and sys.modules[BLAS_PROBE] is None:
            del sys.modules[BLAS_PROBE]
    arraymath = sys.modules.get("numba.np.arraymath")
    if blocked and arraymath is not None and hasattr(arraymath, "_HAVE_BLAS"):
        with contextlib.suppress(Exception):
            arraymath._HAVE_BLAS = importlib.util.find_spec("scipy") is not None  # type: ignore[attr-defined]
