"""A local cluster without Dask: worker processes forked from the prepared fork server, fed by one thread.

A run on this machine needs none of what a distributed scheduler is for (workers on other machines, data
moved between them, a dashboard), and paid for it on every worker and every task: the client process runs
Dask's scheduler and every nanny on one event loop, and spent 7 ms of its CPU on each worker joining and
1.8-2.9 ms on each task (abstraction/turn: 741 tasks; docs/measured.md, issue 38) — at 64 workers, the pace
of the whole run.  A :class:`Pool` spends a fork server's fork on a worker (its client about 0.3 ms of CPU)
and a pickle each way on a task (about 0.1 ms).

* **Workers** are forked by a thread of their own from the server that prepared the run's datasets
  (:mod:`.forkserver`); several at once (the pool's start) as a tree, the server forking one, which forks the
  others (:mod:`.branches`): 64 workers start in 6 forks one after the other, not 64.  They inherit the
  server's SIGINT block (:mod:`.workers`), so that Ctrl-C is the command's alone.
* **Tasks** go to the next free worker, of the ready ones the highest ``priority`` first, else in the order
  submitted; a task submitted with ``hold`` waits while others are ready, up to one per worker
  (:mod:`.ready`).  A task's argument that is another task's future is replaced by that task's result once
  it is done (the task waits until then).
* **Big results stay out of this process** (:mod:`.handoff`): a result of more than 64 kB pickled waits in a
  file (in ``/dev/shm``, memory) for the task that takes it as an argument.
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
import itertools
import multiprocessing.connection as mp_connection
import multiprocessing.process
import pickle
import selectors
import shutil
import threading
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from .branches import ROOT_MOST, TREE, Branch, branch, ended, hello
from .forkserver import discard_ahead
from .handoff import TaskFuture, pickled, spill_folder
from .ready import Ready, Task

__all__ = ["ALLOWED_FAILURES", "Pool", "WorkerDied"]

ALLOWED_FAILURES = 3     # workers a task may kill before it fails (Dask's distributed.scheduler.allowed-failures)
STOP_SECONDS = 1.0       # how long closing waits for a worker to end after it was told to


class WorkerDied(RuntimeError):
    """A task's worker process ended while running it, :data:`ALLOWED_FAILURES` times."""


class _Worker:
    __slots__ = ("process", "conn", "fd", "task", "done")

    def __init__(self, process: Any, conn: Connection) -> None:
        self.process, self.conn, self.fd = process, conn, conn.fileno()
        self.task: Task | None = None
        self.done = 0               # tasks it has finished


def _name(fn: Any) -> str:
    """A task's function for a message (a ``functools.partial`` has no ``__name__``)."""
    return str(getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", None) or repr(fn))


def _fail(task: Task, error: BaseException) -> None:
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


_POOLS: weakref.WeakSet[Pool] = weakref.WeakSet()     # this process's pools, for workers_alive


def _untracked(process: Any) -> None:
    """Take a started worker off multiprocessing's record of this process's children, which every later start
    walks, polling each child (``multiprocessing.process._cleanup``): forking *n* workers polled n²/2 times,
    about 25 µs each on the spawning thread (64 workers: 2,016 polls; 256: 32,640, 0.8 s).  The pool keeps its
    own record, joins and kills its workers itself, and :func:`workers_alive` answers for them."""
    children = getattr(multiprocessing.process, "_children", None)
    if isinstance(children, set):
        children.discard(process)


def workers_alive() -> bool:
    """Whether a worker of any pool of this process is alive (what ``multiprocessing.active_children`` said
    of them before :func:`_untracked`)."""
    return any(pool.alive() for pool in list(_POOLS))


class Pool(cf.Executor):
    """``workers`` processes of the multiprocessing ``context`` (the fork server's), started at once (as a tree:
    :mod:`.branches`), and one thread that hands them tasks.  ``started()`` waits for the first."""

    def __init__(self, workers: int, context: Any) -> None:
        if context.get_start_method() == "forkserver":
            discard_ahead()     # a server started ahead and never handed its list would never fork: a hang
        self._context = context
        self._wanted = self._size = workers                 # workers to fork in all; workers asked for
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._ready = Ready(workers)                        # tasks whose arguments are all at hand
        self._workers: list[_Worker] = []
        self._joined: list[_Worker] = []                    # forked, not yet seen by the dispatcher
        self._order = itertools.count()
        self._closing = False
        self._deaths = 0                                    # workers that ended unasked before finishing a task
        self._wake_lock = threading.Lock()
        self._wake_pending = False                          # a wake byte is in the pipe, not yet read
        self._error: BaseException | None = None            # the spawner's, raised by submit
        self._spill = spill_folder()
        self._wake_r: Connection
        self._wake_r, self._wake_w = context.Pipe(duplex=False)
        self._dispatcher = threading.Thread(target=self._dispatch, name="pokerpipe-pool", daemon=True)
        self._spawner = threading.Thread(target=self._spawn, name="pokerpipe-pool-spawn", daemon=True)
        self._dispatcher.start()
        self._spawner.start()
        _POOLS.add(self)

    # ----------------------------------------------------------------------- the interface

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        """Run ``fn(*args, **kwargs)`` on a worker; its future."""
        return self.task(fn, args, kwargs)

    def task(self, fn: Callable[..., Any], args: tuple = (), kwargs: dict | None = None,
             priority: int = 0, hold: bool = False) -> cf.Future:
        """:meth:`submit` with a ``priority`` (of ready tasks, the highest first), and ``hold``: once ready, the
        task waits while other tasks are ready, up to one such task per worker (:mod:`.ready`).  A future of
        this pool among ``args`` is replaced by its result, and the task waits for it (it fails with it)."""
        task = Task(fn, tuple(args), dict(kwargs or {}), priority, next(self._order), hold)
        depends = [a for a in task.args if isinstance(a, cf.Future)]
        with self._lock:
            if self._closing:
                raise RuntimeError("the pool is closed")
            if self._error is not None:
                raise self._error
            task.waiting = len(depends)
        for d in depends:
            if isinstance(d, TaskFuture):
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
            task = Task(fn, (), {}, 1 << 30, next(self._order))
            task.worker = w
            futures[w.process.pid] = task.future
            self._push(task)
        return {pid: f.result(timeout) for pid, f in futures.items()}

    def grow(self, workers: int) -> None:
        """Fork ``workers`` more workers (a benchmark's measure of what a worker's start costs)."""
        with self._lock:
            self._wanted += workers
            self._size += workers
            self._ready.limit = self._size          # held tasks that may wait: one a worker
            self._changed.notify_all()

    def alive(self) -> bool:
        """Whether one of its worker processes is alive."""
        with self._lock:
            workers = [*self._workers, *self._joined]
        return any(w.process.is_alive() for w in workers)

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

    def _argument_done(self, task: Task, _argument: cf.Future) -> None:
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
        task.args = tuple(a.raw() if isinstance(a, TaskFuture) else a.result() if isinstance(a, cf.Future) else a
                          for a in task.args)
        self._push(task)

    def _push(self, task: Task) -> None:
        with self._lock:
            error: BaseException | None = None
            if self._closing:
                error = cf.CancelledError("the pool was closed")
            elif self._error is not None and not (self._workers or self._joined):
                error = self._error                # no worker left, and none can be forked
            else:
                self._ready.push(task)
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
        """Fork workers until there are as many as wanted; the dispatcher takes each as it comes.  Several wanted
        at once (the pool's start, :meth:`grow`) start as a tree (:mod:`.branches`): the server forks one, which
        forks the others."""
        count = 0
        while True:
            with self._changed:
                self._changed.wait_for(self._spawning(count))
                if self._closing or self._error is not None:
                    return
                wanted = self._wanted - count
            pipes = [self._context.Pipe() for _ in range(min(wanted, ROOT_MOST) if TREE else 1)]
            theirs = [p[1] for p in pipes]
            process = self._context.Process(target=branch, args=(theirs[0], theirs[1:], self._spill),
                                            name=f"pokerpipe-worker-{count}", daemon=True)    # (a tree of one: serve)
            try:
                process.start()
                _untracked(process)
            except BaseException as e:            # noqa: BLE001 - submit and started raise it
                with self._changed:
                    self._error = RuntimeError(f"cannot start a worker process: {type(e).__name__}: {e}")
                    self._changed.notify_all()
                    stranded = [] if self._workers or self._joined else self._ready.drain()
                for task in stranded:              # no worker left to run them
                    _fail(task, self._error)
                for mine, _ in pipes:
                    mine.close()
                self._wake()
                return
            finally:
                for conn in theirs:
                    conn.close()
            count += 1
            self._join(_Worker(process, pipes[0][0]))
            count += self._branches([mine for mine, _ in pipes[1:]])

    def _join(self, worker: _Worker) -> None:
        with self._changed:
            self._joined.append(worker)
            self._changed.notify_all()
        self._wake()

    def _branches(self, pending: list[Connection]) -> int:
        """Take in the workers of a tree as each says its pid (:func:`.branches.hello`); how many did (a pipe
        that ends first is a worker that was never forked: its parent died, and it is forked again)."""
        joined = 0
        while pending:
            if self._closing:
                for conn in pending:
                    conn.close()
                break
            for ready in mp_connection.wait(pending, timeout=0.1):
                conn = next(c for c in pending if c is ready)
                pending.remove(conn)
                try:
                    worker = _Worker(Branch(*hello(conn), self._spill), conn)
                except (EOFError, OSError):
                    conn.close()
                    continue
                joined += 1
                self._join(worker)
        return joined

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
                tasks = self._ready.drain() + [w.task for w in self._workers if w.task is not None]
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

    def _assign(self, idle: list[_Worker]) -> list[tuple[Task, BaseException]]:
        """Under the lock: each free worker of ``idle`` gets the best ready task it may run (and leaves the
        list); the tasks that could not be sent, with why (their futures are failed outside the lock: their
        callbacks take it)."""
        failed: list[tuple[Task, BaseException]] = []
        for w in list(idle):
            if not self._ready:
                break
            other = []                     # pinned to another worker
            while (task := self._ready.pop()) is not None:
                if task.worker is not None and task.worker is not w:
                    other.append(task)
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
                    other.append(task)     # the worker has died: its sentinel says so next
                    break
                w.task = task
                idle.remove(w)
                break
            for task in other:
                self._ready.push(task)
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
        code = worker.process.exitcode      # (read before the lock: a worker a worker forked leaves it in a file)
        failed: list[tuple[Task, BaseException]] = []
        with self._changed:
            if worker in self._workers:
                self._workers.remove(worker)
            task, worker.task = worker.task, None
            if task is not None:
                task.failures += 1
                if task.failures >= ALLOWED_FAILURES or task.worker is not None:
                    failed.append((task, WorkerDied(
                        f"a worker process ended while running {_name(task.fn)} ({task.failures} time"
                        f"{'s' if task.failures > 1 else ''}; the last exit code {code})")))
                else:
                    self._ready.push(task)
            failed += [(t, WorkerDied("the worker ended before running it")) for t in self._ready.pinned(worker)]
            if worker.done == 0:
                self._deaths += 1
            if self._deaths > 2 * self._size + ALLOWED_FAILURES:     # they die as they start: stop forking
                self._error = WorkerDied(f"worker processes keep ending as they start ({self._deaths}; the last "
                                         f"exit code {code})")
                failed += [(t, self._error) for t in self._ready.drain()]
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
            pending = self._ready.drain()
            workers = [*self._workers, *self._joined]
        closed = cf.CancelledError("the pool was closed")
        for task in pending + [w.task for w in workers if w.task is not None]:
            _fail(task, closed)
        for w in workers:
            if not kill:
                with contextlib.suppress(Exception):
                    w.conn.send_bytes(pickle.dumps(None))
        if kill or wait:
            ended([w.process for w in workers], kill, STOP_SECONDS)
        for w in workers:
            with contextlib.suppress(Exception):
                w.conn.close()
        for c in (self._wake_r, self._wake_w):
            with contextlib.suppress(Exception):
                c.close()
        shutil.rmtree(self._spill, ignore_errors=True)
