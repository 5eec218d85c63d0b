"""What a worker does with a dataset's partitions: compute them, whole or in pieces, and write the parts.

Three kinds of task run on the workers (the runner, :mod:`.runner`, decides
which, and in what order):

* :func:`build_parts` — a group of whole partitions, each computed, written as
  its part and checksum record;
* :func:`compute_piece` — one piece of a partition (:meth:`Dataset.pieces`),
  its table kept on the worker;
* :func:`write_part` — a part from its pieces' tables (:meth:`Dataset.combine`),
  written like any other.

A part's bytes depend on its partition alone: a part combined from pieces is
the same table, so the same bytes, as the partition computed whole, whatever
worker computed which piece.  Every task reports its :class:`~.trace.PartTiming`.
"""
from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import pyarrow as pa

from ..core.arrow import narrowed
from ..core.version import __version__
from . import hive, trace
from .parquet import canonical_json, parquet_bytes, sha256
from .spec import Dataset
from .storage import Storage
from .trace import PartTiming
from .verified import file_record, is_sha256, part_name, part_path, record_path, side_path, staging_folder

Built = tuple[int, int, int, str]                   # a part written: (index, rows, bytes, SHA-256)
Side = dict[int, pa.Table]                           # each part's side columns, narrowed, by part index
Result = tuple[list[Built], list[PartTiming], Side]  # what a task that writes parts returns: them, timings, sides


class SideOutputError(ValueError):
    """A dataset made a side output it did not declare."""


def params_digest(dataset: Dataset) -> str:
    """SHA-256 of the dataset's name, canonical parameters and the package version."""
    return hashlib.sha256(canonical_json([dataset.name, dataset.params, __version__]).encode()).hexdigest()


def checksum_record(name: str, index: int, digest: str, sha: str, rows: int, nbytes: int,
                    file: str | None = None) -> dict[str, Any]:
    """A part's checksum record: its identity (dataset, part index, parameters' digest, and where it lies:
    ``file``, its folder naming its partition key's value) bound to its bytes."""
    return {"dataset": name, "part": index, "params": digest, "sha256": sha, "rows": rows, "bytes": nbytes,
            "file": file or part_name(index)}


def recorded_sha(record: dict | None, name: str, index: int, digest: str, file: str) -> str | None:
    """The SHA-256 a checksum record binds part ``index`` of dataset ``name`` to, if the record names this
    dataset, this index, these parameters (``digest``) and this ``file`` (a record written before records
    named their file names the flat one); else None."""
    if (record is not None and record.get("dataset") == name and record.get("part") == index
            and not isinstance(record.get("part"), bool) and record.get("params") == digest
            and record.get("file", part_name(index)) == file and is_sha256(record.get("sha256"))):
        return str(record["sha256"])
    return None


_PREPARED: set[str] = set()     # datasets (by parameters' digest) this process has prepared


def prepared(dataset: Dataset, sample: Any) -> tuple[float, float]:
    """Prepare ``dataset`` in this process with ``sample`` (a piece of its work) unless done already
    (:meth:`Dataset.prepare`); its wall and CPU seconds (0 when it was prepared before).  A task with no
    ``sample`` computes nothing (a part written from its pieces: Arrow alone) and prepares nothing: a worker
    whose first task it is (one that computed none of the pieces) has no sample to prepare with."""
    key = params_digest(dataset)
    if key in _PREPARED or sample is None:
        return 0.0, 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    dataset.prepare(sample)
    _PREPARED.add(key)
    return time.perf_counter() - wall, time.process_time() - cpu


class _Clock:
    """One task's timing: the process's CPU before it, its preparation, then its own wall and thread CPU."""

    def __init__(self, dataset: Dataset, sample: Any) -> None:
        self.cpu_before = time.process_time()
        self.prepare, self.prepare_cpu = prepared(dataset, sample)
        self.started, self.cpu = trace.now(), time.thread_time()

    def timing(self, index: int, piece: int) -> PartTiming:
        return PartTiming(index, trace.worker_name(), trace.process_started(), self.started, trace.now(),
                          time.thread_time() - self.cpu, self.cpu_before, self.prepare, self.prepare_cpu,
                          trace.peak_rss(), piece)


def _write(dataset: Dataset, index: int, file: str, table: pa.Table, storage: Storage) -> tuple[int, int, str]:
    """Write ``table`` as part ``index`` at ``file`` (inside the dataset's folder; without its partition key's
    column, :func:`.hive.stripped`) with its checksum record; (rows, bytes, SHA-256).  The part is written
    in the staging folder beside the parts and renamed into place, so that the folder never holds a
    half-written file, even after a ``kill -9``."""
    schema = dataset.full_schema
    table = hive.stripped(dataset, pa.Table.from_arrays([table.column(f.name) for f in schema], schema=schema), file)
    data = parquet_bytes(table)
    sha = sha256(data)
    record = checksum_record(dataset.name, index, params_digest(dataset), sha, table.num_rows, len(data), file)
    storage.write_atomic(data, *part_path(dataset.name, file), staging=staging_folder(dataset.name))
    storage.write_atomic(json.dumps(record).encode(), *record_path(dataset.name, part_name(index)))
    return table.num_rows, len(data), sha


def side_columns(dataset: Dataset, table: pa.Table) -> pa.Table | None:
    """A part's :attr:`~.spec.Dataset.side_columns`, narrowed, as they travel to the client's side fold; None
    for a dataset without."""
    return narrowed(table.select(list(dataset.side_columns))) if dataset.side_columns else None


def build_parts(dataset: Dataset, group: list, location: str, shown: str = "") -> Result:
    """Compute a group of whole ``(index, partition, file)``, write each part (at ``file``,
    :func:`.hive.file_of`) and its checksum record atomically; ``(index, rows, bytes, sha256)`` per part,
    each part's timing, and each part's side columns (:func:`side_columns`).

    Grouping keeps the scheduler's per-task cost (about a millisecond) small
    beside the work when a dataset has many tiny partitions.
    """
    storage = Storage(location, shown)          # ``shown``: the output as the user wrote it, for messages
    done, timings, side = [], [], {}
    for i, partition, file in group:
        clock = _Clock(dataset, partition)
        table = dataset.compute(partition)
        done.append((i, *_write(dataset, i, file, table, storage)))
        columns = side_columns(dataset, table)
        if columns is not None:
            side[i] = columns
        timings.append(clock.timing(i, trace.WHOLE))
    return done, timings, side


def compute_piece(dataset: Dataset, index: int, number: int, piece: Any) -> tuple[pa.Table, PartTiming]:
    """Piece ``number`` of part ``index``: its table (kept on the worker until the part is written) and timing."""
    clock = _Clock(dataset, piece)
    table = dataset.piece_table(piece)
    return table, clock.timing(index, number)


def write_part(dataset: Dataset, index: int, file: str, location: str, shown: str,
               *pieces: tuple[pa.Table, PartTiming]) -> Result:
    """Part ``index`` from its pieces' tables, in order (:meth:`Dataset.combine`), written at ``file`` like a
    whole one; ``[(index, rows, bytes, sha256)]``, the timings of the pieces and of this write, and the part's
    side columns."""
    clock = _Clock(dataset, None)
    table = dataset.combine([t for t, _ in pieces])
    built = (index, *_write(dataset, index, file, table, Storage(location, shown)))
    columns = side_columns(dataset, table)
    return [built], [*(t for _, t in pieces), clock.timing(index, trace.WRITE)], \
        ({} if columns is None else {index: columns})


def read_parts(storage: Storage, dataset: Dataset, files: list[str], columns: list[str] | None = None) -> pa.Table:
    """The dataset's parts ``files`` as one table, the partition key's column put back (:func:`.hive.restored`;
    no checks: see :func:`pipeline.datasets.read`), read several at a time: the side outputs are made after
    the last part, when every other core is idle."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    import pyarrow.parquet as pq

    def one(file: str) -> pa.Table:
        data = storage.read_bytes(*part_path(dataset.name, file))
        table = pq.read_table(pa.BufferReader(data), columns=hive.file_columns(dataset, columns), use_threads=False)
        return hive.restored(dataset, table, file, columns)

    with ThreadPoolExecutor(max(1, min(len(files), os.cpu_count() or 1))) as pool:
        return pa.concat_tables(list(pool.map(one, files)))


def write_side_outputs(dataset: Dataset, location: str, shown: str, inputs: Any, parts: list[str]) -> list[dict]:
    """Make the finished dataset's side outputs (:meth:`Dataset.side_outputs`, reading its ``parts``, the files
    in part order) and write each atomically; their names, sizes and SHA-256, in name order, for the manifest."""
    storage = Storage(location, shown)
    return written_side_outputs(dataset, storage,
                                dataset.side_outputs(lambda columns=None: read_parts(storage, dataset, parts, columns),
                                                     inputs))


def written_side_outputs(dataset: Dataset, storage: Storage, files: dict[str, bytes]) -> list[dict]:
    """Write the side outputs ``files`` (by name) of ``dataset``, each atomically; their names, sizes and
    SHA-256, in name order, for the manifest.  A name the dataset did not declare is refused.  The digests
    are taken in a thread while the files are written (both let go of the GIL): this runs after the last
    part, while every worker idles (abstraction/turn's 28 MB of buckets: 0.02 s of hashing)."""
    from concurrent.futures import ThreadPoolExecutor

    for fname in files:
        if fname not in dataset.side_output_names or not fname.startswith("_"):
            raise SideOutputError(f"{dataset.name}: undeclared side output {fname!r}")
    with ThreadPoolExecutor(1) as hashing:
        records = [hashing.submit(file_record, data, fname) for fname, data in sorted(files.items())]
        for fname, data in sorted(files.items()):
            storage.write_atomic(data, *side_path(dataset.name, fname))
        return [r.result() for r in records]
