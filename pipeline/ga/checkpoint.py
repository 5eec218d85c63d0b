"""The evolution's checkpoint: arrays in ``checkpoint.npz``, the rest in ``checkpoint.json`` with the arrays' SHA-256.

Both files are written to temporary names and renamed, the JSON last: it is
the commit point of a generation.  A checkpoint that does not parse, or whose
arrays do not match the recorded digest, is *damaged*: :func:`load` raises
:class:`CheckpointError` and nothing overwrites it unless the user asks
(``--force``).
"""
from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import InputError

FORMAT = "pokerpipe-evolve-checkpoint"
VERSION = 1


class CheckpointError(InputError):
    """A checkpoint that cannot be used: damaged, or written for other parameters."""


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def save(folder: Path, arrays: dict[str, np.ndarray], state: dict[str, Any]) -> None:
    """Write ``arrays`` and the JSON ``state`` as the folder's checkpoint."""
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]
    data = buf.getvalue()
    _atomic_write(folder / "checkpoint.npz", data)
    doc = {"format": FORMAT, "version": VERSION, "arrays_sha256": hashlib.sha256(data).hexdigest(), **state}
    _atomic_write(folder / "checkpoint.json", json.dumps(doc, indent=1).encode())


def exists(folder: Path) -> bool:
    return (folder / "checkpoint.json").exists() or (folder / "checkpoint.npz").exists()


def load(folder: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The checkpoint's arrays and state; :class:`CheckpointError` if it is damaged."""
    jpath, npath = folder / "checkpoint.json", folder / "checkpoint.npz"
    try:
        doc = json.loads(jpath.read_text())
        data = npath.read_bytes()
    except FileNotFoundError as e:
        raise CheckpointError(f"damaged checkpoint in {folder}: {Path(e.filename or '').name} is missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"damaged checkpoint in {folder}: {type(e).__name__}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"damaged checkpoint in {folder}: not a {FORMAT}")
    if hashlib.sha256(data).hexdigest() != doc.get("arrays_sha256"):
        raise CheckpointError(f"damaged checkpoint in {folder}: checkpoint.npz does not match its SHA-256")
    with np.load(io.BytesIO(data)) as z:
        arrays = {k: z[k] for k in z.files}
    return arrays, doc
