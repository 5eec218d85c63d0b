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

from ..core.version import __version__
from . import trace
from .parquet import canonical_json, parquet_bytes, sha256
from .spec import Dataset
from .storage import Storage
from .trace import PartTiming
from .verified import file_record, part_path, record_path, side_path

Built = tuple[int, int, int, str]                   # a part written: (index, rows, bytes, SHA-256)
Result = tuple[list[Built], list[PartTiming]]        # what a task that writes parts returns: them, and timings


class SideOutputError(ValueError):
    """A dataset made a side output it did not declare."""


def part_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


def params_digest(dataset: Dataset) -> str:
    """SHA-256 of the dataset's name, canonical parameters and the package version."""
    return hashlib.sha256(canonical_json([dataset.name, dataset.params, __version__]).encode()).hexdigest()


def checksum_record(name: str, index: int, digest: str, sha: str, rows: int, nbytes: int) -> dict[str, Any]:
    """A part's checksum record: its identity (dataset, part index, parameters' digest) bound to its bytes."""
    return {"dataset": name, "part": index, "params": digest, "sha256": sha, "rows": rows, "bytes": nbytes}


_PREPARED: set[str] = set()     # datasets (by parameters' digest) this process has prepared


def prepared(dataset: Dataset, sample: Any) -> tuple[float, float]:
    """Prepare ``dataset`` in this process with ``sample`` (a piece of its work) unless done already
    (:meth:`Dataset.prepare`); its wall and CPU seconds (0 when it was prepared before)."""
    key = params_digest(dataset)
    if key in _PREPARED:
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


def _write(dataset: Dataset, index: int, table: pa.Table, storage: Storage) -> tuple[int, int, str]:
    """Write ``table`` as part ``index`` with its checksum record; (rows, bytes, SHA-256)."""
    schema = dataset.full_schema
    table = pa.Table.from_arrays([table.column(f.name) for f in schema], schema=schema)
    data = parquet_bytes(table)
    sha = sha256(data)
    record = checksum_record(dataset.name, index, params_digest(dataset), sha, table.num_rows, len(data))
    storage.write_atomic(data, *part_path(dataset.name, part_name(index)))
    storage.write_atomic(json.dumps(record).encode(), *record_path(dataset.name, part_name(index)))
    return table.num_rows, len(data), sha


def build_parts(dataset: Dataset, group: list, location: str, shown: str = "") -> Result:
    """Compute a group of whole ``(index, partition)``, write each part and its checksum record atomically;
    ``(index, rows, bytes, sha256)`` per part, and each part's timing.

    Grouping keeps the scheduler's per-task cost (about a millisecond) small
    beside the work when a dataset has many tiny partitions.
    """
    storage = Storage(location, shown)          # ``shown``: the output as the user wrote it, for messages
    done, timings = [], []
    for i, partition in group:
        clock = _Clock(dataset, partition)
        done.append((i, *_write(dataset, i, dataset.compute(partition), storage)))
        timings.append(clock.timing(i, trace.WHOLE))
    return done, timings


def compute_piece(dataset: Dataset, index: int, number: int, piece: Any) -> tuple[pa.Table, PartTiming]:
    """Piece ``number`` of part ``index``: its table (kept on the worker until the part is written) and timing."""
    clock = _Clock(dataset, piece)
    table = dataset.compute(piece)
    return table, clock.timing(index, number)


def write_part(dataset: Dataset, index: int, location: str, shown: str, *pieces: tuple[pa.Table, PartTiming]
               ) -> Result:
    """Part ``index`` from its pieces' tables, in order (:meth:`Dataset.combine`), written like a whole one;
    ``[(index, rows, bytes, sha256)]`` and the timings of the pieces and of this write."""
    clock = _Clock(dataset, None)
    table = dataset.combine([t for t, _ in pieces])
    built = (index, *_write(dataset, index, table, Storage(location, shown)))
    return [built], [*(t for _, t in pieces), clock.timing(index, trace.WRITE)]


def read_parts(storage: Storage, name: str, count: int, columns: list[str] | None = None) -> pa.Table:
    """Parts ``0 .. count-1`` of a dataset as one table (no checks: see :func:`pipeline.datasets.read`), read
    several at a time: the side outputs are made after the last part, when every other core is idle."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    import pyarrow.parquet as pq

    def one(i: int) -> pa.Table:
        return pq.read_table(pa.BufferReader(storage.read_bytes(*part_path(name, part_name(i)))), columns=columns,
                             use_threads=False)

    with ThreadPoolExecutor(max(1, min(count, os.cpu_count() or 1))) as pool:
        return pa.concat_tables(list(pool.map(one, range(count))))


def write_side_outputs(dataset: Dataset, location: str, shown: str, inputs: Any, count: int) -> list[dict]:
    """Make the finished dataset's side outputs (:meth:`Dataset.side_outputs`, reading its ``count`` parts) and
    write each atomically; their names, sizes and SHA-256, in name order, for the manifest."""
    storage = Storage(location, shown)
    files = dataset.side_outputs(lambda columns=None: read_parts(storage, dataset.name, count, columns), inputs)
    out = []
    for fname, data in sorted(files.items()):
        if fname not in dataset.side_output_names or not fname.startswith("_"):
            raise SideOutputError(f"{dataset.name}: undeclared side output {fname!r}")
        storage.write_atomic(data, *side_path(dataset.name, fname))
        out.append(file_record(data, fname))
    return out
