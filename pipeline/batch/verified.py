"""Reading back what pokerpipe wrote: where a dataset's files lie, and the one verified read of them.

Every reader of a dataset's own files — the runner deciding what to keep, the
dataset reader, the hand-weight tables, the abstraction's lookups, any later
one — reads through this module, so that the same rules hold for all:

* **Where.**  :func:`part_file`, :func:`part_path`, :func:`manifest_path`,
  :func:`record_path`, :func:`side_path` and :func:`staging_folder` are the
  only places that know the layout (the runner writes through them too):
  ``<out>/<name>/`` holds the Parquet parts and nothing else — directly, or
  in Hive-style ``<key>=<value>/`` folders for a dataset with a partition key
  — so that pandas, polars, DuckDB or Spark open the folder as one table
  with no glob; the manifest, the checksum records, the side outputs, the
  lock and the parts being written lie beside it in ``<out>/<name>.meta/``.
  Moving them is a change here alone.
* **What kind.**  Only a regular file is read, never through a symbolic link
  below the output root (:meth:`Storage.read_bytes`, :meth:`Storage.path`): a
  FIFO would block the read for ever, a link could lead anywhere.
* **Bounded, typed documents.**  :func:`document` reads a JSON object of
  bounded size and nesting (:func:`pipeline.core.inputs.parse_json`), or None;
  :func:`side_entries` gives a manifest's side-output records only when each
  is typed as the runner writes it (``file`` text, ``bytes`` a count,
  ``sha256`` 64 hex digits).
* **Verified = hashed here.**  A side output is used only after its bytes were
  hashed *in this process* and agreed with the SHA-256 its manifest records:
  no stamp of path, size, time or inode is trusted from another process (bit
  rot changes none of them).  A verified array is kept for the process's life
  (:data:`_VERIFIED`), keyed by the file's identity *and* its change time, so a
  file rewritten since is hashed again.
* **Array headers before any map.**  A ``.npy`` side output is mapped (or read)
  only after its header has been read from the verified bytes and agrees with
  the dtype and shape the reader expects *and* with the bytes present: an
  array resized, retyped or cut short is one line, never a segfault or a read
  past the end.

Failures are the caller's own :class:`~pipeline.core.errors.InputError`
subclass (``error=``), one line naming the file.
"""
from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
from numpy.lib import format as npy

from ..core.errors import InputError
from ..core.files import open_regular
from ..core.inputs import MAX_DOCUMENT_BYTES, parse_json
from .storage import Storage, StorageError

MANIFEST = "_manifest.json"
CHECKSUMS = "_checksums"
STAGING = "_writing"
META_SUFFIX = ".meta"
HASH_BLOCK = 1 << 24              # bytes hashed per read (16 MiB)
MAX_HEADER = 1 << 16              # a .npy header pokerpipe writes is ~128 bytes


# ---------------------------------------------------------------------------------------------------------
# Where a dataset's files lie
#
#   <out>/<name>/part-NNNNN.parquet            the parts, and nothing else: the folder *is* the table
#   <out>/<name>/<key>=<value>/part-NNNNN.parquet   the same, partitioned Hive-style (``partition_key``)
#   <out>/<name>.meta/_manifest.json           written last: a finished run
#   <out>/<name>.meta/_checksums/part-NNNNN.parquet.json   each part's checksum record
#   <out>/<name>.meta/_heatmap.png, ...        side outputs (the recipe's ``side_output_names``)
#   <out>/<name>.meta/_lock                    held while a run writes the dataset
#   <out>/<name>.meta/_writing/.part-NNNNN.parquet.*.tmp   a part being written (renamed into place)

def part_name(index: int) -> str:
    """The file name of part ``index`` (``part-00002.parquet``), the same in either layout."""
    return f"part-{index:05d}.parquet"


def part_file(index: int, key: Optional[str] = None, value: Optional[int] = None) -> str:
    """Where part ``index`` lies inside its dataset's folder: ``part-00002.parquet``, or, for a dataset
    partitioned Hive-style by the column ``key`` (:attr:`pipeline.batch.spec.Dataset.partition_key`), in the
    folder of its ``value``: ``opponents=3/part-00002.parquet`` (the column is then in the path only, never in
    the file, :mod:`.hive`).  The manifest's entries and the checksum records name parts so."""
    if key is None:
        return part_name(index)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"the value of partition key {key!r} must be an integer, got {value!r}")
    return f"{key}={value}/{part_name(index)}"


def parts_folder(name: str) -> tuple[str, ...]:
    """The path parts, under the output root, of dataset ``name``'s folder of Parquet parts: it holds the
    parts and nothing else, so that any reader opens it as one table."""
    return (name,)


def part_path(name: str, file: str) -> tuple[str, ...]:
    """The path parts of dataset ``name``'s part ``file`` as :func:`part_file` names it (``part-00000.parquet``
    or ``opponents=3/part-00002.parquet``)."""
    return (*parts_folder(name), *file.split("/"))


def staging_folder(name: str) -> tuple[str, ...]:
    """The path parts of the folder where dataset ``name``'s parts are written before they are renamed into
    the parts folder: beside it, on the same filesystem (the rename stays atomic), where no reader looks,
    so that a write killed midway leaves nothing in the table's folder.  The next run empties it."""
    return (*meta_folder(name), STAGING)


def meta_folder(name: str) -> tuple[str, ...]:
    """The path parts of the folder beside dataset ``name``'s parts that holds everything else: manifest,
    checksum records, side outputs, the writer's lock (``<name>.meta``: a dataset name has no dot, so it
    is never another dataset's folder)."""
    return (name + META_SUFFIX,)


def manifest_path(name: str) -> tuple[str, ...]:
    """The path parts, under the output root, of dataset ``name``'s manifest."""
    return (*meta_folder(name), MANIFEST)


def record_path(name: str, part: str) -> tuple[str, ...]:
    """The path parts of the checksum record of dataset ``name``'s part file ``part``."""
    return (*records_folder(name), part + ".json")


def records_folder(name: str) -> tuple[str, ...]:
    """The path parts of the folder of dataset ``name``'s checksum records."""
    return (*meta_folder(name), CHECKSUMS)


def side_path(name: str, file: str) -> tuple[str, ...]:
    """The path parts of dataset ``name``'s side output ``file`` (``_buckets.npy``)."""
    return (*meta_folder(name), file)


def legacy_paths(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Where a build before the parts had a folder of their own (pokerpipe 0.1 before issue 40) left its
    manifest and checksum records: inside the parts folder.  Only the runner reads them, to carry the
    records over and clear the parts folder (:func:`pipeline.batch.runner.run_dataset`)."""
    return (*parts_folder(name), MANIFEST), (*parts_folder(name), CHECKSUMS)


# ---------------------------------------------------------------------------------------------------------
# Documents and manifest records

def document(storage: Storage, *parts: str, max_bytes: int = MAX_DOCUMENT_BYTES) -> Optional[dict]:
    """The JSON object at ``parts`` if a regular file holds one of at most ``max_bytes`` and nested at most
    :data:`~pipeline.core.inputs.MAX_DEPTH` deep; None when it is missing, unreadable, damaged, too large or
    too deep (the caller says what that means: *not built*), or not an object."""
    try:
        return read_document(storage, *parts, max_bytes=max_bytes)
    except (OSError, InputError):
        return None


def read_document(storage: Storage, *parts: str, max_bytes: int = MAX_DOCUMENT_BYTES,
                  error: type[InputError] = StorageError) -> dict:
    """The JSON object at ``parts`` as :func:`document` reads it, or ``error`` saying in one line what is
    wrong with the file (``FileNotFoundError`` when nothing is there)."""
    shown = storage.url(*parts)
    try:
        data = storage.read_bytes(*parts)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise error(f"{shown} cannot be read ({e.strerror or e})") from None
    except InputError as e:                 # a folder, a FIFO, a link
        raise error(str(e)) from None
    doc = parse_json(data, shown, max_bytes=max_bytes, error=error)
    if not isinstance(doc, dict):
        what = {list: "an array", str: "text", bool: "true or false", int: "a number", float: "a number"}
        raise error(f"{shown} holds {what.get(type(doc), 'null')}, not a JSON object")
    return doc


def is_count(value: Any) -> bool:
    """Whether ``value`` is a JSON count: an int 0 or more, not a bool."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def is_sha256(value: Any) -> bool:
    """Whether ``value`` is a SHA-256 as pokerpipe writes one: 64 lower-case hex digits."""
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


@dataclass(frozen=True)
class FileRecord:
    """A manifest's record of one side output: its name, size and SHA-256."""

    file: str
    bytes: int
    sha256: str


def file_record(data: bytes, file: str) -> dict[str, Any]:
    """The manifest's record of side output ``file`` holding ``data`` (what :func:`side_entries` reads)."""
    return {"file": file, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def side_entries(manifest: dict, names: Optional[Sequence[str]] = None) -> Optional[dict[str, FileRecord]]:
    """The side-output records of ``manifest`` by file name, or None when any is not typed as the runner
    writes it (a list of objects: ``file`` text — one of ``names`` when given, each once — ``bytes`` a count,
    ``sha256`` 64 hex digits)."""
    side = manifest.get("side_outputs", [])
    if not isinstance(side, list):
        return None
    out: dict[str, FileRecord] = {}
    for entry in side:
        if not isinstance(entry, dict):
            return None
        file, size, sha = entry.get("file"), entry.get("bytes"), entry.get("sha256")
        if (not isinstance(file, str) or file in out or (names is not None and file not in names)
                or not isinstance(size, int) or not is_count(size) or not isinstance(sha, str) or not is_sha256(sha)):
            return None
        out[file] = FileRecord(file, size, sha)
    return out


def _record(storage: Storage, name: str, manifest: dict, file: str, error: type[InputError]) -> FileRecord:
    entries = side_entries(manifest)
    if entries is None:
        raise error(f"{storage.url(*manifest_path(name))}: its side outputs are damaged; build {name} again")
    if file not in entries:
        raise error(f"{storage.url(*manifest_path(name))} records no {file}; build {name} again")
    return entries[file]


# ---------------------------------------------------------------------------------------------------------
# Verified bytes

def _hash_local(path: str, shown: str, want: FileRecord, error: type[InputError]) -> os.stat_result:
    """Hash the local file ``path`` against ``want``; its stat (taken on the opened file) when it agrees."""
    digest = hashlib.sha256()
    try:
        with open_regular(path, shown, error=error) as f:
            st = os.fstat(f.fileno())
            while chunk := f.read(HASH_BLOCK):
                digest.update(chunk)
    except FileNotFoundError:
        raise error(f"{shown} is missing; build it again") from None
    except OSError as e:
        raise error(f"{shown} cannot be read ({e.strerror or e}); build it again") from None
    if digest.hexdigest() != want.sha256:
        raise error(f"{shown} is damaged (SHA-256 differs from the manifest); build it again")
    return st


def side_bytes(storage: Storage, name: str, manifest: dict, file: str, *, max_bytes: int = MAX_DOCUMENT_BYTES,
               error: type[InputError] = StorageError) -> bytes:
    """The bytes of dataset ``name``'s side output ``file`` if they hash, here, to the SHA-256 ``manifest``
    records (and are at most ``max_bytes``); else ``error`` in one line."""
    want = _record(storage, name, manifest, file, error)
    shown = storage.url(*side_path(name, file))
    if want.bytes > max_bytes:
        raise error(f"{shown}: its manifest records {want.bytes:,} bytes, more than the {max_bytes:,} read")
    try:
        data = storage.read_bytes(*side_path(name, file))
    except FileNotFoundError:
        raise error(f"{shown} is missing; build it again") from None
    except OSError as e:
        raise error(f"{shown} cannot be read ({e.strerror or e}); build it again") from None
    except InputError as e:                 # a folder, a FIFO, a link
        raise error(str(e)) from None
    if hashlib.sha256(data).hexdigest() != want.sha256:
        raise error(f"{shown} is damaged (SHA-256 differs from the manifest); build it again")
    return data


def side_document(storage: Storage, name: str, manifest: dict, file: str,
                  error: type[InputError] = StorageError) -> Any:
    """The JSON side output ``file`` of dataset ``name``, verified (:func:`side_bytes`) and parsed with the
    bounds of :func:`document`."""
    data = side_bytes(storage, name, manifest, file, error=error)
    return parse_json(data, storage.url(*side_path(name, file)), error=error)


def verify_side(storage: Storage, name: str, manifest: dict, file: str,
                error: type[InputError] = StorageError) -> None:
    """Hash dataset ``name``'s side output ``file`` here against ``manifest``'s record (a local file streamed,
    however large); ``error`` in one line unless it is a regular file of exactly those bytes."""
    want = _record(storage, name, manifest, file, error)
    if not storage.is_local:
        side_bytes(storage, name, manifest, file, max_bytes=1 << 62, error=error)
        return
    try:
        path = storage.path(*side_path(name, file))
    except StorageError as e:              # a link on the way
        raise error(str(e)) from None
    _hash_local(path, storage.url(*side_path(name, file)), want, error)


def damaged_side_output(storage: Storage, name: str, manifest: dict, names: Sequence[str]) -> Optional[str]:
    """The first side output ``manifest`` records that is missing, not a regular file, or not the bytes it
    records, or None when all are whole (a damaged list of records: the first of ``names``)."""
    entries = side_entries(manifest, names)
    if entries is None:
        return names[0] if names else "side outputs"
    for file in entries:
        try:
            verify_side(storage, name, manifest, file)
        except InputError:
            return file
    return None


# ---------------------------------------------------------------------------------------------------------
# Verified arrays

_VERIFIED: dict[tuple, np.ndarray] = {}


def _header(head: bytes, shown: str, error: type[InputError]) -> tuple[np.dtype, tuple[int, ...], bool, int]:
    """``(dtype, shape, fortran order, data offset)`` of the ``.npy`` bytes ``head`` (its first bytes)."""
    f = io.BytesIO(head)
    try:
        version = npy.read_magic(f)
        if version not in ((1, 0), (2, 0), (3, 0)):
            raise ValueError(f"version {version}")
        reader = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, fortran, dtype = reader(f, max_header_size=MAX_HEADER)
    except (ValueError, EOFError, TypeError, SyntaxError) as e:
        raise error(f"{shown} is not a .npy array ({str(e).splitlines()[0][:80] if str(e) else 'no header'}); "
                    "build it again") from None
    if dtype.hasobject:
        raise error(f"{shown} holds Python objects, not numbers; build it again")
    return np.dtype(dtype), tuple(int(n) for n in shape), bool(fortran), f.tell()


def _checked_header(head: bytes, size: int, shown: str, dtype: np.dtype, shape: tuple[int, ...],
                    error: type[InputError]) -> int:
    """The data offset of a ``.npy`` file of ``size`` bytes starting with ``head`` if its header describes a
    C-ordered ``dtype`` array of ``shape`` and its data fill exactly the rest of the file; else ``error``."""
    got_dtype, got_shape, fortran, offset = _header(head, shown, error)
    if got_dtype != dtype or got_shape != shape or fortran:
        raise error(f"{shown} holds a {got_dtype} array of shape {got_shape}"
                    f"{' (Fortran order)' if fortran else ''}, not the {dtype} {shape} read here; build it again")
    need = offset + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if size != need:
        raise error(f"{shown} holds {size:,} bytes, its header describes {need:,}: it is cut short or padded; "
                    "build it again")
    return offset


def side_array(storage: Storage, name: str, manifest: dict, file: str, dtype: Any, shape: Sequence[int], *,
               error: type[InputError] = StorageError) -> np.ndarray:
    """The ``.npy`` side output ``file`` of dataset ``name`` as a read-only array of ``dtype`` and ``shape``:
    its bytes hashed here against ``manifest``'s SHA-256, then its header checked against the expected dtype
    and shape and the bytes present, then mapped (local folders) or read (object stores).  Verified once per
    process and file identity; else ``error`` in one line naming the file."""
    want = _record(storage, name, manifest, file, error)
    dtype, shape = np.dtype(dtype), tuple(int(n) for n in shape)
    shown = storage.url(*side_path(name, file))
    if not storage.is_local:
        data = side_bytes(storage, name, manifest, file, max_bytes=1 << 62, error=error)
        offset = _checked_header(data[:MAX_HEADER], len(data), shown, dtype, shape, error)
        array = np.frombuffer(data, dtype, offset=offset, count=int(np.prod(shape, dtype=np.int64)))
        return array.reshape(shape)
    try:
        path = storage.path(*side_path(name, file))
    except StorageError as e:              # a link on the way
        raise error(str(e)) from None
    try:
        st = os.stat(path, follow_symlinks=False)
        key: Optional[tuple] = (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns,
                                st.st_ctime_ns, want.sha256, dtype.str, shape)
    except OSError:
        key = None
    if key is not None and key in _VERIFIED:
        return _VERIFIED[key]
    st = _hash_local(path, shown, want, error)
    with open_regular(path, shown, error=error) as f:
        head = f.read(MAX_HEADER)
    offset = _checked_header(head, st.st_size, shown, dtype, shape, error)
    try:
        array = np.memmap(path, dtype, mode="r", offset=offset, shape=shape) if st.st_size > offset \
            else np.zeros(shape, dtype)
    except (OSError, ValueError) as e:
        raise error(f"{shown} cannot be mapped ({e}); build it again") from None
    array = np.asarray(array)
    array.flags.writeable = False
    key = (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, want.sha256,
           dtype.str, shape)
    _VERIFIED[key] = array
    return array
