"""The evolution's checkpoint: arrays in ``checkpoint.npz``, the rest in ``checkpoint.json`` with the arrays' SHA-256.

Both files are written atomically (:meth:`pipeline.core.files.Files.write_atomic`),
the JSON last: it is the commit point of a generation.  A checkpoint that does not parse, or whose
arrays do not match the recorded digest, is *damaged*: :func:`load` raises
:class:`CheckpointError` and nothing overwrites it unless the user asks
(``--force``).
"""
from __future__ import annotations

import hashlib
import io
import json
from typing import Any

import numpy as np

from ..core.errors import InputError
from ..core.files import Files

FORMAT = "pokerpipe-evolve-checkpoint"
VERSION = 1
FOLDER = "evolve"
ARRAYS, STATE = "checkpoint.npz", "checkpoint.json"


class CheckpointError(InputError):
    """A checkpoint that cannot be used: damaged, or written for other parameters."""


def save(files: Files, arrays: dict[str, np.ndarray], state: dict[str, Any]) -> None:
    """Write ``arrays`` and the JSON ``state`` as the evolution's checkpoint under ``files``."""
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]
    data = buf.getvalue()
    files.write_atomic(data, FOLDER, ARRAYS, sync=True)
    doc = {"format": FORMAT, "version": VERSION, "arrays_sha256": hashlib.sha256(data).hexdigest(), **state}
    files.write_atomic(json.dumps(doc, indent=1).encode(), FOLDER, STATE, sync=True)


def exists(files: Files) -> bool:
    return files.exists(FOLDER, STATE) or files.exists(FOLDER, ARRAYS)


def load(files: Files) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The checkpoint's arrays and state; :class:`CheckpointError` if it is damaged."""
    where = files.url(FOLDER)
    try:
        doc = json.loads(files.read_bytes(FOLDER, STATE))
        data = files.read_bytes(FOLDER, ARRAYS)
    except FileNotFoundError as e:
        missing = STATE if not files.exists(FOLDER, STATE) else ARRAYS
        raise CheckpointError(f"damaged checkpoint in {where}: {missing} is missing") from e
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"damaged checkpoint in {where}: {type(e).__name__}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CheckpointError(f"damaged checkpoint in {where}: not a {FORMAT}")
    if hashlib.sha256(data).hexdigest() != doc.get("arrays_sha256"):
        raise CheckpointError(f"damaged checkpoint in {where}: {ARRAYS} does not match its SHA-256")
    with np.load(io.BytesIO(data)) as z:
        arrays = {k: z[k] for k in z.files}
    return arrays, doc
