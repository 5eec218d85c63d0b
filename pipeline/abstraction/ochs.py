"""The opponent clusters of OCHS: the 169 preflop classes in 8 groups, by their river-equity histograms.

Johanson, Burch, Valenzano and Bowling (AAMAS 2013) describe a river
situation by its equity against each of 8 clusters of opponent starting hands
(opponent cluster hand strength).  The clusters here: each class's histogram
of river equity against a random hand, over every (hole of the class, board)
of the deck — exact, from one pass over the 134,459 canonical river boards
(:func:`~.features.class_histograms`) — normalised to a distribution; k-means
under the earth mover's distance (L1 of the cumulative distributions),
weighted by the class's combos (6, 4 or 12), seeded k-means++.  The same pass
gives each class's exact all-in equity against a random hand.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.hand_classes import CLASS_LABELS
from ..isomorphism.boards import canonical_boards
from .features import DEFAULT_BINS, FULL, class_histograms
from .kmeans import fit
from .streets import OCHS_CLUSTERS

BOARDS = 2_118_760               # C(50, 5): the boards of one hole


def class_combo_counts() -> np.ndarray:
    """Combos of each class in grid order: 6 for a pair, 4 suited, 12 offsuit."""
    out = []
    for label in CLASS_LABELS:
        kind = "p" if len(label) == 2 else label[2]
        out.append(6 if kind == "p" else (4 if kind == "s" else 12))
    return np.array(out, np.int64)


@dataclass(frozen=True)
class OpponentClusters:
    """The 169 classes' river-equity ``histogram`` (counts over every hole of the class and board), their
    exact ``win2`` sums, the ``cluster`` of each class, the clustering's ``objective`` per iteration."""

    histogram: np.ndarray
    win2: np.ndarray
    cluster: np.ndarray
    objective: list[float]

    @property
    def equity(self) -> np.ndarray:
        """Each class's exact all-in equity against a random hand."""
        return self.win2 / (FULL * BOARDS * class_combo_counts())


def opponent_clusters(bins: int = DEFAULT_BINS, seed: int = 0, clusters: int = OCHS_CLUSTERS) -> OpponentClusters:
    """The classes' histograms over all canonical river boards and their ``clusters`` groups."""
    hist, win2 = class_histograms(canonical_boards(5), bins)
    combos = class_combo_counts()
    assert (hist.sum(axis=1) == combos * BOARDS).all()
    cdf = np.cumsum(hist[:, :-1], axis=1) / (combos * BOARDS)[:, None]
    result = fit(np.ascontiguousarray(cdf), clusters, metric="l1", weights=combos, seed=seed)
    return OpponentClusters(hist, win2, relabel(result.labels), list(result.objective))


def relabel(labels: np.ndarray) -> np.ndarray:
    """Clusters numbered by their first class in grid order (AA's cluster is 0): a fixed naming."""
    order: dict[int, int] = {}
    for x in labels.tolist():
        order.setdefault(int(x), len(order))
    return np.array([order[int(x)] for x in labels], np.int64)


def cluster_members(cluster: np.ndarray) -> list[list[str]]:
    """The class labels of each cluster."""
    return [[CLASS_LABELS[i] for i in np.flatnonzero(cluster == j)] for j in range(int(cluster.max()) + 1)]


__all__ = ["OpponentClusters", "class_combo_counts", "cluster_members", "opponent_clusters"]
