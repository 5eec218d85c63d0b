"""Fitting a street's buckets and assigning every situation to them.

:func:`fit_street` clusters a sample of the street's situations: every
situation's points are computed (board chunks in parallel threads: the
kernels release the GIL) and each is kept with probability
``FIT_SITUATIONS / situations`` by a hash of its index — an independent
draw per situation, the same whatever the chunking, about 2 M river, 1 M
turn and 512 K flop situations (and at least 2,000 per bucket) — weighted by
the situations of the deck each canonical one stands for, then k-means++ and
Lloyd's iterations to a relative improvement below :data:`TOLERANCE`.  A river
Lloyd iteration over all 123 M situations costs minutes, over 2 M a second.
:func:`assigned_rows` is one part's work afterwards: the points of every
situation of a chunk of boards, each labelled with its nearest centroid.

Sampling whole boards instead (every s-th canonical board) keeps a board's
holes together and was measured 7% above plain Lloyd's objective on the river
(2.4% on the turn); independent situations at the sizes above stay within a
fraction of a percent (``benchmarks/bench_abstraction.py --lloyd``,
docs/abstraction.md).
"""
from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
from numba import njit

from ..core.cores import available_cores
from ..isomorphism.situations import street_size
from .kmeans import Clustering, assign, fit
from .streets import METRIC, STREETS, StreetRows, scale, street_rows

FIT_SITUATIONS = {"river": 1 << 21, "turn": 1 << 20, "flop": 1 << 19}
PER_BUCKET = 2000                # at least this many sampled situations per bucket
TOLERANCE = 1e-5                 # relative objective improvement at which the iterations stop
MAX_ITERATIONS = 100
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def sample_size(street: str, k: int) -> int:
    """Situations the fit of ``k`` buckets clusters (about; every situation when the street has fewer)."""
    return max(FIT_SITUATIONS[street], PER_BUCKET * k)


def kept(index: np.ndarray, fraction: float, seed: int) -> np.ndarray:
    """Whether each situation ``index`` is in the fit's sample: SplitMix64 of (index, seed) below
    ``fraction`` of 2**64 — an independent draw per situation."""
    if fraction >= 1.0:
        return np.ones(len(index), bool)
    with np.errstate(over="ignore"):
        z = index.astype(np.uint64) * _GOLDEN + np.uint64(seed) * _M2 + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        z = z ^ (z >> np.uint64(31))
    return z < np.uint64(min(fraction, 1.0) * 2.0**64)


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
                  fraction: float = 1.0, seed: int = 0, **context: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(points, weights, index)`` of the situations of ``boards`` (each :func:`kept` with ``fraction``), in board
    order (chunks of ``chunk`` boards mapped over ``executor``; gathered in order, so the bytes do not depend
    on it)."""
    chunks = _chunks(boards, chunk)

    def work(b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = street_rows(street, b, bins=bins, **context)
        keep = kept(rows.index, fraction, seed)
        return rows.points[keep], rows.weight[keep], rows.index[keep]

    results = list(executor.map(work, chunks) if executor is not None else map(work, chunks))
    return tuple(np.concatenate([r[i] for r in results]) for i in range(3))     # type: ignore[return-value]


def fit_street(street: str, boards: np.ndarray, k: int, *, bins: int, seed: int, chunk: int,
               executor: Optional[Executor] = None, **context: Any) -> Fitted:
    """k-means (k-means++ from ``seed``) of a :func:`sample_size` sample of the situations of ``boards``."""
    own = ThreadPoolExecutor(available_cores()) if executor is None else None
    pool: Executor = own if own is not None else executor      # type: ignore[assignment]
    n_live = 52 - STREETS[street]
    situations = min(street_size(STREETS[street]), len(boards) * n_live * (n_live - 1) // 2)
    fraction = sample_size(street, k) / situations
    try:
        points, weights, _ = street_points(street, boards, bins=bins, chunk=chunk, executor=pool,
                                           fraction=fraction, seed=seed, **context)
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
