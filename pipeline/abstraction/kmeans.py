"""Weighted k-means under the Euclidean (l2) and the l1 metric, exact and deterministic, for card abstraction.

Card abstraction clusters the feature vectors of millions of poker situations
(a histogram of equities, its cumulative form, a vector of cluster
frequencies) into ``K`` buckets.  Each situation carries a weight, its
multiplicity among the raw deals.  This module gives:

* :func:`plusplus` — the k-means++ seeding of Arthur and Vassilvitskii
  ("k-means++: the advantages of careful seeding", SODA 2007): the first seed
  is drawn with probability proportional to weight, each next one
  proportional to ``weight * D**p`` (``p = 2`` for l2, ``p = 1`` for l1, the
  k-medians++ variant), ``D`` the distance to the nearest seed so far.  The
  draws come from pokerpipe's xoroshiro128++ stream
  (:func:`pipeline.core.rng.chunk_state` of ``(seed, 0)``), one uniform per
  seed, the index found by a cumulative-sum search.
* :func:`assign` — the nearest centroid of every point.
* :func:`fit` — Lloyd's iterations (Lloyd, "Least squares quantization in
  PCM", IEEE Trans. Inf. Theory 1982): assign, update, repeat.  For l2 the
  update is the weighted mean and the objective ``sum w * d**2``; for l1 the
  update is the weighted coordinate-wise *lower* median (the smallest ``m``
  with ``weight(x <= m) >= half the cluster's weight``: integer points give
  integer centroids) and the objective ``sum w * d``.  On cumulative
  histograms the l1 distance is the earth mover's distance of the
  histograms.  With ``accelerate=True`` the assignment uses Hamerly's bounds
  (Hamerly, "Making k-means even faster", SDM 2010) and gives exactly the
  plain result.
* :func:`objective` — the weighted objective of a labelling.

Fixed rules, so that every result is reproducible:

* **Ties**: a point equidistant from several centroids goes to the lowest
  index.  Equal means equal as computed: the squared Euclidean sum (l2) or
  the sum of absolute differences (l1), accumulated in float64 over the
  coordinates in order.
* **Empty clusters** (no member, or members of total weight 0) after an
  assignment: in increasing cluster order each takes, as its new centroid,
  a distinct point of positive weight, those with the largest ``weight *
  distance`` to their centroid first (ties: lowest point index).
* **Exact acceleration**: a point keeps its label without the full scan only
  when its exact distance to its centroid is *strictly* below
  ``max(s(a), lower bound)`` with a relative slack of ``1e-9`` against
  rounding, so the tie rule is kept.  ``s(c)`` (half the distance from ``c``
  to its nearest other centroid, ``k**2`` distances) is computed only when
  ``k**2 <= 64 n``, i.e. when it costs at most a few passes over the data;
  for larger ``k`` the lower bound alone is used.  The distance to the own
  centroid is recomputed for every point every iteration (``d`` operations,
  ``1/k`` of a full scan): it makes the objective exact and tightens the
  upper bound, so no upper-bound array is kept.
* **k-means++ pruning**: a point whose nearest seed ``s`` is at least twice
  as far from the new seed as from the point (triangle inequality, with
  slack) keeps its distance without its row being read; the seeds are those
  of the plain minimum.
* **Scans** (a point against every centroid, :func:`_scan_of`): l1 on uint8
  points with integer centroids — always so in a fit from k-means++ seeds —
  sums bytes in 16- or 32-bit integers, seven times the float64 rate and the
  same values; l2 in few coordinates (the river's 8) searches a k-d tree of
  the centroids (Friedman, Bentley and Finkel, ACM TOMS 1977) that skips a
  box only when even its nearest point is strictly farther than the second
  best found, so index, cost and second cost are the full scan's, ties
  included, at a fraction of the work for thousands of centroids.
* **Medians**: integer points are counted (one cluster at a time, per
  coordinate a histogram of the values between its members' smallest and
  largest); float points are sorted per cluster and coordinate.  Both give
  the same lower median (:func:`lower_medians`).
* **Chunks**: every kernel works on fixed chunks of :data:`CHUNK_ROWS` rows
  (or on ranges of whole clusters for the update), whether mapped over an
  ``executor`` (the kernels release the GIL: a ``ThreadPoolExecutor`` runs
  them in parallel) or run in a loop; reductions are combined chunk by chunk
  in chunk order, so results are bit-identical with and without an executor,
  whatever its number of workers.

Points stay in their own dtype (uint8, uint16, int32, float32 or float64):
the kernels read them as they are and accumulate in float64.  Extra memory
is O(n): labels (int32), distances and lower bounds (float64), one index
array for grouping by cluster; never O(n k).

>>> import numpy as np
>>> pts = np.array([[0, 0], [0, 1], [10, 10], [10, 11]], dtype=np.uint8)
>>> result = fit(pts, 2, metric="l1")
>>> sorted(result.centroids.tolist())
[[0.0, 0.0], [10.0, 10.0]]
>>> result.converged
True
"""
from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional

import numpy as np
from numba import njit

from pipeline.core.errors import InputError
from pipeline.core.inputs import integer
from pipeline.core.rng import chunk_state, uniform

MAX_ITERATIONS = 1_000_000    # Lloyd iterations one fit may ask for (converged fits stop after tens)
CHUNK_ROWS = 1 << 16          # rows per chunk of work: fixed, so reductions do not depend on the executor
SLACK = 1e-9                  # relative safety margin of Hamerly's bounds against rounding
_L2 = 0
_L1 = 1
_METRICS = {"l2": _L2, "l1": _L1}
_DTYPES = (np.uint8, np.uint16, np.int32, np.float32, np.float64)


@dataclass(frozen=True)
class Clustering:
    """The result of :func:`fit`.

    ``labels`` is the nearest centroid of each point under the final
    ``centroids`` (tie rule: lowest index) and ``distances`` its distance to
    it (l1: ``sum |x - c|``; l2: Euclidean).  ``objective`` holds the
    weighted objective after each assignment step, the first entry after the
    k-means++ initialisation; ``iterations`` counts the Lloyd iterations
    (update + assignment) done and ``converged`` says whether the last one
    changed no label.
    """

    centroids: np.ndarray
    labels: np.ndarray
    distances: np.ndarray
    objective: list[float]
    iterations: int
    converged: bool


# ---------------------------------------------------------------------------
# kernels: distances

@njit(cache=True, nogil=True)
def _row_cost(points: np.ndarray, i: int, c: np.ndarray, metric: int) -> float:
    """The metric's cost of row ``i`` against the float64 row ``c``: squared Euclidean (l2) or l1 distance."""
    acc = 0.0
    if metric == _L2:
        for j in range(points.shape[1]):
            t = np.float64(points[i, j]) - c[j]
            acc += t * t
    else:
        for j in range(points.shape[1]):
            acc += abs(np.float64(points[i, j]) - c[j])
    return acc


@njit(cache=True, nogil=True)
def _row_cost_ilp(points: np.ndarray, i: int, c: np.ndarray, metric: int) -> float:
    """:func:`_row_cost` with four partial sums (coordinates ``j mod 4``): four times the instruction-level
    parallelism, rounded differently, so used only where no other kernel must reproduce its bits (k-means++)."""
    d = points.shape[1]
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    j = 0
    if metric == _L2:
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
def _all_costs(points: np.ndarray, i: int, ct: np.ndarray, metric: int, acc: np.ndarray) -> None:
    """The costs of row ``i`` against every centroid (``ct``: the centroids transposed, (d, k)) into ``acc``.

    The inner loop runs over centroids, so it vectorises while each centroid's sum keeps the coordinate
    order of :func:`_row_cost` (the same float64 operations, the same bits); four coordinates are added per
    pass, so ``acc`` is loaded and stored once per four.  ``ct`` and ``acc`` come in two layouts
    (:func:`_layout`): float64 for any points, or — l1 on uint8 points with integer centroids — ``ct`` uint8
    and ``acc`` uint16/uint32, where ``max - min`` of two bytes is their exact distance and the sums are
    exact integers: the same values as float64, eight to sixteen times as many per vector instruction.
    """
    k = ct.shape[1]
    d = points.shape[1]
    for c in range(k):
        acc[c] = 0
    j = 0
    if metric == _L2:
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
def _two_best(acc: np.ndarray) -> tuple:
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


class _Scan(NamedTuple):
    """How a pass finds a point's nearest two centroids (:func:`_scan_of`): ``ct``, the centroids transposed
    for :func:`_all_costs`, and ``proto``, an empty array of its costs' dtype; for l2 in few dimensions also a
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


TREE_LEAF = 8                 # centroids per leaf of the k-d tree
TREE_DIMENSIONS = 16          # l2 points of at most this many coordinates search a k-d tree (from TREE_MIN_K on)
TREE_MIN_K = 64
MOVED_SHARE = 0.5             # a Hamerly pass scans only the centroids that moved while at most this share did


@njit(cache=True, nogil=True)
def _tree_two_best(points: np.ndarray, i: int, scan: _Scan, stack: np.ndarray, bounds: np.ndarray) -> tuple:
    """:func:`_two_best` of row ``i``'s squared Euclidean costs, found in the k-d tree of ``scan``.

    A centroid's cost is summed as :func:`_row_cost` sums it, and a box's bound — the squared distance to the
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


@njit(cache=True, nogil=True)
def _nearest_two(points: np.ndarray, i: int, scan: _Scan, metric: int, acc: np.ndarray, stack: np.ndarray,
                 bounds: np.ndarray) -> tuple:
    """``(index, cost, second cost)`` of row ``i`` over every centroid: by the k-d tree when ``scan`` has one,
    else by :func:`_all_costs` and :func:`_two_best` — the same result either way."""
    if scan.order.shape[0] > 0:
        return _tree_two_best(points, i, scan, stack, bounds)
    _all_costs(points, i, scan.ct, metric, acc)
    return _two_best(acc)


@njit(cache=True, nogil=True)
def _weight(w: np.ndarray, i: int) -> float:
    """Point ``i``'s weight: ``w[i]``, or 1 when ``w`` is empty (no weights given)."""
    if w.shape[0] == 0:
        return 1.0
    return w[i]


@njit(cache=True, nogil=True)
def _assign_chunk(points: np.ndarray, start: int, stop: int, scan: _Scan, metric: int, w: np.ndarray,
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
        best, bv, sv = _nearest_two(points, i, scan, metric, acc, stack, bounds)
        if labels[i] != best:
            changed += 1
            labels[i] = best
        obj += _weight(w, i) * bv
        if metric == _L2:
            dist[i] = np.sqrt(bv)
            sv = np.sqrt(sv)
        else:
            dist[i] = bv
        if second:
            lower[i] = sv * (1.0 - SLACK)
    return obj, changed


@njit(cache=True, nogil=True)
def _hamerly_chunk(points: np.ndarray, start: int, stop: int, cen: np.ndarray, scan: _Scan, metric: int,
                   w: np.ndarray, labels: np.ndarray, dist: np.ndarray, lower: np.ndarray, s: np.ndarray,
                   drift: np.ndarray, r1: int, r2: int, moved: np.ndarray, moved_scan: _Scan) -> tuple:
    """Hamerly's assignment of rows ``start:stop`` after the centroids moved by ``drift``.

    ``r1``/``r2`` are the centroids of largest and second largest drift.  A point keeps its label without a
    scan when its exact distance to its centroid is strictly below ``max(s[a], lower bound)`` (with slack).
    Otherwise, when ``moved`` lists the centroids that moved at all (ascending; ``moved_scan`` their layout)
    and the point's bound from before the move is still above its distance — no centroid that stayed can be
    as near — only the moved ones are scanned: the nearest of them and its own centroid is its label, and its
    new bound the least of the old one and the distances just computed.  Otherwise all centroids are
    scanned as in :func:`_assign_chunk`.  Returns the chunk's objective, the number of changed labels and the
    number of scans of every centroid.
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
        va = _row_cost(points, i, cen[a], metric)
        da = np.sqrt(va) if metric == _L2 else va
        before = lower[i]
        low = before
        if low < np.inf:
            m = drift[r2] if a == r1 else drift[r1]
            low = low - m - SLACK * (low + m)
        bound = max(s[a], low)
        if da * (1.0 + SLACK) < bound:
            dist[i] = da
            lower[i] = low
            obj += _weight(w, i) * va
            continue
        if moved.shape[0] > 0 and da * (1.0 + SLACK) < before:
            _all_costs(points, i, moved_scan.ct, metric, part)
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
                near = min(near, np.sqrt(loser) if metric == _L2 else loser)
            if best != a:
                changed += 1
                labels[i] = best
            obj += _weight(w, i) * bv
            dist[i] = np.sqrt(bv) if metric == _L2 else bv
            lower[i] = near * (1.0 - SLACK)
            continue
        scans += 1
        best, bv, sv = _nearest_two(points, i, scan, metric, acc, stack, bounds)
        if best != a:
            changed += 1
            labels[i] = best
        obj += _weight(w, i) * bv
        if metric == _L2:
            dist[i] = np.sqrt(bv)
            sv = np.sqrt(sv)
        else:
            dist[i] = bv
        lower[i] = sv * (1.0 - SLACK)
    return obj, changed, scans


@njit(cache=True, nogil=True)
def _half_gaps(cen: np.ndarray, c0: int, c1: int, metric: int, s: np.ndarray) -> None:
    """Hamerly's ``s(c)`` for centroids ``c0:c1``: half the distance to the nearest other centroid, less slack."""
    k = cen.shape[0]
    for c in range(c0, c1):
        best = np.inf
        for o in range(k):
            if o != c:
                v = _row_cost(cen, c, cen[o], metric)
                if v < best:
                    best = v
        if metric == _L2:
            best = np.sqrt(best)
        s[c] = 0.5 * best * (1.0 - SLACK)


@njit(cache=True, nogil=True)
def _objective_chunk(points: np.ndarray, start: int, stop: int, cen: np.ndarray, labels: np.ndarray,
                     metric: int, w: np.ndarray) -> float:
    """The weighted objective of rows ``start:stop`` under ``labels``."""
    obj = 0.0
    for i in range(start, stop):
        obj += _weight(w, i) * _row_cost(points, i, cen[labels[i]], metric)
    return obj


@njit(cache=True, nogil=True)
def _finite_chunk(points: np.ndarray, start: int, stop: int) -> bool:
    """Whether rows ``start:stop`` are all finite (no NaN, no infinity)."""
    for i in range(start, stop):
        for j in range(points.shape[1]):
            v = points[i, j]
            if not np.isfinite(v):
                return False
    return True


# ---------------------------------------------------------------------------
# kernels: k-means++

@njit(cache=True, nogil=True)
def _seed_chunk(points: np.ndarray, start: int, stop: int, crow: np.ndarray, metric: int, w: np.ndarray,
                cost: np.ndarray, near: np.ndarray, gap: np.ndarray, step: int) -> float:
    """Lower ``cost[i]`` (squared distance for l2, distance for l1) to the new seed ``crow``, number ``step``;
    the chunk's sum of ``weight * cost``, the k-means++ mass.

    ``near[i]`` is the seed nearest to point ``i`` so far and ``gap[s]`` the cost between seed ``s`` and the
    new one: when the new seed is at least twice as far from ``near[i]`` as the point is (with slack), the
    triangle inequality says it cannot come nearer, and the point's row is not read.  The costs are those of
    the plain minimum.
    """
    factor = 4.0 if metric == _L2 else 2.0      # (2 D)**2 for squared distances, 2 D for l1
    total = 0.0
    for i in range(start, stop):
        if step > 0 and gap[near[i]] * (1.0 - SLACK) > factor * cost[i]:
            total += _weight(w, i) * cost[i]
            continue
        v = _row_cost_ilp(points, i, crow, metric)
        if step == 0 or v < cost[i]:
            cost[i] = v
            near[i] = step
        total += _weight(w, i) * cost[i]
    return total


@njit(cache=True, nogil=True)
def _seed_gaps(points: np.ndarray, chosen: np.ndarray, step: int, crow: np.ndarray, metric: int,
               gap: np.ndarray) -> None:
    """``gap[s]``: the cost between seed ``s < step`` and the new seed ``crow``."""
    for s in range(step):
        gap[s] = _row_cost_ilp(points, chosen[s], crow, metric)


@njit(cache=True, nogil=True)
def _weight_chunk(n: int, start: int, stop: int, w: np.ndarray) -> float:
    """The sum of the weights of rows ``start:stop``."""
    total = 0.0
    for i in range(start, stop):
        total += _weight(w, i)
    return total


@njit(cache=True, nogil=True)
def _search(totals: np.ndarray, chunk: int, n: int, w: np.ndarray, cost: np.ndarray, use_cost: bool,
            target: float) -> int:
    """The first index whose cumulative mass (``weight``, times ``cost`` when ``use_cost``) exceeds ``target``.

    The chunk is found from the chunk sums, then the index within it; the mass of a point of mass 0 never
    exceeds the previous cumulative sum, so such a point is never chosen.  -1 when none is found.
    """
    cum = 0.0
    lastb = -1
    for b in range(totals.shape[0]):
        if totals[b] <= 0.0:
            continue
        lastb = b
        if cum + totals[b] > target:
            run = cum
            for i in range(b * chunk, min(n, (b + 1) * chunk)):
                run += _weight(w, i) * cost[i] if use_cost else _weight(w, i)
                if run > target:
                    return i
        cum += totals[b]
    last = -1                     # rounding left the target unreached: the last point of positive mass
    if lastb >= 0:
        for i in range(lastb * chunk, min(n, (lastb + 1) * chunk)):
            v = _weight(w, i) * cost[i] if use_cost else _weight(w, i)
            if v > 0.0:
                last = i
    return last


# ---------------------------------------------------------------------------
# kernels: the update

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
            wi = _weight(w, i)
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
            ws[t] = _weight(w, order[s + t])
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
            total += _weight(w, i)
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
            wi = _weight(w, i)
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


# ---------------------------------------------------------------------------
# checks and plumbing

def _metric_code(metric: str) -> int:
    """The kernels' code of ``metric``; InputError for an unknown one."""
    if metric not in _METRICS:
        raise InputError(f"metric must be 'l1' or 'l2', not {metric!r}.")
    return _METRICS[metric]


def _ranges(n: int) -> list[tuple[int, int]]:
    """The fixed chunks ``(start, stop)`` of ``n`` rows."""
    return [(s, min(s + CHUNK_ROWS, n)) for s in range(0, n, CHUNK_ROWS)]


def _map(fn: Callable[[int, int], Any], ranges: list[tuple[int, int]], executor: Optional[Executor]) -> list[Any]:
    """``fn(start, stop)`` over ``ranges``, on ``executor`` when given, the results in range order."""
    if executor is None or len(ranges) <= 1:
        return [fn(a, b) for a, b in ranges]
    return list(executor.map(lambda r: fn(r[0], r[1]), ranges))


def _points(points: Any, executor: Optional[Executor] = None) -> np.ndarray:
    """``points`` as a C-contiguous 2-D array of a supported dtype, checked finite; InputError otherwise."""
    if not isinstance(points, np.ndarray) or points.ndim != 2:
        raise InputError("points must be a 2-D numpy array (one row per point).")
    if points.dtype.type not in _DTYPES:
        raise InputError(f"points must be uint8, uint16, int32, float32 or float64, not {points.dtype}.")
    if points.shape[0] == 0 or points.shape[1] == 0:
        raise InputError("points must have at least one row and one column.")
    pts = np.ascontiguousarray(points)
    if pts.dtype.kind == "f":
        ok = _map(lambda a, b: _finite_chunk(pts, a, b), _ranges(pts.shape[0]), executor)
        if not all(ok):
            raise InputError("points contain NaN or infinite values.")
    return pts


def _weights(weights: Any, n: int) -> np.ndarray:
    """The weights as float64 (an empty array for "all 1"); InputError for a wrong length or a negative one."""
    if weights is None:
        return np.empty(0, np.float64)
    w = np.asarray(weights)
    if w.ndim != 1 or w.shape[0] != n:
        raise InputError(f"weights must be a 1-D array of {n} values, one per point, not shape {w.shape}.")
    if w.dtype.kind not in "iuf":
        raise InputError(f"weights must be integers or floats, not {w.dtype}.")
    w = np.ascontiguousarray(w, dtype=np.float64)
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise InputError("weights must be finite and non-negative.")
    return w


def _check_k(k: Any, w: np.ndarray, n: int) -> int:
    """``k`` as an int, checked between 1 and the number of points of positive weight."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise InputError(f"k must be an integer, not {k!r}.")
    positive = n if w.shape[0] == 0 else int(np.count_nonzero(w > 0))
    if k < 1:
        raise InputError(f"k must be at least 1, not {k}.")
    if k > positive:
        raise InputError(f"k = {k} exceeds the {positive} points of positive weight.")
    return int(k)


def _centroids(centroids: Any, d: int) -> np.ndarray:
    """``centroids`` as a C-contiguous float64 (k, d) array; InputError otherwise."""
    c = np.asarray(centroids)
    if c.ndim != 2 or c.shape[1] != d or c.shape[0] < 1:
        raise InputError(f"centroids must be a 2-D array of at least one row of {d} values, not shape {c.shape}.")
    c = np.ascontiguousarray(c, dtype=np.float64)
    if not np.all(np.isfinite(c)):
        raise InputError("centroids contain NaN or infinite values.")
    return c


# ---------------------------------------------------------------------------
# public API

def plusplus(points: np.ndarray, k: int, *, metric: str, weights: Optional[np.ndarray] = None, seed: int = 0,
             executor: Optional[Executor] = None) -> np.ndarray:
    """The row indices (int64) of ``k`` k-means++ seeds (Arthur and Vassilvitskii 2007).

    The first seed is drawn with probability proportional to weight, each next one proportional to
    ``weight * D**p`` (p = 2 for l2, 1 for l1), ``D`` the distance to the nearest seed so far, by a
    cumulative-sum search over one uniform draw of pokerpipe's generator seeded with ``(seed, 0)``.  Seeds
    are distinct points of positive weight; when every remaining ``weight * D`` is 0 (fewer distinct points
    than ``k``) the lowest-index point of positive weight not yet chosen is taken.
    """
    code = _metric_code(metric)
    pts = _points(points, executor)
    n = pts.shape[0]
    w = _weights(weights, n)
    return _plusplus(pts, _check_k(k, w, n), code, w, seed, executor)


def _plusplus(pts: np.ndarray, k: int, code: int, w: np.ndarray, seed: int,
              executor: Optional[Executor]) -> np.ndarray:
    """:func:`plusplus` on checked input (the seed is checked here)."""
    seed = integer(seed, "seed", 0, 2**63 - 1, error=InputError, strict=True)
    n = pts.shape[0]
    ranges = _ranges(n)
    s0, s1 = (np.uint64(v) for v in chunk_state(seed, 0))
    cost = np.zeros(n)
    near = np.zeros(n, np.int32)
    gap = np.zeros(k)
    chosen = np.empty(k, np.int64)
    taken: set[int] = set()
    positive: Optional[np.ndarray] = None
    totals = np.array(_map(lambda a, b: _weight_chunk(n, a, b, w), ranges, executor))
    use_cost = False
    for step in range(k):
        s0, s1, u = uniform(np.uint64(s0), np.uint64(s1))
        total = 0.0
        for t in totals:
            total += t
        pick = int(_search(totals, CHUNK_ROWS, n, w, cost, use_cost, u * total)) if total > 0.0 else -1
        if pick < 0 or pick in taken:        # no mass left: the lowest-index unchosen point of positive weight
            if positive is None:
                positive = np.arange(n) if w.shape[0] == 0 else np.flatnonzero(w > 0)
            pick = next(int(i) for i in positive if int(i) not in taken)
        chosen[step] = pick
        taken.add(pick)
        if step + 1 < k:
            crow = pts[pick].astype(np.float64)
            _seed_gaps(pts, chosen, step, crow, code, gap)
            totals = np.array(_map(_seed_task(pts, crow, code, w, cost, near, gap, step), ranges, executor))
            use_cost = True
    return chosen


def _seed_task(pts: np.ndarray, crow: np.ndarray, code: int, w: np.ndarray, cost: np.ndarray, near: np.ndarray,
               gap: np.ndarray, step: int) -> Callable[[int, int], float]:
    """The chunk task of one k-means++ step: lower the costs to the new seed ``crow``, return the chunk's mass."""
    return lambda a, b: float(_seed_chunk(pts, a, b, crow, code, w, cost, near, gap, step))


def assign(points: np.ndarray, centroids: np.ndarray, *, metric: str,
           executor: Optional[Executor] = None) -> tuple[np.ndarray, np.ndarray]:
    """The nearest centroid of every point (int32, lowest index on ties) and the distance to it (float64:
    Euclidean for l2, ``sum |x - c|`` for l1)."""
    code = _metric_code(metric)
    pts = _points(points, executor)
    cen = _centroids(centroids, pts.shape[1])
    n = pts.shape[0]
    labels = np.full(n, -1, np.int32)
    dist = np.empty(n)
    _full_pass(pts, cen, code, np.empty(0), labels, dist, dist, False, executor, _top(pts))
    return labels, dist


def objective(points: np.ndarray, centroids: np.ndarray, labels: np.ndarray, *, metric: str,
              weights: Optional[np.ndarray] = None) -> float:
    """The weighted objective of ``labels``: ``sum w * d**2`` for l2, ``sum w * d`` for l1 (chunk order)."""
    code = _metric_code(metric)
    pts = _points(points)
    n = pts.shape[0]
    cen = _centroids(centroids, pts.shape[1])
    lab = np.asarray(labels)
    if lab.shape != (n,) or lab.dtype.kind not in "iu":
        raise InputError(f"labels must be {n} integers, one per point.")
    if n and (lab.min() < 0 or lab.max() >= cen.shape[0]):
        raise InputError(f"labels must lie in 0 .. {cen.shape[0] - 1}.")
    lab = np.ascontiguousarray(lab, dtype=np.int32)
    w = _weights(weights, n)
    total = 0.0
    for part in _map(lambda a, b: _objective_chunk(pts, a, b, cen, lab, code, w), _ranges(n), None):
        total += part
    return total


def lower_medians(points: np.ndarray, labels: np.ndarray, k: int, *, weights: Optional[np.ndarray] = None,
                  executor: Optional[Executor] = None) -> tuple[np.ndarray, np.ndarray]:
    """``(medians, weight)``: each of the ``k`` clusters' coordinate-wise weighted lower median (the l1
    centroid, 0 where a cluster has no weight), float64 (k, d), and its total weight."""
    pts = _points(points)
    n = pts.shape[0]
    w = _weights(weights, n)
    lab = np.ascontiguousarray(labels, np.int32)
    if lab.shape != (n,) or (n and (lab.min() < 0 or lab.max() >= k)):
        raise InputError(f"labels must be {n} integers in 0 .. {k - 1}.")
    out = np.zeros((k, pts.shape[1]))
    wsum = np.zeros(k)
    _medians_into(pts, w, lab, _median_span(pts), np.empty(n, np.int32 if n < 2**31 else np.int64), out, wsum,
                  executor)
    return out, wsum


def fit(points: np.ndarray, k: int, *, metric: str = "l2", weights: Optional[np.ndarray] = None, seed: int = 0,
        max_iterations: int = 100, tolerance: float = 0.0, executor: Optional[Executor] = None,
        accelerate: bool = True, init: Optional[np.ndarray] = None) -> Clustering:
    """Weighted k-means (l2: means) or k-medians (l1: lower medians) from k-means++ seeds, by Lloyd's iterations.

    Stops when an iteration changes no label (``converged``), after ``max_iterations``, or when the relative
    objective improvement falls below ``tolerance`` (when ``tolerance > 0``).  ``accelerate`` uses Hamerly's
    bounds; the result is identical to the plain iterations, only faster.  ``init``: start from these (k, d)
    centroids instead of k-means++ seeds.
    """
    code = _metric_code(metric)
    pts = _points(points, executor)
    n = pts.shape[0]
    w = _weights(weights, n)
    k = _check_k(k, w, n)
    max_iterations = integer(max_iterations, "max_iterations", 0, MAX_ITERATIONS, error=InputError, strict=True)
    if not tolerance >= 0:
        raise InputError(f"tolerance must be >= 0, not {tolerance}.")
    if init is None:
        cen = pts[_plusplus(pts, k, code, w, seed, executor)].astype(np.float64)
    else:                                   # given starting centroids (seeded on a sample, say)
        cen = _centroids(init, pts.shape[1]).copy()
        if cen.shape[0] != k:
            raise InputError(f"init holds {cen.shape[0]} centroids, not k = {k}.")
    hamerly = accelerate and k > 1
    labels = np.full(n, -1, np.int32)
    dist = np.empty(n)
    lower = np.empty(n) if hamerly else dist
    top = _top(pts)
    obj, _ = _full_pass(pts, cen, code, w, labels, dist, lower, hamerly, executor, top)
    history = [obj]
    gaps = hamerly and k * k <= 64 * n
    span = _median_span(pts) if code == _L1 else None
    order = np.empty(n, np.int32 if n < 2**31 else np.int64)
    iterations = 0
    converged = False
    while iterations < max_iterations:
        new = _update(pts, w, labels, dist, cen, code, span, order, executor)
        iterations += 1
        if hamerly:
            obj, changed, _ = _hamerly_pass(pts, cen, new, code, w, labels, dist, lower, gaps, executor, top)
        else:
            obj, changed = _full_pass(pts, new, code, w, labels, dist, lower, False, executor, top)
        cen = new
        previous = history[-1]
        history.append(obj)
        if changed == 0:
            converged = True
            break
        if tolerance > 0 and previous - obj < tolerance * abs(previous):
            break
    return Clustering(cen, labels, dist, history, iterations, converged)


# ---------------------------------------------------------------------------
# the passes

def _scan_of(pts: np.ndarray, cen: np.ndarray, code: int, top: int, tree: bool = True) -> _Scan:
    """The :class:`_Scan` of a pass over ``pts`` with centroids ``cen`` (``top``: :func:`_top` of the points).

    l1 on uint8 points with centroids that are integers 0..255 (lower medians of integer points always are)
    scans bytes with integer costs — uint16 when ``d`` times the largest value fits, else uint32 — exact, so
    the same labels, distances and ties as float64; l2 in at most :data:`TREE_DIMENSIONS` coordinates with at
    least :data:`TREE_MIN_K` centroids searches a k-d tree (the same result, unless ``tree`` is False);
    anything else scans float64.
    """
    none = np.empty((0, 0))
    no_tree = (none, np.empty(0, np.int64), none, none, *(np.empty(0, np.int64) for _ in range(4)))
    if code == _L1 and top >= 0 and cen.size and cen.min() >= 0 and cen.max() <= 255 \
            and np.array_equal(cen, np.round(cen)):
        most = max(int(cen.max()), top) * pts.shape[1]
        proto = np.empty(0, np.uint16 if most < 1 << 16 else np.uint32)
        return _Scan(np.ascontiguousarray(cen.T.astype(np.uint8)), proto, *no_tree)
    if tree and code == _L2 and pts.shape[1] <= TREE_DIMENSIONS and cen.shape[0] >= TREE_MIN_K:
        return _Scan(np.empty((pts.shape[1], 0)), np.empty(0, np.float64), *_kd_tree(cen))
    return _Scan(np.ascontiguousarray(cen.T), np.empty(0, np.float64), *no_tree)


def _kd_tree(cen: np.ndarray) -> tuple[np.ndarray, ...]:
    """A k-d tree of the centroids for :func:`_tree_two_best`: each node split at the median of its widest
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


def _top(pts: np.ndarray) -> int:
    """The largest value of uint8 points (what :func:`_layout` sizes integer costs by); -1 for other dtypes."""
    return int(pts.max()) if pts.dtype == np.uint8 else -1


def _full_pass(pts: np.ndarray, cen: np.ndarray, code: int, w: np.ndarray, labels: np.ndarray, dist: np.ndarray,
               lower: np.ndarray, second: bool, executor: Optional[Executor], top: int) -> tuple[float, int]:
    """A full assignment of all points; the objective and the number of changed labels, in chunk order."""
    scan = _scan_of(pts, cen, code, top)
    obj = 0.0
    changed = 0
    for o, ch in _map(lambda a, b: _assign_chunk(pts, a, b, scan, code, w, labels, dist, lower, second),
                      _ranges(pts.shape[0]), executor):
        obj += o
        changed += ch
    return obj, changed


def _hamerly_pass(pts: np.ndarray, old: np.ndarray, cen: np.ndarray, code: int, w: np.ndarray, labels: np.ndarray,
                  dist: np.ndarray, lower: np.ndarray, gaps: bool, executor: Optional[Executor],
                  top: int) -> tuple[float, int, int]:
    """Hamerly's assignment after the centroids moved from ``old`` to ``cen``: the objective, the number of
    changed labels and the number of full scans."""
    k = cen.shape[0]
    diff = cen - old
    drift = np.sqrt((diff * diff).sum(axis=1)) if code == _L2 else np.abs(diff).sum(axis=1)
    drift = drift * (1.0 + SLACK)
    r1 = int(np.argmax(drift))
    rest = drift.copy()
    rest[r1] = -1.0
    r2 = int(np.argmax(rest))
    s = np.zeros(k)
    if gaps:
        step = max(1, CHUNK_ROWS // max(k, 1))
        _map(lambda a, b: _half_gaps(cen, a, b, code, s), [(c, min(c + step, k)) for c in range(0, k, step)],
             executor)
    scan = _scan_of(pts, cen, code, top)
    moved = np.flatnonzero(drift > 0.0)
    if moved.size > k * MOVED_SHARE:          # most centroids moved: points that fail the bounds scan them all
        moved = moved[:0]
    moved_scan = _scan_of(pts, cen[moved], code, top, tree=False) if moved.size else scan
    obj = 0.0
    changed = 0
    scans = 0
    for o, ch, sc in _map(lambda a, b: _hamerly_chunk(pts, a, b, cen, scan, code, w, labels, dist, lower, s,
                                                     drift, r1, r2, moved, moved_scan),
                          _ranges(pts.shape[0]), executor):
        obj += o
        changed += ch
        scans += sc
    return obj, changed, scans


def _median_span(pts: np.ndarray) -> Optional[int]:
    """The width of integer points' values, the counting median's widest histogram; None for floats (sorted)."""
    if pts.dtype.kind == "f":
        return None
    return int(pts.max()) - int(pts.min()) + 1


def _update(pts: np.ndarray, w: np.ndarray, labels: np.ndarray, dist: np.ndarray, cen: np.ndarray, code: int,
            span: Optional[int], order: np.ndarray, executor: Optional[Executor]) -> np.ndarray:
    """The new centroids: weighted means (l2) or lower medians (l1) of the clusters, empty ones relocated."""
    new = cen.copy()
    wsum = np.zeros(cen.shape[0])
    if code == _L2:
        _means_into(pts, w, labels, order, new, wsum, executor)
    else:
        _medians_into(pts, w, labels, span, order, new, wsum, executor)
    empty = np.flatnonzero(wsum <= 0.0)
    if empty.size:
        for c, i in zip(empty, _farthest(w, dist, empty.size)):
            new[c] = pts[i]
    return new


def _cluster_tasks(labels: np.ndarray, k: int, order: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The points grouped by cluster (``order``, :func:`_group`) and ranges of whole clusters of about
    :data:`CHUNK_ROWS` members: each cluster is computed alone, whatever the executor."""
    starts = _group(labels, k, order)
    tasks: list[tuple[int, int]] = []
    c0 = 0
    while c0 < k:     # ranges of whole clusters of about CHUNK_ROWS members: each cluster is computed alone
        c1 = int(np.searchsorted(starts, starts[c0] + CHUNK_ROWS, side="right")) - 1
        c1 = min(k, max(c1, c0 + 1))
        tasks.append((c0, c1))
        c0 = c1
    return starts, tasks


def _means_into(pts: np.ndarray, w: np.ndarray, labels: np.ndarray, order: np.ndarray, out: np.ndarray,
                wsum: np.ndarray, executor: Optional[Executor]) -> None:
    """The clusters' weighted means into ``out`` (where they have weight) and their weights into ``wsum``."""
    starts, tasks = _cluster_tasks(labels, out.shape[0], order)
    _map(lambda a, b: _mean_range(pts, w, order, starts, a, b, out, wsum), tasks, executor)


def _medians_into(pts: np.ndarray, w: np.ndarray, labels: np.ndarray, span: Optional[int], order: np.ndarray,
                  out: np.ndarray, wsum: np.ndarray, executor: Optional[Executor]) -> None:
    """The clusters' weighted lower medians into ``out`` (where they have weight), their weights into
    ``wsum``: counted for integer points (``span``: :func:`_median_span`), sorted for floats."""
    starts, tasks = _cluster_tasks(labels, out.shape[0], order)
    if span is not None:
        _map(lambda a, b: _median_count_range(pts, w, order, starts, a, b, span, out, wsum), tasks, executor)
    else:
        _map(lambda a, b: _median_sort_range(pts, w, order, starts, a, b, out, wsum), tasks, executor)


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
