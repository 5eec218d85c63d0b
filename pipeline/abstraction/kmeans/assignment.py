"""The plain assignment: every point to its nearest centroid, and the weighted objective of a labelling.

A full pass scans every point against every centroid (:mod:`.scans`);
a point equidistant from several centroids goes to the lowest index.  With
``second`` it also records the distance to the second nearest centroid, the
lower bound Hamerly's passes (:mod:`.hamerly`) start from.
"""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Optional

import numpy as np
from numba import njit

from pipeline.core.errors import InputError

from .checks import checked_centroids, checked_points, checked_weights
from .chunks import L2, SLACK, chunk_ranges, map_chunks, metric_code, weight_of
from .distances import row_cost
from .scans import Scan, byte_top, nearest_two, scan_of


@njit(cache=True, nogil=True)
def _assign_chunk(points: np.ndarray, start: int, stop: int, scan: Scan, metric: int, w: np.ndarray,
                  labels: np.ndarray, dist: np.ndarray, lower: np.ndarray, second: bool) -> tuple:
    """Full assignment of rows ``start:stop``: labels, distances and (when ``second``) Hamerly's lower bounds.

    Returns the chunk's weighted objective and the number of labels that changed.
    """
    acc = np.empty(scan.ct.shape[1], scan.proto.dtype)
    stack = np.empty(128, np.int64)
    bounds = np.empty(128)
    obj = 0.0
    changed = 0
    for i in range(start, stop):
        best, bv, sv = nearest_two(points, i, scan, metric, acc, stack, bounds)
        if labels[i] != best:
            changed += 1
            labels[i] = best
        obj += weight_of(w, i) * bv
        if metric == L2:
            dist[i] = np.sqrt(bv)
            sv = np.sqrt(sv)
        else:
            dist[i] = bv
        if second:
            lower[i] = sv * (1.0 - SLACK)
    return obj, changed


@njit(cache=True, nogil=True)
def _objective_chunk(points: np.ndarray, start: int, stop: int, cen: np.ndarray, labels: np.ndarray,
                     metric: int, w: np.ndarray) -> float:
    """The weighted objective of rows ``start:stop`` under ``labels``."""
    obj = 0.0
    for i in range(start, stop):
        obj += weight_of(w, i) * row_cost(points, i, cen[labels[i]], metric)
    return obj


def full_pass(pts: np.ndarray, cen: np.ndarray, code: int, w: np.ndarray, labels: np.ndarray, dist: np.ndarray,
               lower: np.ndarray, second: bool, executor: Optional[Executor], top: int) -> tuple[float, int]:
    """A full assignment of all points; the objective and the number of changed labels, in chunk order."""
    scan = scan_of(pts, cen, code, top)
    obj = 0.0
    changed = 0
    for o, ch in map_chunks(lambda a, b: _assign_chunk(pts, a, b, scan, code, w, labels, dist, lower, second),
                      chunk_ranges(pts.shape[0]), executor):
        obj += o
        changed += ch
    return obj, changed


def assign(points: np.ndarray, centroids: np.ndarray, *, metric: str,
           executor: Optional[Executor] = None) -> tuple[np.ndarray, np.ndarray]:
    """The nearest centroid of every point (int32, lowest index on ties) and the distance to it (float64:
    Euclidean for l2, ``sum |x - c|`` for l1)."""
    code = metric_code(metric)
    pts = checked_points(points, executor)
    cen = checked_centroids(centroids, pts.shape[1])
    n = pts.shape[0]
    labels = np.full(n, -1, np.int32)
    dist = np.empty(n)
    full_pass(pts, cen, code, np.empty(0), labels, dist, dist, False, executor, byte_top(pts))
    return labels, dist


def objective(points: np.ndarray, centroids: np.ndarray, labels: np.ndarray, *, metric: str,
              weights: Optional[np.ndarray] = None) -> float:
    """The weighted objective of ``labels``: ``sum w * d**2`` for l2, ``sum w * d`` for l1 (chunk order)."""
    code = metric_code(metric)
    pts = checked_points(points)
    n = pts.shape[0]
    cen = checked_centroids(centroids, pts.shape[1])
    lab = np.asarray(labels)
    if lab.shape != (n,) or lab.dtype.kind not in "iu":
        raise InputError(f"labels must be {n} integers, one per point.")
    if n and (lab.min() < 0 or lab.max() >= cen.shape[0]):
        raise InputError(f"labels must lie in 0 .. {cen.shape[0] - 1}.")
    lab = np.ascontiguousarray(lab, dtype=np.int32)
    w = checked_weights(weights, n)
    total = 0.0
    for part in map_chunks(lambda a, b: _objective_chunk(pts, a, b, cen, lab, code, w), chunk_ranges(n), None):
        total += part
    return total
