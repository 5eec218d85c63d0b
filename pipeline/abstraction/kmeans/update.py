"""Lloyd's update step: each cluster's weighted mean (l2) or weighted lower median (l1); empty ones relocated.

For l1 the update is the coordinate-wise weighted *lower* median, the
smallest ``m`` with ``weight(x <= m) >= half the cluster's weight``: the
minimiser of the summed l1 distance, so every Lloyd iteration lowers the
objective, and integer points give integer centroids (which the byte scans
of :mod:`.distances` need).  Integer points are counted (one cluster at a
time, per coordinate a histogram of the values between its members' smallest
and largest); float points are sorted per cluster and coordinate; both give
the same lower median (:func:`lower_medians`).  The points are grouped by
cluster once (a counting sort), and ranges of whole clusters are the chunks,
so each cluster is computed alone whatever the executor.

Empty clusters (no member, or members of total weight 0) take, in increasing
cluster order, a distinct point of positive weight each, those with the
largest ``weight * distance`` to their centroid first (ties: lowest index).
"""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Optional

import numpy as np
from numba import njit

from pipeline.core.errors import InputError

from . import chunks
from .checks import checked_points, checked_weights
from .chunks import L2, map_chunks, weight_of


@njit(cache=True, nogil=True)
def _group(labels: np.ndarray, k: int, order: np.ndarray) -> np.ndarray:
    """Counting sort of the point indices by label into ``order`` (index order within a cluster); the starts."""
    starts = np.zeros(k + 1, np.int64)
    for i in range(labels.shape[0]):
        starts[labels[i] + 1] += 1
    for c in range(k):
        starts[c + 1] += starts[c]
    pos = starts[:k].copy()
    for i in range(labels.shape[0]):
        c = labels[i]
        order[pos[c]] = i
        pos[c] += 1
    return starts


@njit(cache=True, nogil=True)
def _mean_range(points: np.ndarray, w: np.ndarray, order: np.ndarray, starts: np.ndarray, c0: int, c1: int,
                out: np.ndarray, wsum: np.ndarray) -> None:
    """Weighted means of clusters ``c0:c1`` into ``out`` (members summed in index order); weights in ``wsum``."""
    d = points.shape[1]
    acc = np.empty(d)
    for c in range(c0, c1):
        acc[:] = 0.0
        total = 0.0
        for t in range(starts[c], starts[c + 1]):
            i = order[t]
            wi = weight_of(w, i)
            total += wi
            for j in range(d):
                acc[j] += wi * np.float64(points[i, j])
        wsum[c] = total
        if total > 0.0:
            for j in range(d):
                out[c, j] = acc[j] / total


@njit(cache=True, nogil=True)
def _median_sort_range(points: np.ndarray, w: np.ndarray, order: np.ndarray, starts: np.ndarray, c0: int,
                       c1: int, out: np.ndarray, wsum: np.ndarray) -> None:
    """Weighted lower medians of clusters ``c0:c1``, coordinate by coordinate, by sorting the members."""
    d = points.shape[1]
    size = 0
    for c in range(c0, c1):
        size = max(size, starts[c + 1] - starts[c])
    vals = np.empty(size)
    ws = np.empty(size)
    for c in range(c0, c1):
        s = starts[c]
        m = starts[c + 1] - s
        total = 0.0
        for t in range(m):
            ws[t] = weight_of(w, order[s + t])
            total += ws[t]
        wsum[c] = total
        if total <= 0.0:
            continue
        half = 0.5 * total
        for j in range(d):
            for t in range(m):
                vals[t] = np.float64(points[order[s + t], j])
            idx = np.argsort(vals[:m], kind="mergesort")
            cum = 0.0
            for q in idx:
                cum += ws[q]
                if cum >= half:
                    out[c, j] = vals[q]
                    break


@njit(cache=True, nogil=True)
def _median_count_range(points: np.ndarray, w: np.ndarray, order: np.ndarray, starts: np.ndarray, c0: int,
                        c1: int, span: int, out: np.ndarray, wsum: np.ndarray) -> None:
    """Weighted lower medians of clusters ``c0:c1`` of integer points by counting: per coordinate a histogram
    of the values between the members' smallest and largest (the members added in index order), so a
    cluster costs its members' values and their ranges, however wide the points' values (``span``: the
    widest range there can be)."""
    d = points.shape[1]
    hist = np.zeros(d * span)
    low = np.empty(d, np.int64)
    offset = np.empty(d + 1, np.int64)
    for c in range(c0, c1):
        total = 0.0
        for j in range(d):
            low[j] = np.iinfo(np.int64).max
            offset[j + 1] = np.iinfo(np.int64).min
        for t in range(starts[c], starts[c + 1]):
            i = order[t]
            total += weight_of(w, i)
            for j in range(d):
                x = np.int64(points[i, j])
                low[j] = min(low[j], x)
                offset[j + 1] = max(offset[j + 1], x)
        wsum[c] = total
        if total <= 0.0:
            continue
        offset[0] = 0
        for j in range(d):                    # the largest value becomes the end of coordinate j's counts
            offset[j + 1] = offset[j] + offset[j + 1] - low[j] + 1
        hist[:offset[d]] = 0.0
        for t in range(starts[c], starts[c + 1]):
            i = order[t]
            wi = weight_of(w, i)
            for j in range(d):
                hist[offset[j] + np.int64(points[i, j]) - low[j]] += wi
        half = 0.5 * total
        for j in range(d):
            cum = 0.0
            for v in range(offset[j], offset[j + 1]):
                cum += hist[v]
                if cum >= half:
                    out[c, j] = low[j] + v - offset[j]
                    break


def median_span(pts: np.ndarray) -> Optional[int]:
    """The width of integer points' values, the counting median's widest histogram; None for floats (sorted)."""
    if pts.dtype.kind == "f":
        return None
    return int(pts.max()) - int(pts.min()) + 1


def _cluster_tasks(labels: np.ndarray, k: int, order: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The points grouped by cluster (``order``, :func:`_group`) and ranges of whole clusters of about
    :data:`.chunks.CHUNK_ROWS` members: each cluster is computed alone, whatever the executor."""
    starts = _group(labels, k, order)
    tasks: list[tuple[int, int]] = []
    c0 = 0
    while c0 < k:     # ranges of whole clusters of about CHUNK_ROWS members: each cluster is computed alone
        c1 = int(np.searchsorted(starts, starts[c0] + chunks.CHUNK_ROWS, side="right")) - 1
        c1 = min(k, max(c1, c0 + 1))
        tasks.append((c0, c1))
        c0 = c1
    return starts, tasks


def means_into(pts: np.ndarray, w: np.ndarray, labels: np.ndarray, order: np.ndarray, out: np.ndarray,
                wsum: np.ndarray, executor: Optional[Executor]) -> None:
    """The clusters' weighted means into ``out`` (where they have weight) and their weights into ``wsum``."""
    starts, tasks = _cluster_tasks(labels, out.shape[0], order)
    map_chunks(lambda a, b: _mean_range(pts, w, order, starts, a, b, out, wsum), tasks, executor)


def medians_into(pts: np.ndarray, w: np.ndarray, labels: np.ndarray, span: Optional[int], order: np.ndarray,
                  out: np.ndarray, wsum: np.ndarray, executor: Optional[Executor]) -> None:
    """The clusters' weighted lower medians into ``out`` (where they have weight), their weights into
    ``wsum``: counted for integer points (``span``: :func:`median_span`), sorted for floats."""
    starts, tasks = _cluster_tasks(labels, out.shape[0], order)
    if span is not None:
        map_chunks(lambda a, b: _median_count_range(pts, w, order, starts, a, b, span, out, wsum), tasks, executor)
    else:
        map_chunks(lambda a, b: _median_sort_range(pts, w, order, starts, a, b, out, wsum), tasks, executor)


def _farthest(w: np.ndarray, dist: np.ndarray, e: int) -> np.ndarray:
    """The ``e`` points of positive weight of largest ``weight * distance``, largest first, ties lowest index."""
    n = dist.shape[0]
    score = dist.copy() if w.shape[0] == 0 else w * dist
    if w.shape[0]:
        score[w <= 0] = -1.0
    threshold = np.partition(score, n - e)[n - e]
    above = np.flatnonzero(score > threshold)
    level = np.flatnonzero(score == threshold)[: e - above.size]
    picked = np.concatenate([above, level])
    return picked[np.lexsort((picked, -score[picked]))]


def update(pts: np.ndarray, w: np.ndarray, labels: np.ndarray, dist: np.ndarray, cen: np.ndarray, code: int,
            span: Optional[int], order: np.ndarray, executor: Optional[Executor]) -> np.ndarray:
    """The new centroids: weighted means (l2) or lower medians (l1) of the clusters, empty ones relocated."""
    new = cen.copy()
    wsum = np.zeros(cen.shape[0])
    if code == L2:
        means_into(pts, w, labels, order, new, wsum, executor)
    else:
        medians_into(pts, w, labels, span, order, new, wsum, executor)
    empty = np.flatnonzero(wsum <= 0.0)
    if empty.size:
        for c, i in zip(empty, _farthest(w, dist, empty.size)):
            new[c] = pts[i]
    return new


def lower_medians(points: np.ndarray, labels: np.ndarray, k: int, *, weights: Optional[np.ndarray] = None,
                  executor: Optional[Executor] = None) -> tuple[np.ndarray, np.ndarray]:
    """``(medians, weight)``: each of the ``k`` clusters' coordinate-wise weighted lower median (the l1
    centroid, 0 where a cluster has no weight), float64 (k, d), and its total weight."""
    pts = checked_points(points)
    n = pts.shape[0]
    w = checked_weights(weights, n)
    lab = np.ascontiguousarray(labels, np.int32)
    if lab.shape != (n,) or (n and (lab.min() < 0 or lab.max() >= k)):
        raise InputError(f"labels must be {n} integers in 0 .. {k - 1}.")
    out = np.zeros((k, pts.shape[1]))
    wsum = np.zeros(k)
    medians_into(pts, w, lab, median_span(pts), np.empty(n, np.int32 if n < 2**31 else np.int64), out, wsum,
                  executor)
    return out, wsum
