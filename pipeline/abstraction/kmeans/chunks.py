"""The fixed chunks every k-means kernel works on, the metric codes and the points' weights.

Every pass over the points runs on fixed chunks of :data:`CHUNK_ROWS` rows,
mapped over an ``executor`` when one is given (the kernels release the GIL, so
a ``ThreadPoolExecutor`` runs them in parallel) or run in a loop, and the
chunks' sums are combined in chunk order: a result is bit-identical with and
without an executor, whatever its number of workers.  :data:`SLACK` is the
relative margin every bound (Hamerly's, the k-means++ pruning) keeps against
rounding, so that an accelerated pass decides as the plain one would.
"""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Callable, Optional

import numpy as np
from numba import njit

from pipeline.core.errors import InputError

CHUNK_ROWS = 1 << 16          # rows per chunk of work: fixed, so reductions do not depend on the executor
SLACK = 1e-9                  # relative safety margin of Hamerly's bounds against rounding
L2 = 0
L1 = 1
METRICS = {"l2": L2, "l1": L1}


@njit(cache=True, nogil=True)
def weight_of(w: np.ndarray, i: int) -> float:
    """Point ``i``'s weight: ``w[i]``, or 1 when ``w`` is empty (no weights given)."""
    if w.shape[0] == 0:
        return 1.0
    return w[i]


def metric_code(metric: str) -> int:
    """The kernels' code of ``metric``; InputError for an unknown one."""
    if metric not in METRICS:
        raise InputError(f"metric must be 'l1' or 'l2', not {metric!r}.")
    return METRICS[metric]


def chunk_ranges(n: int) -> list[tuple[int, int]]:
    """The fixed chunks ``(start, stop)`` of ``n`` rows."""
    return [(s, min(s + CHUNK_ROWS, n)) for s in range(0, n, CHUNK_ROWS)]


def map_chunks(fn: Callable[[int, int], Any], ranges: list[tuple[int, int]], executor: Optional[Executor]) -> list[Any]:
    """``fn(start, stop)`` over ``ranges``, on ``executor`` when given, the results in range order."""
    if executor is None or len(ranges) <= 1:
        return [fn(a, b) for a, b in ranges]
    return list(executor.map(lambda r: fn(r[0], r[1]), ranges))
