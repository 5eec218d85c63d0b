"""Earth mover's distances of equity histograms: the 1-D closed form, and a bound for the potential-aware one.

**Equity histograms.**  On a line the earth mover's distance of two histograms
of equal mass is the L1 distance of their cumulative counts (Vallender 1974),
so k-means under EMD clusters cumulative histograms under L1
(:func:`cumulative`, the last count, always the mass, dropped).

**Potential-aware** (Ganzfried and Sandholm, AAAI 2014): a flop situation is
the distribution of its 47 turn cards over the turn buckets, and the ground
distance between two turn buckets is the EMD of their centroids — the L1
distance of their cumulative histograms ``C[b]``.  The exact EMD of two flop
situations is a transport problem; its lower bound

    Σ_i W1(the values C[b_t, i] over P's turn cards, the same over Q's)

(every coupling's cost is the sum over coordinates ``i``, each at least that
coordinate's 1-D optimum) is exact whenever one coupling is optimal for all
coordinates at once, and is the L1 distance of the *embeddings*: per
coordinate the 47 values sorted (:func:`potential_embedding`).  k-means under
it is k-means under L1 again, exact Lloyd iterations.  The abstraction keeps 8
of the 47 order statistics per coordinate (the middle of 8 equal slices of the
quantile function: 392 coordinates instead of 2,303, six times less work per
distance); the error of that against the exact transport (POT's ``ot.emd``)
is measured by ``benchmarks/bench_abstraction.py`` and stated in
docs/abstraction.md.
"""
from __future__ import annotations

import numpy as np
from numba import njit


def cumulative(hist: np.ndarray) -> np.ndarray:
    """Cumulative counts of histogram rows without the last column (their mass), in the narrowest unsigned type."""
    c = np.cumsum(hist[:, :-1], axis=1, dtype=np.int64)
    top = int(c.max()) if c.size else 0
    return c.astype(np.uint8 if top < 256 else (np.uint16 if top < 65536 else np.uint32))


def emd(a: np.ndarray, b: np.ndarray) -> float:
    """EMD of two histograms of equal mass, in bins × mass (L1 of the cumulative counts).

    >>> emd(np.array([1, 0, 0]), np.array([0, 0, 1]))
    2.0
    """
    return float(np.abs(np.cumsum(a) - np.cumsum(b)).sum())


@njit(cache=True, nogil=True)
def _embed(buckets: np.ndarray, centroids: np.ndarray, positions: np.ndarray, out: np.ndarray) -> None:
    n, m = buckets.shape
    d = centroids.shape[1]
    q = positions.shape[0]
    top = 0
    for b in range(centroids.shape[0]):
        for i in range(d):
            top = max(top, centroids[b, i])
    count = np.empty(top + 1, np.int64)
    for r in range(n):
        for i in range(d):
            count[:] = 0
            for t in range(m):
                count[centroids[buckets[r, t], i]] += 1
            j = 0                               # walk the sorted values (a counting sort), keep the positions
            seen = 0
            for v in range(top + 1):
                seen += count[v]
                while j < q and positions[j] < seen:
                    out[r, i * q + j] = v
                    j += 1


def quantile_positions(m: int, quantiles: int) -> np.ndarray:
    """The order statistics (0-based, of ``m`` sorted values) that stand for ``quantiles`` equal slices: the
    middle of each slice; all ``m`` when ``quantiles >= m``."""
    if quantiles >= m:
        return np.arange(m, dtype=np.int64)
    return ((2 * np.arange(quantiles) + 1) * m // (2 * quantiles)).astype(np.int64)


def potential_embedding(turn_buckets: np.ndarray, turn_centroids: np.ndarray, quantiles: int = 47) -> np.ndarray:
    """(n, d·q) uint8: for each cumulative coordinate ``i`` of the turn centroids, the values ``C[b, i]`` of a
    situation's ``m`` turn buckets ``b``, sorted — all ``m`` of them (``q = m``: the L1 distance of two
    embeddings is the potential-aware bound of the module doc, for a mass of ``m``), or ``quantiles`` order
    statistics, the middle of equal slices (the bound's integral over the quantile function sampled at ``q``
    points: L1 × m / q approximates it)."""
    c = np.ascontiguousarray(turn_centroids)
    if c.size and (c.min() < 0 or c.max() > 255 or not np.array_equal(c, np.round(c))):
        raise ValueError("turn centroids must be cumulative counts 0..255")
    c = c.astype(np.int64)
    b = np.ascontiguousarray(turn_buckets, np.int64)
    positions = quantile_positions(b.shape[1], quantiles)
    out = np.empty((b.shape[0], c.shape[1] * len(positions)), np.uint8)
    _embed(b, c, positions, out)
    return out
