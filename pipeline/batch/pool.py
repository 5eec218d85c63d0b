"""A local cluster without Dask: worker processes forked from the prepared fork server, fed by one thread.

A run on this machine needs none of what a distributed scheduler is for (workers on other machines, data
moved between them, a dashboard), and paid for it on every worker and every task: the client process runs
Dask's scheduler and every nanny on one event loop, and spent 7 ms of its CPU on each worker joining and
1.8-2.9 ms on each task (abstraction/turn: 741 tasks; docs/measured.md, issue 38) — at 64 workers, the pace
of the whole run.  A :class:`Pool` spends a fork server's fork on a worker (its client about 0.3 ms of CPU)
and a pickle each way on a task (about 0.1 ms).

* **Workers** are forked one after the other by a thread of their own, from the server that prepared the
  run's datasets (:mod:`.forkserver`): the first starts computing while the others are still being forked.
  They inherit the server's SIGINT block (:mod:`.workers`), so that Ctrl-C is the command's alone.
* **Tasks** go to the next free worker, of the ready ones the highest ``priority`` first, else in the order
  submitted.  A task's argument that is another task's future is replaced by that task's result once it is
  done (the task waits until then).
* **Big results stay out of this process.**  A result of more than :data:`SPILL_BYTES` pickled is written
  by its worker to a file of the pool's folder (in ``/dev/shm``, memory, where it exists) and only its name
  comes back; a task that takes it as an argument reads it there, and the file is removed once every such
  task has finished (``future.result()`` reads it too, until then).  A part's pieces (abstraction/turn: 894
  MB in 658 pieces) went through this process twice, pickled and unpickled: 2.8 s of its CPU on a run of
  45 s on 2 workers.
* **A worker that dies** (killed, out of memory) has its task sent to another worker, and a new worker is
  forked in its place; a task that has killed :data:`ALLOWED_FAILURES` workers fails (as Dask's
  ``KilledWorker``).
* **Closing** tells the workers to end; an abandoned run (:meth:`Pool.stop`) kills them at once: what they
  compute would be thrown away, and a part is written whole or not at all.

It is a :class:`concurrent.futures.Executor`, the kind domain code is given (:mod:`.fanout`).
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import heapq
import itertools
import os
import pickle
import selectors
import shutil
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures.process import _ExceptionWithTraceback
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["ALLOWED_FAILURES", "Pool", "WorkerDied", "pickled"]

SPILL_BYTES = 1 << 16   # a result pickled larger than this (a pipe's buffer) waits in a file for the task taking it
ALLOWED_FAILURES = 3     # workers a task may kill before it fails (Dask's distributed.scheduler.allowed-failures)
STOP_SECONDS = 1.0       # how long closing waits for a worker to end after it was told to


class WorkerDied(RuntimeError):
    """A task's worker process ended while running it, :data:`ALLOWED_FAILURES` times."""


class _Spilled:
    """A result a worker left in a file (:data:`SPILL_BYTES`): its path."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def load(self) -> Any:
        from ..core.files import open_regular

        with open_regular(self.path) as f:
            ok, value = pickle.loads(f.read())
        return value


class _Future(cf.Future):
    """A pool task's future: a result left in a file (:class:`_Spilled`) is read by :meth:`result`."""

    def __init__(self) -> None:
        super().__init__()
        self.consumers = 0           # tasks that take this future as an argument and have not finished

    def result(self, timeout: float | None = None) -> Any:
        value = super().result(timeout)
        if not isinstance(value, _Spilled):
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
        if isinstance(value, _Spilled):
            with contextlib.suppress(OSError):
                os.unlink(value.path)

    def raw(self) -> Any:
        """The result as the worker sent it: a :class:`_Spilled` stays one (another task reads it)."""
        return super().result()


class _Task:
    __slots__ = ("fn", "args", "kwargs", "priority", "order", "future", "waiting", "failures", "worker", "inputs")

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict, priority: int, order: int) -> None:
        self.fn, self.args, self.kwargs, self.priority, self.order = fn, args, kwargs, priority, order
        self.future = _Future()
        self.waiting = 0            # futures among the arguments not yet done
        self.failures = 0
        self.worker: Any = None     # for :meth:`Pool.run_each`: the one worker that must run it
        self.inputs: list[_Future] = []     # this pool's futures among the arguments

    def finished(self) -> None:
        """Its arguments' files may go (:meth:`_Future.release`)."""
        inputs, self.inputs = self.inputs, []
        for f in inputs:
            f.release()

    def key(self) -> tuple[int, int]:
        return -self.priority, self.order


class _Worker:
    __slots__ = ("process", "conn", "fd", "task", "done")

    def __init__(self, process: Any, conn: Connection) -> None:
        self.process, self.conn, self.fd = process, conn, conn.fileno()
        self.task: _Task | None = None
        self.done = 0               # tasks it has finished


def _name(fn: Any) -> str:
    """A task's function for a message (a ``functools.partial`` has no ``__name__``)."""
    return str(getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", None) or repr(fn))


def _fail(task: _Task, error: BaseException) -> None:
    """End ``task`` with ``error`` (cancelled, if it never started and ``error`` is a cancellation), unless it
    has ended; its arguments' files may go.  Never under the pool's lock: the future's callbacks take it."""
    future = task.future
    if not future.done():
        if isinstance(error, cf.CancelledError) and future.cancel():
            pass
        elif future.running() or future.set_running_or_notify_cancel():
            with contextlib.suppress(cf.InvalidStateError):
                future.set_exception(error)
    task.finished()


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


def _serve(conn: Connection, spill: str) -> None:
    """A worker's life: run each ``(fn, args, kwargs)`` it is sent (an argument a :class:`_Spilled` read from
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
            args = tuple(a.load() if isinstance(a, _Spilled) else a for a in args)
            result = fn(*args, **kwargs)
            try:
                reply = pickle.dumps((True, result), pickle.HIGHEST_PROTOCOL)
            except Exception as e:        # noqa: BLE001 - a result that cannot be pickled
                raise RuntimeError(f"cannot send back the result of {getattr(fn, '__name__', fn)}: "
                                   f"{type(e).__name__}: {e}") from None
            if len(reply) > SPILL_BYTES:
                path = os.path.join(spill, f"{os.getpid()}-{n}.pickle")
                write_atomic(path, reply)
                reply = pickle.dumps((True, _Spilled(path)), pickle.HIGHEST_PROTOCOL)
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


class Pool(cf.Executor):
    """``workers`` processes of the multiprocessing ``context`` (the fork server's), started at once, one after
    the other, and one thread that hands them tasks.  ``started()`` waits for the first."""

    def __init__(self, workers: int, context: Any) -> None:
        self._context = context
        self._wanted = self._size = workers                 # workers to fork in all; workers asked for
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._ready: list[tuple[int, int, _Task]] = []      # heap of tasks whose arguments are all at hand
        self._workers: list[_Worker] = []
        self._joined: list[_Worker] = []                    # forked, not yet seen by the dispatcher
        self._order = itertools.count()
        self._closing = False
        self._deaths = 0                                    # workers that ended unasked before finishing a task
        self._wake_lock = threading.Lock()
        self._wake_pending = False                          # a wake byte is in the pipe, not yet read
        self._error: BaseException | None = None            # the spawner's, raised by submit
        self._spill = _spill_folder()
        self._wake_r: Connection
        self._wake_r, self._wake_w = context.Pipe(duplex=False)
        self._dispatcher = threading.Thread(target=self._dispatch, name="pokerpipe-pool", daemon=True)
        self._spawner = threading.Thread(target=self._spawn, name="pokerpipe-pool-spawn", daemon=True)
        self._dispatcher.start()
        self._spawner.start()

    # ----------------------------------------------------------------------- the interface

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        """Run ``fn(*args, **kwargs)`` on a worker; its future."""
        return self.task(fn, args, kwargs)

    def task(self, fn: Callable[..., Any], args: tuple = (), kwargs: dict | None = None,
             priority: int = 0) -> cf.Future:
        """:meth:`submit` with a ``priority`` (of ready tasks, the highest first); a future of this pool among
        ``args`` is replaced by its result, and the task waits for it (it fails with it)."""
        task = _Task(fn, tuple(args), dict(kwargs or {}), priority, next(self._order))
        depends = [a for a in task.args if isinstance(a, cf.Future)]
        with self._lock:
            if self._closing:
                raise RuntimeError("the pool is closed")
            if self._error is not None:
                raise self._error
            task.waiting = len(depends)
        for d in depends:
            if isinstance(d, _Future):
                with d._condition:
                    d.consumers += 1
                task.inputs.append(d)
        if not depends:
            self._push(task)
        for d in depends:
            d.add_done_callback(functools.partial(self._argument_done, task))
        return task.future

    def started(self, timeout: float | None = None) -> None:
        """Wait until the first worker's process exists (its fork done); the spawner's error if it failed."""
        with self._changed:
            self._changed.wait_for(lambda: bool(self._workers or self._joined) or self._error is not None, timeout)
            if self._error is not None:
                raise self._error

    def run_each(self, fn: Callable[[], Any], timeout: float | None = None) -> dict[int, Any]:
        """``fn()`` on every worker (once all have started), by pid: a look inside each (tests, benchmarks)."""
        with self._changed:
            self._changed.wait_for(self._all_started, timeout)
            workers = [*self._workers, *self._joined]
        futures = {}
        for w in workers:
            task = _Task(fn, (), {}, 1 << 30, next(self._order))
            task.worker = w
            futures[w.process.pid] = task.future
            self._push(task)
        return {pid: f.result(timeout) for pid, f in futures.items()}

    def grow(self, workers: int) -> None:
        """Fork ``workers`` more workers (a benchmark's measure of what a worker's start costs)."""
        with self._lock:
            self._wanted += workers
            self._size += workers
            self._changed.notify_all()

    def pids(self) -> list[int]:
        """The worker processes' ids, as started so far."""
        with self._lock:
            return [w.process.pid for w in (*self._workers, *self._joined)]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Tell the workers to end once their running task is done (``wait``: wait for them, a second each at
        most, then kill them); tasks not started are cancelled."""
        self._close(kill=False, wait=wait)

    def stop(self) -> None:
        """End the pool now: the workers are killed, tasks not finished cancelled (an abandoned run)."""
        self._close(kill=True, wait=True)

    # ----------------------------------------------------------------------- inside

    def _argument_done(self, task: _Task, _argument: cf.Future) -> None:
        with self._lock:
            task.waiting -= 1
            if task.waiting:
                return
        failed = next((a for a in task.args if isinstance(a, cf.Future) and (a.cancelled() or a.exception())), None)
        if failed is not None:
            if failed.cancelled():
                task.future.cancel()
            else:
                if task.future.set_running_or_notify_cancel():
                    task.future.set_exception(failed.exception())
            task.finished()
            return
        task.args = tuple(a.raw() if isinstance(a, _Future) else a.result() if isinstance(a, cf.Future) else a
                          for a in task.args)
        self._push(task)

    def _push(self, task: _Task) -> None:
        with self._lock:
            error: BaseException | None = None
            if self._closing:
                error = cf.CancelledError("the pool was closed")
            elif self._error is not None and not (self._workers or self._joined):
                error = self._error                # no worker left, and none can be forked
            else:
                heapq.heappush(self._ready, (*task.key(), task))
        if error is not None:
            _fail(task, error)
        else:
            self._wake()

    def _wake(self) -> None:
        """Wake the dispatcher; one byte in the pipe at most (a full pipe would block the writer, the
        dispatcher itself among them)."""
        with self._wake_lock:
            if self._wake_pending:
                return
            self._wake_pending = True
        with contextlib.suppress(OSError, ValueError):
            self._wake_w.send_bytes(b"")

    def _spawn(self) -> None:
        """Fork workers until there are as many as wanted; the dispatcher takes each as it comes."""
        count = 0
        while True:
            with self._changed:
                self._changed.wait_for(self._spawning(count))
                if self._closing or self._error is not None:
                    return
            mine, theirs = self._context.Pipe()
            process = self._context.Process(target=_serve, args=(theirs, self._spill), name=f"pokerpipe-worker-{count}",
                                            daemon=True)
            try:
                process.start()
            except BaseException as e:            # noqa: BLE001 - submit and started raise it
                with self._changed:
                    self._error = RuntimeError(f"cannot start a worker process: {type(e).__name__}: {e}")
                    self._changed.notify_all()
                    stranded = [] if self._workers or self._joined else [item[2] for item in self._ready]
                    if stranded:
                        self._ready.clear()
                for task in stranded:              # no worker left to run them
                    _fail(task, self._error)
                mine.close()
                self._wake()
                return
            finally:
                theirs.close()
            count += 1
            with self._changed:
                self._joined.append(_Worker(process, mine))
                self._changed.notify_all()
            self._wake()

    def _all_started(self) -> bool:
        return len(self._workers) + len(self._joined) >= self._size or self._error is not None

    def _spawning(self, count: int) -> Callable[[], bool]:
        return lambda: self._closing or self._error is not None or count < self._wanted

    def _dispatch(self) -> None:
        """Hand ready tasks to free workers, take results back, replace workers that die.  The workers' pipes
        and process sentinels stay registered with one selector (``epoll`` on Linux): a loop's cost is that of
        what happened, not of how many workers there are.  Should this thread fail, every task fails with it
        (no future is left waiting for ever)."""
        selector = selectors.DefaultSelector()
        try:
            self._dispatch_with(selector)
        except BaseException as e:         # noqa: BLE001 - a bug here must not leave futures pending
            with self._changed:
                self._error = RuntimeError(f"the pool's dispatcher failed: {type(e).__name__}: {e}")
                self._changed.notify_all()
                tasks = [item[2] for item in self._ready] + [w.task for w in self._workers if w.task is not None]
                self._ready.clear()
            for task in tasks:
                _fail(task, self._error)
        finally:
            selector.close()

    def _dispatch_with(self, selector: selectors.BaseSelector) -> None:
        selector.register(self._wake_r.fileno(), selectors.EVENT_READ, None)
        idle: list[_Worker] = []
        while True:
            with self._lock:
                if self._closing:
                    return
                for w in self._joined:
                    selector.register(w.fd, selectors.EVENT_READ, w)
                    selector.register(w.process.sentinel, selectors.EVENT_READ, w)
                    self._workers.append(w)
                    idle.append(w)
                self._joined.clear()
                failed = self._assign(idle)
            for task, error in failed:
                _fail(task, error)
            for key, _ in selector.select():
                worker = key.data
                if worker is None:
                    self._woken()
                elif worker in self._workers:          # (both its pipe and its sentinel may say it died)
                    if self._hear(worker):
                        idle.append(worker)
                    elif worker not in self._workers:
                        for fd in (worker.fd, worker.process.sentinel):
                            with contextlib.suppress(KeyError, ValueError, OSError):
                                selector.unregister(fd)
                        with contextlib.suppress(OSError):
                            worker.conn.close()
                        with contextlib.suppress(ValueError):
                            idle.remove(worker)

    def _woken(self) -> None:
        """Drain the pipe, then allow the next wake: cleared first, a wake between the two had its byte drained
        and left the flag set, so that no later wake sent one, and the dispatcher slept for ever (a close
        waiting on it: a hang found in CI)."""
        with contextlib.suppress(EOFError, OSError):
            while self._wake_r.poll():
                self._wake_r.recv_bytes()
        with self._wake_lock:
            self._wake_pending = False

    def _assign(self, idle: list[_Worker]) -> list[tuple[_Task, BaseException]]:
        """Under the lock: each free worker of ``idle`` gets the best ready task it may run (and leaves the
        list); the tasks that could not be sent, with why (their futures are failed outside the lock: their
        callbacks take it)."""
        failed: list[tuple[_Task, BaseException]] = []
        for w in list(idle):
            if not self._ready:
                break
            held = []
            while self._ready:
                item = heapq.heappop(self._ready)
                task = item[2]
                if task.worker is not None and task.worker is not w:
                    held.append(item)
                    continue
                if task.future.cancelled() or not (task.future.running() or task.future.set_running_or_notify_cancel()):
                    failed.append((task, cf.CancelledError()))     # cancelled while it waited: its files go
                    continue
                try:
                    message = pickled((task.fn, task.args, task.kwargs))
                except BaseException as e:  # noqa: BLE001 - the task cannot be pickled: its failure
                    failed.append((task, e))
                    continue
                try:
                    w.conn.send_bytes(message)
                except (OSError, ValueError):
                    held.append(item)      # the worker has died: its sentinel says so next
                    break
                w.task = task
                idle.remove(w)
                break
            for item in held:
                heapq.heappush(self._ready, item)
        return failed

    def _hear(self, worker: _Worker) -> bool:
        """A worker's result, or its death; whether it is free for another task."""
        try:
            if not worker.conn.poll():
                raise EOFError
            message = worker.conn.recv_bytes()
        except (EOFError, OSError):
            self._lost(worker)
            return False
        task, worker.task = worker.task, None
        try:
            ok, value = pickle.loads(message)
        except BaseException as e:        # noqa: BLE001 - a result this process cannot unpickle
            ok, value = False, RuntimeError(f"cannot read a task's result back: {type(e).__name__}: {e}")
        worker.done += 1
        if task is None:
            return True
        if ok:
            task.future.set_result(value)
        else:
            task.future.set_exception(value)
        task.finished()
        return True

    def _lost(self, worker: _Worker) -> None:
        """A worker ended unasked (or its pipe did: it is killed, so that it cannot go on writing a part that
        another worker then writes too): its task goes to another worker (or fails), and another is forked."""
        with contextlib.suppress(Exception):
            worker.process.kill()
        worker.process.join(1.0)
        failed: list[tuple[_Task, BaseException]] = []
        with self._changed:
            if worker in self._workers:
                self._workers.remove(worker)
            task, worker.task = worker.task, None
            if task is not None:
                task.failures += 1
                if task.failures >= ALLOWED_FAILURES or task.worker is not None:
                    failed.append((task, WorkerDied(
                        f"a worker process ended while running {_name(task.fn)} ({task.failures} time"
                        f"{'s' if task.failures > 1 else ''}; the last exit code {worker.process.exitcode})")))
                else:
                    heapq.heappush(self._ready, (*task.key(), task))
            pinned = [item for item in self._ready if item[2].worker is worker]     # run_each's, for this one
            if pinned:
                self._ready = [item for item in self._ready if item[2].worker is not worker]
                heapq.heapify(self._ready)
                failed += [(item[2], WorkerDied("the worker ended before running it")) for item in pinned]
            if worker.done == 0:
                self._deaths += 1
            if self._deaths > 2 * self._size + ALLOWED_FAILURES:     # they die as they start: stop forking
                self._error = WorkerDied(f"worker processes keep ending as they start ({self._deaths}; the last "
                                         f"exit code {worker.process.exitcode})")
                failed += [(item[2], self._error) for item in self._ready]
                self._ready.clear()
            elif not self._closing:
                self._wanted += 1        # the spawner forks one more
            self._changed.notify_all()
        for t, error in failed:          # their callbacks take the lock
            _fail(t, error)

    def _close(self, kill: bool, wait: bool) -> None:
        """Stop the threads (once), then end every task not finished and the workers (again, if a Ctrl-C cut an
        earlier close short: what it left alive is killed now)."""
        with self._changed:
            first = not self._closing
            self._closing = True
            self._changed.notify_all()
        if first:
            self._wake()
            self._dispatcher.join()
            self._spawner.join()
        with self._changed:
            pending = [item[2] for item in self._ready]
            self._ready.clear()
            workers = [*self._workers, *self._joined]
        closed = cf.CancelledError("the pool was closed")
        for task in pending + [w.task for w in workers if w.task is not None]:
            _fail(task, closed)
        for w in workers:
            if kill:
                with contextlib.suppress(Exception):
                    w.process.kill()
            else:
                with contextlib.suppress(Exception):
                    w.conn.send_bytes(pickle.dumps(None))
        if wait:
            for w in workers:
                w.process.join(0 if kill else STOP_SECONDS)
                if w.process.is_alive():
                    with contextlib.suppress(Exception):
                        w.process.kill()
                    w.process.join(STOP_SECONDS)
        for w in workers:
            with contextlib.suppress(Exception):
                w.conn.close()
        for c in (self._wake_r, self._wake_w):
            with contextlib.suppress(Exception):
                c.close()
        shutil.rmtree(self._spill, ignore_errors=True)


SPILL_PREFIX = "pokerpipe-pool-"


def _spill_folder() -> str:
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
