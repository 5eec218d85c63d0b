"""Weighted k-means under the Euclidean (l2) and the l1 metric, exact and deterministic, for card abstraction.

Card abstraction clusters the feature vectors of millions of poker situations
(a histogram of equities, its cumulative form, a vector of cluster
frequencies) into ``K`` buckets.  Each situation carries a weight, its
multiplicity among the raw deals.  The package gives:

* :func:`plusplus` — the k-means++ seeds (Arthur and Vassilvitskii 2007).
* :func:`assign` — the nearest centroid of every point.
* :func:`fit` — Lloyd's iterations (Lloyd 1982): assign, update, repeat.
  For l2 the update is the weighted mean and the objective ``sum w * d**2``;
  for l1 the update is the weighted coordinate-wise *lower* median and the
  objective ``sum w * d``.  On cumulative histograms the l1 distance is the
  earth mover's distance of the histograms.  With ``accelerate=True`` the
  assignment uses Hamerly's bounds (Hamerly, "Making k-means even faster",
  SDM 2010) and gives exactly the plain result.
* :func:`objective` — the weighted objective of a labelling;
  :func:`lower_medians` — the clusters' l1 centroids.

One module a concept:

================  ========================================================================
:mod:`.lloyd`      :func:`fit` and its result, :class:`Clustering`
:mod:`.plusplus`   k-means++ seeding, with triangle-inequality pruning
:mod:`.assignment` the plain assignment and the objective
:mod:`.hamerly`    Hamerly's exact bounds
:mod:`.scans`      how a pass finds a point's nearest two centroids
:mod:`.distances`  costs in float64, and the byte scans of l1 on uint8 points
:mod:`.kdtree`     the k-d tree of the centroids for l2 in few dimensions
:mod:`.update`     the update: weighted means, lower medians, empty clusters relocated
:mod:`.checks`     checked points, weights, ``k`` and centroids
:mod:`.chunks`     the fixed chunks and the metric codes
================  ========================================================================

Fixed rules, so that every result is reproducible:

* **Ties**: a point equidistant from several centroids goes to the lowest
  index.  Equal means equal as computed: the squared Euclidean sum (l2) or
  the sum of absolute differences (l1), accumulated in float64 over the
  coordinates in order.
* **Empty clusters** take the points farthest from their centroids
  (:mod:`.update`).
* **Acceleration is exact**: Hamerly's bounds (:mod:`.hamerly`), the
  k-means++ pruning (:mod:`.plusplus`), the byte scans (:mod:`.distances`)
  and the k-d tree (:mod:`.kdtree`) each give the plain computation's
  labels, costs and ties.
* **Chunks**: every kernel works on fixed chunks of rows (or ranges of
  whole clusters for the update) and reductions are combined in chunk order,
  so results are bit-identical with and without an executor, whatever its
  number of workers (:mod:`.chunks`).

Extra memory is O(n): labels (int32), distances and lower bounds (float64),
one index array for grouping by cluster; never O(n k).

>>> import numpy as np
>>> pts = np.array([[0, 0], [0, 1], [10, 10], [10, 11]], dtype=np.uint8)
>>> result = fit(pts, 2, metric="l1")
>>> sorted(result.centroids.tolist())
[[0.0, 0.0], [10.0, 10.0]]
>>> result.converged
True
"""
from __future__ import annotations

from .assignment import assign, objective
from .lloyd import MAX_ITERATIONS, Clustering, fit
from .plusplus import plusplus
from .update import lower_medians

__all__ = ["MAX_ITERATIONS", "Clustering", "assign", "fit", "lower_medians", "objective", "plusplus"]
