"""Looking buckets up: a built abstraction's bucket arrays, and one situation's features on the spot.

:class:`Abstraction` answers ``bucket(hole, board)``, ``bucket_of_index(street,
index)`` and the vectorised ``buckets(indices, street)`` from each street's
dense bucket array (one uint16 per situation index, 65,535 where a limited
build did not reach): a lookup is an array read, and 10⁶ vectorised lookups
are one fancy index.  The arrays come from the ``abstraction/<street>``
datasets: :func:`pipeline.datasets.load_abstraction` maps them, after the
verified read of :mod:`pipeline.batch.verified` (the bytes hashed in that
process, the header checked against them), when a street is first used.

:func:`situation` computes the exact features of one (hole, board) from the
cards (they need no build): the equity against a random hand, the histogram
(turn, flop) or the OCHS vector (river, with the opponent clusters of the build,
or the default ones shipped in ``data/ochs_clusters.json``).

Every argument is checked by type and range before it is used — card ids
0..51, a situation index of the street, ``bins`` 2..1,980 — with one
:class:`~pipeline.core.errors.InputError` line naming it.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Optional, Union

import numpy as np

from ..core.cards import CardError, cards_arg, check_disjoint
from ..core.errors import InputError
from ..core.hand_classes import CLASS_INDEX, CLASS_LABELS, class_of
from ..core.inputs import integer, shown
from ..isomorphism.situations import situation_index, street_size
from ..isomorphism.waugh import holdem_indexer
from .features import DEFAULT_BINS, FULL, MAX_BINS, river_features, runout_features
from .streets import NO_BUCKET, STREETS

Cards = Union[str, Sequence[int]]
STREET_OF = {3: "flop", 4: "turn", 5: "river"}


class AbstractionError(InputError):
    """An abstraction that is not built where asked, built with other parameters, damaged, or asked wrongly."""


class AbstractionNotBuilt(AbstractionError):
    """No build of the street where asked (its manifest is not there): the features still have an answer."""


def street_of(board: Sequence[int]) -> str:
    """flop, turn or river for a board of 3, 4 or 5 cards; CardError otherwise."""
    if len(board) not in STREET_OF:
        raise CardError(f"a board to bucket has 3, 4 or 5 cards, got {len(board)}")
    return STREET_OF[len(board)]


def check_street(street: Any) -> str:
    """``street`` if it is flop, turn or river; AbstractionError naming it otherwise."""
    if not isinstance(street, str) or street not in STREETS:
        raise AbstractionError(f"street must be flop, turn or river, got {shown(street)}")
    return street


def check_bins(bins: Any, what: str = "bins") -> int:
    """``bins`` if it is a count of histogram bins 2..1,980 (the CLI's ``--bins`` and the library alike)."""
    return integer(bins, what, 2, MAX_BINS, error=AbstractionError, strict=True)


def _cards(hole: Cards, board: Cards) -> tuple[list[int], list[int]]:
    h, b = cards_arg(hole, "hole cards"), cards_arg(board, "board")
    if len(h) != 2:
        raise CardError(f"hole cards are 2 cards, got {len(h)}")
    street_of(b)
    check_disjoint([("hole cards", h), ("board", b)])
    return h, b


@lru_cache(maxsize=1)
def default_clusters() -> np.ndarray:
    """The OCHS opponent clusters of the default build (bins 50, seed 0), shipped with the package."""
    doc = json.loads(resources.files(__package__).joinpath("data/ochs_clusters.json").read_text())
    return np.array(doc["cluster_of_class"], np.int64)


def clusters_from(doc: Any, where: str) -> np.ndarray:
    """The cluster of each of the 169 classes from an ``abstraction/preflop`` build's ``_clusters.json``
    document (``{"clusters": [[labels...], ...]}``: every class in exactly one of the 8 lists); else
    AbstractionError naming ``where``."""
    clusters = doc.get("clusters") if isinstance(doc, dict) else None
    out = np.full(169, -1, np.int64)
    if isinstance(clusters, list) and len(clusters) == 8 and all(isinstance(m, list) for m in clusters):
        for j, members in enumerate(clusters):
            for label in members:
                if not isinstance(label, str) or label not in CLASS_INDEX or out[CLASS_INDEX[label]] >= 0:
                    out[:] = -2
                    break
                out[CLASS_INDEX[label]] = j
    if (out < 0).any():
        raise AbstractionError(f"{where} does not list each of the 169 hand classes in one of 8 clusters; "
                               "build abstraction/preflop again")
    return out


def check_clusters(clusters: Any) -> np.ndarray:
    """``clusters`` if it is a cluster number 0..7 for each of the 169 classes (an integer array); else
    AbstractionError."""
    a = np.asarray(clusters) if isinstance(clusters, (np.ndarray, list, tuple)) else np.zeros(0)
    if a.shape != (169,) or a.dtype.kind not in "iu" or int(a.min()) < 0 or int(a.max()) >= 8:
        raise AbstractionError("clusters must be an integer array of each of the 169 classes' cluster 0..7, "
                               f"got {shown(clusters if not isinstance(clusters, np.ndarray) else a.shape)}")
    return a.astype(np.int64)


@dataclass(frozen=True)
class Situation:
    """One situation's exact features: ``street``, ``index`` (situation_index), ``equity`` against a random
    hand, ``histogram`` (turn, flop: counts of runouts per equity bin) or ``ochs`` (river); ``waugh`` its
    Waugh hand index (:mod:`pipeline.isomorphism.waugh`, the street's boards-as-sets indexer: what the
    ``_buckets.waugh`` exports are keyed by); preflop also ``hand_class`` and its lossless ``bucket`` (the
    class's grid index, as ``abstraction/preflop.bucket``)."""

    street: str
    index: int
    equity: float
    histogram: Optional[list[int]] = None
    ochs: Optional[list[float]] = None
    waugh: Optional[int] = None
    hand_class: Optional[str] = None
    bucket: Optional[int] = None


def situation(hole: Cards, board: Cards, bins: int = DEFAULT_BINS,
              clusters: Optional[np.ndarray] = None) -> Situation:
    """The features of ``hole`` on ``board`` (3, 4 or 5 cards), computed from the cards: ``bins`` histogram
    bins 2..1,980 (flop, turn), ``clusters`` the river's opponent clusters (default: the shipped ones)."""
    h, b = _cards(hole, board)
    bins = check_bins(bins)
    street = street_of(b)
    idx = situation_index(h, b)
    waugh = holdem_indexer(street).index(h + b)
    boards = np.array([b], np.int64)
    if street == "river":
        rf = river_features(boards, default_clusters() if clusters is None else check_clusters(clusters))
        row = int(np.searchsorted(rf.index, idx))
        return Situation(street, idx, float(rf.win2[row]) / FULL, ochs=[float(x) for x in rf.ochs[row]],
                         waugh=waugh)
    f = runout_features(boards, bins)
    row = int(np.searchsorted(f.index, idx))
    return Situation(street, idx, float(f.equity[row]), histogram=[int(x) for x in f.histogram[row]], waugh=waugh)


@lru_cache(maxsize=1)
def preflop_equities() -> np.ndarray:
    """Each of the 169 classes' exact all-in equity against one random hand (ties half), in grid order, from
    the heads-up matchup table shipped with :mod:`pipeline.equity` (AA 0.852037, 72o 0.345836)."""
    from ..equity.matchup_sums import packaged_table
    from ..equity.matchups import class_grid, vs_random_exact

    table = packaged_table()
    if table is None:
        raise AbstractionError("the packaged heads-up matchup table (pipeline/equity/data/matchups-wtl.npz) is "
                               "missing or damaged; reinstall pokerpipe")
    wtl = vs_random_exact(class_grid(*table))
    return (wtl[:, 0] + wtl[:, 1] / 2) / wtl.sum(axis=1)


def preflop_situation(hole: Cards) -> Situation:
    """``hole``'s preflop situation: its class, whose grid index (0 AA .. 168 22, :mod:`pipeline.core.hand_classes`)
    is the lossless preflop bucket, the situation index and Waugh's preflop index (both 169 classes, numbered
    otherwise), and the class's exact equity against a random hand."""
    h = cards_arg(hole, "hole cards")
    if len(h) != 2:
        raise CardError(f"hole cards are 2 cards, got {len(h)}")
    grid = class_of(h[0], h[1])
    return Situation("preflop", situation_index(h), float(preflop_equities()[grid]),
                     waugh=holdem_indexer("preflop").index(h), hand_class=CLASS_LABELS[grid], bucket=grid)


@dataclass
class StreetBuckets:
    """One street of a built abstraction: its ``k``, its parameters, and ``mapped``, which gives its dense
    bucket array (uint16, one per situation index, read-only) verified when first called."""

    street: str
    k: int
    parameters: dict[str, Any]
    mapped: Callable[[], np.ndarray]
    _array: Optional[np.ndarray] = field(default=None, repr=False)

    @property
    def array(self) -> np.ndarray:
        """The bucket of every situation index (uint16, read-only), mapped and verified when first used."""
        if self._array is None:
            array = self.mapped()
            if array.dtype != np.uint16 or array.shape != (street_size(STREETS[self.street]),):
                raise AbstractionError(f"the {self.street} bucket array is a {array.dtype} array of shape "
                                       f"{array.shape}, not one uint16 per situation")
            self._array = array
        return self._array


class Abstraction:
    """A built abstraction: ``bucket(hole, board)``, ``bucket_of_index(street, index)`` and vectorised
    ``buckets(indices, street)``."""

    def __init__(self, streets: dict[str, StreetBuckets], location: str) -> None:
        self.streets, self.location = streets, location

    def _street(self, street: Any) -> StreetBuckets:
        street = check_street(street)
        if street not in self.streets:
            raise AbstractionError(f"the {street} abstraction is not loaded from {self.location}")
        return self.streets[street]

    def k(self, street: str) -> int:
        """Buckets of ``street``."""
        return self._street(street).k

    def bucket(self, hole: Cards, board: Cards) -> Optional[int]:
        """The bucket of ``hole`` on ``board`` (None where a limited build did not reach the situation)."""
        h, b = _cards(hole, board)
        return self.bucket_of_index(street_of(b), situation_index(h, b))

    def bucket_of_index(self, street: str, index: int) -> Optional[int]:
        """The bucket of the situation ``index`` (its situation_index, e.g. :attr:`Situation.index`: an
        integer 0 .. the street's situations - 1) of ``street`` (None where a limited build did not reach it)."""
        s = self._street(street)
        index = integer(index, f"situation index of the {s.street}", 0, street_size(STREETS[s.street]) - 1,
                        error=AbstractionError, strict=True)
        value = int(s.array[index])
        return None if value == NO_BUCKET else value

    def buckets(self, indices: Any, street: str) -> np.ndarray:
        """The buckets (uint16; 65,535: not reached) of situation ``indices`` (an integer array, each 0 .. the
        street's situations - 1) of ``street``."""
        s = self._street(street)
        a = np.asarray(indices)
        if a.dtype.kind not in "iu" and not (a.size == 0 and a.dtype.kind == "f"):
            raise AbstractionError(f"indices must be integers (situation indices), got an array of {a.dtype}")
        a = a.astype(np.int64, copy=False)
        size = street_size(STREETS[s.street])
        if a.size and (int(a.min()) < 0 or int(a.max()) >= size):
            bad = int(a.min()) if int(a.min()) < 0 else int(a.max())
            raise AbstractionError(f"indices: situation index {bad:,} is outside 0..{size - 1:,} of the {s.street}")
        return s.array[a]
