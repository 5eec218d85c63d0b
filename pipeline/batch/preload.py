"""What a local cluster's workers inherit: imported once in the process they are forked from.

A local cluster's workers are forked from a server process (multiprocessing's
``forkserver`` start method; :mod:`.session`) that imports this module first.
Importing it prepares, in that server, the datasets the session listed in the
environment variable :data:`PREPARE` (their :meth:`~.spec.Dataset.prepare`:
modules, compiled kernels, cached tables) and marks them prepared, so that
every worker forked afterwards starts with them loaded, sharing the pages
(copy on write): a worker's start costs a fork, not seconds of imports and
kernel loading each.  A server started ahead of its list (the command line
starts it first thing) does its imports and numba's start first, and then
waits for the list on a pipe (:func:`awaited`).

Nothing here may stop the server: a dataset that cannot be prepared is left
to prepare itself in each worker, before its first part, as on a cluster of
separately started workers.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import sys
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any

from ..core.numba_start import numba_started

PREPARE = "POKERPIPE_PREPARE"      # the environment variable: a file of the (dataset, sample) pairs to prepare
AHEAD = "pipe:"     # ...or, for a server started ahead of its list, this and the descriptor its file's path comes down
PR_SET_CHILD_SUBREAPER = 36      # prctl(2)'s option: orphaned descendants are handed to this process


@contextlib.contextmanager
def listed(prepare: Sequence[tuple[Any, Any]]) -> Iterator[dict[str, str]]:
    """Within the block, a temporary file holds the ``(dataset, sample)`` pairs (a file, not the value itself:
    an environment variable is capped at 128 kB, and a sample may hold arrays); yields the environment that
    names it to the fork server (:data:`PREPARE`).

    The file holds this process's module search path beside the pairs, each pickled on its own
    (:func:`listing`): the server finds a dataset's module where this process found it, and one pair it
    cannot read loses only itself."""
    from ..core.files import write_atomic

    folder = tempfile.mkdtemp(prefix="pokerpipe-prepare-")
    path = os.path.join(folder, "prepare.pickle")
    try:
        write_atomic(path, listing(prepare))
        yield {PREPARE: path}
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def listing(prepare: Sequence[tuple[Any, Any]]) -> bytes:
    """The bytes of a :data:`PREPARE` file: the module search path this process's workers are given, and each
    ``(dataset, sample)`` pair pickled apart (:func:`.handoff.pickled`: a dataset of the program's ``__main__``
    by value).

    multiprocessing gives a worker this process's ``sys.path`` when it forks it, but the fork server itself
    ignored it until Python 3.12.8 and 3.13.1 (CPython gh-117378), so a dataset whose class lives in a folder
    this process added to its path (a test module, a user's script beside its data) did not unpickle in the
    server, and with it the whole list: nothing was prepared there, and every worker prepared every dataset
    itself, all at once (in CI, two workers compiling the same kernels for 94 s of CPU each, where the server
    would have compiled them once for both)."""
    from multiprocessing import spawn

    from .handoff import pickled

    search = spawn.get_preparation_data("pokerpipe-prepare")["sys_path"]    # what a forked worker is given
    return pickle.dumps((search, [pickled(pair) for pair in prepare]), pickle.HIGHEST_PROTOCOL)


def read_listing(data: bytes) -> list[tuple[Any, Any]]:
    """The pairs of a :func:`listing`, read with its search path as this process's (the path its workers will
    have: a module found here is the one they would find).  A pair that does not unpickle is left out (the
    workers prepare it themselves), and so are the modules its attempt imported: a worker inherits this
    process's modules, and one found here by another name's folder (a namespace package of the working
    folder) would stand in its way."""
    search, blobs = pickle.loads(data)
    sys.path[:] = search
    pairs = []
    for blob in blobs:
        before = set(sys.modules)
        try:
            pairs.append(pickle.loads(blob))
        except Exception:                  # noqa: BLE001 - the workers prepare it, and fail there if they must
            for name in set(sys.modules) - before:
                sys.modules.pop(name, None)
    return pairs


def prepare_listed(path: str | None) -> int:
    """Prepare in this process the datasets of the file a :data:`PREPARE` value names, each with its sample
    piece of work; how many were prepared."""
    if not path:
        return 0
    from ..core.files import open_regular
    from .parts import prepared

    done = 0
    try:
        with open_regular(path) as f:
            pairs = read_listing(f.read())
    except Exception:                      # noqa: BLE001 - a lost list only loses the head start
        return 0
    for ds, sample in pairs:
        try:
            prepared(ds, sample)
            done += 1
        except Exception:                  # noqa: BLE001 - the worker prepares it again, and fails there if it must
            pass
    return done


def awaited(fd: int) -> str | None:
    """The path of the file of what to prepare, read from the pipe ``fd`` once the command that started this
    server ahead (:func:`.forkserver.start_ahead`) hands it over, ended by a NUL
    (:func:`.forkserver.handed_bytes`); None where the pipe ends without one (the command found nothing to
    compute, or ended).  First, while the command plans, what does not depend on the datasets: numba's own
    start (:func:`numba_started`), which the first kernel a process loads would do, and the parts of Arrow
    every worker uses (``pyarrow.compute``, ``pyarrow.parquet``): done here, they are off the cluster's start
    wherever the command plans for longer than they take."""
    numba_started()
    with contextlib.suppress(ImportError):
        import pyarrow.compute  # noqa: F401 - what a part's first cast imports (0.05-0.08 s)
        import pyarrow.parquet  # noqa: F401 - what every part's write imports (0.04-0.05 s)
    got = b""
    try:
        while not got.endswith(b"\0") and (chunk := os.read(fd, 4096)):
            got += chunk
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)                    # not handed on to the workers
    return os.fsdecode(got[:-1]) if got.endswith(b"\0") and len(got) > 1 else None


def adopting() -> bool:
    """Make this process, the fork server, the one a worker's own workers are handed to when their parent ends
    before them (Linux's ``PR_SET_CHILD_SUBREAPER``; not inherited by the workers): the pool starts its workers
    as a tree (:mod:`.branches`), and a worker killed mid-run (the kernel's out-of-memory killer picks the
    largest process) left the workers it had forked to the machine's first process, which in a container
    may never collect them: each stayed a zombie once stopped.  The server's own loop collects any child that
    ends (multiprocessing's ``forkserver`` waits for any pid); its warning about a pid it did not fork itself
    is silenced here.  False where the call does not exist."""
    import ctypes
    import sys
    import warnings

    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    warnings.filterwarnings("ignore", message="forkserver: waitpid returned unexpected pid")
    return True


def ready() -> None:
    """A process that does nothing: started through the fork server, it returns once the server has imported
    and prepared everything, so that the cluster's own start forks at once (:func:`.forkserver.forked`)."""


def frozen() -> None:
    """Move every object this process holds now out of the garbage collector's reach (``gc.freeze``), so that
    a forked worker's collections never walk them: a walk writes to each object's header, so that the kernel
    copies every page of the server's heap the worker shares (copy on write), tens of milliseconds of a
    worker's CPU before its first part (0.04-0.13 s against 0.03-0.05 s frozen), and as much again in its
    tasks wherever a collection came.  What the server prepared lives as long as the workers anyway."""
    import gc

    gc.freeze()


_listed = os.environ.pop(PREPARE, None)     # read once, by the fork server, and not handed on to its workers
if _listed:
    adopting()
    if _listed.startswith(AHEAD):
        _fd = _listed[len(AHEAD):]
        _listed = awaited(int(_fd)) if _fd.isascii() and _fd.isdigit() else None     # numba started meanwhile
    else:
        numba_started()
if _listed:
    prepare_listed(_listed)
    frozen()
