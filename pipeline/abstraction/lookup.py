"""Looking buckets up: a built abstraction as memory-mapped arrays, and one situation's features on the spot.

:func:`load` opens the ``abstraction/<street>`` datasets built under a local
folder (``pokerpipe tables abstraction --out DIR``): each street's
``_buckets.npy`` (one uint16 per situation index, 65,535 where a limited build
did not reach) is checked against the SHA-256 its manifest records, the first
time a street is used, and memory-mapped, so a lookup is an array read — no
load step — and 10⁶ vectorised lookups are one fancy index.

:func:`situation` computes the exact features of one (hole, board) from the
cards (they need no build): the equity against a random hand, the histogram
(turn, flop) or the OCHS vector (river, with the opponent clusters of the build,
or the default ones shipped in ``data/ochs_clusters.json``).
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Optional, Union

import numpy as np

from ..core.cards import CardError, check_disjoint, parse_cards
from ..core.errors import InputError
from ..isomorphism.situations import situation_index, street_size
from .features import DEFAULT_BINS, FULL, river_features, runout_features
from .streets import DEFAULT_K, NO_BUCKET, STREETS

Cards = Union[str, Sequence[int]]
MANIFEST = "_manifest.json"
STREET_OF = {3: "flop", 4: "turn", 5: "river"}


class AbstractionError(InputError):
    """An abstraction that is not built where asked, built with other parameters, or damaged."""


def street_of(board: Sequence[int]) -> str:
    """flop, turn or river for a board of 3, 4 or 5 cards; CardError otherwise."""
    if len(board) not in STREET_OF:
        raise CardError(f"a board to bucket has 3, 4 or 5 cards, got {len(board)}")
    return STREET_OF[len(board)]


def _cards(hole: Cards, board: Cards) -> tuple[list[int], list[int]]:
    h = parse_cards(hole, what="hole cards") if isinstance(hole, str) else [int(c) for c in hole]
    b = parse_cards(board, what="board") if isinstance(board, str) else [int(c) for c in board]
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


@dataclass(frozen=True)
class Situation:
    """One situation's exact features: ``street``, ``index`` (situation_index), ``equity`` against a random
    hand, ``histogram`` (turn, flop: counts of runouts per equity bin) or ``ochs`` (river)."""

    street: str
    index: int
    equity: float
    histogram: Optional[list[int]] = None
    ochs: Optional[list[float]] = None


def situation(hole: Cards, board: Cards, bins: int = DEFAULT_BINS,
              clusters: Optional[np.ndarray] = None) -> Situation:
    """The features of ``hole`` on ``board`` (3, 4 or 5 cards), computed from the cards."""
    h, b = _cards(hole, board)
    street = street_of(b)
    idx = situation_index(h, b)
    boards = np.array([b], np.int64)
    if street == "river":
        rf = river_features(boards, default_clusters() if clusters is None else clusters)
        row = int(np.searchsorted(rf.index, idx))
        return Situation(street, idx, float(rf.win2[row]) / FULL, ochs=[float(x) for x in rf.ochs[row]])
    f = runout_features(boards, bins)
    row = int(np.searchsorted(f.index, idx))
    return Situation(street, idx, float(f.equity[row]), histogram=[int(x) for x in f.histogram[row]])


@dataclass
class StreetBuckets:
    """One street of a built abstraction: its parameters and its dense bucket array (mapped when first used)."""

    street: str
    k: int
    folder: str
    sha256: str
    parameters: dict[str, Any]
    _array: Optional[np.ndarray] = field(default=None, repr=False)

    @property
    def array(self) -> np.ndarray:
        """The bucket of every situation index (uint16, memory-mapped, verified once)."""
        if self._array is None:
            path = os.path.join(self.folder, "_buckets.npy")
            if not _stamped(path, self.sha256):
                digest = hashlib.sha256()
                try:
                    with open(path, "rb") as f:
                        while chunk := f.read(1 << 24):
                            digest.update(chunk)
                except OSError as e:
                    raise AbstractionError(f"{path} cannot be read ({e.strerror or e}); build it again") from None
                if digest.hexdigest() != self.sha256:
                    raise AbstractionError(f"{path} is damaged (SHA-256 differs from the manifest); build it again")
                _stamp(path, self.sha256)
            array = np.load(path, mmap_mode="r", allow_pickle=False)
            if array.dtype != np.uint16 or array.shape != (street_size(STREETS[self.street]),):
                raise AbstractionError(f"{path} is not a {self.street} bucket array; build it again")
            self._array = array
        return self._array


def _identity(path: str) -> Optional[dict[str, Any]]:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return {"path": os.path.realpath(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}


def _stamp_path(path: str) -> str:
    from ..core.cache import cache_dir

    key = hashlib.sha256(os.path.realpath(path).encode()).hexdigest()[:24]
    return os.path.join(cache_dir(), "verified", f"{key}.json")


def _stamped(path: str, sha: str) -> bool:
    """Whether this very file (same path, size, modification time and inode) hashed to ``sha`` before: the
    river's 246 MB array is then hashed once, not at every lookup process."""
    ident = _identity(path)
    try:
        with open(_stamp_path(path), "rb") as f:
            doc = json.loads(f.read(1 << 12))
    except (OSError, ValueError):
        return False
    return ident is not None and doc == {**ident, "sha256": sha}


def _stamp(path: str, sha: str) -> None:
    from ..core.files import write_atomic

    ident = _identity(path)
    if ident is None:
        return
    try:
        os.makedirs(os.path.dirname(_stamp_path(path)), exist_ok=True)
        write_atomic(_stamp_path(path), json.dumps({**ident, "sha256": sha}).encode())
    except OSError:                             # an unwritable cache: hash every time
        pass


class Abstraction:
    """A built abstraction: ``bucket(hole, board)``, ``bucket_of_index(street, index)`` and vectorised
    ``buckets(indices, street)``."""

    def __init__(self, streets: dict[str, StreetBuckets], location: str) -> None:
        self.streets, self.location = streets, location

    def k(self, street: str) -> int:
        """Buckets of ``street``."""
        return self.streets[street].k

    def bucket(self, hole: Cards, board: Cards) -> Optional[int]:
        """The bucket of ``hole`` on ``board`` (None where a limited build did not reach the situation)."""
        h, b = _cards(hole, board)
        return self.bucket_of_index(street_of(b), situation_index(h, b))

    def bucket_of_index(self, street: str, index: int) -> Optional[int]:
        """The bucket of the situation ``index`` (its situation_index, e.g. :attr:`Situation.index`) of
        ``street`` (None where a limited build did not reach it)."""
        if street not in self.streets:
            raise AbstractionError(f"the {street} abstraction is not built at {self.location}")
        value = int(self.streets[street].array[index])
        return None if value == NO_BUCKET else value

    def buckets(self, indices: np.ndarray, street: str) -> np.ndarray:
        """The buckets (uint16; 65,535: not reached) of situation ``indices`` of ``street``."""
        if street not in self.streets:
            raise AbstractionError(f"the {street} abstraction is not built at {self.location}")
        return self.streets[street].array[np.asarray(indices, np.int64)]


def _manifest(folder: str) -> Optional[dict]:
    try:
        with open(os.path.join(folder, MANIFEST), "rb") as f:
            data = f.read(1 << 24)
        doc = json.loads(data)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def load(out: str | os.PathLike[str], k: int = DEFAULT_K, bins: int = DEFAULT_BINS, seed: int = 0,
         streets: Sequence[str] = ("flop", "turn", "river")) -> Abstraction:
    """The abstraction built under the local folder ``out`` with these parameters (``k`` buckets per street).

    AbstractionError when a street is not built there, is unfinished, or was built with other parameters.
    """
    location = os.fspath(out)
    if "://" in location:
        raise AbstractionError(f"{location}: lookups map local files; copy the abstraction to a local folder")
    found: dict[str, StreetBuckets] = {}
    for street in streets:
        folder = os.path.join(location, "abstraction", street)
        manifest = _manifest(folder)
        if manifest is None or "finished" not in manifest or manifest.get("job") != f"abstraction/{street}":
            raise AbstractionError(f"the {street} abstraction is not built at {location} "
                                   f"(build it with `pokerpipe tables abstraction --out {location}`)")
        params = manifest.get("parameters") if isinstance(manifest.get("parameters"), dict) else {}
        assert isinstance(params, dict)
        want = {"k": k, "seed": seed, **({"bins": bins} if street != "river" else {})}
        got = {key: params.get(key) for key in want}
        if got != want:
            raise AbstractionError(f"the {street} abstraction at {location} was built with "
                                   f"{', '.join(f'{a}={b}' for a, b in got.items())}, not "
                                   f"{', '.join(f'{a}={b}' for a, b in want.items())}")
        sides = {s.get("file"): s.get("sha256") for s in manifest.get("side_outputs", []) if isinstance(s, dict)}
        sha = sides.get("_buckets.npy")
        if not isinstance(sha, str):
            raise AbstractionError(f"the {street} abstraction at {location} has no bucket array in its manifest")
        found[street] = StreetBuckets(street, k, folder, sha, params)
    return Abstraction(found, location)


def built_clusters(out: str | os.PathLike[str], seed: int = 0) -> Optional[np.ndarray]:
    """The OCHS opponent clusters of the ``abstraction/preflop`` built under ``out`` with ``seed``, or None."""
    from ..core.hand_classes import CLASS_INDEX

    folder = os.path.join(os.fspath(out), "abstraction", "preflop")
    manifest = _manifest(folder)
    if manifest is None or "finished" not in manifest or (manifest.get("parameters") or {}).get("seed") != seed:
        return None
    sides = {s.get("file"): s.get("sha256") for s in manifest.get("side_outputs", []) if isinstance(s, dict)}
    try:
        with open(os.path.join(folder, "_clusters.json"), "rb") as f:
            data = f.read(1 << 20)
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != sides.get("_clusters.json"):
        raise AbstractionError(f"{folder}/_clusters.json is damaged (SHA-256 differs from the manifest)")
    out_ = np.full(169, -1, np.int64)
    for j, members in enumerate(json.loads(data)["clusters"]):
        for label in members:
            out_[CLASS_INDEX[label]] = j
    return out_ if (out_ >= 0).all() else None
