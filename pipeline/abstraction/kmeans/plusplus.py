"""k-means++ seeding (Arthur and Vassilvitskii, "k-means++: the advantages of careful seeding", SODA 2007).

The first seed is drawn with probability proportional to weight, each next
one proportional to ``weight * D**p`` (``p = 2`` for l2, ``p = 1`` for l1,
the k-medians++ variant), ``D`` the distance to the nearest seed so far.  The
draws come from pokerpipe's xoroshiro128++ stream
(:func:`pipeline.core.rng.chunk_state` of ``(seed, 0)``), one uniform per
seed, the index found by a cumulative-sum search over the chunks' masses.
A point whose nearest seed is at least twice as far from the new seed as
from the point (triangle inequality, with slack) keeps its distance without
its row being read; the seeds are those of the plain minimum.
"""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Callable, Optional

import numpy as np
from numba import njit

from pipeline.core.errors import InputError
from pipeline.core.inputs import integer
from pipeline.core.rng import chunk_state, uniform

from . import chunks
from .checks import checked_k, checked_points, checked_weights
from .chunks import L2, SLACK, chunk_ranges, map_chunks, metric_code, weight_of
from .distances import row_cost_ilp


@njit(cache=True, nogil=True)
def _weight_chunk(n: int, start: int, stop: int, w: np.ndarray) -> float:
    """The sum of the weights of rows ``start:stop``."""
    total = 0.0
    for i in range(start, stop):
        total += weight_of(w, i)
    return total


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
    factor = 4.0 if metric == L2 else 2.0      # (2 D)**2 for squared distances, 2 D for l1
    total = 0.0
    for i in range(start, stop):
        if step > 0 and gap[near[i]] * (1.0 - SLACK) > factor * cost[i]:
            total += weight_of(w, i) * cost[i]
            continue
        v = row_cost_ilp(points, i, crow, metric)
        if step == 0 or v < cost[i]:
            cost[i] = v
            near[i] = step
        total += weight_of(w, i) * cost[i]
    return total


@njit(cache=True, nogil=True)
def _seed_gaps(points: np.ndarray, chosen: np.ndarray, step: int, crow: np.ndarray, metric: int,
               gap: np.ndarray) -> None:
    """``gap[s]``: the cost between seed ``s < step`` and the new seed ``crow``."""
    for s in range(step):
        gap[s] = row_cost_ilp(points, chosen[s], crow, metric)


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
                run += weight_of(w, i) * cost[i] if use_cost else weight_of(w, i)
                if run > target:
                    return i
        cum += totals[b]
    last = -1                     # rounding left the target unreached: the last point of positive mass
    if lastb >= 0:
        for i in range(lastb * chunk, min(n, (lastb + 1) * chunk)):
            v = weight_of(w, i) * cost[i] if use_cost else weight_of(w, i)
            if v > 0.0:
                last = i
    return last


def plusplus(points: np.ndarray, k: int, *, metric: str, weights: Optional[np.ndarray] = None, seed: int = 0,
             executor: Optional[Executor] = None) -> np.ndarray:
    """The row indices (int64) of ``k`` k-means++ seeds (Arthur and Vassilvitskii 2007).

    The first seed is drawn with probability proportional to weight, each next one proportional to
    ``weight * D**p`` (p = 2 for l2, 1 for l1), ``D`` the distance to the nearest seed so far, by a
    cumulative-sum search over one uniform draw of pokerpipe's generator seeded with ``(seed, 0)``.  Seeds
    are distinct points of positive weight; when every remaining ``weight * D`` is 0 (fewer distinct points
    than ``k``) the lowest-index point of positive weight not yet chosen is taken.
    """
    code = metric_code(metric)
    pts = checked_points(points, executor)
    n = pts.shape[0]
    w = checked_weights(weights, n)
    return draw_seeds(pts, checked_k(k, w, n), code, w, seed, executor)


def draw_seeds(pts: np.ndarray, k: int, code: int, w: np.ndarray, seed: int,
              executor: Optional[Executor]) -> np.ndarray:
    """:func:`plusplus` on checked input (the seed is checked here)."""
    seed = integer(seed, "seed", 0, 2**63 - 1, error=InputError, strict=True)
    n = pts.shape[0]
    ranges = chunk_ranges(n)
    s0, s1 = (np.uint64(v) for v in chunk_state(seed, 0))
    cost = np.zeros(n)
    near = np.zeros(n, np.int32)
    gap = np.zeros(k)
    chosen = np.empty(k, np.int64)
    taken: set[int] = set()
    positive: Optional[np.ndarray] = None
    totals = np.array(map_chunks(lambda a, b: _weight_chunk(n, a, b, w), ranges, executor))
    use_cost = False
    for step in range(k):
        s0, s1, u = uniform(np.uint64(s0), np.uint64(s1))
        total = 0.0
        for t in totals:
            total += t
        pick = int(_search(totals, chunks.CHUNK_ROWS, n, w, cost, use_cost, u * total)) if total > 0.0 else -1
        if pick < 0 or pick in taken:        # no mass left: the lowest-index unchosen point of positive weight
            if positive is None:
                positive = np.arange(n) if w.shape[0] == 0 else np.flatnonzero(w > 0)
            pick = next(int(i) for i in positive if int(i) not in taken)
        chosen[step] = pick
        taken.add(pick)
        if step + 1 < k:
            crow = pts[pick].astype(np.float64)
            _seed_gaps(pts, chosen, step, crow, code, gap)
            totals = np.array(map_chunks(_seed_task(pts, crow, code, w, cost, near, gap, step), ranges, executor))
            use_cost = True
    return chosen


def _seed_task(pts: np.ndarray, crow: np.ndarray, code: int, w: np.ndarray, cost: np.ndarray, near: np.ndarray,
               gap: np.ndarray, step: int) -> Callable[[int, int], float]:
    """The chunk task of one k-means++ step: lower the costs to the new seed ``crow``, return the chunk's mass."""
    return lambda a, b: float(_seed_chunk(pts, a, b, crow, code, w, cost, near, gap, step))
