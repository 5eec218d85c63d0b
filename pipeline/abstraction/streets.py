"""One street of the abstraction: the points its k-means clusters, and their distances in equity units.

=====  ======================================  ============================================
river  OCHS: equity against 8 opponent         Euclidean (Johanson et al. 2013)
       clusters (float32, 8 coordinates)
turn   cumulative histogram of the 46 river    L1 = the earth mover's distance of the
       equities in ``bins`` bins (uint8)       histograms (the 1-D closed form)
flop   the potential-aware embedding of the    L1 = the sliced bound on the potential-aware
       47 turn cards' turn buckets (uint8)     EMD (:mod:`.emd`)
=====  ======================================  ============================================

Distances are reported in equity units: the earth mover's distance of two
equity histograms is the L1 distance of their cumulative counts, divided by
the mass and by the number of bins.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .emd import cumulative, potential_embedding
from .features import DEFAULT_BINS, RunoutFeatures, river_features, runout_features

STREETS = {"flop": 3, "turn": 4, "river": 5}
METRIC = {"river": "l2", "turn": "l1", "flop": "l1"}
DEFAULT_K = 256                  # robopoker's buckets per postflop street
MAX_K = 50_000
OCHS_CLUSTERS = 8                # Johanson et al.'s opponent clusters
TURN_CARDS = 47
QUANTILES = 8                    # order statistics per coordinate of the flop's potential-aware points
NO_BUCKET = 65535                # a dense bucket array (uint16) where a limited build did not reach


def scale(street: str, bins: int) -> float:
    """The factor that turns a street's clustering distance into equity units."""
    if street == "river":
        return 1.0
    if street == "turn":
        return 1.0 / (46 * bins)
    return 1.0 / (QUANTILES * 46 * bins)


@dataclass
class StreetRows:
    """The situations of some boards of a street, each once, with their features and clustering points."""

    street: str
    index: np.ndarray                 # situation_index, ascending
    weight: np.ndarray                # situations of the deck each stands for
    win2: np.ndarray                  # 2·wins + ties against a random hand, summed over the runouts
    equity: np.ndarray                # against a random hand, all in
    points: np.ndarray                # what k-means clusters
    features: dict[str, np.ndarray] = field(default_factory=dict)   # ochs / histogram / turn_buckets


def street_rows(street: str, boards: np.ndarray, *, bins: int = DEFAULT_BINS,
                clusters: Optional[np.ndarray] = None, turn_centroids: Optional[np.ndarray] = None,
                turn_buckets: Optional[Callable[[], np.ndarray]] = None) -> StreetRows:
    """Features and points of every situation of ``boards`` (canonical boards of ``street``): the river needs
    the 169 classes' opponent ``clusters``, the flop the turn's ``turn_centroids`` (cumulative, integers).

    The flop's turn cards are bucketed by ``turn_buckets``, when given: a callable returning the built turn
    abstraction's dense bucket array (uint16 per turn situation index, :data:`NO_BUCKET` where it is not
    built) — a lookup per turn card instead of the turn situation's histogram assigned to the nearest of the
    turn centroids again, with the same result, since that is how the turn table was made.  Turn situations
    the array does not hold are assigned.
    """
    if street == "river":
        if clusters is None:
            raise ValueError("the river's OCHS needs the opponent clusters")
        rf = river_features(boards, clusters)
        ochs = rf.ochs
        return StreetRows(street, rf.index, rf.weight, rf.win2, rf.equity, ochs, {"ochs": ochs})
    if street == "turn":
        tf = runout_features(boards, bins)
        return StreetRows(street, tf.index, tf.weight, tf.win2, tf.equity, cumulative(tf.histogram),
                          {"histogram": tf.histogram})
    if turn_centroids is None:
        raise ValueError("the flop's potential-aware points need the turn centroids")
    ff = runout_features(boards, bins, turns=turn_buckets is None, turn_index=turn_buckets is not None)
    n = len(ff.index)
    if turn_buckets is None:
        labels = _assigned_turns(ff, turn_centroids)
    else:
        assert ff.turn_index is not None
        labels = turn_buckets()[ff.turn_index]
        missing = labels == NO_BUCKET
        if missing.any():
            labels[missing] = _assigned_turns(runout_features(boards, bins, turns=True), turn_centroids)[missing]
    turn_buckets_of = np.sort(labels.reshape(n, TURN_CARDS), axis=1).astype(np.uint16)
    points = potential_embedding(turn_buckets_of, turn_centroids, QUANTILES)
    return StreetRows(street, ff.index, ff.weight, ff.win2, ff.equity, points,
                      {"histogram": ff.histogram, "turn_buckets": turn_buckets_of})


def _assigned_turns(ff: RunoutFeatures, turn_centroids: np.ndarray) -> np.ndarray:
    """(n, 47) the nearest turn centroid of each flop situation's turn histograms (``ff.turns``), turn cards
    ascending."""
    # imported here, not at the top: a lookup imports this module and needs no k-means
    from .kmeans import assign

    assert ff.turns is not None
    n = len(ff.index)
    labels, _ = assign(cumulative(ff.turns.reshape(n * TURN_CARDS, ff.turns.shape[2])),
                       turn_centroids.astype(np.float64), metric="l1")
    return labels.reshape(n, TURN_CARDS)


def percentile_buckets(equity: np.ndarray, weight: np.ndarray, k: int) -> np.ndarray:
    """The classical EHS abstraction at ``k`` buckets: equal-weight equity percentiles, the situations of one
    equity always in one bucket (``int32`` labels)."""
    values, inverse = np.unique(equity, return_inverse=True)
    mass = np.bincount(inverse, weights=weight.astype(np.float64), minlength=len(values))
    return percentile_labels(mass, k)[inverse].astype(np.int32)


def percentile_labels(mass: np.ndarray, k: int) -> np.ndarray:
    """:func:`percentile_buckets` from weights already binned: ``mass[v]`` the weight of the situations of the
    ``v``-th equity in ascending order (zero for an equity none has); the bucket of each equity (``int64``)."""
    below = np.cumsum(mass) - mass                     # weight strictly below each equity
    return np.minimum(k - 1, (below * k / mass.sum()).astype(np.int64))
