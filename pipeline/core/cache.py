"""The disk cache: built tables and compiled kernels, under ``$POKERPIPE_CACHE`` or ``~/.cache/pokerpipe``.

Everything pokerpipe caches lives in one folder per package version,
:func:`cache_dir` (``~/.cache/pokerpipe/0.1.0``), never inside the installed
package: site-packages may be read-only, and files left there by one install
break the next (a leftover ``pipeline/`` folder imports as a namespace
package ahead of an editable checkout).  Numba's compiled kernels go to
:func:`numba_cache_dir` (``pipeline/__init__`` points ``NUMBA_CACHE_DIR``
there unless the user set it).

Tables that take seconds to build (the evaluator's, the 47,008 matchup
classes, video poker's per-family tables) are saved once as ``.npz`` files.
A cached file carries a SHA-256 of its arrays; a file that is missing,
truncated, damaged or holds other arrays is rebuilt, saying so once on stderr,
so a bad cache never breaks a command and never gives a wrong number.
"""
from __future__ import annotations

import hashlib
import io
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .files import PathKindError, make_folders, open_regular, write_atomic
from .version import __version__

if TYPE_CHECKING:
    import numpy as np

# numpy is imported where the tables are read and written, not here: ``pipeline/__init__`` asks this module
# where numba's cache is, and the command line's first act (its fork server, started before anything else is
# loaded: :func:`pipeline.batch.forkserver.start_ahead`) must not wait for numpy

DIGEST = "__sha256__"


def cache_root() -> Path:
    """pokerpipe's cache folder: ``$POKERPIPE_CACHE`` or ``~/.cache/pokerpipe``."""
    return Path(os.environ.get("POKERPIPE_CACHE") or Path.home() / ".cache" / "pokerpipe")


def cache_dir() -> Path:
    """Where this version's built tables are cached: ``<cache root>/<package version>``."""
    return cache_root() / __version__


def numba_cache_dir() -> Path:
    """Where this copy's compiled numba kernels are cached: ``<cache_dir()>/numba/<sources digest>``.

    Numba checks a cached kernel against its own file's time stamp only, not against the kernels it calls
    from other files: after an edit to ``evaluator/kernels.py`` a cached caller in ``equity/`` would still
    run the old callee, compiled in.  Keying the folder by every source file of the package (its path,
    size and modification time: a stat each, no reads) gives an edited checkout a fresh folder, so no
    kernel outlives a change to anything it calls.  An installed copy never changes, so it keeps one.
    """
    return cache_dir() / "numba" / sources_digest()


def sources_digest() -> str:
    """12 hex digits over the package's ``.py`` files: relative path, size and modification time of each."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(root).as_posix()}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:12]


def arrays_digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 over the arrays' names, dtypes, shapes and bytes, in name order."""
    import numpy as np

    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _read(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays at ``path`` if the file is whole and its digest matches, else None."""
    import numpy as np

    try:
        with open_regular(path) as raw, np.load(raw, allow_pickle=False) as f:   # a folder, FIFO, link: one line
            arrays = {k: f[k] for k in f.files}
    except (OSError, PathKindError):      # missing, unreadable where it lies, a folder or a FIFO (never waited
        return None                       # on): build, nothing to report (an unusable cache only costs time)
    except Exception:                     # truncated, not a zip, bad CRC, bad header ...
        return {}
    digest = arrays.pop(DIGEST, None)
    if digest is None or str(digest) != arrays_digest(arrays):
        return {}
    return arrays


def load_or_build(path: Path, build: Callable[[], dict[str, np.ndarray]],
                  fields: set[str] | None = None) -> dict[str, np.ndarray]:
    """Arrays saved at ``path`` (an ``.npz``), or ``build()``'s dict of arrays, saved there now.

    ``fields``, when given, are the array names a valid file must hold.  The file
    is written atomically (:func:`~.files.write_atomic`), so concurrent processes
    never read half a file; an unwritable cache just rebuilds each time.
    """
    got = _read(path)
    if got and (fields is None or set(got) == set(fields)):
        return got
    if got is not None:
        print(f"pokerpipe: cached table {path} was damaged or stale; rebuilding it", file=sys.stderr)
    import numpy as np

    arrays = build()
    payload: dict[str, Any] = {**arrays, DIGEST: np.array(arrays_digest(arrays))}
    buf = io.BytesIO()
    np.savez(buf, **payload)
    try:
        make_folders(path.parent)
        write_atomic(path, buf.getvalue())
    except (OSError, PathKindError):
        pass
    return arrays
