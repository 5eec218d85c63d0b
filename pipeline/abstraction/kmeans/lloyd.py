"""Lloyd's iterations (Lloyd, "Least squares quantization in PCM", IEEE Trans. Inf. Theory 1982): :func:`fit`.

From k-means++ seeds (:mod:`.plusplus`) or given centroids: assign
(:mod:`.assignment`, or Hamerly's bounds, :mod:`.hamerly`), update
(:mod:`.update`), repeat until no label changes, the iterations run out or
the objective improves by less than the tolerance.
"""
from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Optional

import numpy as np

from pipeline.core.errors import InputError
from pipeline.core.inputs import integer

from .assignment import full_pass
from .checks import checked_centroids, checked_k, checked_points, checked_weights
from .chunks import L1, metric_code
from .hamerly import hamerly_pass
from .plusplus import draw_seeds
from .scans import byte_top
from .update import median_span, update

MAX_ITERATIONS = 1_000_000    # Lloyd iterations one fit may ask for (converged fits stop after tens)


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


def fit(points: np.ndarray, k: int, *, metric: str = "l2", weights: Optional[np.ndarray] = None, seed: int = 0,
        max_iterations: int = 100, tolerance: float = 0.0, executor: Optional[Executor] = None,
        accelerate: bool = True, init: Optional[np.ndarray] = None) -> Clustering:
    """Weighted k-means (l2: means) or k-medians (l1: lower medians) from k-means++ seeds, by Lloyd's iterations.

    Stops when an iteration changes no label (``converged``), after ``max_iterations``, or when the relative
    objective improvement falls below ``tolerance`` (when ``tolerance > 0``).  ``accelerate`` uses Hamerly's
    bounds; the result is identical to the plain iterations, only faster.  ``init``: start from these (k, d)
    centroids instead of k-means++ seeds.
    """
    code = metric_code(metric)
    pts = checked_points(points, executor)
    n = pts.shape[0]
    w = checked_weights(weights, n)
    k = checked_k(k, w, n)
    max_iterations = integer(max_iterations, "max_iterations", 0, MAX_ITERATIONS, error=InputError, strict=True)
    if not tolerance >= 0:
        raise InputError(f"tolerance must be >= 0, not {tolerance}.")
    if init is None:
        cen = pts[draw_seeds(pts, k, code, w, seed, executor)].astype(np.float64)
    else:                                   # given starting centroids (seeded on a sample, say)
        cen = checked_centroids(init, pts.shape[1]).copy()
        if cen.shape[0] != k:
            raise InputError(f"init holds {cen.shape[0]} centroids, not k = {k}.")
    hamerly = accelerate and k > 1
    labels = np.full(n, -1, np.int32)
    dist = np.empty(n)
    lower = np.empty(n) if hamerly else dist
    top = byte_top(pts)
    obj, _ = full_pass(pts, cen, code, w, labels, dist, lower, hamerly, executor, top)
    history = [obj]
    gaps = hamerly and k * k <= 64 * n
    span = median_span(pts) if code == L1 else None
    order = np.empty(n, np.int32 if n < 2**31 else np.int64)
    iterations = 0
    converged = False
    while iterations < max_iterations:
        new = update(pts, w, labels, dist, cen, code, span, order, executor)
        iterations += 1
        if hamerly:
            obj, changed, _ = hamerly_pass(pts, cen, new, code, w, labels, dist, lower, gaps, executor, top)
        else:
            obj, changed = full_pass(pts, new, code, w, labels, dist, lower, False, executor, top)
        cen = new
        previous = history[-1]
        history.append(obj)
        if changed == 0:
            converged = True
            break
        if tolerance > 0 and previous - obj < tolerance * abs(previous):
            break
    return Clustering(cen, labels, dist, history, iterations, converged)
