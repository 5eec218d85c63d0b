"""The batch runner: a dataset's partitions on Dask, one atomic Parquet part each, resumable.

:func:`run_dataset` builds a :class:`~pipeline.batch.spec.Dataset` into
``<out>/<name>/``: ``part-NNNNN.parquet`` for partition N and nothing else,
so that any Parquet reader opens the folder as the dataset's table.  Beside
it, ``<out>/<name>.meta/`` (the layout is :mod:`.verified`'s) holds each
part's checksum record ``_checksums/part-NNNNN.parquet.json`` (the part's
identity — dataset, part index, the parameters' digest — bound to its
SHA-256, rows and bytes), the side outputs, the writer's ``_lock``, and last
``_manifest.json`` (parameters, version, and one entry per part, in order,
each naming its own file, with its rows, bytes and SHA-256, the total rows,
and the side outputs).  ``<out>`` is a local folder or an object-store URL
(:mod:`.storage`).

* **Workers write.**  Each Dask worker writes its own parts straight to the
  output and returns only (rows, bytes, SHA-256), the tasks' timings
  (:mod:`.trace`) and, for a dataset that folds its side outputs, the part's
  few side columns: bytes cross the network once, and a cluster with no
  shared disk can write to a bucket (:mod:`.parts`).
* **Every core busy to the end.**  A partition whose work comes in pieces is
  computed as one task per piece, combined into its part by one more; tasks
  are sent costly first, so that short ones fill the end of the run.
* **Side outputs folded in.**  A dataset whose side outputs need a few
  columns of each part (:attr:`~.spec.Dataset.side_columns`) gets them with
  each part as it comes back, and the kept parts' on a resume
  (:meth:`~.spec.Dataset.side_fold`): after the last part only the files are
  left to write.  Other side outputs are made by a worker from the parts.
* **Resume.**  A part is kept only if its bytes hash to the SHA-256 recorded
  for this dataset, its parameters and this very part index — in the finished
  manifest or, after a crash, in the part's own checksum record, written when
  the part was — and its rows, counted from those bytes, are the partition's.
  Anything else is recomputed.  A manifest is a finished run only if it lists
  exactly the dataset's parts and its figures agree with the verified parts
  (:func:`check_manifest`); otherwise it is written again.  ``force``
  recomputes every part (replacing each as its new bytes arrive; nothing is
  deleted before the cluster is reached).
* **One writer.**  A ``_lock`` file (pid, host) refuses a second run on the
  same dataset while the first is alive.
* **Hive folders.**  A dataset with a partition key (:mod:`.hive`) has its
  parts in ``<key>=<value>/`` folders, named so in the manifest and records
  (``opponents=3/part-00002.parquet``); a part is kept only where its
  partition's value puts it.
* **Nothing half-written among the parts.**  A part is written in
  ``<name>.meta/_writing/`` and renamed into place; what a killed write left
  there is removed by the next run.
* **Older layouts.**  A folder built when the manifest, records and side
  outputs lay among the parts, or when a dataset now partitioned Hive-style
  had its parts flat, is carried over (:mod:`.migrate`): records move beside
  the parts, flat parts are rewritten into their key's folder after the same
  checks as any kept part, and what the old layout left leaves the parts
  folder once the run has reached its cluster.
* **Determinism.**  A part's bytes depend on its partition alone (see
  :mod:`.parquet`), pieces or not, so worker count, scheduler and resume
  history never change the output.
* **Failures.**  Dask reschedules the tasks of a worker that dies; an
  interrupt (Ctrl-C, SIGTERM) cancels what is running and leaves finished
  parts and no manifest, ready to resume.
"""
from __future__ import annotations

import contextlib
import functools
import json
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from typing import Any

from ..core.arrow import widened
from ..core.errors import InputError
from ..core.files import is_temporary
from ..core.version import __version__
from . import hive
from .errors import Interrupted, RunnerError
from .fanout import succeeded
from .manifest import check_manifest, read_manifest
from .migrate import carry_flat_parts, carry_records
from .parquet import part_rows, sha256
from .parts import (
    SideOutputError,
    build_parts,
    compute_piece,
    params_digest,
    part_name,
    read_parts,
    recorded_sha,
    write_part,
    write_side_outputs,
    written_side_outputs,
)
from .session import Session
from .sigint import signal_handled
from .spec import Dataset, SideFold
from .storage import LOCK, Storage, StorageError, check_name  # noqa: F401  (re-exported)
from .trace import RunTrace
from .verified import (  # noqa: F401  (re-exported: the layout is verified.py's)
    CHECKSUMS,
    MANIFEST,
    damaged_side_output,
    document,
    file_record,
    is_count,
    is_sha256,
    legacy_paths,
    manifest_path,
    meta_folder,
    part_path,
    parts_folder,
    record_path,
    records_folder,
    side_entries,
    side_path,
    staging_folder,
)

MAX_TASKS = 512          # whole partitions are grouped into at most this many Dask tasks


@dataclass
class RunReport:
    """What one dataset's run did."""

    name: str
    location: str        # the dataset's folder or URL
    parts: int           # parts in the dataset
    computed: int        # parts computed by this run (the rest were kept)
    rows: int            # rows in the dataset
    bytes: int           # bytes of its parts
    seconds: float       # wall time of this run
    manifest: dict = field(default_factory=dict)
    trace: RunTrace = field(default_factory=RunTrace)   # where the time went (:mod:`.trace`)


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt for the duration (main thread only)."""
    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt
    with signal_handled(signal.SIGTERM, handler):
        yield


def _recorded(storage: Storage, dataset: Dataset, index: int, file: str, manifest: dict | None,
              digest: str) -> str | None:
    """The SHA-256 part ``index`` must have: from the finished manifest, else from its checksum record if
    that names this dataset, this part index, these parameters and this ``file``."""
    if manifest is not None:
        return str(manifest["parts"][index]["sha256"])
    return recorded_sha(document(storage, *record_path(dataset.name, part_name(index))), dataset.name, index,
                        digest, file)


def _present(storage: Storage, name: str, files: list[str]) -> set[str]:
    """Which of ``files`` (inside dataset ``name``'s folder) are there, listing each folder they lie in once."""
    found: set[str] = set()
    for folder in {f.rpartition("/")[0] for f in files}:
        inside = folder.split("/") if folder else []
        found.update("/".join([*inside, f]) for f in storage.files(*parts_folder(name), *inside))
    return found & set(files)


def _valid_parts(storage: Storage, dataset: Dataset, partitions: list, files: list[str], force: bool,
                 manifest: dict | None) -> dict[int, tuple[int, int, str]]:
    """Parts that can be kept, by index, with (rows, bytes, SHA-256): they lie at ``files[i]``, their bytes
    hash to the SHA-256 bound to their index, and are a Parquet file of this dataset with the partition's
    rows (counted from them)."""
    keep: dict[int, tuple[int, int, str]] = {}
    if force:
        return keep
    present = _present(storage, dataset.name, files)
    schema = hive.file_schema(dataset)
    digest = params_digest(dataset)
    for i, partition in enumerate(partitions):
        if files[i] not in present:
            continue
        want = _recorded(storage, dataset, i, files[i], manifest, digest)
        if want is None:
            continue
        try:
            data = storage.read_bytes(*part_path(dataset.name, files[i]))
        except (OSError, StorageError):      # unreadable, or not a regular file: computed again
            continue
        if sha256(data) == want:
            rows = part_rows(data, schema, dataset.rows(partition))
            if rows is not None:
                keep[i] = (rows, len(data), want)
    return keep


def _agrees(manifest: dict, parts: dict[int, tuple[int, int, str]]) -> bool:
    """Whether every entry of a well-formed manifest has the rows, bytes and SHA-256 of the verified part."""
    return len(parts) == len(manifest["parts"]) and all(
        (e["rows"], e["bytes"], e["sha256"]) == parts.get(i) for i, e in enumerate(manifest["parts"]))


def _clean(storage: Storage, dataset: Dataset, files: list[str]) -> None:
    """Remove unfinished writes left among the parts (where they went before the staging folder), parts that
    are not where this run's partitions put them (other parameters; the flat files of a layout now Hive), key
    folders left empty, and what an older layout left among the parts (its manifest, records and side
    outputs), so that the folder holds parts only.  Folders that are not this dataset's key's are left."""
    wanted, names = set(files), {part_name(i) for i in range(len(files))}
    folder = parts_folder(dataset.name)
    old_manifest, old_records = legacy_paths(dataset.name)
    for f in storage.files(*folder):
        if (is_temporary(f) or (f.startswith("part-") and f not in wanted)
                or f == old_manifest[-1] or f in dataset.side_output_names):
            storage.remove(*folder, f)
    key = hive.key_of(dataset)
    for sub in [] if key is None else [s for s in storage.folders(*folder) if s.startswith(key + "=")]:
        for f in storage.files(*folder, sub):
            if is_temporary(f) or (f.startswith("part-") and f"{sub}/{f}" not in wanted):
                storage.remove(*folder, sub, f)
        if not any(storage.files(*folder, sub)) and not any(storage.folders(*folder, sub)):
            storage.remove_tree(*folder, sub)
    if storage.kind(*old_records) is not None:
        storage.remove_tree(*old_records)
    for f in storage.files(*records_folder(dataset.name)):
        if f.startswith(".") or f[:-len(".json")] not in names:
            storage.remove(*records_folder(dataset.name), f)


def _failure(name: str, e: BaseException) -> RunnerError:
    """One line for a run that a worker, the disk or the scheduler broke."""
    kind = type(e).__name__
    if isinstance(e, StorageError):
        return RunnerError(f"{name}: {e}")
    if isinstance(e, SideOutputError):
        return RunnerError(str(e))
    if kind in ("KilledWorker", "WorkerDied"):
        return RunnerError(f"{name}: a partition killed its worker repeatedly ({e}); "
                           "finished parts are kept: rerun to resume")
    if isinstance(e, OSError):
        return RunnerError(f"{name}: cannot write a part: {e.strerror or e}; finished parts are kept: rerun to resume")
    if kind in ("CancelledError", "FutureCancelledError", "CommClosedError", "TimeoutError"):
        return RunnerError(f"{name}: lost the Dask scheduler ({kind}); finished parts are kept: rerun to resume")
    return RunnerError(f"{name}: a partition failed: {kind}: {e}")


def run_dataset(dataset: Dataset, storage: Storage, session: Session, inputs: Any, force: bool = False,
                prepare: Sequence[tuple[Dataset, Any]] = ()) -> RunReport:
    """Compute every missing part of ``dataset`` in ``storage`` and write its manifest.

    ``inputs`` reads the datasets it depends on (already built).  ``prepare``: ``(dataset, sample)`` pairs of the
    other datasets of the run, prepared beside this one where this run starts the local cluster
    (:meth:`.session.Session.connect`), so that its workers find them loaded too.
    """
    start = time.time()
    name = check_name(dataset.name)
    try:
        storage.makedirs(*parts_folder(name))
        storage.makedirs(*records_folder(name))
        storage.check("file", *manifest_path(name))   # a folder or FIFO there: one line before any work
    except OSError as e:
        raise RunnerError(f"cannot write to output folder {storage.url(name)}: {e.strerror or e}") from None
    except StorageError as e:
        raise RunnerError(str(e)) from None
    for folder in (parts_folder(name), meta_folder(name), records_folder(name), staging_folder(name),
                   legacy_paths(name)[1]):
        storage.refuse_links(*folder)        # nothing is read, written or deleted through a link
    for sub in list(storage.folders(*parts_folder(name))):
        storage.path(*parts_folder(name), sub)   # a key folder that is a link: refused, as a file would be
        storage.refuse_links(*parts_folder(name), sub)
    try:
        with storage.lock(*meta_folder(name)):
            return _run_locked(dataset, storage, session, inputs, force, start, prepare)
    except (StorageError, OSError) as e:
        raise RunnerError(f"{name}: {getattr(e, 'strerror', None) or e}") from None


def _run_locked(dataset: Dataset, storage: Storage, session: Session, inputs: Any, force: bool,
                start: float, prepare: Sequence[tuple[Dataset, Any]] = ()) -> RunReport:
    name = dataset.name
    moments = RunTrace(started=start)
    partitions = list(dataset.partitions(inputs))
    try:
        files = [hive.file_of(dataset, i, p) for i, p in enumerate(partitions)]
    except ValueError as e:
        raise RunnerError(str(e)) from None
    storage.remove_tree(*staging_folder(name))    # what a killed write left (this run holds the lock)
    carry_records(storage, dataset)
    if not force:
        carry_flat_parts(storage, dataset, partitions, files)
    manifest = read_manifest(storage, name)
    manifest = manifest if check_manifest(manifest, dataset, len(partitions), files) is None else None
    parts = _valid_parts(storage, dataset, partitions, files, force, manifest)
    todo = [i for i in range(len(partitions)) if i not in parts]
    computed = 0
    if not todo and manifest is not None and _agrees(manifest, parts):
        damaged = damaged_side_output(storage, name, manifest, dataset.side_output_names)
        if damaged is None:
            session.progress.skip(len(partitions))
            moments.finished = time.time()
            return RunReport(name, storage.url(*parts_folder(name)), len(partitions), 0,
                             sum(p[0] for p in parts.values()),
                             sum(p[1] for p in parts.values()), time.time() - start, manifest, moments)
        print(f"pokerpipe: {storage.url(*side_path(name, damaged))} is missing or differs from its manifest; "
              "writing it again", file=sys.stderr)
    for i in todo:                                # a folder or FIFO where a part goes: one line, no cluster
        storage.check("file", *part_path(name, files[i]))
    if todo:
        reached = time.time()
        session.connect([(dataset, dataset.pieces(partitions[todo[0]])[0]),     # before touching anything
                         *[(ds, sample) for ds, sample in prepare if ds.name != dataset.name]])
        moments.connected = time.time()
        moments.cluster_seconds = moments.connected - reached
    storage.remove(*manifest_path(name))          # from here on the dataset is unfinished
    _clean(storage, dataset, files)
    for folder in sorted({files[i].rpartition("/")[0] for i in todo} - {""}):
        storage.makedirs(*parts_folder(name), folder)
    fold = dataset.side_fold(inputs) if dataset.side_output_names and dataset.side_columns else None
    if todo:
        session.progress.dataset(name, len(partitions), len(parts))
        try:
            with _sigterm_as_interrupt():
                computed = _compute(dataset, storage, session, partitions, files, todo, parts, moments, fold)
        except KeyboardInterrupt:
            raise Interrupted(f"{name}: interrupted with {len(parts)} of {len(partitions)} "
                              f"parts done; run the same command again to resume") from None
    side = _side_outputs(dataset, storage, inputs, files, session, moments, fold, set(todo))
    doc: dict[str, Any] = {
        "job": name,
        "parameters": dataset.params,
        "version": __version__,
        "parts": [{"file": files[i], "rows": parts[i][0], "bytes": parts[i][1], "sha256": parts[i][2]}
                  for i in range(len(partitions))],
        "side_outputs": side,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": round(time.time() - start, 3),
        "computed_parts": computed,
    }
    doc["rows"] = sum(p["rows"] for p in doc["parts"])
    storage.remove_tree(*staging_folder(name))    # emptied by the renames: a finished run leaves none
    storage.write_atomic((json.dumps(doc, indent=1) + "\n").encode(), *manifest_path(name), sync=True)
    moments.finished = time.time()
    return RunReport(name, storage.url(*parts_folder(name)), len(partitions), computed, doc["rows"],
                     sum(p["bytes"] for p in doc["parts"]), time.time() - start, doc, moments)


def _compute(dataset: Dataset, storage: Storage, session: Session, partitions: list, files: list[str],
             todo: list[int], parts: dict[int, tuple[int, int, str]], moments: RunTrace,
             fold: SideFold | None) -> int:
    """Run the missing partitions on the cluster; fill ``parts`` (and ``moments``' task timings); add each
    part's side columns to ``fold`` as the part comes back; return how many were computed.

    Each missing part is one task, or — when its partition comes in several
    pieces (:meth:`Dataset.pieces`) — one task per piece and one that combines
    and writes them once they are done: on Dask at once (a higher priority); on
    a local pool held while pieces are ready, up to one write per worker
    (:mod:`.ready`), so that the run ends on writes that can all run rather
    than on those waiting for the last pieces.  Work is sent costly first
    (:meth:`Dataset.cost`), so that the end of the run is filled with short
    tasks and no worker idles while another finishes a long one; which task
    runs where never changes the bytes.
    """
    units: list[tuple[float, int, list[int], list]] = []   # (cost, order, parts, pieces of the one split part)
    whole = []                                   # parts computed in one task (grouped when there are many)
    for i in todo:
        pieces = list(dataset.pieces(partitions[i]))
        if len(pieces) > 1:
            units.append((sum(dataset.cost(p) for p in pieces), i, [i], pieces))
        else:
            whole.append(i)
    size = -(-len(whole) // MAX_TASKS) if whole else 1
    for k in range(0, len(whole), size):
        group = whole[k:k + size]
        units.append((sum(dataset.cost(partitions[i]) for i in group), group[0], group, []))
    units.sort(key=lambda u: (-u[0], u[1]))       # costly first; else in part order
    moments.first_sent, moments.sent_cpu = time.time(), time.process_time()
    location, shown = storage.location, storage.shown
    pending = set()
    shares: dict[int, float] = {}                 # a split part: what its pieces add to the bar until it is written
    for _, _, group, pieces in units:
        if not pieces:
            pending.add(session.submit(build_parts, dataset, [(i, partitions[i], files[i]) for i in group], location,
                                       shown))
        else:
            done = [session.submit(compute_piece, dataset, group[0], n, p) for n, p in enumerate(pieces)]
            share = 1.0 / (len(pieces) + 1)           # of the part, on the progress bar: each piece, then the write
            for d in done:
                d.add_done_callback(functools.partial(_piece_back, session.progress, share))
            shares[group[0]] = share * len(pieces)
            pending.add(session.submit(write_part, dataset, group[0], files[group[0]], location, shown, *done,
                                       priority=1, hold=True))
    computed = 0
    try:
        for future in session.completed(pending):
            pending.discard(future)
            if future.cancelled():
                raise _failure(dataset.name, CancelledError())
            error = future.exception()
            if error is not None:
                raise _failure(dataset.name, error)
            built, timings, side = future.result()
            moments.last_back, moments.back_cpu = time.time(), time.process_time()
            moments.parts += timings
            for i, rows, nbytes, sha in built:
                if storage.size(*part_path(dataset.name, files[i])) != nbytes:
                    raise RunnerError(f"{dataset.name}: a worker wrote {part_name(i)} but it is not at "
                                      f"{storage.url(*parts_folder(dataset.name))}; workers on other machines need "
                                      "a shared folder or an object-store URL for --out")
                parts[i] = (rows, nbytes, sha)
                computed += 1
            if fold is not None:
                with _folding(dataset.name):
                    for columns in side.values():
                        fold.add(widened(columns, dataset.schema))
            session.progress.advance(len(built), sum(shares.get(i, 0.0) for i, *_ in built))
    except BaseException as e:
        for future in pending:
            future.cancel()
        session.progress.abandon()                # the bar's last frame: the parts written, as the message says
        if isinstance(e, (KeyboardInterrupt, RunnerError)):
            raise
        raise _failure(dataset.name, e) from None
    return computed




def _piece_back(progress: Any, share: float, future: Any) -> None:
    """A piece's future ended: its share of its part on the progress bar if it computed its piece (a failed or
    cancelled one adds nothing: it fails the run, or the run was abandoned)."""
    if succeeded(future):
        progress.piece(share)


@contextlib.contextmanager
def _folding(name: str) -> Iterator[None]:
    """Within the block, a side fold's own failure (this process's work, not a worker's) is one line naming
    the side outputs; a user's error, the storage's and an interrupt pass as they are."""
    try:
        yield
    except (InputError, StorageError, OSError, RunnerError, SideOutputError):
        raise
    except Exception as e:                        # noqa: BLE001 - one line, not a traceback
        raise RunnerError(f"{name}: cannot make the side outputs: {type(e).__name__}: {e}") from None


def _side_outputs(dataset: Dataset, storage: Storage, inputs: Any, files: list[str], session: Session,
                  moments: RunTrace, fold: SideFold | None, computed: set[int]) -> list[dict]:
    """Write the dataset's side outputs; their names, sizes and SHA-256 for the manifest.  A dataset's side
    fold has the side columns of the parts this run ``computed`` (each came back with its part): the kept
    parts' are read here, and the fold gives the files.  Otherwise, with a cluster at hand, they are made by a worker
    (:func:`~.parts.write_side_outputs`: it reads the parts where they lie); else here."""
    if not dataset.side_output_names:
        return []
    started = time.time()
    try:
        if fold is not None:
            kept = [files[i] for i in range(len(files)) if i not in computed]
            with _folding(dataset.name):
                if kept:
                    fold.add(read_parts(storage, dataset, kept, list(dataset.side_columns)))
                made = fold.outputs()
            out = written_side_outputs(dataset, storage, made)
        elif session.connected:
            future = session.submit(write_side_outputs, dataset, storage.location, storage.shown, inputs, files)
            for done in session.completed([future]):
                error = done.exception()
                if error is not None:
                    raise _failure(dataset.name, error)
                out = done.result()
        else:
            out = write_side_outputs(dataset, storage.location, storage.shown, inputs, files)
    except SideOutputError as e:
        raise RunnerError(str(e)) from None
    moments.side_outputs = time.time() - started
    return out
