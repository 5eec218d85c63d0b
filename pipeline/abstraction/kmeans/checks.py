"""The checks of what a caller passes to k-means: points, weights, ``k`` and centroids, each an InputError.

Points stay in their own dtype (uint8, uint16, int32, float32 or float64):
the kernels read them as they are and accumulate in float64, so a feature
table of bytes is clustered without a float copy of it.
"""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Optional

import numpy as np
from numba import njit

from pipeline.core.errors import InputError

from .chunks import chunk_ranges, map_chunks

DTYPES = (np.uint8, np.uint16, np.int32, np.float32, np.float64)


@njit(cache=True, nogil=True)
def finite_chunk(points: np.ndarray, start: int, stop: int) -> bool:
    """Whether rows ``start:stop`` are all finite (no NaN, no infinity)."""
    for i in range(start, stop):
        for j in range(points.shape[1]):
            v = points[i, j]
            if not np.isfinite(v):
                return False
    return True


def checked_points(points: Any, executor: Optional[Executor] = None) -> np.ndarray:
    """``points`` as a C-contiguous 2-D array of a supported dtype, checked finite; InputError otherwise."""
    if not isinstance(points, np.ndarray) or points.ndim != 2:
        raise InputError("points must be a 2-D numpy array (one row per point).")
    if points.dtype.type not in DTYPES:
        raise InputError(f"points must be uint8, uint16, int32, float32 or float64, not {points.dtype}.")
    if points.shape[0] == 0 or points.shape[1] == 0:
        raise InputError("points must have at least one row and one column.")
    pts = np.ascontiguousarray(points)
    if pts.dtype.kind == "f":
        ok = map_chunks(lambda a, b: finite_chunk(pts, a, b), chunk_ranges(pts.shape[0]), executor)
        if not all(ok):
            raise InputError("points contain NaN or infinite values.")
    return pts


def checked_weights(weights: Any, n: int) -> np.ndarray:
    """The weights as float64 (an empty array for "all 1"); InputError for a wrong length or a negative one."""
    if weights is None:
        return np.empty(0, np.float64)
    w = np.asarray(weights)
    if w.ndim != 1 or w.shape[0] != n:
        raise InputError(f"weights must be a 1-D array of {n} values, one per point, not shape {w.shape}.")
    if w.dtype.kind not in "iuf":
        raise InputError(f"weights must be integers or floats, not {w.dtype}.")
    w = np.ascontiguousarray(w, dtype=np.float64)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise InputError("weights must be finite and non-negative.")
    return w


def checked_k(k: Any, w: np.ndarray, n: int) -> int:
    """``k`` as an int, checked between 1 and the number of points of positive weight."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise InputError(f"k must be an integer, not {k!r}.")
    positive = n if w.shape[0] == 0 else int(np.count_nonzero(w > 0))
    if k < 1:
        raise InputError(f"k must be at least 1, not {k}.")
    if k > positive:
        raise InputError(f"k = {k} exceeds the {positive} points of positive weight.")
    return int(k)


def checked_centroids(centroids: Any, d: int) -> np.ndarray:
    """``centroids`` as a C-contiguous float64 (k, d) array; InputError otherwise."""
    c = np.asarray(centroids)
    if c.ndim != 2 or c.shape[1] != d or c.shape[0] < 1:
        raise InputError(f"centroids must be a 2-D array of at least one row of {d} values, not shape {c.shape}.")
    c = np.ascontiguousarray(c, dtype=np.float64)
    if not np.all(np.isfinite(c)):
        raise InputError("centroids contain NaN or infinite values.")
    return c
