"""Files: the one atomic write of a local file, and the interface of a folder pokerpipe writes into.

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
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, ContextManager, Protocol

TMP_SUFFIX = ".tmp"


def temporary_name(target: str | os.PathLike[str]) -> Path:
    """The name a write to ``target`` goes to first: ``.<name>.<pid>.<thread>.tmp`` beside it (a dot file,
    so that folder listings and dataset readers skip it)."""
    t = Path(target)
    return t.with_name(f".{t.name}.{os.getpid()}.{threading.get_ident()}{TMP_SUFFIX}")


def is_temporary(name: str) -> bool:
    """Whether a file name is one of :func:`temporary_name`'s (an unfinished write)."""
    return name.startswith(".") and name.endswith(TMP_SUFFIX)


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], *, sync: bool = False) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: readers see the whole new file or the old one, never half.

    The data goes to :func:`temporary_name` and is renamed over ``path`` when
    the block ends; ``sync`` flushes it to the disk first (a commit point: a
    manifest, a checkpoint).  On any failure — Ctrl-C included — the temporary
    file is removed and ``path`` is untouched.
    """
    tmp = temporary_name(path)
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


def write_atomic(path: str | os.PathLike[str], data: bytes, *, sync: bool = False) -> None:
    """Write ``data`` to the local file ``path`` atomically (:func:`atomic_writer`)."""
    with atomic_writer(path, sync=sync) as f:
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
