"""Write a run's hands as history files: PokerStars text, PHH or OHH, in chunks of hands.

The writers (one module per format) turn a :class:`~pipeline.holdem.record.HandRecord`
into text; :func:`write_histories` replays a run's hands and writes them into a
:class:`~pipeline.core.files.Files` folder, local or an object store.

A history folder holds exactly one run, and says whether it is whole:

* every file is committed whole or not at all (``Files.write_atomic`` and
  ``Files.writer``: a temporary name renamed, or one PUT), so an interrupted
  run leaves no empty or half-written file;
* the run's manifest, :data:`MANIFEST`, is written last, with the size and
  SHA-256 of what was written (:func:`check_histories` verifies a folder
  against it): a folder without one is unfinished;
* a new run into the folder first removes the earlier run's manifest, then
  its files (only pokerpipe's own names: ``hands.txt``, ``hands.ohh``,
  ``phh/hand_*.phh`` and unfinished temporary files), so that a rerun with
  fewer hands does not leave the earlier run's extra hands behind.  That
  happens after the run's hands are played and the folder's writer lock
  (``Files.lock``) is taken, so a run that cannot start removes nothing.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Optional

from ...core.budget import TooMuchWork
from ...core.errors import InputError
from ...core.files import Files, is_temporary
from ...core.inputs import parse_json
from ..record import record
from ..seating import Table
from ..weights import WeightSource, mode_of
from . import ohh, phh, pokerstars
from .stamps import RunStamp

FORMATS = ("pokerstars", "phh", "ohh")
FILES = {"pokerstars": "hands.txt", "ohh": "hands.ohh"}      # one file per run; PHH: phh/hand_NNNNNNNN.phh
PHH_FOLDER = "phh"
PHH_NAME = re.compile(r"hand_[0-9]{8,}\.phh")
MANIFEST = "_histories.json"
MANIFEST_FORMAT = "pokerpipe-hand-histories"
CHUNK = 5_000
# PHH's one file per hand is summed up in the manifest rather than listed (a run may have millions)
PHH_DIGEST = "SHA-256 of the files' hexadecimal SHA-256s in hand order, one per line"
MAX_HISTORY_BYTES = 10 * 10**9     # the most history a run writes, by a low estimate of its size
MAX_PHH_FILES = 1_000_000          # the most PHH files a run writes into one folder
# bytes per seat and hand of each history format, below the smallest measured (2 to 10 seats)
HISTORY_SEAT_BYTES = {"pokerstars": 150, "phh": 80, "ohh": 350}


class HistoryError(InputError):
    """A history folder that is unfinished or does not match its manifest."""


def refuse_histories(fmt: str, hands: int, seats: int) -> None:
    """Refuse (:class:`~pipeline.core.budget.TooMuchWork`, before anything is played or written) histories of
    ``hands`` hands at ``seats`` seats in format ``fmt`` beyond :data:`MAX_HISTORY_BYTES` by a low estimate
    of their size, or PHH beyond :data:`MAX_PHH_FILES` files; the message names the options to change."""
    size = hands * seats * HISTORY_SEAT_BYTES[fmt]
    if size > MAX_HISTORY_BYTES:
        raise TooMuchWork(f"--hands {hands:,} --history {fmt} would write at least {size / 10**9:,.0f} GB of hand "
                          f"histories, more than the {MAX_HISTORY_BYTES // 10**9} GB pokerpipe writes; ask for "
                          "fewer --hands")
    if fmt == "phh" and hands > MAX_PHH_FILES:
        raise TooMuchWork(f"--hands {hands:,} --history phh would write {hands:,} files, more than the "
                          f"{MAX_PHH_FILES:,} pokerpipe writes in one folder; ask for fewer --hands or another "
                          "format")


def write_histories(table: Table, seed: int, hands: int, fmt: str, files: Files, duplicate: bool = True,
                    hero: int | None = None, weights: Optional[WeightSource] = None,
                    start: Optional[RunStamp] = None) -> list[str]:
    """Write hands ``0 .. hands-1`` of the run into ``files`` in format ``fmt``; return the files written.

    PokerStars and OHH hands go to one file per run (``hands.txt``,
    ``hands.ohh``); PHH to one ``.phh`` file per hand under ``phh/``.  ``hero``
    (a seat index): PokerStars text shows only that seat's hole cards before
    the showdown.  ``weights`` as :func:`.simulate.simulate` (the same hands as its run).  ``start``: the
    run's start, which dates and numbers its hands (:mod:`.stamps`; by default now), recorded in the manifest.
    The earlier run's files are removed first and the manifest is written last (see the module); histories
    beyond their limit (:func:`refuse_histories`) are refused before anything is written.
    """
    if fmt not in FORMATS:
        raise ValueError(f"history format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    refuse_histories(fmt, hands, table.seats)      # beyond the limit: refused before the folder is touched
    stamp = start or RunStamp.parse()
    stamp.hand_number(max(hands - 1, 0))          # a run too long to number is refused before anything is written
    files.makedirs()
    with files.lock():
        remove_histories(files)
        written: list[str] = []
        if fmt == "phh":
            files.makedirs(PHH_FOLDER)
            digest, total = hashlib.sha256(), 0
            for rec in _hands(table, seed, hands, duplicate, weights):
                name = f"hand_{rec.number:08d}.phh"
                data = phh.write_hand(rec).encode()
                files.write_atomic(data, PHH_FOLDER, name)
                digest.update(hashlib.sha256(data).hexdigest().encode() + b"\n")
                total += len(data)
                written.append(files.url(PHH_FOLDER, name))
            entry: dict[str, Any] = {"folder": PHH_FOLDER, "files": hands, "bytes": total,
                                     "sha256": digest.hexdigest(), "digest": PHH_DIGEST}
        else:
            digest, total = hashlib.sha256(), 0
            with files.writer(FILES[fmt]) as f:
                for rec in _hands(table, seed, hands, duplicate, weights):
                    text = (pokerstars.write_hand(rec, hero, stamp) if fmt == "pokerstars"
                            else ohh.write_file([rec], stamp) + "\n")
                    data = text.encode()
                    f.write(data)
                    digest.update(data)
                    total += len(data)
            entry = {"file": FILES[fmt], "bytes": total, "sha256": digest.hexdigest()}
            written.append(files.url(FILES[fmt]))
        manifest = {"format": MANIFEST_FORMAT, "version": 1, "history": fmt, "hands": hands, "seed": seed,
                    "duplicate": duplicate, "policies": list(table.names), "weights": mode_of(weights),
                    "hero": None if hero is None else hero + 1, "start": stamp.text(), "written": entry}
        files.write_atomic(json.dumps(manifest, indent=1).encode(), MANIFEST, sync=True)
    return written


def _hands(table: Table, seed: int, hands: int, duplicate: bool, weights: Optional[WeightSource]) -> Any:
    """The run's hands in order, replayed :data:`CHUNK` at a time."""
    for first in range(0, hands, CHUNK):
        yield from record(table, seed, first, min(CHUNK, hands - first), duplicate, weights)


def remove_histories(files: Files) -> None:
    """Remove a folder's hand histories: the manifest first (the folder is then visibly unfinished), then
    the history files and unfinished temporary files under pokerpipe's own names; nothing else."""
    files.remove(MANIFEST)
    for name in list(files.files()):
        if name in FILES.values() or is_temporary(name):
            files.remove(name)
    for name in list(files.files(PHH_FOLDER)):
        if PHH_NAME.fullmatch(name) or is_temporary(name):
            files.remove(PHH_FOLDER, name)
    if files.exists(PHH_FOLDER) and not any(True for _ in files.files(PHH_FOLDER)):
        files.remove_tree(PHH_FOLDER)                     # an empty folder would look like a run of no hands


def check_histories(files: Files) -> dict[str, Any]:
    """The manifest of the finished history run in ``files``, after checking every file against it;
    :class:`HistoryError` if the folder is unfinished (no manifest) or a file is missing or damaged."""
    try:
        data = files.read_bytes(MANIFEST)
    except OSError:
        raise HistoryError(f"{files.url()} holds no finished hand histories (no {MANIFEST})") from None
    manifest = parse_json(data, files.url(MANIFEST), error=HistoryError)
    entry = manifest.get("written") if isinstance(manifest, dict) else None
    if not isinstance(entry, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise HistoryError(f"{files.url(MANIFEST)} is not a hand-history manifest")
    if not (entry.get("folder") == PHH_FOLDER if "folder" in entry else entry.get("file") in FILES.values()):
        raise HistoryError(f"{files.url(MANIFEST)} names no file of a history run (hands.txt, hands.ohh or "
                           f"{PHH_FOLDER}/)")
    if "folder" in entry:
        names = sorted((n for n in files.files(PHH_FOLDER) if PHH_NAME.fullmatch(n)), key=lambda n: int(n[5:-4]))
        digest, total = hashlib.sha256(), 0
        for name in names:
            body = files.read_bytes(PHH_FOLDER, name)
            digest.update(hashlib.sha256(body).hexdigest().encode() + b"\n")
            total += len(body)
        got = (len(names), total, digest.hexdigest())
        where = files.url(PHH_FOLDER)
    else:
        where = files.url(entry["file"])
        try:
            body = files.read_bytes(entry["file"])
        except OSError:
            raise HistoryError(f"{where} is missing") from None
        got = (1, len(body), hashlib.sha256(body).hexdigest())
    if got != (entry.get("files", 1), entry.get("bytes"), entry.get("sha256")):
        raise HistoryError(f"{where} does not match {files.url(MANIFEST)} (files, bytes or SHA-256 differ)")
    return manifest
