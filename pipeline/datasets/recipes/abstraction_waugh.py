"""``abstraction/<street>-waugh``: the abstraction's buckets keyed by Waugh's hand index, for solvers.

===================================  ==============================================================
``abstraction/preflop-waugh``        the 169 classes by Waugh's preflop index: ``index``, ``bucket``
                                     (the class's grid index, as ``abstraction/preflop.bucket``),
                                     ``class``
``abstraction/<s>-waugh``            flop, turn, river: ``index`` (every Waugh index of the street's
                                     boards-as-sets indexer, ascending) and ``bucket`` (of
                                     ``abstraction/<s>`` with the same parameters)
===================================  ==============================================================

Each writes ``_buckets.waugh`` beside its parts: the flat file a C or Rust
solver maps (:mod:`pipeline.abstraction.waugh_file`, docs/abstraction.md).
A street's parts are ranges of Waugh indices: each index is unindexed to its
canonical hand, the hand's situation index looked up in the street's dense
buckets (read once per worker from the built ``abstraction/<s>``); the
parameters are the street's (``k``, ``bins``, ``seed``, ``limit``,
``turn_k``), and a street read with other parameters is refused.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Optional

import numpy as np
import pyarrow as pa

from ...batch.parquet import described
from ...batch.spec import Dataset, Inputs
from ...core.arrow import arrow_table, values
from ..abstraction_arrays import Kept
from .abstraction import Street, _Rebuilt, canonical

ORDER = 71                           # after the abstraction's streets (70)
INDICES_PER_PART = 1 << 22           # 4,194,304 Waugh indices a part: the river's 30 parts, the turn's 4
INDICES_PER_PIECE = 1 << 19          # a task: about a tenth of a second


def _street_buckets(inputs: Inputs, ds: Street) -> np.ndarray:
    """``ds``'s bucket of every situation index (NO_BUCKET where a limited build did not reach), read part by
    part (each verified) so that only the dense array is held."""
    from ...abstraction.streets import NO_BUCKET
    from ...isomorphism.situations import street_size
    from ..streets import STREETS

    dense = np.full(street_size(STREETS[ds.street]), NO_BUCKET, np.uint16)
    for part in inputs.parts(ds, ["index", "bucket"]):
        dense[values(part.column("index"))] = values(part.column("bucket"))
    return dense


def _file(street: str, k: int, table: Callable[..., pa.Table]) -> dict[str, bytes]:
    from ...abstraction.waugh_file import FILE_NAME, encode

    buckets = values(table(["bucket"]).column("bucket").combine_chunks())
    return {FILE_NAME: encode(street, k, buckets)}


class PreflopWaugh(_Rebuilt):
    """The 169 classes keyed by Waugh's preflop index; lossless, so it reads no build."""

    name = "abstraction/preflop-waugh"
    side_output_names = ("_buckets.waugh",)

    def __init__(self) -> None:
        self.args = ()
        self.params = {"indexer": [2], "format": 1}
        self.schema = described(pa.schema([("index", pa.int64()), ("bucket", pa.uint16()), ("class", pa.string())]), {
            "index": "Waugh's preflop hand index (hand_index_last of the (2) indexer, as open solvers compute it)",
            "bucket": "the class's bucket: its index in the 13 x 13 grid of the 169",
            "class": "the hand class ('AKs', 'QQ', '72o')"})
        self.description = "the 169 preflop classes keyed by Waugh's hand isomorphism index, the index solvers share"

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        return [0]

    def planned_parts(self) -> int:
        return 1

    def rows(self, partition: Any) -> int:
        return 169

    def compute(self, partition: Any) -> pa.Table:
        from ...core.hand_classes import CLASS_LABELS, class_of
        from ...isomorphism.waugh import holdem_indexer

        hands = holdem_indexer("preflop").unindex_array(np.arange(169))
        bucket = np.array([class_of(int(a), int(b)) for a, b in hands], np.uint16)
        return arrow_table({"index": np.arange(169, dtype=np.int64), "bucket": np.asarray(bucket),
                            "class": np.array([CLASS_LABELS[b] for b in bucket])}, self.schema)

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        return _file("preflop", 169, table)


class StreetWaugh(_Rebuilt):
    """One street's buckets (of ``abstraction/<street>`` with these parameters) by Waugh index."""

    side_output_names = ("_buckets.waugh",)

    def __init__(self, street: str, k: int = 256, bins: int = 50, seed: int = 0, limit: Optional[int] = None,
                 turn_k: Optional[int] = None) -> None:
        from ...isomorphism.waugh import HOLDEM_ROUNDS, holdem_indexer

        self.args = (street, k, bins, seed, limit, turn_k)
        self.source = Street(street, k, bins, seed, limit, turn_k)       # checks every parameter
        self.street, self.k = self.source.street, self.source.k
        self.name = f"abstraction/{self.street}-waugh"
        self.size = holdem_indexer(self.street).size()
        self.params = {**{key: v for key, v in self.source.params.items() if key != "boards_per_part"},
                       "indexer": list(HOLDEM_ROUNDS[self.street]), "format": 1,
                       "indices_per_part": INDICES_PER_PART}
        self.schema = described(pa.schema([("index", pa.int64()), ("bucket", pa.uint16())]), {
            "index": f"Waugh's {self.street} index of the (hole, board) situation (hand_index_last), ascending: "
                     "every index of the street once",
            "bucket": f"its bucket in abstraction/{self.street} (the situation's k-means bucket)"})
        self.description = (f"abstraction/{self.street}'s buckets keyed by Waugh's hand isomorphism index, with a "
                            "flat binary export (_buckets.waugh) that C and Rust solvers read")

    def dependencies(self) -> Sequence[Dataset]:
        return [self.source]

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        dense = Kept(partial(_street_buckets, inputs, self.source), canonical(self.source))   # read by workers
        return [(lo, min(self.size, lo + INDICES_PER_PART), dense) for lo in range(0, self.size, INDICES_PER_PART)]

    def planned_parts(self) -> int:
        return -(-self.size // INDICES_PER_PART)

    def rows(self, partition: Any) -> int:
        return partition[1] - partition[0]

    def pieces(self, partition: Any) -> Sequence[Any]:
        lo, hi, dense = partition
        return [(a, min(hi, a + INDICES_PER_PIECE), dense) for a in range(lo, hi, INDICES_PER_PIECE)]

    def cost(self, partition: Any) -> float:
        return float(partition[1] - partition[0])

    def compute(self, partition: Any) -> pa.Table:
        from ...isomorphism.waugh import situations_of

        lo, hi, dense = partition
        index = np.arange(lo, hi, dtype=np.int64)
        return arrow_table({"index": index, "bucket": dense()[situations_of(self.street, index)]}, self.schema)

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        return _file(self.street, self.k, table)


def registered() -> dict[str, Callable[..., Dataset]]:
    out: dict[str, Callable[..., Dataset]] = {"abstraction/preflop-waugh": PreflopWaugh}
    for s in ("river", "turn", "flop"):
        out[f"abstraction/{s}-waugh"] = partial(StreetWaugh, s)
    return out


__all__ = ["PreflopWaugh", "StreetWaugh", "registered"]
