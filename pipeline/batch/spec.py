"""What a dataset is: a recipe the runner can build, resume and verify.

A :class:`Dataset` names its output (``name``, a slug path such as
``ehs-table/flop``), its JSON-able ``params`` (recorded in every part and the
manifest), its Arrow ``schema``, the datasets it reads (``dependencies``),
the small picklable ``partitions`` of its work and a ``compute(partition)``
that turns one partition into an Arrow table on a Dask worker — the shape of
``dask.dataframe.from_map(func, iterables, meta=...)`` — and a low estimate
of its work (``seconds``), so that a build beyond a day is refused before it
starts.  A partition may be cut into ``pieces`` computed apart and
``combine``-d into its part, each estimated by ``cost``; ``prepare`` loads a
worker's kernels before its first part.  ``side_outputs``
turns the finished dataset into extra files (a heat map, a strategy table),
recorded with their SHA-256 in the manifest; a dataset whose side outputs need
a few columns of each part folds them in as the parts are written
(``side_columns``, ``side_fold``) instead of reading every part after the last.  ``description`` says in one line
what the dataset holds, and every column of ``schema`` carries its own
(:func:`~pipeline.batch.parquet.described`).  A dataset whose every part holds
one value of an integer column names it ``partition_key`` and gives each
partition's value (``partition_value``): its parts are then written in
Hive-style folders, ``<key>=<value>/``, the column in the path only
(:mod:`.hive`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

import pyarrow as pa

from .parquet import with_metadata


class Inputs(Protocol):
    """Read access to finished datasets of the same output location."""

    @property
    def location(self) -> str:
        """Where the inputs lie (a folder or an object-store URL): for a recipe whose kernels map an input's
        arrays themselves, once per process, instead of being sent its rows with every task."""
        ...

    def read(self, dataset: Dataset, columns: list[str] | None = None) -> pa.Table:
        """The whole finished ``dataset``, verified against its manifest."""
        ...

    def parts(self, dataset: Dataset, columns: list[str] | None = None) -> Iterator[pa.Table]:
        """The finished ``dataset``'s parts one at a time, each verified."""
        ...


class SideFold(Protocol):
    """A dataset's side outputs made part by part (:meth:`Dataset.side_fold`): the runner adds each part's
    :attr:`Dataset.side_columns` as the part is written, kept parts as read back, so that when the last part
    comes back only :meth:`outputs` is left to do."""

    def add(self, table: pa.Table) -> None:
        """The side columns of one part or more (in the schema's types).  Each part is added once, in any
        order: what :meth:`outputs` gives must not depend on the order (nor may the bytes on the workers)."""
        ...

    def outputs(self) -> dict[str, bytes]:
        """The side outputs by name, once every part has been added."""
        ...


class Dataset:
    """Base class of every dataset recipe; subclasses set the attributes and methods below."""

    name: str = ""
    description: str = ""                     # one line: what a row is and what the table answers
    params: dict[str, Any] = {}
    schema: pa.Schema = pa.schema([])         # every column described (:func:`.parquet.described`)
    side_output_names: tuple[str, ...] = ()   # files written beside the parts (``_heatmap.png``)
    partition_key: str | None = None          # an integer column each part holds one value of: Hive folders
    side_columns: tuple[str, ...] = ()        # what each part sends its side fold: set with :meth:`side_fold`

    def partition_value(self, partition: Any) -> int:
        """The value of :attr:`partition_key` that every row of ``partition`` holds, known before it is
        computed: its part lies in ``<folder>/<key>=<value>/`` and stores the other columns only
        (:mod:`.hive`; checked against the rows when the part is written).  Only with a partition key."""
        raise NotImplementedError(f"{self.name} has no partition key")

    def dependencies(self) -> Sequence[Dataset]:
        """Datasets this one reads; built first by :func:`pipeline.datasets.build`."""
        return ()

    @property
    def depends_on(self) -> list[str]:
        """Names of the datasets this one reads."""
        return [d.name for d in self.dependencies()]

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        """The work, as small picklable partitions (part ``N`` is partition ``N``)."""
        raise NotImplementedError

    def compute(self, partition: Any) -> pa.Table:
        """One partition's rows (runs on a Dask worker)."""
        raise NotImplementedError

    def planned_parts(self) -> int:
        """Parts this dataset will have, for the overall progress, known before its inputs are read."""
        return len(self.partitions(None))   # type: ignore[arg-type]

    def rows(self, partition: Any) -> int | None:
        """Rows a partition must give, when known in advance."""
        return None

    def pieces(self, partition: Any) -> Sequence[Any]:
        """The partition cut into pieces that can be computed apart, in order, each a partition ``compute``
        takes (so that work finer than a file spreads over the workers); :meth:`combine` joins their tables
        (:meth:`piece_table`) into the part, which must equal ``compute(partition)``.  The default: the
        partition whole."""
        return (partition,)

    def piece_table(self, piece: Any) -> pa.Table:
        """A piece's rows as they travel to the task that writes its part, which may run in another worker
        process or on another machine: the default ``compute(piece)``.  A dataset whose pieces are large may
        send fewer bytes (narrower types, no column derived from another) and restore them in :meth:`combine`.
        """
        return self.compute(piece)

    def combine(self, tables: list[pa.Table]) -> pa.Table:
        """The part from its pieces' tables (:meth:`piece_table`), in order (:meth:`pieces`); the default stacks
        their rows, in one chunk per column, as the partition computed whole would hold them."""
        return pa.concat_tables(tables).combine_chunks()

    def cost(self, partition: Any) -> float:
        """The relative cost of computing ``partition`` (or a piece of one), estimated without computing it:
        the runner sends costly work first, so that the cheap work fills the end of a run evenly."""
        return 1.0

    def prepare(self, sample: Any) -> None:
        """Load what the parts use (modules, compiled kernels, cached tables) into this process.

        The runner calls it once per worker process before that process's first
        task, and times it apart from the tasks, so that a worker's start is
        measured as a start.  ``sample`` is a piece of the work at hand (the
        first piece of a partition to compute): computing a small slice of it
        loads exactly what the parts use.  A local cluster's workers are forked
        from a process that has prepared the dataset (:mod:`.session`), and find
        everything loaded.  The default prepares nothing.
        """

    def seconds(self) -> float:
        """A low estimate of the CPU seconds the build takes on one core, from rates above any measured: what
        the refusal of a build beyond a day rests on (:func:`pipeline.datasets.build_many`).  A recipe whose
        work grows with a parameter (``trials``, ``hands``) says how; 0 means bounded by the dataset's own
        fixed size."""
        return 0.0

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        """Files made from the finished dataset (``table()`` reads it, ``table(columns)`` some columns), by name."""
        return {}

    def side_fold(self, inputs: Inputs) -> SideFold | None:
        """The side outputs made as the parts are written, where they need only :attr:`side_columns` of each
        part: the worker that writes a part sends those columns back with it (narrowed, :func:`~pipeline.core.
        arrow.narrowed`) and the client adds them to this fold while the other parts are computed, instead of
        one process reading every part again after the last, while every other core idles (issue 38:
        ``abstraction/turn``'s ``_buckets.npy``, 14 million rows read back, was 1 s of a 89 s run's end).
        The files must be those :meth:`side_outputs` makes.  A dataset that folds sets both this and
        :attr:`side_columns` (the columns travel with every part whenever they are named).  The default:
        None, :meth:`side_outputs` after the last part."""
        return None

    @property
    def full_schema(self) -> pa.Schema:
        """The schema with the dataset's name, parameters and version in its metadata."""
        return with_metadata(self.schema, self.name, self.params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.params!r})"
