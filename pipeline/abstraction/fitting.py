"""Fitting a street's buckets and assigning every situation to them.

:func:`fit_street` clusters the situations of an evenly spread sample of the
street's canonical boards (every ``stride``-th, so that about
:data:`FIT_SITUATIONS` situations, and at least 32 per bucket, are clustered:
a river Lloyd iteration over all 123 M situations costs minutes, over 2 M
seconds) — points computed in board chunks in parallel threads (the kernels
release the GIL), weighted by the situations of the deck each canonical one
stands for — by k-means++ and Lloyd's iterations to a relative improvement
below :data:`TOLERANCE`.  :func:`assigned_rows` is one part's work afterwards:
the points of every situation of a chunk of boards, each labelled with its
nearest centroid.  How far the sample's centroids are from a plain Lloyd over
every situation from the same seeds is measured by
``benchmarks/bench_abstraction.py`` (docs/abstraction.md).
"""
from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
from numba import njit

from ..core.combinatorics import available_cores
from ..isomorphism.situations import street_size
from .kmeans import Clustering, assign, fit
from .streets import METRIC, STREETS, StreetRows, scale, street_rows

FIT_SITUATIONS = {"river": 1 << 21, "turn": 1 << 20, "flop": 1 << 18}
PER_BUCKET = 32                  # at least this many sampled situations per bucket
TOLERANCE = 1e-5                 # relative objective improvement at which the iterations stop
MAX_ITERATIONS = 100


def sample_stride(street: str, boards: int, k: int) -> int:
    """Every how many canonical boards the fit samples: about ``FIT_SITUATIONS`` situations, ``32·k`` at least."""
    n_live = 52 - STREETS[street]
    per_board = street_size(STREETS[street]) / {3: 1755, 4: 16432, 5: 134459}[STREETS[street]]
    want = max(FIT_SITUATIONS[street], PER_BUCKET * k)
    return max(1, int(boards * min(per_board, n_live * (n_live - 1) // 2) // want))


@dataclass(frozen=True)
class Fitted:
    """A street's clustering with per bucket its ``situations`` (canonical), ``bucket_weight`` (situations of
    the deck) and ``mean_distance`` (weighted, in equity units)."""

    clustering: Clustering
    situations: np.ndarray
    bucket_weight: np.ndarray
    mean_distance: np.ndarray


def _chunks(boards: np.ndarray, size: int) -> list[np.ndarray]:
    return [boards[i:i + size] for i in range(0, len(boards), size)]


def street_points(street: str, boards: np.ndarray, *, bins: int, chunk: int, executor: Optional[Executor] = None,
                  **context: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(points, weights)`` of every situation of ``boards``, in board order (chunks of ``chunk`` boards mapped
    over ``executor``; results gathered in order, so the bytes do not depend on it)."""
    chunks = _chunks(boards, chunk)
    n_live = 52 - STREETS[street]
    bound = min(street_size(STREETS[street]), len(boards) * n_live * (n_live - 1) // 2)
    points: Optional[np.ndarray] = None
    weights = np.empty(bound, np.int64)
    at = 0

    def work(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = street_rows(street, b, bins=bins, **context)
        return rows.points, rows.weight

    results = executor.map(work, chunks) if executor is not None else map(work, chunks)
    for p, w in results:
        if points is None:
            points = np.empty((bound, p.shape[1]), p.dtype)
        points[at:at + len(w)] = p
        weights[at:at + len(w)] = w
        at += len(w)
    assert points is not None
    return points[:at], weights[:at]


def fit_street(street: str, boards: np.ndarray, k: int, *, bins: int, seed: int, chunk: int,
               executor: Optional[Executor] = None, **context: Any) -> Fitted:
    """k-means (k-means++ from ``seed``) of the situations of every :func:`sample_stride`-th of ``boards``."""
    own = ThreadPoolExecutor(available_cores()) if executor is None else None
    pool: Executor = own if own is not None else executor      # type: ignore[assignment]
    sample = boards[::sample_stride(street, len(boards), k)]
    try:
        points, weights = street_points(street, sample, bins=bins, chunk=chunk, executor=pool, **context)
        result = fit(points, k, metric=METRIC[street], weights=weights, seed=seed, executor=pool,
                     tolerance=TOLERANCE, max_iterations=MAX_ITERATIONS)
    finally:
        if own is not None:
            own.shutdown()
    wsum = np.bincount(result.labels, weights=weights.astype(np.float64), minlength=k)
    dsum = np.bincount(result.labels, weights=result.distances * weights, minlength=k)
    mean = np.divide(dsum, wsum, out=np.zeros(k), where=wsum > 0) * scale(street, bins)
    return Fitted(result, np.bincount(result.labels, minlength=k).astype(np.int64),
                  np.bincount(result.labels, weights=weights, minlength=k).astype(np.int64), mean)


def assigned_rows(street: str, boards: np.ndarray, centroids: np.ndarray, *, bins: int,
                  **context: Any) -> tuple[StreetRows, np.ndarray, np.ndarray]:
    """The rows of ``boards`` with each situation's bucket (nearest centroid, ties to the lower bucket) and its
    distance to it in equity units."""
    rows = street_rows(street, boards, bins=bins, **context)
    labels, distances = assign(rows.points, centroids, metric=METRIC[street])
    return rows, labels, distances * scale(street, bins)


@njit(cache=True, nogil=True)
def _pairwise(c: np.ndarray, l1: bool, out: np.ndarray) -> None:
    k, d = c.shape
    for i in range(k):
        for j in range(i + 1, k):
            s = 0.0
            for t in range(d):
                x = c[i, t] - c[j, t]
                s += abs(x) if l1 else x * x
            out[i, j] = out[j, i] = s if l1 else np.sqrt(s)


def centroid_distances(centroids: np.ndarray, metric: str, factor: float = 1.0) -> np.ndarray:
    """(k, k) float32 distances between centroids under the street's metric, times ``factor``."""
    c = np.ascontiguousarray(centroids, np.float64)
    out = np.zeros((len(c), len(c)), np.float64)
    _pairwise(c, metric == "l1", out)
    return (out * factor).astype(np.float32)
