"""How a pass finds a point's nearest two centroids: a byte scan, a k-d tree or a float64 scan.

:func:`scan_of` picks, once per pass, the fastest exact way for the points
and centroids at hand and packs it as a :class:`Scan` the kernels take;
:func:`nearest_two` answers ``(index, cost, second cost)`` for one point
whichever way was picked, with the same result.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .chunks import L1, L2
from .distances import all_costs, two_best
from .kdtree import TREE_DIMENSIONS, TREE_MIN_K, kd_tree, tree_two_best


class Scan(NamedTuple):
    """How a pass finds a point's nearest two centroids (:func:`scan_of`): ``ct``, the centroids transposed
    for :func:`all_costs`, and ``proto``, an empty array of its costs' dtype; for l2 in few dimensions also a
    k-d tree of the centroids (empty arrays without one): node boxes ``lo``/``hi``, children ``left``/``right``
    (-1 at a leaf), each leaf's slice ``first:last`` of ``order`` (centroid numbers) and of ``rows`` (their
    coordinates in that order)."""

    ct: np.ndarray
    proto: np.ndarray
    rows: np.ndarray
    order: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    left: np.ndarray
    right: np.ndarray
    first: np.ndarray
    last: np.ndarray


def byte_top(pts: np.ndarray) -> int:
    """The largest value of uint8 points (what :func:`scan_of` sizes integer costs by); -1 for other dtypes."""
    return int(pts.max()) if pts.dtype == np.uint8 else -1


def scan_of(pts: np.ndarray, cen: np.ndarray, code: int, top: int, tree: bool = True) -> Scan:
    """The :class:`Scan` of a pass over ``pts`` with centroids ``cen`` (``top``: :func:`byte_top` of the points).

    l1 on uint8 points with centroids that are integers 0..255 (lower medians of integer points always are)
    scans bytes with integer costs — uint16 when ``d`` times the largest value fits, else uint32 — exact, so
    the same labels, distances and ties as float64; l2 in at most :data:`TREE_DIMENSIONS` coordinates with at
    least :data:`TREE_MIN_K` centroids searches a k-d tree (the same result, unless ``tree`` is False);
    anything else scans float64.
    """
    none = np.empty((0, 0))
    no_tree = (none, np.empty(0, np.int64), none, none, *(np.empty(0, np.int64) for _ in range(4)))
    if code == L1 and top >= 0 and cen.size and cen.min() >= 0 and cen.max() <= 255 \
            and np.array_equal(cen, np.round(cen)):
        most = max(int(cen.max()), top) * pts.shape[1]
        proto = np.empty(0, np.uint16 if most < 1 << 16 else np.uint32)
        return Scan(np.ascontiguousarray(cen.T.astype(np.uint8)), proto, *no_tree)
    if tree and code == L2 and pts.shape[1] <= TREE_DIMENSIONS and cen.shape[0] >= TREE_MIN_K:
        return Scan(np.empty((pts.shape[1], 0)), np.empty(0, np.float64), *kd_tree(cen))
    return Scan(np.ascontiguousarray(cen.T), np.empty(0, np.float64), *no_tree)


@njit(cache=True, nogil=True)
def nearest_two(points: np.ndarray, i: int, scan: Scan, metric: int, acc: np.ndarray, stack: np.ndarray,
                 bounds: np.ndarray) -> tuple:
    """``(index, cost, second cost)`` of row ``i`` over every centroid: by the k-d tree when ``scan`` has one,
    else by :func:`all_costs` and :func:`two_best` — the same result either way."""
    if scan.order.shape[0] > 0:
        return tree_two_best(points, i, scan, stack, bounds)
    all_costs(points, i, scan.ct, metric, acc)
    return two_best(acc)
