"""What a dataset is: a recipe the runner can build, resume and verify.

A :class:`Dataset` names its output (``name``, a slug path such as
``ehs-table/flop``), its JSON-able ``params`` (recorded in every part and the
manifest), its Arrow ``schema``, the datasets it reads (``dependencies``),
the small picklable ``partitions`` of its work and a ``compute(partition)``
that turns one partition into an Arrow table on a Dask worker — the shape of
``dask.dataframe.from_map(func, iterables, meta=...)`` — and a low estimate
of its work (``seconds``), so that a build beyond a day is refused before it
starts.  ``side_outputs``
turns the finished dataset into extra files (a heat map, a strategy table),
recorded with their SHA-256 in the manifest.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

import pyarrow as pa

from .parquet import with_metadata


class Inputs(Protocol):
    """Read access to finished datasets of the same output location."""

    def read(self, dataset: Dataset, columns: list[str] | None = None) -> pa.Table:
        """The whole finished ``dataset``, verified against its manifest."""
        ...

    def parts(self, dataset: Dataset, columns: list[str] | None = None) -> Iterator[pa.Table]:
        """The finished ``dataset``'s parts one at a time, each verified."""
        ...


class Dataset:
    """Base class of every dataset recipe; subclasses set the attributes and methods below."""

    name: str = ""
    params: dict[str, Any] = {}
    schema: pa.Schema = pa.schema([])
    side_output_names: tuple[str, ...] = ()   # files written beside the parts (``_heatmap.png``)

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

    def seconds(self) -> float:
        """A low estimate of the CPU seconds the build takes on one core, from rates above any measured: what
        the refusal of a build beyond a day rests on (:func:`pipeline.datasets.build_many`).  A recipe whose
        work grows with a parameter (``trials``, ``hands``) says how; 0 means bounded by the dataset's own
        fixed size."""
        return 0.0

    def side_outputs(self, table: Callable[..., pa.Table], inputs: Inputs) -> dict[str, bytes]:
        """Files made from the finished dataset (``table()`` reads it, ``table(columns)`` some columns), by name."""
        return {}

    @property
    def full_schema(self) -> pa.Schema:
        """The schema with the dataset's name, parameters and version in its metadata."""
        return with_metadata(self.schema, self.name, self.params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.params!r})"
