"""The cost of a point against one centroid or against every centroid: float64 sums and byte scans.

The cost is the squared Euclidean distance (l2) or the l1 distance, summed
in float64 over the coordinates in order; two centroids at equal cost are
equal as computed, which is what the tie rule (lowest index) compares.
:func:`all_costs` scans a point against every centroid with the centroids
transposed, so the inner loop runs over centroids and vectorises while each
centroid's sum keeps :func:`row_cost`'s order and bits.  l1 on uint8 points
with integer centroids (the lower medians of integer points always are)
scans bytes: ``max - min`` of two bytes is their exact distance and the sums
are exact integers in 16 or 32 bits, the same values as float64 at seven
times the rate.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .chunks import L2


@njit(cache=True, nogil=True)
def row_cost(points: np.ndarray, i: int, c: np.ndarray, metric: int) -> float:
    """The metric's cost of row ``i`` against the float64 row ``c``: squared Euclidean (l2) or l1 distance."""
    acc = 0.0
    if metric == L2:
        for j in range(points.shape[1]):
            t = np.float64(points[i, j]) - c[j]
            acc += t * t
    else:
        for j in range(points.shape[1]):
            acc += abs(np.float64(points[i, j]) - c[j])
    return acc


@njit(cache=True, nogil=True)
def row_cost_ilp(points: np.ndarray, i: int, c: np.ndarray, metric: int) -> float:
    """:func:`row_cost` with four partial sums (coordinates ``j mod 4``): four times the instruction-level
    parallelism, rounded differently, so used only where no other kernel must reproduce its bits (k-means++)."""
    d = points.shape[1]
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    j = 0
    if metric == L2:
        while j + 4 <= d:
            t0 = np.float64(points[i, j]) - c[j]
            t1 = np.float64(points[i, j + 1]) - c[j + 1]
            t2 = np.float64(points[i, j + 2]) - c[j + 2]
            t3 = np.float64(points[i, j + 3]) - c[j + 3]
            a0 += t0 * t0
            a1 += t1 * t1
            a2 += t2 * t2
            a3 += t3 * t3
            j += 4
        while j < d:
            t0 = np.float64(points[i, j]) - c[j]
            a0 += t0 * t0
            j += 1
    else:
        while j + 4 <= d:
            a0 += abs(np.float64(points[i, j]) - c[j])
            a1 += abs(np.float64(points[i, j + 1]) - c[j + 1])
            a2 += abs(np.float64(points[i, j + 2]) - c[j + 2])
            a3 += abs(np.float64(points[i, j + 3]) - c[j + 3])
            j += 4
        while j < d:
            a0 += abs(np.float64(points[i, j]) - c[j])
            j += 1
    return (a0 + a1) + (a2 + a3)


@njit(cache=True, nogil=True)
def all_costs(points: np.ndarray, i: int, ct: np.ndarray, metric: int, acc: np.ndarray) -> None:
    """The costs of row ``i`` against every centroid (``ct``: the centroids transposed, (d, k)) into ``acc``.

    The inner loop runs over centroids, so it vectorises while each centroid's sum keeps the coordinate
    order of :func:`row_cost` (the same float64 operations, the same bits); four coordinates are added per
    pass, so ``acc`` is loaded and stored once per four.  ``ct`` and ``acc`` come in two layouts
    (:func:`~.scans.scan_of`): float64 for any points, or — l1 on uint8 points with integer centroids — ``ct`` uint8
    and ``acc`` uint16/uint32, where ``max - min`` of two bytes is their exact distance and the sums are
    exact integers: the same values as float64, eight to sixteen times as many per vector instruction.
    """
    k = ct.shape[1]
    d = points.shape[1]
    for c in range(k):
        acc[c] = 0
    j = 0
    if metric == L2:
        while j + 4 <= d:      # four coordinates per pass over acc, added in coordinate order
            x0 = np.float64(points[i, j])
            x1 = np.float64(points[i, j + 1])
            x2 = np.float64(points[i, j + 2])
            x3 = np.float64(points[i, j + 3])
            r0 = ct[j]
            r1 = ct[j + 1]
            r2 = ct[j + 2]
            r3 = ct[j + 3]
            for c in range(k):
                t0 = x0 - r0[c]
                t1 = x1 - r1[c]
                t2 = x2 - r2[c]
                t3 = x3 - r3[c]
                acc[c] = (((acc[c] + t0 * t0) + t1 * t1) + t2 * t2) + t3 * t3
            j += 4
        while j < d:
            x = np.float64(points[i, j])
            row = ct[j]
            for c in range(k):
                t = x - row[c]
                acc[c] += t * t
            j += 1
    else:                      # |x - r| as max - min: exact for floats, and stays in bytes for uint8
        while j + 4 <= d:
            y0 = points[i, j]
            y1 = points[i, j + 1]
            y2 = points[i, j + 2]
            y3 = points[i, j + 3]
            r0 = ct[j]
            r1 = ct[j + 1]
            r2 = ct[j + 2]
            r3 = ct[j + 3]
            for c in range(k):
                a0 = r0[c]
                a1 = r1[c]
                a2 = r2[c]
                a3 = r3[c]
                acc[c] = (((acc[c] + (max(y0, a0) - min(y0, a0))) + (max(y1, a1) - min(y1, a1)))
                          + (max(y2, a2) - min(y2, a2))) + (max(y3, a3) - min(y3, a3))
            j += 4
        while j < d:
            y = points[i, j]
            row = ct[j]
            for c in range(k):
                a = row[c]
                acc[c] += max(y, a) - min(y, a)
            j += 1


@njit(cache=True, nogil=True)
def two_best(acc: np.ndarray) -> tuple:
    """``(index, cost, second cost)``: the lowest cost (lowest index on ties) and the lowest among the others."""
    best = 0
    bv = np.float64(acc[0])
    sv = np.inf
    for c in range(1, acc.shape[0]):
        v = np.float64(acc[c])
        if v < bv:
            sv = bv
            bv = v
            best = c
        elif v < sv:
            sv = v
    return best, bv, sv
