"""Files: the one check of a path's kind, the one open for reading, the one atomic write, and the interface
of a folder pokerpipe writes into.

:func:`check_kind` is the only place that decides whether a local path is the
kind of thing pokerpipe is about to open — a regular file, a folder — and says
in one line what it is instead (a folder where a file belongs, a FIFO, a
device, a symbolic link); every read and write of a local path goes through it:
:func:`open_regular` (the one open for reading: a FIFO would block the read for
ever and ``/dev/zero`` never ends), :func:`atomic_writer` and
:func:`make_folders`.

:func:`atomic_writer` is the only place that writes a file under a temporary
name and renames it over the target, so that a reader sees the whole old file
or the whole new one, never half of either (:func:`write_atomic` writes bytes
through it).  The disk cache uses it directly;
every output goes through :class:`pipeline.batch.storage.Storage`, which uses
it for local folders and a single PUT for object stores.

:class:`Files` is what domain code (the evolution, hand histories) is given
to write its outputs: a folder, local or ``s3://``/``gs://``, addressed by
path parts.  Domain packages never import :mod:`pipeline.batch`; the caller
(:mod:`pipeline.datasets`, the command line) passes a ``Storage``.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, ContextManager, Optional, Protocol, Union

from .errors import InputError

TMP_SUFFIX = ".tmp"
FILE, FOLDER, LINK = "file", "folder", "link"
_NAMES = {FILE: "a regular file", FOLDER: "a folder", LINK: "a symbolic link", "fifo": "a FIFO (named pipe)",
          "device": "a device", "socket": "a socket", "other": "not a regular file"}
Kinds = Union[str, tuple[str, ...]]


class PathKindError(InputError):
    """A path that is not the kind of thing pokerpipe opens there (a folder where a file belongs, a FIFO, ...)."""


def kind_of(path: Union[str, os.PathLike[str]], follow: bool = False) -> Optional[str]:
    """What is at ``path``: ``"file"``, ``"folder"``, ``"link"``, ``"fifo"``, ``"device"``, ``"socket"`` or
    ``"other"``; None when nothing is (``follow``: what a link points at, None for a dangling one)."""
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:             # a file where a folder on the way should be: nothing can be here
        return None
    except OSError as e:
        if e.errno == errno.ENAMETOOLONG:   # a name longer than the system allows: nothing can be there
            return None
        raise
    return mode_kind(mode)


def mode_kind(mode: int) -> str:
    """The kind (:func:`kind_of`) of an ``st_mode``."""
    if stat.S_ISREG(mode):
        return FILE
    if stat.S_ISDIR(mode):
        return FOLDER
    if stat.S_ISLNK(mode):
        return LINK
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


def kind_error(shown: str, kind: str, want: Kinds, error: type[InputError] = PathKindError) -> InputError:
    """The one line for ``shown`` being ``kind`` where ``want`` belongs: what it is, what it should be.

    >>> print(kind_error("out/_catalog.json", "folder", "file"))
    out/_catalog.json is a folder, not a file
    """
    wants = (want,) if isinstance(want, str) else want
    names = ["a file" if w == FILE and kind == FOLDER else _NAMES[w] for w in wants]
    return error(f"{shown} is {_NAMES.get(kind, kind)}, not {' or '.join(names)}")


def check_kind(path: Union[str, os.PathLike[str]], want: Kinds, shown: Optional[str] = None, *,
               follow: bool = False, error: type[InputError] = PathKindError) -> Optional[str]:
    """The kind of ``path`` (None if nothing is there) if it is one of ``want``; else ``error`` in one line
    naming ``shown`` (the path as the user wrote it).  ``follow`` judges what a link points at (a user's own
    file may be a link); without it a link is a link (pokerpipe never follows one in its own folders)."""
    kind = kind_of(path, follow)
    wants = (want,) if isinstance(want, str) else want
    if kind is not None and kind not in wants:
        raise kind_error(os.fspath(path) if shown is None else shown, kind, wants, error)
    return kind


def open_regular(path: Union[str, os.PathLike[str]], shown: Optional[str] = None, *, follow: bool = False,
                 error: type[InputError] = PathKindError) -> BinaryIO:
    """The local file ``path`` opened for reading if it is a regular file; else ``error`` (a folder, a FIFO,
    a device, a link unless ``follow``) — decided on the opened file itself, so nothing can swap it between
    the check and the read, and a FIFO is never waited on.  ``FileNotFoundError`` (an ``OSError``) when
    nothing is there."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | (0 if follow else os.O_NOFOLLOW)
    where = os.fspath(path) if shown is None else shown
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow:            # ELOOP: the last part is a symbolic link
            raise kind_error(where, LINK, FILE, error) from None
        if isinstance(e, IsADirectoryError):
            raise kind_error(where, FOLDER, FILE, error) from None
        raise
    try:
        kind = mode_kind(os.fstat(fd).st_mode)
        if kind != FILE:
            raise kind_error(where, kind, FILE, error)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def make_folders(path: Union[str, os.PathLike[str]], shown: Optional[str] = None,
                 error: type[InputError] = PathKindError) -> None:
    """Make the local folder ``path`` and its parents, if they are not there; ``error`` in one line if one of
    them is something else (a file where a folder belongs)."""
    p = Path(path)
    for part in [*reversed(p.parents), p]:
        check_kind(part, FOLDER, shown if part == p and shown else None, follow=True, error=error)
    p.mkdir(parents=True, exist_ok=True)


def temporary_name(target: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None) -> Path:
    """The name a write to ``target`` goes to first: ``.<name>.<pid>.<thread>.tmp`` beside it (a dot file,
    so that folder listings skip it), or in ``folder`` when given — a folder no reader lists, on the same
    filesystem so that the rename stays atomic (a dataset's parts: its ``.meta`` folder, since some readers,
    polars among them, refuse a folder of parts that holds any other file)."""
    t = Path(target)
    return Path(folder or t.parent) / f".{t.name}.{os.getpid()}.{threading.get_ident()}{TMP_SUFFIX}"


def is_temporary(name: str) -> bool:
    """Whether a file name is one of :func:`temporary_name`'s (an unfinished write)."""
    return name.startswith(".") and name.endswith(TMP_SUFFIX)


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], *, sync: bool = False,
                  staging: str | os.PathLike[str] | None = None) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: readers see the whole new file or the old one, never half.

    The data goes to :func:`temporary_name` (beside ``path``, or in the folder
    ``staging`` on the same filesystem) and is renamed over ``path`` when the
    block ends; ``sync`` flushes it to the disk first (a commit point: a
    manifest, a checkpoint).  On any failure — Ctrl-C included — the temporary
    file is removed and ``path`` is untouched.  :class:`PathKindError` before
    anything is written when something other than a regular file is there (a
    folder, a FIFO, a device); a link there is replaced by the file, never
    followed (:class:`pipeline.batch.storage.Storage` refuses links in its
    folders before this).
    """
    check_kind(path, (FILE, LINK))
    tmp = temporary_name(path, staging)
    try:
        with open(tmp, "wb") as f:
            yield f
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_atomic(path: str | os.PathLike[str], data: bytes, *, sync: bool = False,
                 staging: str | os.PathLike[str] | None = None) -> None:
    """Write ``data`` to the local file ``path`` atomically (:func:`atomic_writer`; its temporary in
    ``staging`` when given)."""
    with atomic_writer(path, sync=sync, staging=staging) as f:
        f.write(data)


class Files(Protocol):
    """A folder that pokerpipe writes into, local or an object store, addressed by path parts under its root.

    :class:`pipeline.batch.storage.Storage` implements it.
    """

    def url(self, *parts: str) -> str:
        """``parts`` under the root, written as the user wrote the root (for messages)."""
        ...

    def read_bytes(self, *parts: str) -> bytes:
        """The file's bytes; ``OSError`` (``FileNotFoundError`` included) if it cannot be read."""
        ...

    def write_atomic(self, data: bytes, *parts: str, sync: bool = False) -> None:
        """Write ``data`` so that readers see the whole file or the old one, never half."""
        ...

    def writer(self, *parts: str) -> ContextManager[BinaryIO]:
        """A binary file to stream a large output into, committed whole when the block ends (nothing on error)."""
        ...

    def exists(self, *parts: str) -> bool:
        """Whether a file or folder is there."""
        ...

    def is_file(self, *parts: str) -> bool:
        """Whether a regular file is there."""
        ...

    def files(self, *parts: str) -> Iterator[str]:
        """Names of the files directly inside the folder ``parts`` (none if it is missing)."""
        ...

    def size(self, *parts: str) -> int | None:
        """The file's size in bytes, or None if no regular file is there."""
        ...

    def lock(self, *parts: str) -> ContextManager[None]:
        """Hold the folder ``parts``' writer lock for the block (the input error of the folder's own kind if
        another live run holds it): one writer per folder."""
        ...

    def makedirs(self, *parts: str) -> None:
        """Make the folder ``parts`` (and its parents) if it is not there."""
        ...

    def remove(self, *parts: str) -> None:
        """Delete a file if it is there."""
        ...

    def remove_tree(self, *parts: str) -> None:
        """Delete a folder and everything in it, if it is there."""
        ...
