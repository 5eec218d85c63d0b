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
it is k-means under L1 again, exact Lloyd iterations; its error against the
exact transport (POT's ``ot.emd``) is measured by ``benchmarks/bench_abstraction.py``
and stated in docs/abstraction.md.
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
def _embed(buckets: np.ndarray, centroids: np.ndarray, out: np.ndarray) -> None:
    n, m = buckets.shape
    d = centroids.shape[1]
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
            k = i * m
            for v in range(top + 1):           # counting sort of the m values, ascending
                for _ in range(count[v]):
                    out[r, k] = v
                    k += 1


def potential_embedding(turn_buckets: np.ndarray, turn_centroids: np.ndarray) -> np.ndarray:
    """(n, d·m) uint8: for each cumulative coordinate ``i`` of the turn centroids, the ``m`` values
    ``C[b, i]`` of a situation's turn buckets ``b``, sorted — the L1 distance of two embeddings is the
    potential-aware bound of the module doc (times ``m``)."""
    c = np.ascontiguousarray(turn_centroids)
    if c.size and (c.min() < 0 or c.max() > 255 or not np.array_equal(c, np.round(c))):
        raise ValueError("turn centroids must be cumulative counts 0..255")
    c = c.astype(np.int64)
    b = np.ascontiguousarray(turn_buckets, np.int64)
    out = np.empty((b.shape[0], c.shape[1] * b.shape[1]), np.uint8)
    _embed(b, c, out)
    return out
