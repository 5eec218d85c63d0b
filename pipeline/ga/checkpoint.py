"""The evolution's checkpoint: one commit, ``checkpoint.json``, holding the state and naming its arrays.

A checkpoint is two files, but one object:

* ``checkpoint-<h>.npz``: the arrays (population, trainers, ...), named after
  the first 16 hex digits of their SHA-256 (``<h>``), so writing new arrays
  never touches the file the current checkpoint names;
* ``checkpoint.json``: the state (generation, phase, progress, the SHA-256 of
  every file the run wrote), the arrays' file name and SHA-256, and
  ``sha256``, the digest of everything else the document holds (its
  canonical JSON: sorted keys, no spaces).

:func:`save` writes the arrays, then replaces ``checkpoint.json`` (both
atomically, :meth:`pipeline.core.files.Files.write_atomic`, flushed to disk):
the JSON is the commit point.  A fault at any moment leaves either the old
checkpoint, whole and still pointing at its own arrays, or the new one; the
arrays no checkpoint names are removed after the next commit.

:func:`load` verifies the document's digest (an edited field, ``"generation":
3`` for ``2``, is refused as well as a cut file) and the arrays' digest; the
document is parsed by :func:`pipeline.core.inputs.parse_json` (size and
nesting checked first).  Anything wrong raises :class:`CheckpointError`, and
nothing overwrites a damaged checkpoint unless the user asks (``--force``).

Floats that JSON cannot hold (a standard error of one deal is NaN) are
written as the strings ``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` and read
back as floats.  Checkpoints of version 1 (the arrays in ``checkpoint.npz``,
only their SHA-256 recorded) are still read, as they were; the next commit
writes version 2.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import re
import zipfile
from typing import Any

import numpy as np

from ..core.errors import InputError
from ..core.files import Files, is_temporary
from ..core.inputs import parse_json

FORMAT = "pokerpipe-evolve-checkpoint"
VERSION = 2
FOLDER = "evolve"
STATE = "checkpoint.json"
LEGACY_ARRAYS = "checkpoint.npz"                 # version 1's arrays
ARRAYS = re.compile(r"checkpoint-[0-9a-f]{16}\.npz")
MAX_STATE_BYTES = 1 << 30        # the state of a million generations is some 500 MB of JSON; a typical run's < 1 MB
_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


class CheckpointError(InputError):
    """A checkpoint that cannot be used: damaged, or written for other parameters."""


def saved_weights(files: Files) -> str | None:
    """The hand weights (``tables`` or ``sampled``) the evolution checkpointed under ``files`` plays with, so
    that a resumed run keeps its own; None without a (usable) checkpoint, whose damage the run itself reports."""
    try:
        config = load_state(files).get("config")
    except (CheckpointError, OSError):
        return None
    mode = config.get("weights") if isinstance(config, dict) else None
    return mode if mode in ("tables", "sampled") else None


def arrays_name(digest: str) -> str:
    """The file name of arrays whose SHA-256 is ``digest``."""
    return f"checkpoint-{digest[:16]}.npz"


def _canonical(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


def _digest(doc: dict[str, Any]) -> str:
    """The SHA-256 of everything ``doc`` holds but its own ``sha256``."""
    return hashlib.sha256(_canonical({k: v for k, v in doc.items() if k != "sha256"})).hexdigest()


def _encode(x: Any) -> Any:
    """``x`` with non-finite floats written as strings (JSON has no NaN)."""
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    if isinstance(x, dict):
        return {k: _encode(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_encode(v) for v in x]
    return x


def _decode(x: Any) -> Any:
    """:func:`_encode` undone."""
    if isinstance(x, str) and x in _NON_FINITE:
        return _NON_FINITE[x]
    if isinstance(x, dict):
        return {k: _decode(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_decode(v) for v in x]
    return x


def save(files: Files, arrays: dict[str, np.ndarray], state: dict[str, Any]) -> None:
    """Commit ``arrays`` and the JSON ``state`` as the evolution's checkpoint under ``files``.

    The arrays go to their own content-named file first; replacing
    ``checkpoint.json`` is the commit; then the arrays files no checkpoint
    names any more (and unfinished writes) are removed.  ``OSError`` if a
    write fails (the previous checkpoint is then still whole).
    """
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]
    data = buf.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    name = arrays_name(digest)
    files.write_atomic(data, FOLDER, name, sync=True)
    doc = {"format": FORMAT, "version": VERSION, "arrays": name, "arrays_sha256": digest, **_encode(state)}
    doc["sha256"] = _digest(doc)
    files.write_atomic(json.dumps(doc, indent=1, allow_nan=False).encode(), FOLDER, STATE, sync=True)
    for f in list(files.files(FOLDER)):
        if (f != name and (ARRAYS.fullmatch(f) or f == LEGACY_ARRAYS)) or is_temporary(f):
            files.remove(FOLDER, f)


def exists(files: Files) -> bool:
    """Whether ``files`` holds a checkpoint (whole or not: arrays without their JSON count)."""
    return files.exists(FOLDER, STATE) or any(ARRAYS.fullmatch(f) or f == LEGACY_ARRAYS
                                              for f in files.files(FOLDER))


def load_state(files: Files) -> dict[str, Any]:
    """The checkpoint's JSON document, verified against its own digest; :class:`CheckpointError` if it is
    missing or damaged.  The arrays are not read (:func:`load` reads and checks them)."""
    where = files.url(FOLDER)
    size = files.size(FOLDER, STATE)
    if size is None:
        raise CheckpointError(f"damaged checkpoint in {where}: {STATE} is missing")
    if size > MAX_STATE_BYTES:
        raise CheckpointError(f"damaged checkpoint in {where}: {STATE} is {size:,} bytes, more than "
                              f"{MAX_STATE_BYTES:,}")
    try:
        data = files.read_bytes(FOLDER, STATE)
    except OSError as e:
        raise CheckpointError(f"damaged checkpoint in {where}: {STATE} cannot be read "
                              f"({getattr(e, 'strerror', None) or type(e).__name__})") from None
    doc = parse_json(data, f"damaged checkpoint in {where}: {STATE}", max_bytes=MAX_STATE_BYTES,
                     error=CheckpointError)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"damaged checkpoint in {where}: not a {FORMAT}")
    version = doc.get("version")
    if version == 1:                                   # arrays in checkpoint.npz, only they were digested
        return {**doc, "arrays": LEGACY_ARRAYS}
    if version != VERSION:
        raise CheckpointError(f"{where} holds a checkpoint of version {version!r}; this pokerpipe reads "
                              f"versions 1 and {VERSION} (use --force to start over, or another --out)")
    if doc.get("sha256") != _digest(doc):
        raise CheckpointError(f"damaged checkpoint in {where}: {STATE} does not match its SHA-256 "
                              "(edited or cut)")
    if not isinstance(doc.get("arrays"), str) or not ARRAYS.fullmatch(doc["arrays"]):
        raise CheckpointError(f"damaged checkpoint in {where}: {STATE} names no arrays file")
    decoded: dict[str, Any] = _decode(doc)
    return decoded


def load(files: Files) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The checkpoint's arrays and state, both verified; :class:`CheckpointError` if it is damaged."""
    where = files.url(FOLDER)
    doc = load_state(files)
    name = doc["arrays"]
    try:
        data = files.read_bytes(FOLDER, name)
    except FileNotFoundError:
        raise CheckpointError(f"damaged checkpoint in {where}: {name} is missing") from None
    except OSError as e:
        raise CheckpointError(f"damaged checkpoint in {where}: {name} cannot be read "
                              f"({getattr(e, 'strerror', None) or type(e).__name__})") from None
    if hashlib.sha256(data).hexdigest() != doc.get("arrays_sha256"):
        raise CheckpointError(f"damaged checkpoint in {where}: {name} does not match its SHA-256")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise CheckpointError(f"damaged checkpoint in {where}: {name} is not an array file "
                              f"({type(e).__name__})") from None
    return arrays, doc
