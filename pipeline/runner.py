"""The batch runner: partitions on Dask, one atomic Parquet part each, resumable.

A job is a :class:`Job`: a name, JSON-able parameters, an Arrow schema, a list
of small picklable partitions and a top-level ``compute(partition) -> Table``.
:func:`run_job` writes ``<out>/<name>/part-NNNNN.parquet`` for partition N and,
when every part is there, ``_manifest.json`` (parameters, version, row count
and SHA-256 of each part, times).

* **Resume.**  The manifest is removed as a run starts and written last, so
  only a finished job has one.  Parts already on disk are kept if they read
  back completely with this job's schema, parameters and row count; anything
  else is recomputed.  ``force`` recomputes everything.
* **Determinism.**  A part's bytes depend on its partition alone (see
  :mod:`.store`), so worker count, scheduler and resume history never change
  the output.
* **Failures.**  Dask reschedules the partition of a worker that dies; an
  interrupt (Ctrl-C, SIGTERM) cancels what is running and leaves finished
  parts and no manifest, ready to resume.
"""
from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__
from .combinatorics import available_cores
from .store import parquet_bytes, read_part, remove_quietly, sha256, with_metadata, write_atomic

MANIFEST = "_manifest.json"


class RunnerError(Exception):
    """A job cannot run as asked (bad output folder, unreachable scheduler, ...)."""


class Interrupted(Exception):
    """The run was stopped by Ctrl-C or SIGTERM; finished parts are kept."""


@dataclass
class Job:
    name: str
    params: dict
    schema: pa.Schema
    partitions: list
    compute: Callable[[Any], pa.Table]
    rows: Optional[Callable[[Any], int]] = None      # expected rows of a partition, if known

    @property
    def full_schema(self) -> pa.Schema:
        return with_metadata(self.schema, self.name, self.params)


@dataclass
class RunReport:
    folder: Path
    parts: int
    computed: int
    rows: int
    seconds: float
    manifest: dict = field(default_factory=dict)


def part_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


MAX_TASKS = 512   # partitions are grouped into at most this many Dask tasks


def build_part(compute: Callable[[Any], pa.Table], partition: Any, schema: pa.Schema) -> bytes:
    """Compute a partition and serialize it with the job's schema."""
    table = compute(partition)
    table = pa.Table.from_arrays([table.column(f.name) for f in schema], schema=schema)
    return parquet_bytes(table)


def build_parts(compute: Callable[[Any], pa.Table], group: list, schema: pa.Schema) -> list[tuple[int, bytes]]:
    """Run on a worker: one Dask task builds a group of ``(index, partition)`` parts.

    Grouping keeps the scheduler's per-task cost (about a millisecond) small
    beside the work when a job has many tiny partitions.
    """
    return [(i, build_part(compute, part, schema)) for i, part in group]


def _prepare_folder(out: Path, job: Job) -> Path:
    folder = Path(out) / job.name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe.{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise RunnerError(f"cannot write to output folder {folder}: {e.strerror or e}") from None
    return folder


def _recorded_checksums(folder: Path, job: Job) -> dict[str, str]:
    """SHA-256 per part from a finished run of the same job and parameters, if any."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    if manifest.get("job") != job.name or manifest.get("parameters") != json.loads(json.dumps(job.params)) \
            or manifest.get("version") != __version__:
        return {}
    return {p["file"]: p["sha256"] for p in manifest.get("parts", [])}


def _valid_parts(folder: Path, job: Job, force: bool) -> dict[int, tuple[int, str]]:
    """Parts already on disk that can be kept, by index, with their rows and checksum.

    After a finished run the manifest's checksums decide; after an interrupted
    one each part must read back whole with the job's schema and row count.
    """
    keep: dict[int, tuple[int, str]] = {}
    recorded = {} if force else _recorded_checksums(folder, job)
    remove_quietly([folder / MANIFEST])
    schema = job.full_schema
    wanted = {part_name(i) for i in range(len(job.partitions))}
    for p in folder.iterdir():
        if p.name.startswith(".") and p.name.endswith(".tmp"):
            remove_quietly([p])          # a write that never finished
        elif p.name.startswith("part-") and p.name not in wanted:
            remove_quietly([p])          # left over from other parameters
    if force:
        remove_quietly(folder / part_name(i) for i in range(len(job.partitions)))
        return keep
    for i, part in enumerate(job.partitions):
        path = folder / part_name(i)
        if not path.exists():
            continue
        data = path.read_bytes()
        if path.name in recorded:
            valid = sha256(data) == recorded[path.name]
        else:
            valid = read_part(data, schema, job.rows(part) if job.rows else None) is not None
        if valid:
            keep[i] = _summary(data)
        else:
            remove_quietly([path])
    return keep


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """Turn SIGTERM into KeyboardInterrupt for the duration (main thread only)."""
    def handler(signum, frame):
        raise KeyboardInterrupt
    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:                   # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


# A local cluster has no dashboard to feed: its workers skip the statistical
# profiler (a stack sample every 10 ms), the GIL monitor and frequent
# housekeeping ticks.  With every core computing, that background work comes out
# of the kernels' time: on 2 cores it cost the 2-worker `matchups` run 1-2 s.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.tick.interval": "200ms",
    "distributed.worker.memory.monitor-interval": "1s",
}


@contextlib.contextmanager
def dask_client(workers: Optional[int], scheduler: Optional[str]):
    """A Dask client: on ``scheduler`` if given, else on a local cluster of ``workers`` processes."""
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as e:
            raise RunnerError(f"cannot reach Dask scheduler {scheduler}: {e}") from None
        try:
            yield client
        finally:
            client.close()
        return
    import dask

    n = workers or available_cores()
    with dask.config.set(LOCAL_CLUSTER_CONFIG):
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
            cluster.close()


def _progress(job: Job, quiet: bool):
    """A rich progress bar on stderr: parts done/total, rate, ETA (a null context when quiet)."""
    if quiet:
        return contextlib.nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.1f} parts/s")

    return Progress(TextColumn(job.name), BarColumn(), MofNCompleteColumn(), Rate(), TextColumn("ETA"),
                    TimeRemainingColumn(), console=Console(stderr=True))


def run_job(job: Job, out: Path, workers: Optional[int] = None, scheduler: Optional[str] = None,
            quiet: bool = False, force: bool = False) -> RunReport:
    """Compute every missing part of ``job`` under ``out`` and write its manifest."""
    if workers is not None and workers < 1:
        raise RunnerError(f"--workers must be at least 1, got {workers}")
    start = time.time()
    folder = _prepare_folder(out, job)
    parts = _valid_parts(folder, job, force)   # also removes the manifest: the run is not finished
    todo = [i for i in range(len(job.partitions)) if i not in parts]
    computed = 0
    if todo:
        schema = job.full_schema
        try:
            with _sigterm_as_interrupt(), dask_client(workers, scheduler) as client, _progress(job, quiet) as bar:
                from distributed import as_completed

                task = bar.add_task(job.name, total=len(job.partitions), completed=len(parts)) if bar else None
                size = -(-len(todo) // MAX_TASKS)
                groups = [[(i, job.partitions[i]) for i in todo[k:k + size]] for k in range(0, len(todo), size)]
                futures = client.map(build_parts, [job.compute] * len(groups), groups, [schema] * len(groups),
                                     key=[f"{job.name}-{g[0][0]:05d}-{len(g)}" for g in groups], pure=False)
                try:
                    for batch in as_completed(futures, with_results=True).batches():
                        for future, built in batch:
                            for i, data in built:
                                write_atomic(folder / part_name(i), data, sync=False)
                                parts[i] = _summary(data)
                                computed += 1
                            future.release()      # let the worker drop the bytes now
                            if bar:
                                bar.advance(task, len(built))
                except KeyboardInterrupt:
                    client.cancel(futures)
                    raise
        except KeyboardInterrupt:
            raise Interrupted(f"{job.name}: interrupted with {len(parts)} of {len(job.partitions)} "
                              f"parts done; run the same command again to resume") from None
    manifest = {
        "job": job.name,
        "parameters": job.params,
        "version": __version__,
        "parts": [{"file": part_name(i), "rows": parts[i][0], "sha256": parts[i][1]}
                  for i in range(len(job.partitions))],
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": round(time.time() - start, 3),
        "computed_parts": computed,
    }
    manifest["rows"] = sum(p["rows"] for p in manifest["parts"])
    write_atomic(folder / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode(), sync=True)
    return RunReport(folder, len(job.partitions), computed, manifest["rows"], time.time() - start, manifest)


def _summary(data: bytes) -> tuple[int, str]:
    """What the manifest keeps of a part: its rows and SHA-256 (not its bytes)."""
    return _rows(data), sha256(data)


def _rows(data: bytes) -> int:
    return pq.ParquetFile(io.BytesIO(data)).metadata.num_rows
