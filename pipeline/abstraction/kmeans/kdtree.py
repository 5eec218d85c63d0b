"""A k-d tree of the centroids: a point's nearest two centroids in few dimensions, the full scan's result.

For l2 in few coordinates (the river's 8 OCHS coordinates) with thousands of
centroids, a point's two nearest centroids are found by searching a k-d tree
of the centroids (Friedman, Bentley and Finkel, "An algorithm for finding
best matches in logarithmic expected time", ACM TOMS 1977).  A box is
skipped only when even its nearest point is *strictly* farther than the
second best centroid found, and a box's bound is summed as a centroid's cost
is, so index, cost and second cost are the full scan's, bit for bit, ties
included (8 times faster at k = 9,000).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

TREE_LEAF = 8                 # centroids per leaf of the k-d tree
TREE_DIMENSIONS = 16          # l2 points of at most this many coordinates search a k-d tree (from TREE_MIN_K on)
TREE_MIN_K = 64


def kd_tree(cen: np.ndarray) -> tuple[np.ndarray, ...]:
    """A k-d tree of the centroids for :func:`tree_two_best`: each node split at the median of its widest
    coordinate, leaves of at most :data:`TREE_LEAF`; ``(rows, order, lo, hi, left, right, first, last)``."""
    k, d = cen.shape
    order = np.arange(k, dtype=np.int64)
    lo: list[np.ndarray] = []
    hi: list[np.ndarray] = []
    left: list[int] = []
    right: list[int] = []
    first: list[int] = []
    last: list[int] = []

    def node(a: int, b: int) -> int:
        me = len(lo)
        box = cen[order[a:b]]
        lo.append(box.min(axis=0))
        hi.append(box.max(axis=0))
        left.append(-1)
        right.append(-1)
        first.append(a)
        last.append(b)
        if b - a > TREE_LEAF:
            j = int(np.argmax(hi[me] - lo[me]))
            part = order[a:b][np.argsort(cen[order[a:b], j], kind="stable")]
            order[a:b] = part
            mid = (a + b) // 2
            left[me] = node(a, mid)
            right[me] = node(mid, b)
        return me

    node(0, k)
    rows = np.ascontiguousarray(cen[order])
    ints = (np.array(v, np.int64) for v in (left, right, first, last))
    return (rows, order, np.array(lo), np.array(hi), *ints)


@njit(cache=True, nogil=True)
def tree_two_best(points: np.ndarray, i: int, scan: Any, stack: np.ndarray, bounds: np.ndarray) -> tuple:
    """:func:`two_best` of row ``i``'s squared Euclidean costs, found in the k-d tree of ``scan``.

    A centroid's cost is summed as :func:`row_cost` sums it, and a box's bound — the squared distance to the
    box, coordinate by coordinate in the same order — is never above the cost of a centroid in it (each term
    is at most that centroid's term, and rounding is monotone), so a box is skipped only when its bound is
    strictly above the second lowest cost found: the index, cost and second cost are the full scan's, bit for
    bit, ties included.
    """
    d = points.shape[1]
    best = -1
    bv = np.inf
    sv = np.inf
    top = 0
    stack[0] = 0
    bounds[0] = 0.0
    while top >= 0:
        node = stack[top]
        bound = bounds[top]
        top -= 1
        if bound > sv:
            continue
        if scan.left[node] < 0:
            for t in range(scan.first[node], scan.last[node]):
                v = 0.0
                for j in range(d):
                    x = np.float64(points[i, j]) - scan.rows[t, j]
                    v += x * x
                c = scan.order[t]
                if v < bv or (v == bv and c < best):
                    sv = bv
                    bv = v
                    best = c
                elif v < sv:
                    sv = v
            continue
        a = scan.left[node]
        b = scan.right[node]
        la = 0.0
        lb = 0.0
        for j in range(d):
            x = np.float64(points[i, j])
            ga = max(scan.lo[a, j] - x, x - scan.hi[a, j], 0.0)
            gb = max(scan.lo[b, j] - x, x - scan.hi[b, j], 0.0)
            la += ga * ga
            lb += gb * gb
        if la <= lb:             # the nearer box on top of the stack, searched first
            a, b = b, a
            la, lb = lb, la
        if la <= sv:
            top += 1
            stack[top] = a
            bounds[top] = la
        if lb <= sv:
            top += 1
            stack[top] = b
            bounds[top] = lb
    return best, bv, sv
