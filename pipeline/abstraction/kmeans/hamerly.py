"""Hamerly's exact acceleration of the assignment: bounds that let most points keep their label unscanned.

Hamerly, "Making k-means even faster", SDM 2010.  Each point keeps one lower
bound on the distance to every centroid but its own.  After the centroids
move, a point keeps its label without a scan when its exact distance to its
centroid is *strictly* below ``max(s(a), lower bound)`` with a relative slack
of ``1e-9`` against rounding, so the tie rule (lowest index) is kept and the
result is exactly the plain assignment's.  ``s(c)`` (half the distance from
``c`` to its nearest other centroid, ``k**2`` distances) is computed only
when ``k**2 <= 64 n``, i.e. when it costs at most a few passes over the data;
for larger ``k`` the lower bound alone is used.  The distance to the own
centroid is recomputed for every point every iteration (``d`` operations,
``1/k`` of a full scan): it makes the objective exact and tightens the upper
bound, so no upper-bound array is kept.  Late in a fit, when few centroids
moved, a point that fails its bound scans only those that moved.
"""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Optional

import numpy as np
from numba import njit

from . import chunks
from .chunks import L2, SLACK, chunk_ranges, map_chunks, weight_of
from .distances import all_costs, row_cost
from .scans import Scan, nearest_two, scan_of

MOVED_SHARE = 0.5             # a Hamerly pass scans only the centroids that moved while at most this share did


@njit(cache=True, nogil=True)
def _half_gaps(cen: np.ndarray, c0: int, c1: int, metric: int, s: np.ndarray) -> None:
    """Hamerly's ``s(c)`` for centroids ``c0:c1``: half the distance to the nearest other centroid, less slack."""
    k = cen.shape[0]
    for c in range(c0, c1):
        best = np.inf
        for o in range(k):
            if o != c:
                v = row_cost(cen, c, cen[o], metric)
                if v < best:
                    best = v
        if metric == L2:
            best = np.sqrt(best)
        s[c] = 0.5 * best * (1.0 - SLACK)


@njit(cache=True, nogil=True)
def _hamerly_chunk(points: np.ndarray, start: int, stop: int, cen: np.ndarray, scan: Scan, metric: int,
                   w: np.ndarray, labels: np.ndarray, dist: np.ndarray, lower: np.ndarray, s: np.ndarray,
                   drift: np.ndarray, r1: int, r2: int, moved: np.ndarray, moved_scan: Scan) -> tuple:
    """Hamerly's assignment of rows ``start:stop`` after the centroids moved by ``drift``.

    ``r1``/``r2`` are the centroids of largest and second largest drift.  A point keeps its label without a
    scan when its exact distance to its centroid is strictly below ``max(s[a], lower bound)`` (with slack).
    Otherwise, when ``moved`` lists the centroids that moved at all (ascending; ``moved_scan`` their layout)
    and the point's bound from before the move is still above its distance — no centroid that stayed can be
    as near — only the moved ones are scanned: the nearest of them and its own centroid is its label, and its
    new bound the least of the old one and the distances just computed.  Otherwise all centroids are
    scanned as in :func:`.assignment.full_pass`.  Returns the chunk's objective, the number of changed labels
    and the number of scans of every centroid.
    """
    acc = np.empty(scan.ct.shape[1], scan.proto.dtype)
    part = np.empty(moved_scan.ct.shape[1], moved_scan.proto.dtype)
    stack = np.empty(128, np.int64)
    bounds = np.empty(128)
    obj = 0.0
    changed = 0
    scans = 0
    for i in range(start, stop):
        a = labels[i]
        va = row_cost(points, i, cen[a], metric)
        da = np.sqrt(va) if metric == L2 else va
        before = lower[i]
        low = before
        if low < np.inf:
            m = drift[r2] if a == r1 else drift[r1]
            low = low - m - SLACK * (low + m)
        bound = max(s[a], low)
        if da * (1.0 + SLACK) < bound:
            dist[i] = da
            lower[i] = low
            obj += weight_of(w, i) * va
            continue
        if moved.shape[0] > 0 and da * (1.0 + SLACK) < before:
            all_costs(points, i, moved_scan.ct, metric, part)
            best = a
            bv = va
            near = before                     # the others' bound: those that stayed, then each one computed
            for t in range(moved.shape[0]):
                c = moved[t]
                if c == a:
                    continue
                v = np.float64(part[t])
                if v < bv or (v == bv and c < best):
                    loser = bv
                    best = c
                    bv = v
                else:
                    loser = v
                near = min(near, np.sqrt(loser) if metric == L2 else loser)
            if best != a:
                changed += 1
                labels[i] = best
            obj += weight_of(w, i) * bv
            dist[i] = np.sqrt(bv) if metric == L2 else bv
            lower[i] = near * (1.0 - SLACK)
            continue
        scans += 1
        best, bv, sv = nearest_two(points, i, scan, metric, acc, stack, bounds)
        if best != a:
            changed += 1
            labels[i] = best
        obj += weight_of(w, i) * bv
        if metric == L2:
            dist[i] = np.sqrt(bv)
            sv = np.sqrt(sv)
        else:
            dist[i] = bv
        lower[i] = sv * (1.0 - SLACK)
    return obj, changed, scans


def hamerly_pass(pts: np.ndarray, old: np.ndarray, cen: np.ndarray, code: int, w: np.ndarray, labels: np.ndarray,
                  dist: np.ndarray, lower: np.ndarray, gaps: bool, executor: Optional[Executor],
                  top: int) -> tuple[float, int, int]:
    """Hamerly's assignment after the centroids moved from ``old`` to ``cen``: the objective, the number of
    changed labels and the number of full scans."""
    k = cen.shape[0]
    diff = cen - old
    drift = np.sqrt((diff * diff).sum(axis=1)) if code == L2 else np.abs(diff).sum(axis=1)
    drift = drift * (1.0 + SLACK)
    r1 = int(np.argmax(drift))
    rest = drift.copy()
    rest[r1] = -1.0
    r2 = int(np.argmax(rest))
    s = np.zeros(k)
    if gaps:
        step = max(1, chunks.CHUNK_ROWS // max(k, 1))
        map_chunks(lambda a, b: _half_gaps(cen, a, b, code, s), [(c, min(c + step, k)) for c in range(0, k, step)],
             executor)
    scan = scan_of(pts, cen, code, top)
    moved = np.flatnonzero(drift > 0.0)
    if moved.size > k * MOVED_SHARE:          # most centroids moved: points that fail the bounds scan them all
        moved = moved[:0]
    moved_scan = scan_of(pts, cen[moved], code, top, tree=False) if moved.size else scan
    obj = 0.0
    changed = 0
    scans = 0
    for o, ch, sc in map_chunks(lambda a, b: _hamerly_chunk(pts, a, b, cen, scan, code, w, labels, dist, lower, s,
                                                     drift, r1, r2, moved, moved_scan),
                          chunk_ranges(pts.shape[0]), executor):
        obj += o
        changed += ch
        scans += sc
    return obj, changed, scans
