"""Where datasets live: a local folder or any URL pyarrow's filesystems know.

``--out`` may be a local path or a URL such as ``s3://bucket/prefix`` or
``gs://bucket/prefix``; endpoint and credentials come from the standard
environment (``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ...).  A
:class:`Storage` is cheap to rebuild from its location string, so Dask
workers get the string and open their own.

Writes are atomic: locally by :func:`pipeline.core.files.write_atomic` (a
temporary name renamed); on an object store a single PUT, which readers see
whole or not at all.  :class:`Storage` is the :class:`pipeline.core.files.Files`
that domain code writes its outputs through.

Two guarantees hold for every path under the root:

* **Nothing through a link.**  Locally, a path whose part below the root is a
  symbolic link is refused (:class:`StorageError`): a link planted at
  ``<out>/odds-table.meta/_checksums`` or ``<out>/odds-table`` would otherwise
  let a build delete and write outside ``<out>/<name>/`` and ``<out>/<name>.meta/``.  ``<out>`` itself may be
  a link; it is the user's choice of where to write.
* **The right kind of thing.**  Every path is checked for its kind before it
  is read or written (:meth:`Storage.check`, through
  :func:`pipeline.core.files.check_kind` locally): a folder where a file
  belongs, a FIFO or a device is one line, never a hang or a traceback.
* **One writer.**  :meth:`Storage.lock` holds ``<folder>/_lock`` (pid, host,
  time) while a run writes the folder; a second run is refused while the
  first is alive, and a lock left by a dead writer on this host, or one that
  cannot be read, is taken over.  Locally the lock file is created whole (its
  record written to a temporary name, then hard-linked into place), so a
  full disk cannot leave an empty lock behind.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import BinaryIO

import pyarrow.fs as pafs

from ..core.errors import InputError
from ..core.files import (
    FILE,
    FOLDER,
    Kinds,
    atomic_writer,
    kind_error,
    kind_of,
    open_regular,
    temporary_name,
    write_atomic,
)

URL = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://")
SCHEMES = ("s3", "gs", "gcs", "hdfs", "viewfs", "file")
SLUG_PART = re.compile(r"^[a-z0-9][a-z0-9-]*$")
LOCK = "_lock"
# An object store is asked about the root before a run starts (:meth:`Storage.open`): its answer is waited for this
# long at most.  On gs:// that first question retries for at most GCS_PROBE_RETRY_SECONDS (Google's client retries
# for 15 minutes by default: with no credentials and no metadata server, ``--out gs://...`` hung silently).
REACH_SECONDS = 30.0
GCS_PROBE_RETRY_SECONDS = 3


class StorageError(InputError):
    """An output location that cannot be used (unknown scheme, unwritable, ...)."""


def check_name(name: str) -> str:
    """``name`` if it is a dataset name of slugs (``ehs-table/flop``), else StorageError.

    A dataset writes only inside ``<out>/<name>/`` and ``<out>/<name>.meta/``: a name with ``..``, a dot,
    an absolute path, upper case or odd characters could point elsewhere (or at another dataset's files).
    """
    parts = name.split("/")
    if not name or not all(SLUG_PART.match(p) for p in parts):
        raise StorageError(f"dataset name {name!r} is not a slug path (lower-case letters, digits, '-', '/')")
    return name


@dataclass(frozen=True)
class Storage:
    """A root location (``location``: an absolute local path or a URL) and paths relative to it; ``shown``
    is the root as the user wrote it, for messages (a relative folder stays relative)."""

    location: str
    shown: str = ""

    @classmethod
    def open(cls, out: str | os.PathLike) -> Storage:
        """Validate ``out`` and return its storage; StorageError for an empty location or an unsupported URL.

        An empty ``out`` is refused rather than read as the current folder (what ``Path("")`` means): a user
        who gives ``--out ""`` (an unset variable, ``--out "$DIR"``) did not choose to write into the folder
        they stand in, and the run would report its files at ``/``.
        """
        text = os.fspath(out)
        if not text:
            raise StorageError("--out is empty: give a folder ('.' for the current one) or a URL")
        m = URL.match(text)
        if m and m.group(1).lower() not in SCHEMES:
            raise StorageError(f"--out {text!r}: unsupported scheme {m.group(1)!r} "
                               f"(a local folder or {', '.join(s + '://' for s in SCHEMES[:4])})")
        if not m and re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]+:", text):
            raise StorageError(f"--out {text!r} looks like a URL but is not one (scheme://bucket/prefix)")
        storage = cls(text if m else str(Path(text).absolute()), text)
        if m:
            storage._reach()        # fail now, with one line, if the store does not answer
        return storage

    def _reach(self) -> None:
        """Open the object store and ask it what is at the root; StorageError in one line (the URL and the cause)
        if that fails or takes beyond :data:`REACH_SECONDS`.

        The question runs in a daemon thread that this one waits on: pyarrow's calls hold this thread in C++
        (on gs:// a credential lookup and retries) where Ctrl-C is not seen, and the wait is interruptible, so
        Ctrl-C stops a run at once while the store is silent.
        """
        outcome: list[BaseException | None] = []

        def ask() -> None:
            try:
                fs, root = self._fs_root
                _bounded(self.location, fs).get_file_info(root)
            except BaseException as e:   # handed to the waiting thread
                outcome.append(e)
            else:
                outcome.append(None)

        thread = threading.Thread(target=ask, name=f"pokerpipe-reach {self.location}", daemon=True)
        thread.start()
        thread.join(REACH_SECONDS)
        if not outcome:
            raise StorageError(f"--out {self.shown or self.location!r}: no answer from the store in "
                               f"{REACH_SECONDS:g} s")
        if isinstance(outcome[0], StorageError):
            raise outcome[0]
        if outcome[0] is not None:
            raise StorageError(f"--out {self.shown or self.location!r} cannot be reached: "
                               f"{_cause(outcome[0])}") from None

    @property
    def is_local(self) -> bool:
        return isinstance(self.fs, pafs.LocalFileSystem)

    @cached_property
    def _fs_root(self) -> tuple[pafs.FileSystem, str]:
        if not URL.match(self.location):
            return pafs.LocalFileSystem(), self.location
        try:
            fs, root = pafs.FileSystem.from_uri(self.location)
        except (OSError, ValueError, TypeError) as e:   # pyarrow's errors are OSError/ArrowInvalid
            raise StorageError(f"--out {self.location!r}: {e}") from None
        return fs, root.rstrip("/")

    @property
    def fs(self) -> pafs.FileSystem:
        return self._fs_root[0]

    def path(self, *parts: str) -> str:
        """The filesystem path of ``parts`` under the root; StorageError if, locally, any folder or file
        below the root on the way is a symbolic link (or a part is ``..``)."""
        root = self._fs_root[1]
        if self.is_local:
            here = root
            for i, part in enumerate("/".join(parts).split("/")):
                if part == "..":
                    raise StorageError(f"{self.url(*parts)}: '..' leads outside {self.url()}")
                here = os.path.join(here, part)
                if os.path.islink(here):
                    raise StorageError(f"{self.url(*'/'.join(parts).split('/')[:i + 1])} is a symbolic link; "
                                       f"pokerpipe writes only inside {self.url()}, never through a link "
                                       "(remove the link, or give its target as --out)")
        return "/".join([root, *parts])

    def url(self, *parts: str) -> str:
        """``parts`` under the root, written as the user wrote the root."""
        root = (self.shown or self.location).rstrip("/")
        return "/".join([root, *parts]) if parts else (root or "/")

    def kind(self, *parts: str) -> str | None:
        """What is at ``parts``: ``"file"``, ``"folder"``, ... (:func:`pipeline.core.files.kind_of`), None when
        nothing is; StorageError for a link below the root."""
        target = self.path(*parts)
        if self.is_local:
            return kind_of(target)
        info = self.fs.get_file_info(target)
        return {pafs.FileType.NotFound: None, pafs.FileType.File: FILE,
                pafs.FileType.Directory: FOLDER}.get(info.type, "other")

    def check(self, want: Kinds, *parts: str) -> str | None:
        """The kind of ``parts`` (None: nothing there) if it is one of ``want``; else StorageError in one line
        saying what is there instead (:func:`pipeline.core.files.kind_error`)."""
        kind = self.kind(*parts)
        wants = (want,) if isinstance(want, str) else want
        if kind is not None and kind not in wants:
            raise kind_error(self.url(*parts), kind, wants, StorageError)
        return kind

    def makedirs(self, *parts: str) -> None:
        """Make the folder ``parts`` (and its parents below the root); StorageError if one is a file."""
        steps = "/".join(parts).split("/") if parts else []
        for i in range(1, len(steps) + 1):
            self.check(FOLDER, *steps[:i])
        self.fs.create_dir(self.path(*parts), recursive=True)

    def exists(self, *parts: str) -> bool:
        return self.fs.get_file_info(self.path(*parts)).type != pafs.FileType.NotFound

    def is_file(self, *parts: str) -> bool:
        return self.fs.get_file_info(self.path(*parts)).type == pafs.FileType.File

    def size(self, *parts: str) -> int | None:
        info = self.fs.get_file_info(self.path(*parts))
        return info.size if info.type == pafs.FileType.File else None

    def read_bytes(self, *parts: str) -> bytes:
        """The file's bytes; OSError (FileNotFoundError included) if it cannot be read, StorageError if it is
        not a regular file (a folder, a FIFO: never waited on)."""
        if self.is_local:
            with open_regular(self.path(*parts), self.url(*parts), error=StorageError) as f:
                return f.read()
        if self.check(FILE, *parts) is None:
            raise FileNotFoundError(self.url(*parts))
        with self.fs.open_input_stream(self.path(*parts)) as f:
            return f.read()

    def write_atomic(self, data: bytes, *parts: str, sync: bool = False, staging: tuple[str, ...] = ()) -> None:
        """Write ``data`` so that readers see the whole file or the old one, never half; StorageError before
        anything is written if something other than a regular file is there.  Locally the data goes first to
        a temporary file, beside the target or, given ``staging`` (path parts of a folder under the root, so on
        the same filesystem and the rename atomic), there: a folder that readers open as one table must never
        hold one, even after a ``kill -9`` mid-write."""
        target = self.path(*parts)
        self.check(FILE, *parts)
        if self.is_local:
            if staging:
                self.makedirs(*staging)
            write_atomic(target, data, sync=sync, staging=self.path(*staging) if staging else None)
            return
        with self.fs.open_output_stream(target) as f:   # an object store's PUT is atomic
            f.write(data)

    @contextlib.contextmanager
    def writer(self, *parts: str) -> Iterator[BinaryIO]:
        """A binary file to stream into ``parts``, committed whole when the block ends and never on an error:
        locally through :func:`~pipeline.core.files.atomic_writer`, on an object store held in memory and
        PUT once at the end."""
        self.check(FILE, *parts)
        if self.is_local:
            with atomic_writer(self.path(*parts)) as f:
                yield f
            return
        buf = io.BytesIO()
        yield buf
        self.write_atomic(buf.getvalue(), *parts)

    def remove_tree(self, *parts: str) -> None:
        """Delete a folder and everything in it, if it is there."""
        try:
            self.fs.delete_dir(self.path(*parts))
        except (FileNotFoundError, OSError):
            pass

    def create_exclusive(self, data: bytes, *parts: str) -> bool:
        """Create the file only if it does not exist; True if this call created it."""
        target = self.path(*parts)
        self.check(FILE, *parts)
        if self.is_local:                # whole or not at all: written aside, then hard-linked into place
            tmp = temporary_name(target)
            try:
                write_atomic(tmp, data)
                os.link(tmp, target)
            except FileExistsError:
                return False
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            return True
        if self.exists(*parts):          # object stores: best effort (check, then put)
            return False
        self.write_atomic(data, *parts)
        return True

    @contextlib.contextmanager
    def lock(self, *parts: str) -> Iterator[None]:
        """Hold ``<parts>/_lock`` while writing the folder ``parts``; StorageError if another live run holds it.

        The record names the holder (pid, host, since).  A lock whose holder is a
        dead process on this host (killed with ``kill -9``), or whose record
        cannot be read, is stale: it is taken over, saying so on stderr.  A holder
        on another host cannot be checked and is always believed.
        """
        host = socket.gethostname()
        record = json.dumps({"pid": os.getpid(), "host": host, "since": time.time()}).encode()
        where = self.url(*parts, LOCK)
        for _ in range(3):
            if self.create_exclusive(record, *parts, LOCK):
                break
            holder = _holder(self, *parts, LOCK)
            if holder is None:
                if not self.exists(*parts, LOCK):
                    continue                 # released in between: try again
                print(f"pokerpipe: {where} could not be read (left by a failed write); taking it over",
                      file=sys.stderr)
            elif holder[1] != host or _alive(holder[0]):
                raise StorageError(f"{self.url(*parts)} is being written by pid {holder[0]} on {holder[1]}; "
                                   f"wait for it (or delete {where} if that run is gone)")
            self.remove(*parts, LOCK)        # its writer died: take over
        else:
            raise StorageError(f"cannot take the lock {where}")
        try:
            yield
        finally:
            self.remove(*parts, LOCK)

    def remove(self, *parts: str) -> None:
        """Delete a file if it is there."""
        try:
            self.fs.delete_file(self.path(*parts))
        except (FileNotFoundError, OSError):
            pass

    def refuse_links(self, *parts: str) -> None:
        """StorageError if, locally, a file directly inside the folder ``parts`` is a symbolic link (checked
        before a run touches the folder: :meth:`path` checks each file only when it is used)."""
        for name in self.files(*parts):
            self.path(*parts, name)

    def files(self, *parts: str) -> Iterator[str]:
        """Names of the files directly inside the folder ``parts`` (none if it is missing)."""
        yield from self._entries(pafs.FileType.File, *parts)

    def folders(self, *parts: str) -> Iterator[str]:
        """Names of the folders directly inside the folder ``parts`` (none if it is missing; locally a link to
        a folder is listed, and refused when used: :meth:`path`)."""
        yield from self._entries(pafs.FileType.Directory, *parts)

    def _entries(self, kind: pafs.FileType, *parts: str) -> Iterator[str]:
        selector = pafs.FileSelector(self.path(*parts), allow_not_found=True, recursive=False)
        for info in self.fs.get_file_info(selector):
            if info.type == kind:
                yield info.base_name


def _bounded(location: str, fs: pafs.FileSystem) -> pafs.FileSystem:
    """``fs`` for a first question to the store at ``location``: on gs:// one that gives up retrying after
    :data:`GCS_PROBE_RETRY_SECONDS` (unless the URL sets ``retry_limit_seconds``), else ``fs`` itself.  The
    run's own filesystem keeps the client's retries, for the transient errors of a long run."""
    if fs.type_name != "gcs" or "retry_limit_seconds=" in location:
        return fs
    bounded, _ = pafs.FileSystem.from_uri(location + ("&" if "?" in location else "?")
                                          + f"retry_limit_seconds={GCS_PROBE_RETRY_SECONDS}")
    return bounded


def _cause(e: BaseException) -> str:
    """The gist of a store's error: Google's client wraps it in ``google::cloud::Status(...)`` and appends its
    metadata (``error_info={...}``)."""
    text = str(e) or type(e).__name__
    text = text.split(" error_info=")[0]
    return text.removeprefix("google::cloud::Status(")


def _holder(storage: Storage, *parts: str) -> tuple[int, str] | None:
    """The (pid, host) a lock file names, or None if it is gone or cannot be read."""
    try:
        holder = json.loads(storage.read_bytes(*parts))
        pid, host = holder["pid"], holder["host"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    if isinstance(pid, bool) or not isinstance(pid, int) or not isinstance(host, str):
        return None
    return pid, host


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:          # someone else's process
        return True
    except OverflowError:            # no such pid can exist
        return False
    return True
