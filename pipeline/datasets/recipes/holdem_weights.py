"""``holdem-weights/flop|turn|river``: the hold'em engine's hand-weight tables, a dataset like the others.

Every canonical situation of a street with its win share against one
opponent (exact) and 2..9 opponents (:mod:`pipeline.holdem.weight_build`):
flop and turn rows ``index``, ``win2`` (``2·ahead + tied`` over all runouts and
opponent hands), ``k2 .. k9`` (the share against k opponents × 65,535); river
rows ``index``, ``ahead``, ``tied`` (of 990 opponent hands).  Built in parts,
resumable and checksummed by the runner; the side outputs are the same numbers
as dense arrays indexed by situation (``_win2.npy`` and ``_multi.npy``, or
``_counts.npy``: 800 MB in all), which the engine maps read-only.

:class:`HandWeightTables` is the engine's :class:`~pipeline.holdem.weights.WeightSource`:
each process that plays with tables (a Dask worker too) maps the arrays once,
after checking the manifest's parameters, every array's SHA-256 and its dtype
and shape, so that a damaged, truncated, resized or zeroed table is one line
(:class:`~pipeline.datasets.registry.DatasetError`, exit 2) before any kernel
reads it.  Hashing the 800 MB costs about a second per process (SHA-256 at
about 900 MB/s), once: the tables are then kept for the process's life.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Optional

import numpy as np
import pyarrow as pa

from ...batch.manifest import check_manifest, read_manifest
from ...batch.parquet import described
from ...batch.spec import Dataset, Inputs
from ...batch.storage import Storage, StorageError
from ...batch.verified import manifest_path, side_array
from ...core.arrow import arrow_table, values
from ...holdem.weight_build import BOARDS_PER_TASK, STREETS, board_chunks, dense_street, street_weights
from ...holdem.weights import MULTI, SITUATIONS, WeightTables, pack
from ..registry import DatasetError
from ..streets import StreetDataset, planned_parts

ORDER = 60
ARRAYS = {"flop": ("win2", "multi"), "turn": ("win2", "multi"), "river": ("counts",)}


def side_name(array: str) -> str:
    """The side output holding a street's dense array ``array``."""
    return f"_{array}.npy"


class HoldemWeights(StreetDataset):
    """One street's weight table, its canonical boards in parts (``limit``: the first N boards only)."""

    family = "holdem-weights"

    def __init__(self, street: str, limit: Optional[int] = None) -> None:
        super().__init__(street, limit, BOARDS_PER_TASK.get(STREETS.get(street.lower(), 0), 0))
        street = self.street
        index = "the situation's index (pipeline.isomorphism.situation_index), one row per canonical situation"
        if street == "river":
            fields = [("index", pa.int64()), ("ahead", pa.uint16()), ("tied", pa.uint16())]
            columns = {"index": index, "ahead": "opponent hands of the 990 left that the hero's hand beats",
                       "tied": "opponent hands of the 990 that tie it"}
        else:
            fields = [("index", pa.int64()), ("win2", pa.uint32())] + [(f"k{k}", pa.uint16()) for k in range(2, 10)]
            columns = {"index": index, "win2": "2 x ahead + tied at the river against one opponent, summed over "
                                               "every runout and opponent hand (exact)"}
            columns.update({f"k{k}": f"the hero's share against {k} opponents, x 65,535: each runout's exact "
                                     "one-opponent shares taken as independent draws, averaged over the runouts"
                            for k in range(2, 10)})
        self.schema = described(pa.schema(fields), columns)
        self.description = (f"the hold'em engine's hand weights for every canonical {street} situation: win share "
                            "against 1 opponent (exact) and 2 to 9")
        self.side_output_names = tuple(side_name(a) for a in ARRAYS[street])

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        return board_chunks(self.street, self.limit)

    def planned_parts(self) -> int:
        """The count of :meth:`partitions` without enumerating the boards (1.5 s for the river): the engine
        checks a manifest's part list against it each time it loads the tables."""
        return planned_parts(self.street, self.limit, BOARDS_PER_TASK[STREETS[self.street]])

    def compute(self, partition: Any) -> pa.Table:
        idx, *counts = street_weights(partition)
        idx, first = np.unique(idx, return_index=True)      # a situation the board's suit symmetry repeats: once
        if self.street == "river":
            ahead, tied = counts
            return arrow_table({"index": idx, "ahead": ahead[first], "tied": tied[first]}, self.schema)
        win2, multi = counts
        columns = {"index": idx, "win2": win2[first], **{f"k{k}": multi[first, k - 2] for k in range(2, 2 + MULTI)}}
        return arrow_table(columns, self.schema)

    def side_outputs(self, table: Callable[[], pa.Table], inputs: Inputs) -> dict[str, bytes]:
        t = table()
        idx = values(t.column("index"))
        if self.street == "river":
            rows = [(idx, values(t.column("ahead")), values(t.column("tied")))]
        else:
            multi = np.stack([values(t.column(f"k{k}")) for k in range(2, 2 + MULTI)], axis=1)
            rows = [(idx, values(t.column("win2")), multi)]
        out = {}
        for name, array in dense_street(self.street, rows).items():
            buf = io.BytesIO()
            np.save(buf, array)
            out[side_name(name)] = buf.getvalue()
        return out


def _streets(limits: tuple[Optional[int], Optional[int], Optional[int]]) -> list[HoldemWeights]:
    return [HoldemWeights(street, limit) for street, limit in zip(STREETS, limits)]


_LOADED: dict[tuple[str, tuple[Optional[int], ...]], WeightTables] = {}


@dataclass(frozen=True)
class HandWeightTables:
    """The ``holdem-weights`` datasets under ``location`` as the engine's weight source (picklable: a Dask
    worker gets the location and maps its own copy).  ``limits`` are the streets' ``limit`` parameters
    (partial builds, for tests)."""

    location: str
    limits: tuple[Optional[int], Optional[int], Optional[int]] = (None, None, None)

    def datasets(self) -> list[HoldemWeights]:
        """The three streets' datasets."""
        return _streets(self.limits)

    def built(self) -> bool:
        """Whether all three streets are built there with these parameters: finished manifests, their part
        lists whole (the arrays are verified when loaded)."""
        try:
            storage = Storage.open(self.location)
        except StorageError:
            return False
        return all(check_manifest(read_manifest(storage, ds.name), ds, ds.planned_parts()) is None
                   for ds in self.datasets())

    def damaged(self) -> Optional[str]:
        """Why the tables there are not usable although a street's manifest is there (a build interrupted,
        cut short, of other parameters, or edited), or None: nothing there, or all finished."""
        try:
            storage = Storage.open(self.location)
        except StorageError:
            return None
        for ds in self.datasets():
            if storage.exists(*manifest_path(ds.name)):
                why = check_manifest(read_manifest(storage, ds.name), ds, ds.planned_parts())
                if why is not None:
                    return f"{storage.url(ds.name)}: {why}"
        return None

    def load(self) -> WeightTables:
        """The tables, each array checked against the SHA-256 its manifest records, mapped read-only
        (local folders) or read into memory (object stores); once per process."""
        key = (self.location, tuple(self.limits))
        if key not in _LOADED:
            _LOADED[key] = self._load()
        return _LOADED[key]

    def _load(self) -> WeightTables:
        try:
            storage = Storage.open(self.location)
        except StorageError as e:
            raise DatasetError(str(e)) from None
        arrays: dict[str, dict[str, np.ndarray]] = {}
        for ds in self.datasets():
            manifest = read_manifest(storage, ds.name)
            where = storage.url(ds.name)
            why = check_manifest(manifest, ds, ds.planned_parts())
            if why is not None:          # not built, other parameters, or a manifest cut short or edited
                raise DatasetError(f"the hand-weight tables are not built at {where} ({why}): build them with "
                                   f"`pokerpipe holdem-weights --out {self.location}`")
            assert manifest is not None
            arrays[ds.street] = {a: side_array(storage, ds.name, manifest, side_name(a), *expected_array(ds.street, a),
                                               error=DatasetError)
                                 for a in ARRAYS[ds.street]}
        return pack(arrays["flop"], arrays["turn"], arrays["river"])


def expected_array(street: str, array: str) -> tuple[np.dtype, tuple[int, ...]]:
    """The dtype and shape the betting kernel indexes a street's dense array ``array`` by (every situation of
    the street, partial builds too): checked against the verified file's header before it is mapped, so that
    no table of another build or version, however consistent with its manifest, is indexed out of bounds."""
    n = SITUATIONS[STREETS[street]]
    shapes: dict[str, tuple[np.dtype, tuple[int, ...]]] = {
        "win2": (np.dtype(np.uint32), (n,)), "multi": (np.dtype(np.uint16), (n, MULTI)),
        "counts": (np.dtype(np.uint16), (n, 2))}
    return shapes[array]


def registered() -> dict[str, Callable[..., Dataset]]:
    return {f"holdem-weights/{s}": partial(HoldemWeights, s) for s in STREETS}


WEIGHT_MODES = ("auto", "tables", "sampled")     # --weights


def weight_tables(mode: str, location: str) -> tuple[Optional[HandWeightTables], Optional[str]]:
    """How the engine weighs hands after the flop for ``--weights mode``, the tables looked for at ``location``
    (``--tables``): the :class:`HandWeightTables` to play with, or None to sample (or count) each weight; and,
    for ``auto`` passing over tables someone built but that cannot be used, why (else None), for the caller
    to say.  ``sampled`` never looks; ``auto`` takes the tables when they are built there; ``tables``
    without them, a mode not of :data:`WEIGHT_MODES` or a location that cannot be opened is one
    :class:`~pipeline.datasets.registry.DatasetError` line naming the option.

    >>> weight_tables("sampled", "nowhere")
    (None, None)
    """
    if mode not in WEIGHT_MODES:
        raise DatasetError(f"--weights must be auto, tables or sampled, got {mode!r}")
    if mode == "sampled":
        return None, None
    try:
        source = HandWeightTables(Storage.open(location).location)
    except StorageError as e:
        raise DatasetError(f"--tables: {e}") from None
    if source.built():
        return source, None
    damaged = source.damaged()
    if mode == "tables":
        what = f"the hand-weight tables at {damaged}" if damaged else f"no hand-weight tables at {location}"
        raise DatasetError(f"--weights tables: {what} (build them with `pokerpipe holdem-weights --out {location}`)")
    return None, damaged
