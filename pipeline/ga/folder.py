"""The evolution's folder, ``<out>/evolve/``: its files, one writer, a commit a generation, verified reads.

Files: ``generations/gen-NNNNN.parquet`` (:data:`INDIVIDUAL_SCHEMA`, one row per
evaluated individual), ``progress.parquet`` (:data:`PROGRESS_SCHEMA`, one row
per generation), ``best/gen-NNNNN.json`` (each generation's best as a player
file, so any point of the curve can be re-measured at length), the checkpoint
(:mod:`.checkpoint`: ``checkpoint.json`` and the arrays it names), and at the
end ``final-player.json``, ``trainers/trainer-K.json`` and ``summary.json``.

How the folder is written:

* **One writer.**  The run holds the folder's writer lock
  (:meth:`~pipeline.core.files.Files.lock`, :func:`writing`) from before it
  reads the checkpoint to after its last write; a second run into the same
  folder is refused while the first lives.
* **One commit per generation.**  Every file is written atomically and its
  SHA-256 recorded (:func:`write`); the checkpoint, written last
  (:func:`commit`), is the commit: it names every file of the generations it
  holds (the final files included, once the run is finished), and what is
  read back later is checked against it (:func:`read_parquet`,
  :func:`load_player`, :func:`best_of`).
* **Nothing deleted first.**  Starting over (``force``) deletes nothing up
  front: the new run writes its files over the old run's as it goes, and
  removes the old run's other files only once its own first generation is
  committed (:func:`sweep`).  Until then the old checkpoint stands (a file
  the new run has already replaced no longer matches it, and is refused when
  read).
* **Write errors are one line.**  A folder that cannot be written (read-only,
  a file in the way, a full disk) raises :class:`EvolveError` naming the
  path; the last committed generation stays whole, and the same run resumes
  from it.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
from collections.abc import Iterable, Iterator
from typing import Any, Optional

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..core.errors import InputError
from ..core.files import Files
from ..holdem.player import Player
from . import checkpoint
from .config import Config
from .operators import newborns

FOLDER = "evolve"          # the evolution's files, under the output folder
FINAL_PLAYER = "final-player.json"
SUBFOLDERS = ("generations", "best", "trainers")


INDIVIDUAL_SCHEMA = pa.schema([
    ("generation", pa.int32()), ("phase", pa.int8()), ("individual", pa.int64()),
    ("fitness", pa.float64()),          # BB/100 against the trainers
    ("stderr", pa.float64()),           # its standard error (over deals)
    ("hands", pa.int64()), ("units", pa.int64()),
    ("used_share", pa.float64()),       # share of the chromosome's genes it has consulted
    ("operator", pa.string()),          # birth, parent, or the crossover that made it ('' if only mutated)
    ("mutated", pa.bool_()), ("parent_a", pa.int64()), ("parent_b", pa.int64()),
    ("survived", pa.bool_()),
])
PROGRESS_SCHEMA = pa.schema([
    ("generation", pa.int32()), ("phase", pa.int8()), ("operator", pa.string()),
    ("evaluated", pa.int32()), ("best", pa.int64()), ("best_fitness", pa.float64()),
    ("best_stderr", pa.float64()), ("mean_fitness", pa.float64()), ("best_used_share", pa.float64()),
    ("best_trainer_fitness", pa.float64()),     # the best trainer's BB/100 in this generation's matches
    ("trainer_in", pa.int64()), ("trainer_out", pa.int64()),   # -1: no replacement
    ("yardstick_bb100", pa.float64()), ("yardstick_stderr", pa.float64()),
])


class EvolveError(InputError):
    """The output folder holds an evolution that cannot be continued (other parameters)."""


def _reason(e: OSError) -> str:
    """What went wrong with a file operation, in a few words (pyarrow's messages can span lines)."""
    text = getattr(e, "strerror", None) or str(e) or type(e).__name__
    return text.splitlines()[0] if text.strip() else type(e).__name__


def _cannot_write(files: Files, e: OSError, *parts: str) -> EvolveError:
    return EvolveError(f"cannot write {files.url(FOLDER, *parts)}: {_reason(e)}")


@contextlib.contextmanager
def writing(files: Files) -> Iterator[None]:
    """Hold the writer lock of ``<files>/evolve/`` (made if missing) for the block: one evolution writes a
    folder at a time.  A folder that cannot be made or written raises :class:`EvolveError`; one another
    live run holds, the storage's own input error (a :class:`~pipeline.core.errors.InputError`)."""
    try:
        files.makedirs(FOLDER)
    except OSError as e:
        raise _cannot_write(files, e) from None
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(files.lock(FOLDER))
        except OSError as e:
            raise _cannot_write(files, e) from None
        yield


def make_folders(files: Files) -> None:
    """Make the subfolders of ``<out>/evolve/`` (:data:`SUBFOLDERS`); :class:`EvolveError` if one cannot be."""
    for sub in SUBFOLDERS:
        try:
            files.makedirs(FOLDER, sub)
        except OSError as e:
            raise _cannot_write(files, e, sub) from None


def write(files: Files, digests: dict[str, str], data: bytes, *parts: str) -> str:
    """Write ``data`` at ``<out>/evolve/<parts>`` and record its SHA-256 in ``digests`` (the
    checkpoint's record); its location."""
    try:
        files.write_atomic(data, FOLDER, *parts)
    except OSError as e:
        raise _cannot_write(files, e, *parts) from None
    digests["/".join(parts)] = hashlib.sha256(data).hexdigest()
    return files.url(FOLDER, *parts)


def write_parquet(files: Files, digests: dict[str, str], table: pa.Table, *parts: str) -> None:
    """``table`` as a Parquet file at ``<out>/evolve/<parts>`` (pyarrow's default writer options), by :func:`write`."""
    buf = io.BytesIO()
    pq.write_table(table, buf)
    write(files, digests, buf.getvalue(), *parts)


def save_player(files: Files, digests: dict[str, str], player: Player, *parts: str) -> str:
    """Write a player file at ``<out>/evolve/<parts>`` (:func:`write`); its location."""
    return write(files, digests, player.to_json().encode(), *parts)


def commit(files: Files, arrays: dict[str, np.ndarray], doc: dict[str, Any]) -> None:
    """Save the checkpoint of ``arrays`` and ``doc``: the commit of every file written since the last one."""
    try:
        checkpoint.save(files, arrays, doc)
    except OSError as e:
        raise EvolveError(f"cannot write the checkpoint in {files.url(FOLDER)}: {_reason(e)}") from None


def sweep(files: Files, keep: Iterable[str]) -> None:
    """Remove the files under ``evolve/`` that ``keep`` (the committed checkpoint's record) does not name:
    what an old run left when this one started over.  The checkpoint itself and the storage's own files
    (``_lock``) stay, and so does anything in folders the evolution does not write."""
    keep = set(keep)
    for sub in ("", *SUBFOLDERS):
        parts = (FOLDER, sub) if sub else (FOLDER,)
        for name in list(files.files(*parts)):
            path = f"{sub}/{name}" if sub else name
            ours = name == checkpoint.STATE or checkpoint.ARRAYS.fullmatch(name)
            if path not in keep and not name.startswith("_") and not (not sub and ours):
                files.remove(*parts, name)


def _digests(files: Files) -> dict[str, str]:
    """The SHA-256 of every file the checkpoint under ``files`` names (empty for runs that predate them)."""
    return dict(checkpoint.load_state(files).get("digests") or {})


def _verified(files: Files, digests: dict[str, str], *parts: str, kind: str = "file",
              error: type[InputError] = EvolveError) -> bytes:
    """The bytes of ``<out>/evolve/<parts>`` (a ``kind``), checked against ``digests`` when it names the file;
    ``error`` if the file is missing, cannot be read or differs."""
    where = files.url(FOLDER, *parts)
    try:
        data = files.read_bytes(FOLDER, *parts)
    except FileNotFoundError:
        raise error(f"no {kind} {where}") from None
    except OSError as e:
        raise error(f"{where} cannot be read ({_reason(e)})") from None
    name = "/".join(parts)
    if name in digests and hashlib.sha256(data).hexdigest() != digests[name]:
        raise error(f"{where} is damaged (its SHA-256 differs from the checkpoint's)")
    return data


def read_parquet(files: Files, *parts: str, digests: Optional[dict[str, str]] = None) -> pa.Table:
    """The Parquet file at ``<out>/evolve/<parts>``, its bytes checked against the SHA-256 the checkpoint
    recorded (``digests``, read from it when not given; files of runs that predate the record are read as
    they are).  :class:`EvolveError` for a missing or damaged file."""
    data = _verified(files, _digests(files) if digests is None else digests, *parts)
    try:
        return pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as e:
        raise EvolveError(f"{files.url(FOLDER, *parts)} is not a Parquet file ({_reason(e)})") from None


def load_player(files: Files, *parts: str, digests: Optional[dict[str, str]] = None) -> Player:
    """The player file at ``<out>/evolve/<parts>``, checked against ``digests`` (the checkpoint's SHA-256
    of it, when given) and as a player file (:class:`~pipeline.holdem.player.PlayerFileError`)."""
    from ..holdem.player import PlayerFileError

    data = _verified(files, digests or {}, *parts, kind="player file", error=PlayerFileError)
    return Player.from_json(data, files.url(FOLDER, *parts))


def about(cfg: Config, name: str, individual: int, **figures: Any) -> dict[str, Any]:
    """A player file's ``about``: its name and individual, its own figures, then the run's seed, format and seats."""
    return {"name": name, "individual": int(individual), **figures, "seed": cfg.seed, "format": cfg.format,
            "seats": cfg.seats, "weights": cfg.weights}


def best_of(files: Files, generation: int) -> Player:
    """The best individual of ``generation`` of the evolution under ``files`` (its ``evolve/`` folder).

    Read from ``best/gen-NNNNN.json`` (checked against the checkpoint); for a
    run written before those files existed, the last generation's is the
    final player and a phase's first generation is rebuilt from its seed (the
    newborns in the order ``generations/gen-NNNNN.parquet`` lists them).
    """
    doc = checkpoint.load_state(files)
    digests = doc.get("digests") or {}
    name = f"gen-{generation:05d}.json"
    if files.is_file(FOLDER, "best", name):
        return load_player(files, "best", name, digests=digests)
    if doc["finished"] and generation == doc["generation"] - 1 and files.is_file(FOLDER, FINAL_PLAYER):
        return load_player(files, FINAL_PLAYER, digests=digests)   # the last generation's best is the final player
    cfg = Config.from_dict(doc["config"])
    rows = read_parquet(files, "generations", f"gen-{generation:05d}.parquet", digests=digests).to_pylist()
    if rows[0]["operator"] != "birth":
        raise EvolveError(f"{files.url(FOLDER, 'best', name)} is missing and generation {generation} is not a "
                          "phase's first")
    best = max(range(len(rows)), key=lambda i: (rows[i]["fitness"], -i))
    return Player(cfg.layout, newborns(cfg, generation)[best],
                  about(cfg, f"best-{generation}", rows[best]["individual"], generation=generation,
                        phase=rows[best]["phase"], fitness_bb100=rows[best]["fitness"]))
