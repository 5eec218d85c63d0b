"""What passes between a :class:`~.pool.Pool` and its worker processes: tasks pickled one way, results the
other, and results too big for a pipe left in files.

* A task goes as the pickle of ``(fn, args, kwargs)`` (:func:`pickled`); a worker (:func:`serve`) sends back
  ``(True, result)`` or ``(False, exception)``, the exception with the worker's traceback as its cause.
* A result of more than :data:`SPILL_BYTES` pickled is written by its worker to a file of the pool's folder
  (:func:`spill_folder`: in ``/dev/shm``, memory, where it exists), and only its name (:class:`Spilled`) comes
  back.  A task taking it as an argument reads it there; :class:`TaskFuture` counts those tasks and removes
  the file when the last has finished.  A part's pieces (abstraction/turn: 894 MB in 658 pieces) went
  through the pool's process twice, pickled and unpickled: 2.8 s of its CPU on a run of 45 s on 2 workers.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import itertools
import os
import pickle
import shutil
import tempfile
from concurrent.futures.process import _ExceptionWithTraceback
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["SPILL_BYTES", "Spilled", "TaskFuture", "pickled", "serve", "spill_folder"]

SPILL_BYTES = 1 << 16   # a result pickled larger than this (a pipe's buffer) waits in a file for the task taking it


class Spilled:
    """A result a worker left in a file (:data:`SPILL_BYTES`): its path."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def load(self) -> Any:
        from ..core.files import open_regular

        with open_regular(self.path) as f:
            ok, value = pickle.loads(f.read())
        return value


class TaskFuture(cf.Future):
    """A pool task's future: a result left in a file (:class:`Spilled`) is read by :meth:`result`."""

    def __init__(self) -> None:
        super().__init__()
        self.consumers = 0           # tasks that take this future as an argument and have not finished

    def result(self, timeout: float | None = None) -> Any:
        value = super().result(timeout)
        if not isinstance(value, Spilled):
            return value
        try:
            loaded = value.load()
        except FileNotFoundError:
            raise RuntimeError("this result was handed to the tasks that took it as an argument, and its "
                               "file removed when they finished") from None
        with self._condition:
            if self.consumers == 0:      # no task will read the file: keep the value, remove the file
                self._result = loaded
                with contextlib.suppress(OSError):
                    os.unlink(value.path)
        return loaded

    def release(self) -> None:
        """A task that took this future as an argument has finished: the last one removes its file."""
        with self._condition:
            self.consumers -= 1
            value = self._result if self.consumers == 0 else None
        if isinstance(value, Spilled):
            with contextlib.suppress(OSError):
                os.unlink(value.path)

    def raw(self) -> Any:
        """The result as the worker sent it: a :class:`Spilled` stays one (another task reads it)."""
        return super().result()


def pickled(obj: Any) -> bytes:
    """``obj`` (a task ``(fn, args, kwargs)``, the datasets to prepare) pickled for a worker or its server.
    What the program's ``__main__`` defines (a script's function or dataset class, a ``python -c``'s) goes
    by value, as Dask sends it (cloudpickle, where it is installed): the workers' server does not import the
    main module (:mod:`.forkserver`).  Pickle first, and cloudpickle only then: it takes twice pickle's time."""
    data = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    if b"__main__" in data:
        with contextlib.suppress(ImportError):
            import cloudpickle  # type: ignore[import-untyped]

            data = cloudpickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    return data


def serve(conn: Connection, spill: str) -> None:
    """A worker's life: run each ``(fn, args, kwargs)`` it is sent (an argument a :class:`Spilled` read from
    its file first) and send back ``(True, result)`` or ``(False, exception)``, a result of more than
    :data:`SPILL_BYTES` left in a file of the folder ``spill``; end at ``None`` or when the pool's end of the
    pipe closes."""
    from ..core.files import write_atomic

    for n in itertools.count():
        try:
            message = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            task = pickle.loads(message)
            if task is None:
                return
            fn, args, kwargs = task
            args = tuple(a.load() if isinstance(a, Spilled) else a for a in args)
            result = fn(*args, **kwargs)
            try:
                reply = pickle.dumps((True, result), pickle.HIGHEST_PROTOCOL)
            except Exception as e:        # noqa: BLE001 - a result that cannot be pickled
                raise RuntimeError(f"cannot send back the result of {getattr(fn, '__name__', fn)}: "
                                   f"{type(e).__name__}: {e}") from None
            if len(reply) > SPILL_BYTES:
                path = os.path.join(spill, f"{os.getpid()}-{n}.pickle")
                write_atomic(path, reply)
                reply = pickle.dumps((True, Spilled(path)), pickle.HIGHEST_PROTOCOL)
        except BaseException as e:        # noqa: BLE001 - the task's failure is its future's, not the worker's
            try:                          # with the worker's traceback as its cause, as concurrent.futures does
                reply = pickle.dumps((False, _ExceptionWithTraceback(e, e.__traceback__)),  # type: ignore[arg-type]
                                     pickle.HIGHEST_PROTOCOL)
            except Exception as why:      # noqa: BLE001 - an exception that cannot be pickled
                reply = pickle.dumps((False, RuntimeError(f"{type(e).__name__}: {e} (and it cannot be sent back: "
                                                          f"{type(why).__name__}: {why})")))
        try:
            conn.send_bytes(reply)
        except (EOFError, OSError):
            return


SPILL_PREFIX = "pokerpipe-pool-"


def spill_folder() -> str:
    """A new folder for the results workers leave in files: in ``/dev/shm`` (memory) where it can be written,
    else the temporary folder.  Folders a killed command left there (its pid in the name, no longer alive) are
    removed first: in ``/dev/shm`` they would hold memory until the machine restarts."""
    shm = "/dev/shm"
    base = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(base):
            pid = name[len(SPILL_PREFIX):].split("-")[0]
            if name.startswith(SPILL_PREFIX) and pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(os.path.join(base, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{SPILL_PREFIX}{os.getpid()}-", dir=base)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                       # another user's: alive
        return True
    return True
