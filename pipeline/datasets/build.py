"""Building and reading datasets: dependencies first, every part verified, a catalog of what was built.

``build(name, out, **params)`` builds a dataset (its dependencies first) into
``<out>/<name>/`` (its Parquet parts; manifest, checksums and side outputs in
``<out>/<name>.meta/``) — ``out`` a local folder or an object-store URL — resuming
whatever is already there; ``read(name, out)`` returns a finished dataset as a
pyarrow Table after checking every part against its manifest's SHA-256.
``build_many`` runs several on one cluster and writes ``<out>/_catalog.json``.

The runner and the cluster session are imported by the calls that build, not with the module: every worker of
a run that reads its inputs unpickles a :class:`PlannedInputs`, and the local cluster's fork server does so
before its first worker can start (issue 38: with the runner, the session and the equity package, the server
took 0.42 s of CPU to unpickle abstraction/turn's sample on an AMD EPYC Zen 1, 0.26 s without).
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..batch import hive
from ..batch.errors import RunnerError
from ..batch.manifest import check_manifest, manifest_matches, read_manifest
from ..batch.parquet import sha256
from ..batch.spec import Dataset, Inputs
from ..batch.storage import Storage, StorageError
from ..batch.verified import MANIFEST, manifest_path, part_name, part_path
from ..core.budget import MAX_WORK_SECONDS, refuse_beyond
from ..core.cores import available_cores
from ..core.errors import InputError
from ..core.inputs import parse_json, shown
from .registry import DatasetError, dataset

if TYPE_CHECKING:
    from ..batch.runner import RunReport
    from ..batch.session import Session

CATALOG = "_catalog.json"


class Reader:
    """Reads finished datasets of one output location, verifying every part's SHA-256."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def read(self, ds: Dataset, columns: list[str] | None = None) -> pa.Table:
        tables = list(self.parts(ds, columns))
        return pa.concat_tables(tables) if tables else ds.schema.empty_table()

    def parts(self, ds: Dataset, columns: list[str] | None = None) -> Iterator[pa.Table]:
        """The parts of a finished ``ds`` one at a time, each verified (for datasets too big to hold at once);
        a Hive-partitioned dataset's key column is put back from each part's folder, typed as its schema says
        (:func:`pipeline.batch.hive.restored`), so that every reader gets the table the recipe computed."""
        manifest = finished_manifest(self.storage, ds)
        where = self.storage.url(ds.name)
        schema = hive.file_schema(ds)
        for i, p in enumerate(manifest["parts"]):
            table = None
            try:
                data = self.storage.read_bytes(*part_path(ds.name, p["file"]))
                if sha256(data) == p["sha256"]:
                    part = pq.ParquetFile(pa.BufferReader(data))
                    if part.schema_arrow.equals(schema, check_metadata=True) and part.metadata.num_rows == p["rows"]:
                        table = hive.restored(ds, part.read(columns=hive.file_columns(ds, columns)), p["file"],
                                              columns)
            except (OSError, ValueError, pa.ArrowException):     # StorageError (not a regular file) included
                table = None
            if table is None:
                raise DatasetError(f"{ds.name}: {part_name(i)} at {where} is missing or damaged "
                                   "(SHA-256 or rows differ from the manifest); build it again to repair it")
            yield table


def finished_manifest(storage: Storage, ds: Dataset) -> dict:
    """The manifest of a finished run of ``ds`` at ``storage`` (read bounded, typed and checked against ``ds``,
    :func:`pipeline.batch.manifest.check_manifest`); else DatasetError in one line saying why it is not one."""
    manifest = read_manifest(storage, ds.name)
    where = storage.url(ds.name)
    if manifest is None:
        try:
            kind = storage.kind(*manifest_path(ds.name))
        except StorageError as e:                       # a link on the way
            raise DatasetError(str(e)) from None
        if kind is None:
            raise DatasetError(f"{ds.name} is not built at {where} (no {MANIFEST})")
        try:
            storage.read_bytes(*manifest_path(ds.name))
        except (OSError, InputError) as e:              # a folder, a FIFO, unreadable: what it is
            raise DatasetError(f"{ds.name} at {where}: {getattr(e, 'strerror', None) or e}") from None
        raise DatasetError(f"{ds.name} is not built at {where} (no readable {MANIFEST})")
    if not manifest_matches(manifest, ds):
        raise DatasetError(f"{ds.name} at {where} was built with other parameters or version: "
                           f"{shown(manifest.get('parameters'))}")
    problem = check_manifest(manifest, ds, ds.planned_parts())
    if problem is not None:
        raise DatasetError(f"{ds.name} at {where} is not a finished run ({problem}); "
                           "build it again to repair it")
    return manifest


def _resolve(item: str | Dataset, params: dict[str, Any]) -> Dataset:
    return item if isinstance(item, Dataset) else dataset(item, **params)


def plan(targets: Iterable[str | Dataset], params: Mapping[str, Mapping[str, Any]] | None = None) -> list[Dataset]:
    """``targets`` and the datasets they read, dependencies first, one dataset per name.

    A name in ``params`` is made with those parameters wherever it appears — as
    a target or as the input of one (``--param matchups.limit=10`` for
    ``preflop-grid``) — and each dataset reads the planned instance of its
    inputs (:class:`PlannedInputs`), so that one folder is never built twice
    with different parameters in one run.  DatasetError for parameters of a
    dataset that is not in the plan, or two different targets of one name.
    """
    params = dict(params or {})
    chosen: dict[str, Dataset] = {}
    targets = list(targets)
    for t in targets:
        ds = t if isinstance(t, Dataset) else dataset(t, **params.get(t, {}))
        if ds.name in chosen and chosen[ds.name].params != ds.params:
            raise DatasetError(f"two different {ds.name!r} datasets in one run: {shown(chosen[ds.name].params)} "
                               f"and {shown(ds.params)}")
        chosen.setdefault(ds.name, ds)
    roots = list(chosen.values())

    def instance(ds: Dataset) -> Dataset:
        if ds.name not in chosen:
            chosen[ds.name] = dataset(ds.name, **params[ds.name]) if ds.name in params else ds
        return chosen[ds.name]

    out: list[Dataset] = []
    done: set[str] = set()

    def visit(ds: Dataset) -> None:
        if ds.name in done:
            return
        for dep in ds.dependencies():
            visit(instance(dep))
        done.add(ds.name)
        out.append(ds)

    for ds in roots:
        visit(ds)
    stray = sorted(set(params) - done)
    if stray:
        raise DatasetError(f"--param for {stray[0]!r}, which is not being built (nor read by what is)")
    return out


class PlannedInputs:
    """The inputs of a run's datasets: a dataset asks for its input by recipe (``Matchups()``) and gets the
    one the run planned under that name, with the parameters the run gave it."""

    def __init__(self, reader: Reader, planned: Sequence[Dataset]) -> None:
        self.reader, self.planned = reader, {ds.name: ds for ds in planned}

    @property
    def location(self) -> str:
        return self.reader.storage.location

    def read(self, ds: Dataset, columns: list[str] | None = None) -> pa.Table:
        return self.reader.read(self.planned.get(ds.name, ds), columns)

    def parts(self, ds: Dataset, columns: list[str] | None = None) -> Iterator[pa.Table]:
        return self.reader.parts(self.planned.get(ds.name, ds), columns)


def open_storage(out: str | os.PathLike[str]) -> Storage:
    """The output location ``out`` (DatasetError if it cannot be used)."""
    try:
        return Storage.open(out)
    except StorageError as e:
        raise DatasetError(str(e)) from None


def refuse_too_long(storage: Storage, planned: Sequence[Dataset], forced: set[str], session: Session,
                    max_seconds: float = MAX_WORK_SECONDS) -> None:
    """:class:`~pipeline.core.budget.TooMuchWork` when the datasets of ``planned`` still to build (not
    finished at ``storage``, or ``forced``) take beyond ``max_seconds`` (a day) on the session's local
    workers by their own low estimates (:meth:`~pipeline.batch.spec.Dataset.seconds`); a cluster's size is
    not known before it is reached, so a run on one is judged at the workers this machine has."""
    todo = [ds for ds in planned if ds.seconds() > 0
            and (ds.name in forced or check_manifest(read_manifest(storage, ds.name), ds, ds.planned_parts()))]
    if not todo:
        return
    workers = max(1, session.workers or available_cores())
    refuse_beyond(sum(ds.seconds() for ds in todo) / workers,
                  f"building {', '.join(ds.name for ds in todo)} on {workers} worker{'s' if workers > 1 else ''}",
                  "smaller parameters (fewer trials or hands), or more workers", max_seconds)


def samples(planned: Sequence[Dataset], storage: Storage, inputs: Inputs,
            forced: set[str]) -> list[tuple[Dataset, Any]]:
    """A ``(dataset, sample)`` pair (:meth:`~pipeline.batch.spec.Dataset.prepare`: the first piece of its first
    partition) for each dataset of ``planned`` still to compute (unfinished at ``storage``, or ``forced``) whose
    inputs are finished: what the run's local cluster prepares in the process its workers fork from, whichever
    dataset starts it (:func:`pipeline.batch.runner.run_dataset`).  The cluster starts once for the whole run, and
    only its first dataset was listed: every worker prepared each later one for itself, compiling its kernels
    on a fresh kernel cache (tests/datasets/test_folder_readers.py's 18 datasets on 2 workers: 310 -> 292 s of
    CPU with this alone, AMD EPYC Zen 1).  A dataset whose inputs this run builds first cannot be sampled yet
    (each worker still prepares it, as on a cluster of separately started workers), and one whose partitions
    cannot be listed here is left to its run (which reports why)."""
    todo = {ds.name for ds in planned
            if ds.name in forced or check_manifest(read_manifest(storage, ds.name), ds, ds.planned_parts())}
    pairs = []
    for ds in planned:
        if ds.name not in todo or any(d.name in todo for d in ds.dependencies()):
            continue
        try:
            partitions = list(ds.partitions(inputs))
            pieces = ds.pieces(partitions[0]) if partitions else []
        except Exception:                  # noqa: BLE001 - its own run lists them again, and says what is wrong
            continue
        if len(pieces):
            pairs.append((ds, pieces[0]))
    return pairs


def build_many(targets: Iterable[str | Dataset], out: str | os.PathLike[str], session: Session,
               force: bool = False, write_catalog: bool = True,
               params: Mapping[str, Mapping[str, Any]] | None = None,
               max_seconds: float = MAX_WORK_SECONDS) -> list[RunReport]:
    """Build ``targets`` (names or datasets) and their dependencies in order on one session.

    ``params`` gives parameters by dataset name, for targets named as text and
    for the datasets they read (:func:`plan`).
    ``force`` recomputes the named targets (not their dependencies).  A finished
    dataset is checked against its manifest and skipped.  With ``write_catalog``,
    ``<out>/_catalog.json`` records each dataset's parameters, rows, bytes,
    seconds and manifest.  Work estimated beyond ``max_seconds`` (a day) is refused before any starts
    (:func:`refuse_too_long`); a caller that asked the user for longer passes a larger one.
    """
    from ..batch.runner import run_dataset  # here, not with the module: a worker reading inputs needs no runner

    storage = open_storage(out)
    targets = list(targets)
    planned = plan(targets, params)
    if write_catalog:                       # a folder or FIFO where the catalog goes: one line before any work
        storage.check("file", CATALOG)
    forced = {t.name if isinstance(t, Dataset) else t for t in targets} if force else set()
    refuse_too_long(storage, planned, forced, session, max_seconds)
    inputs = PlannedInputs(Reader(storage), planned)
    reports = []
    session.progress.plan(sum(ds.planned_parts() for ds in planned), len(planned))
    prepare = samples(planned, storage, inputs, forced) if len(planned) > 1 else []
    for ds in planned:
        reports.append(run_dataset(ds, storage, session, inputs, force=ds.name in forced, prepare=prepare))
    if write_catalog:
        update_catalog(storage, reports)
    return reports


def build(name: str | Dataset, out: str | os.PathLike[str], *, workers: int | None = None,
          scheduler: str | None = None, quiet: bool = True, force: bool = False,
          max_seconds: float = MAX_WORK_SECONDS, **params: Any) -> RunReport:
    """Build one dataset (and what it reads) under ``out``; the report of ``name``'s run.  Work estimated
    beyond ``max_seconds`` is refused (:func:`build_many`; a dataset's own ``limit`` parameter is a param)."""
    from ..batch.session import Session

    ds = _resolve(name, params)
    with Session(workers, scheduler, quiet) as session:
        return build_many([ds], out, session, force=force, write_catalog=False, max_seconds=max_seconds)[-1]


def read(name: str | Dataset, out: str | os.PathLike[str], columns: list[str] | None = None,
         **params: Any) -> pa.Table:
    """A finished dataset as one pyarrow Table, every part verified (DatasetError if not)."""
    return Reader(open_storage(out)).read(_resolve(name, params), columns)


def is_built(name: str | Dataset, out: str | os.PathLike[str], **params: Any) -> dict | None:
    """The manifest of a finished ``name`` with these parameters under ``out``, else None (also when the
    manifest is damaged or cut short: its figures are checked, the parts' bytes only by :func:`read`)."""
    ds = _resolve(name, params)
    manifest = read_manifest(open_storage(out), ds.name)
    if not manifest_matches(manifest, ds) or check_manifest(manifest, ds, ds.planned_parts()) is not None:
        return None
    return manifest


def catalog(out: str | os.PathLike[str]) -> dict:
    """``<out>/_catalog.json`` (``{"datasets": []}`` when there is none, or it is damaged: it is only an index,
    rewritten by the next ``tables`` run; each dataset's manifest is the record that counts)."""
    try:
        doc = parse_json(open_storage(out).read_bytes(CATALOG), CATALOG)
    except (OSError, InputError):
        return {"datasets": []}
    if not isinstance(doc, dict) or not isinstance(doc.get("datasets"), list):
        return {"datasets": []}
    entries = [e for e in doc["datasets"] if isinstance(e, dict) and isinstance(e.get("dataset"), str)]
    return {**doc, "datasets": entries}


def update_catalog(storage: Storage, reports: list[RunReport]) -> None:
    """Record ``reports`` in ``<out>/_catalog.json``, keeping entries of other datasets."""
    doc = catalog(storage.location)
    entries = {e["dataset"]: e for e in doc["datasets"]}
    for r in reports:
        entries[r.name] = {
            "dataset": r.name,
            "parameters": r.manifest.get("parameters"),
            "rows": r.rows,
            "bytes": r.bytes,
            "seconds": r.manifest.get("seconds") if r.computed == 0 else round(r.seconds, 3),
            "manifest": "/".join(manifest_path(r.name)),
        }
    doc = {"datasets": sorted(entries.values(), key=lambda e: str(e["dataset"])),
           "updated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    storage.write_atomic((json.dumps(doc, indent=1) + "\n").encode(), CATALOG)


# re-exported for callers that catch errors of a whole build
BuildError = (DatasetError, RunnerError, StorageError, ValueError)
