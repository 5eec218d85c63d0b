"""``abstraction/...``: the card abstraction of :mod:`pipeline.abstraction`, street by street.

=============================  ====================================================================
``abstraction/preflop``        the 169 classes (lossless buckets) with their river-equity
                               histograms and the 8 OCHS opponent clusters
``abstraction/<s>-centroids``  one street's k-means: ``k`` centroids fitted to every situation
                               of the street (one part: the fit needs them all at once)
``abstraction/<s>``            every canonical situation of the street: index, bucket (uint16),
                               weight, the features, the distance to its centroid; side outputs
                               ``_buckets.npy`` (dense, memory-mapped by lookups),
                               ``_centroids.npy``, ``_distances.npy`` (between buckets)
``abstraction``                the report: per street and bucket the sizes and within-bucket
                               distances, beside equity-percentile buckets at the same ``k``;
                               ``_report.md`` and PNGs
=============================  ====================================================================

Dependency order: preflop → river; turn → flop (the flop's potential-aware
points are its turn cards' turn buckets).  Parameters: ``k`` (buckets),
``bins`` (histogram bins, flop and turn), ``seed`` (k-means++), ``limit``
(the first N canonical boards of each street: smoke runs); the flop also
``turn_k``, the turn abstraction it reads (default ``k``).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Optional

import numpy as np
import pyarrow as pa

from ...batch.parquet import described, vector_array, vector_type
from ...batch.spec import Dataset, Inputs
from ...core.arrow import arrow_table, column, narrowed, values, widened
from ...core.errors import InputError
from ...core.inputs import integer
from ..abstraction_arrays import BucketFold, Kept, TurnBuckets, centroid_array
from ..registry import DatasetError
from ..streets import MAX_LIMIT, STREETS, check_street, planned_parts

ORDER = 70
BOARDS_PER_PART = {"river": 2000, "turn": 200, "flop": 25}
BOARDS_PER_PIECE = {"river": 250, "turn": 25, "flop": 1}      # a task of a street table: a few tenths of a second
SEED_MAX = 2**63 - 1
RUNOUTS = {"river": 1, "turn": 46, "flop": 1081}     # the runouts a situation's win2 sums over
DISTANCE = {"river": "Euclidean (L2) between OCHS vectors", "turn": "L1 between cumulative histograms (EMD)",
            "flop": "L1 in the potential-aware feature space"}
SITUATION = {
    "index": "the situation's index (pipeline.isomorphism.situation_index): one row per canonical (hole, board)",
    "bucket": "the situation's bucket, 0 to k - 1: its nearest centroid of the street's k-means fit",
    "weight": "(hole, board) situations of the 52-card deck this canonical one stands for; a street's weights "
              "sum to 1,326 x C(50, board cards)",
    "win2": "2 x wins + ties against one random hand at the river, over every runout and opponent hand (exact)",
    "equity": "win2 / (2 x the deals it counts): the all-in equity against one random hand",
}


def _check(k: object, bins: object, seed: object, limit: object, what: str) -> tuple[int, int, int, Optional[int]]:
    from ...abstraction.features import MAX_BINS
    from ...abstraction.streets import MAX_K

    return (integer(k, f"{what}.k", lo=1, hi=MAX_K), integer(bins, f"{what}.bins", lo=2, hi=MAX_BINS),
            integer(seed, f"{what}.seed", lo=0, hi=SEED_MAX),
            None if limit is None else integer(limit, f"{what}.limit", lo=1, hi=MAX_LIMIT))


def _boards(street: str, limit: Optional[int]) -> np.ndarray:
    from ...isomorphism.boards import canonical_boards

    boards = canonical_boards(STREETS[street])
    return boards if limit is None else boards[:limit]


def read_exact(inputs: Inputs, ds: Dataset, columns: Optional[list[str]] = None) -> pa.Table:
    """``ds`` as this run planned it, refused unless planned with ``ds``'s own parameters (a run that gave
    the input other parameters than the dataset reading it expects: one line, not a silent mix)."""
    from ...batch.parquet import META_PARAMS, canonical_json

    table = inputs.read(ds, columns)
    got = (table.schema.metadata or {}).get(META_PARAMS, b"{}").decode()
    if got != canonical_json(ds.params):
        raise DatasetError(f"{ds.name} is planned with parameters {got}, but what reads it needs "
                           f"{canonical_json(ds.params)}: give the streets the same k, bins and seed")
    return table


class _Rebuilt(Dataset):
    """A recipe pickled as its constructor's arguments: pyarrow pickles a fixed-size list type without its
    child's name (``element`` comes back ``item``), so a schema sent to a worker would no longer equal the
    parts' — rebuilding the recipe there makes the schema afresh."""

    args: tuple = ()

    def __reduce__(self) -> tuple:
        return (type(self), self.args)


# ---------------------------------------------------------------------------


class Preflop(_Rebuilt):
    """The 169 classes, their exact river-equity histograms and all-in equity, and their OCHS clusters."""

    name = "abstraction/preflop"
    side_output_names = ("_clusters.json",)

    def __init__(self, bins: int = 50, seed: int = 0) -> None:
        _, bins, seed, _ = _check(1, bins, seed, None, self.name)
        self.args = (bins, seed)
        self.bins, self.seed = bins, seed
        self.params = {"bins": bins, "seed": seed, "clusters": 8}
        self.schema = described(pa.schema([("class", pa.string()), ("bucket", pa.uint16()), ("combos", pa.int64()),
                                           ("win2", pa.int64()), ("equity", pa.float64()),
                                           ("ochs_cluster", pa.uint8()), ("histogram", vector_type(pa.int64(), bins))]),
                                {"class": "the hand class of the 169 ('AKs', 'QQ', '72o')",
                                 "bucket": "the class's bucket: its index in the 13 x 13 grid (preflop is lossless)",
                                 "combos": "specific hands of the class (6, 4 or 12)",
                                 "win2": "2 x wins + ties against one random hand over every (hand of the class, "
                                         "board, opponent hand) of the deck (exact)",
                                 "equity": "the class's exact all-in equity against one random hand",
                                 "ochs_cluster": "the class's opponent cluster of the 8 (OCHS, Johanson et al. 2013)",
                                 "histogram": f"the class's (hand, board) situations by river equity against a random "
                                              f"hand in {bins} equal bins"})
        self.description = ("the 169 preflop classes with their exact river-equity histograms, all-in equity and "
                            "the 8 OCHS opponent clusters")

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        return [(self.bins, self.seed)]

    def planned_parts(self) -> int:
        return 1

    def rows(self, partition: Any) -> int:
        return 169

    def compute(self, partition: Any) -> pa.Table:
        from ...abstraction.ochs import class_combo_counts, opponent_clusters
        from ...core.hand_classes import CLASS_LABELS

        bins, seed = partition
        oc = opponent_clusters(bins, seed)
        return pa.table({"class": CLASS_LABELS, "bucket": column(np.arange(169), pa.uint16()),
                         "combos": class_combo_counts(), "win2": oc.win2, "equity": oc.equity,
                         "ochs_cluster": column(oc.cluster, pa.uint8()),
                         "histogram": vector_array(oc.histogram, pa.int64())}, schema=self.schema)

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        from ...abstraction.ochs import cluster_members

        cluster = values(table(["ochs_cluster"]).column("ochs_cluster")).astype(np.int64)
        doc = {"bins": self.bins, "seed": self.seed, "clusters": cluster_members(cluster)}
        return {"_clusters.json": (json.dumps(doc, indent=1) + "\n").encode()}


def clusters_of(inputs: Inputs, seed: int) -> np.ndarray:
    """The 169 classes' OCHS cluster numbers from the planned ``abstraction/preflop``."""
    t = read_exact(inputs, Preflop(seed=seed), ["ochs_cluster"])
    return values(t.column("ochs_cluster")).astype(np.int64)


class _StreetBase(_Rebuilt):
    """What a street's fit and its table share: the street, k, bins, seed, limit and what they read."""

    family = ""

    def __init__(self, street: str, k: int = 256, bins: int = 50, seed: int = 0, limit: Optional[int] = None,
                 turn_k: Optional[int] = None) -> None:
        self.args = (street, k, bins, seed, limit, turn_k)
        street = check_street(street)
        what = f"abstraction/{street}{self.family}"
        k, bins, seed, limit = _check(k, bins, seed, limit, what)
        self.street, self.k, self.bins, self.seed, self.limit = street, k, bins, seed, limit
        self.turn_k = None
        self.name = what
        self.params = {"street": street, "k": k, "seed": seed, "boards_per_part": BOARDS_PER_PART[street]}
        if street != "river":
            self.params["bins"] = bins
        if street == "flop":
            from ...abstraction.streets import MAX_K

            self.turn_k = k if turn_k is None else integer(turn_k, f"{what}.turn_k", lo=1, hi=MAX_K)
            self.params["turn_k"] = self.turn_k
        elif turn_k is not None:
            raise InputError(f"{what}.turn_k is for the flop only")
        if limit is not None:
            self.params["limit"] = limit

    def reads(self) -> list[Dataset]:
        """What the street's points need: the river the preflop clusters, the flop the turn's centroids and the
        turn table (its turn cards' buckets are looked up there, not assigned again)."""
        if self.street == "river":
            return [Preflop(seed=self.seed)]
        if self.street == "flop":
            turn = (self.turn_k or self.k, self.bins, self.seed, self.limit)
            return [Centroids("turn", *turn), Street("turn", *turn)]
        return []

    def context(self, inputs: Inputs) -> dict[str, Any]:
        """The inputs of :func:`~pipeline.abstraction.streets.street_rows` from the planned datasets: the flop's
        as :class:`Kept` readers, read on the workers (:func:`resolved` gives their values)."""
        if self.street == "river":
            return {"clusters": clusters_of(inputs, self.seed)}
        if self.street == "flop":
            centroids, table = self.reads()
            read_exact(inputs, centroids, ["bucket"])         # refused here, not on a worker, if planned otherwise
            return {"turn_centroids": Kept(partial(_centroids, inputs, centroids), canonical(centroids)),
                    "turn_buckets": TurnBuckets(partial(read_exact, inputs, table, ["index", "bucket"]),
                                                canonical(table))}
        return {}


def _centroids(inputs: Inputs, fit: Dataset) -> np.ndarray:
    return centroid_array(read_exact(inputs, fit, ["centroid"]))


def resolved(context: dict[str, Any]) -> dict[str, Any]:
    """A street's context with its kept turn centroids read (the turn buckets stay a callable: the flop's
    features call it only when they need it)."""
    return {k: v() if k == "turn_centroids" and isinstance(v, Kept) else v for k, v in context.items()}


def canonical(ds: Dataset) -> str:
    """``ds``'s name and parameters as one string."""
    from ...batch.parquet import canonical_json

    return f"{ds.name} {canonical_json(ds.params)}"


class Centroids(_StreetBase):
    """One street's k-means fit: one part of ``k`` rows (bucket, centroid, situations, weight, mean distance);
    ``_fit.json`` records the objective per iteration."""

    family = "-centroids"
    side_output_names = ("_fit.json",)

    def __init__(self, street: str, k: int = 256, bins: int = 50, seed: int = 0, limit: Optional[int] = None,
                 turn_k: Optional[int] = None) -> None:
        from ...abstraction.fitting import MAX_ITERATIONS, TOLERANCE, sample_size

        super().__init__(street, k, bins, seed, limit, turn_k)
        self.params.update({"fit_situations": sample_size(self.street, self.k),
                            "tolerance": TOLERANCE, "max_iterations": MAX_ITERATIONS})
        self.schema = described(pa.schema([
            ("bucket", pa.uint16()), ("centroid", vector_type(pa.float64(), self.dimension)),
            ("situations", pa.int64()), ("weight", pa.int64()), ("distance", pa.float64()),
            ("iterations", pa.int32()), ("converged", pa.bool_()),
            ("objective", pa.list_(pa.field("element", pa.float64())))]), {
            "bucket": "the bucket, 0 to k - 1",
            "centroid": f"the bucket's centroid in the street's feature space ({self.dimension} numbers)",
            "situations": "sampled situations of the fit assigned to the bucket",
            "weight": "their summed weight (situations of the full deck they stand for)",
            "distance": f"their weighted mean distance to the centroid: {DISTANCE[self.street]}",
            "iterations": "k-means iterations the fit ran (the same on every row)",
            "converged": "whether the fit stopped on its tolerance rather than its iteration cap (every row)",
            "objective": "the fit's objective after each iteration (on the first row; empty on the others)"})
        self.description = (f"the {self.street}'s k-means fit: k = {self.k} centroids fitted to its situations "
                            "(one part)")

    @property
    def dimension(self) -> int:
        from ...abstraction.streets import OCHS_CLUSTERS, QUANTILES

        if self.street == "river":
            return OCHS_CLUSTERS
        return self.bins - 1 if self.street == "turn" else (self.bins - 1) * QUANTILES

    def dependencies(self) -> Sequence[Dataset]:
        return self.reads()

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        return [self.context(inputs)]

    def planned_parts(self) -> int:
        return 1

    def rows(self, partition: Any) -> int:
        return self.k

    def compute(self, partition: Any) -> pa.Table:
        from ...abstraction.fitting import fit_street

        fitted = fit_street(self.street, _boards(self.street, self.limit), self.k, bins=self.bins, seed=self.seed,
                            chunk=BOARDS_PER_PART[self.street], **resolved(partition))
        c = fitted.clustering
        history = [list(c.objective)] + [[] for _ in range(self.k - 1)]       # the objective per iteration
        return pa.table({
            "bucket": column(np.arange(self.k), pa.uint16()),
            "centroid": vector_array(c.centroids, pa.float64()),
            "situations": fitted.situations, "weight": fitted.bucket_weight, "distance": fitted.mean_distance,
            "iterations": column(np.full(self.k, c.iterations), pa.int32()),
            "converged": column(np.full(self.k, c.converged), pa.bool_()),
            "objective": pa.array(history, self.schema.field("objective").type),
        }, schema=self.schema)

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        t = table(["iterations", "converged", "objective", "situations"])
        situations = values(t.column("situations"))
        doc = {"street": self.street, "k": self.k, "seed": self.seed, "metric": self.metric,
               "iterations": int(t.column("iterations")[0].as_py()),
               "converged": bool(t.column("converged")[0].as_py()),
               "objective": t.column("objective")[0].as_py(),
               "situations": int(situations.sum()), "empty_buckets": int((situations == 0).sum())}
        return {"_fit.json": (json.dumps(doc, indent=1) + "\n").encode()}

    @property
    def metric(self) -> str:
        from ...abstraction.streets import METRIC

        return METRIC[self.street]


class Street(_StreetBase):
    """Every canonical situation of a street with its bucket, in parts of canonical boards."""

    side_output_names = ("_buckets.npy", "_centroids.npy", "_distances.npy")
    side_columns = ("index", "bucket")             # _buckets.npy is filled as the parts are written

    def __init__(self, street: str, k: int = 256, bins: int = 50, seed: int = 0, limit: Optional[int] = None,
                 turn_k: Optional[int] = None) -> None:
        super().__init__(street, k, bins, seed, limit, turn_k)
        fields = [("index", pa.int64()), ("bucket", pa.uint16()), ("weight", pa.int64()), ("win2", pa.int64()),
                  ("equity", pa.float64())]
        if self.street == "river":
            fields += [(f"ochs{j}", pa.float32()) for j in range(8)]
        else:
            fields += [("histogram", vector_type(pa.uint16(), self.bins))]
        if self.street == "flop":
            fields += [("turn_buckets", vector_type(pa.uint16(), 47))]
        fields += [("distance", pa.float32())]
        columns = dict(SITUATION)
        columns.update({f"ochs{j}": f"equity at the river against the live hands of OCHS opponent cluster {j}"
                        for j in range(8)})
        columns["histogram"] = (f"the situation's {'river cards' if self.street == 'turn' else '1,081 runouts'} "
                                f"by river equity against a random hand, in {self.bins} equal bins")
        columns["turn_buckets"] = "the turn bucket of each of the 47 turn cards, sorted (abstraction/turn's)"
        columns["distance"] = f"the distance to the bucket's centroid: {DISTANCE[self.street]}"
        self.schema = described(pa.schema(fields), {name: columns[name] for name, _ in fields})
        self.description = (f"every canonical {self.street} situation with its k-means bucket (k = {self.k}), "
                            "its features and its distance to the centroid")

    def fit(self) -> Centroids:
        """The street's k-means fit this table assigns to."""
        return Centroids(self.street, self.k, self.bins, self.seed, self.limit, self.turn_k)

    def dependencies(self) -> Sequence[Dataset]:
        return [self.fit(), *self.reads()]

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        read_exact(inputs, self.fit(), ["bucket"])           # refused here, not on a worker, if planned otherwise
        centroids = Kept(partial(_centroids, inputs, self.fit()), canonical(self.fit()))   # read by the workers
        context = self.context(inputs)
        boards = _boards(self.street, self.limit)
        size = BOARDS_PER_PART[self.street]
        return [(boards[i:i + size], centroids, context) for i in range(0, len(boards), size)]

    def planned_parts(self) -> int:
        return planned_parts(self.street, self.limit, BOARDS_PER_PART[self.street])

    def pieces(self, partition: Any) -> Sequence[Any]:
        boards, centroids, context = partition
        size = BOARDS_PER_PIECE[self.street]
        return [(boards[i:i + size], centroids, context) for i in range(0, len(boards), size)]

    def piece_table(self, piece: Any) -> pa.Table:
        """A piece's rows as they travel to the worker that writes the part: ``equity`` left out (:meth:`combine`
        derives it from ``win2``, as the features do), every integer in the narrowest unsigned type that holds
        it (a turn's histogram counts 46 river cards: one byte a bin).  A turn piece crosses between workers
        in 64 bytes a row instead of 138: with 8 workers most pieces of a part are made elsewhere than where
        it is written (issue 38: abstraction/turn's CPU at 8 workers over 1)."""
        return narrowed(self.compute(piece).drop_columns(["equity"]))

    def combine(self, tables: list[pa.Table]) -> pa.Table:
        from ...abstraction.features import FULL

        table = pa.concat_tables([widened(t, self.schema) for t in tables]).sort_by("index")  # rows by situation
        equity = values(table.column("win2")) / (FULL * RUNOUTS[self.street])   # as the features compute it
        return table.add_column(self.schema.get_field_index("equity"), self.schema.field("equity"),
                                [column(equity, pa.float64())]).combine_chunks()

    def cost(self, partition: Any) -> float:
        return float(len(partition[0]))

    def prepare(self, sample: Any) -> None:
        boards, centroids, context = sample
        self.compute((boards[:1], centroids, context))

    def compute(self, partition: Any) -> pa.Table:
        from ...abstraction.fitting import assigned_rows

        boards, centroids, context = partition
        rows, labels, distances = assigned_rows(self.street, boards, centroids(), bins=self.bins,
                                                **resolved(context))
        columns: dict[str, Any] = {"index": rows.index, "bucket": labels, "weight": rows.weight, "win2": rows.win2,
                                   "equity": rows.equity}
        if self.street == "river":
            columns.update({f"ochs{j}": rows.features["ochs"][:, j] for j in range(8)})
        else:
            columns["histogram"] = vector_array(rows.features["histogram"], pa.uint16())
        if self.street == "flop":
            columns["turn_buckets"] = vector_array(rows.features["turn_buckets"], pa.uint16())
        columns["distance"] = distances
        return arrow_table(columns, self.schema)

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        fold = self.side_fold(inputs)
        fold.add(table(list(self.side_columns)))
        return fold.outputs()

    def side_fold(self, inputs: Inputs) -> BucketFold:
        return BucketFold(self.street, self.k, partial(_centroids, inputs, self.fit()))


# ---------------------------------------------------------------------------


class Report(_Rebuilt):
    """``abstraction/report``: per street and bucket, the k-means buckets beside equity-percentile buckets at the same
    ``k`` — situations, weight, mean within-bucket distance — and ``_report.md`` with its pictures."""

    name = "abstraction/report"       # not ``abstraction``: a dataset's folder holds its own parts only
    side_output_names = ("_report.md", "_sizes.png", "_within.png")

    def __init__(self, k: int = 256, bins: int = 50, seed: int = 0, limit: Optional[int] = None) -> None:
        self.args = (k, bins, seed, limit)
        k, bins, seed, limit = _check(k, bins, seed, limit, self.name)
        self.k, self.bins, self.seed, self.limit = k, bins, seed, limit
        self.params = {"k": k, "bins": bins, "seed": seed, **({"limit": limit} if limit else {})}
        self.schema = described(pa.schema([("street", pa.string()), ("method", pa.string()), ("metric", pa.string()),
                                           ("bucket", pa.int32()), ("situations", pa.int64()),
                                           ("weight", pa.int64()), ("distance", pa.float64())]), {
            "street": "river, turn or flop",
            "method": "'kmeans' (the abstraction's buckets) or 'percentile' (equal-weight equity percentiles, the "
                      "classical EHS buckets at the same k)",
            "metric": "the distance the row is measured in: 'ochs' (river), 'emd' (turn, flop) or 'potential' "
                      "(the flop's potential-aware EMD bound)",
            "bucket": "the bucket, 0 to k - 1",
            "situations": "canonical situations in the bucket",
            "weight": "situations of the full deck they stand for",
            "distance": "their weighted mean distance to the bucket's centroid, in equity units (NaN where left out)"})
        self.description = ("how tight the buckets are: per street, metric and bucket, the k-means buckets beside "
                            "equity-percentile buckets at the same k")

    def streets(self) -> list[Street]:
        return [Street(s, self.k, self.bins, self.seed, self.limit) for s in ("river", "turn", "flop")]

    def dependencies(self) -> Sequence[Dataset]:
        return self.streets()

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...abstraction.report import street_columns

        out = []
        for ds in self.streets():                # each street's parts read one at a time, on the worker
            turn = None
            if ds.street == "flop":
                turn = centroid_array(read_exact(inputs, ds.reads()[0], ["centroid"]))
            out.append((ds.street, partial(inputs.parts, ds, street_columns(ds.street)), turn))
        return out

    def planned_parts(self) -> int:
        return 3

    def compute(self, partition: Any) -> pa.Table:
        from ...abstraction.report import street_report

        street, parts, turn = partition
        return pa.table(street_report(street, parts, self.k, self.bins, turn), schema=self.schema)

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        from ...abstraction.report import report_files

        return report_files(table(), self.params)


def registered() -> dict[str, Callable[..., Dataset]]:
    out: dict[str, Callable[..., Dataset]] = {"abstraction/preflop": Preflop}
    for s in ("river", "turn", "flop"):
        out[f"abstraction/{s}-centroids"] = partial(Centroids, s)
        out[f"abstraction/{s}"] = partial(Street, s)
    out["abstraction/report"] = Report
    return out


__all__ = ["Centroids", "Preflop", "Report", "Street", "registered"]
