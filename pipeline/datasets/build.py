"""Building and reading datasets: dependencies first, every part verified, a catalog of what was built.

``build(name, out, **params)`` builds a dataset (its dependencies first) into
``<out>/<name>/`` — ``out`` a local folder or an object-store URL — resuming
whatever is already there; ``read(name, out)`` returns a finished dataset as a
pyarrow Table after checking every part against its manifest's SHA-256.
``build_many`` runs several on one cluster and writes ``<out>/_catalog.json``.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..batch.parquet import sha256
from ..batch.runner import (
    MANIFEST,
    RunnerError,
    RunReport,
    check_manifest,
    manifest_matches,
    part_name,
    read_manifest,
    run_dataset,
)
from ..batch.session import Session
from ..batch.spec import Dataset
from ..batch.storage import Storage, StorageError
from ..core.errors import InputError
from ..core.inputs import parse_json, shown
from .registry import DatasetError, dataset

CATALOG = "_catalog.json"


class Reader:
    """Reads finished datasets of one output location, verifying every part's SHA-256."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def read(self, ds: Dataset, columns: list[str] | None = None) -> pa.Table:
        manifest = read_manifest(self.storage, ds.name)
        where = self.storage.url(ds.name)
        if manifest is None:
            raise DatasetError(f"{ds.name} is not built at {where} (no readable {MANIFEST})")
        if not manifest_matches(manifest, ds):
            raise DatasetError(f"{ds.name} at {where} was built with other parameters or version: "
                               f"{shown(manifest.get('parameters'))}")
        problem = check_manifest(manifest, ds, ds.planned_parts())
        if problem is not None:
            raise DatasetError(f"{ds.name} at {where} is not a finished run ({problem}); "
                               "build it again to repair it")
        schema = ds.full_schema
        tables = []
        for i, p in enumerate(manifest["parts"]):
            table = None
            try:
                data = self.storage.read_bytes(ds.name, p["file"])
                if sha256(data) == p["sha256"]:
                    part = pq.ParquetFile(pa.BufferReader(data))
                    if part.schema_arrow.equals(schema, check_metadata=True) and part.metadata.num_rows == p["rows"]:
                        table = part.read(columns=columns)
            except (OSError, ValueError, pa.ArrowException):
                table = None
            if table is None:
                raise DatasetError(f"{ds.name}: {part_name(i)} at {where} is missing or damaged "
                                   "(SHA-256 or rows differ from the manifest); build it again to repair it")
            tables.append(table)
        return pa.concat_tables(tables) if tables else ds.schema.empty_table()


def _resolve(item: str | Dataset, params: dict[str, Any]) -> Dataset:
    return item if isinstance(item, Dataset) else dataset(item, **params)


def _order(targets: Sequence[Dataset]) -> list[Dataset]:
    """``targets`` with their dependencies, each once, dependencies first."""
    out: list[Dataset] = []
    seen: set[tuple[str, str]] = set()

    def visit(ds: Dataset) -> None:
        key = (ds.name, json.dumps(ds.params, sort_keys=True))
        if key in seen:
            return
        for dep in ds.dependencies():
            visit(dep)
        seen.add(key)
        out.append(ds)

    for t in targets:
        visit(t)
    return out


def open_storage(out: str | os.PathLike[str]) -> Storage:
    """The output location ``out`` (DatasetError if it cannot be used)."""
    try:
        return Storage.open(out)
    except StorageError as e:
        raise DatasetError(str(e)) from None


def build_many(targets: Iterable[str | Dataset], out: str | os.PathLike[str], session: Session,
               force: bool = False, write_catalog: bool = True) -> list[RunReport]:
    """Build ``targets`` (names or datasets) and their dependencies in order on one session.

    ``force`` recomputes the named targets (not their dependencies).  A finished
    dataset is checked against its manifest and skipped.  With ``write_catalog``,
    ``<out>/_catalog.json`` records each dataset's parameters, rows, bytes,
    seconds and manifest.
    """
    storage = open_storage(out)
    wanted = [_resolve(t, {}) for t in targets]
    forced = {id(t) for t in wanted} if force else set()
    plan = _order(wanted)
    reader = Reader(storage)
    reports = []
    session.progress.plan(sum(ds.planned_parts() for ds in plan), len(plan))
    for ds in plan:
        reports.append(run_dataset(ds, storage, session, reader, force=id(ds) in forced))
    if write_catalog:
        update_catalog(storage, reports)
    return reports


def build(name: str | Dataset, out: str | os.PathLike[str], *, workers: int | None = None,
          scheduler: str | None = None, quiet: bool = True, force: bool = False, **params: Any) -> RunReport:
    """Build one dataset (and what it reads) under ``out``; the report of ``name``'s run."""
    ds = _resolve(name, params)
    with Session(workers, scheduler, quiet) as session:
        return build_many([ds], out, session, force=force, write_catalog=False)[-1]


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
            "manifest": f"{r.name}/{MANIFEST}",
        }
    doc = {"datasets": sorted(entries.values(), key=lambda e: str(e["dataset"])),
           "updated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    storage.write_atomic((json.dumps(doc, indent=1) + "\n").encode(), CATALOG)


# re-exported for callers that catch errors of a whole build
BuildError = (DatasetError, RunnerError, StorageError, ValueError)
