"""A pool's workers forked by workers, as a tree: starting *n* workers takes about log2(n) forks one after the
other, not *n*.

Forked one after the other from the fork server, the workers of a local pool joined a run about 2-4 ms apart (a
fork of the prepared server, 1.4 ms of its CPU, and the client's request for it; measured by
``benchmarks/bench_scaling.py``'s join probe): the 64th began its first part 0.13-0.27 s after the first, the
256th about a second after, while the cores waited.  Here the server forks one worker, the root, and hands it
the pipes of the others; each worker forks half of the pipes it holds to a new worker, then half of the rest,
and so on (a binomial tree, :func:`split`), and then serves its own pipe.  Every fork copies the same prepared
process (the root is one), so a worker forked by a worker starts exactly as one forked by the server.

The client sees such a worker as a :class:`Branch`: its pid, which it sends first thing on its pipe, and a
``pidfd`` (Linux 5.3) for what a ``multiprocessing.Process`` gives a pool: the sentinel that says it ended,
``is_alive``, ``join``, ``kill`` (no other process can hold the pid meanwhile), and its exit code.  Its parent
collects it the moment it ends, by a thread for each child (a process that ended stays a zombie until its
parent collects it, and one whose parent ended first goes to the machine's first process, which in a container
may never collect it), leaves the exit code in the pool's spill folder, and ends only after its children; the
pool stops a tree's workers from the leaves up (:func:`depths`).  Where ``pidfd`` does not exist, a pool forks
every worker from the server, as before (:data:`TREE`).
"""
from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar

from ..core.files import open_regular, write_atomic
from .handoff import serve

__all__ = ["ROOT_MOST", "TREE", "Branch", "branch", "depths", "ended", "exit_file", "hello", "joined_after", "split"]

TREE = hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal") and sys.platform.startswith("linux")

# the workers one root starts: multiprocessing's fork server takes at most 256 descriptors with a process
# (``forkserver.MAXFDS_TO_SEND``), 4 of them its own, one a pipe
ROOT_MOST = 128

COLLECT_SECONDS = 0.2    # how long stopping waits for a worker's parent to collect it: it takes milliseconds

HELLO = struct.Struct("<qq")      # a worker's first message on its pipe, when forked by another: its pid, its parent's

T = TypeVar("T")


def split(others: Sequence[T]) -> list[Sequence[T]]:
    """The groups of ``others`` (the pipes a worker holds besides its own) that it forks a worker for, in the
    order it forks them: half (rounded up), then half of what is left, and so on; each forked worker serves the
    first pipe of its group and forks for the rest the same way.  The worker that is forked first gets the
    most, so every branch ends about when the others do.

    >>> split(list(range(7)))
    [[0, 1, 2, 3], [4, 5], [6]]
    """
    groups, rest = [], others
    while rest:
        half = (len(rest) + 1) // 2
        groups.append(rest[:half])
        rest = rest[half:]
    return groups


def joined_after(workers: int, fork: float) -> list[float]:
    """When each of ``workers`` workers started as one tree can serve, after the root: a worker serves once it
    has forked its groups (:func:`split`), ``fork`` seconds each, and a worker forked at ``t`` begins at
    ``t``.  For 64 workers the root forks 6 times, and every worker is ready 6 forks after the root began.

    >>> joined_after(4, 1.0)
    [2.0, 2.0, 2.0, 2.0]
    >>> joined_after(6, 1.0)
    [3.0, 3.0, 2.0, 3.0, 2.0, 3.0]
    """
    ready = [0.0] * workers

    def grow(first: int, size: int, at: float) -> None:
        t = at
        start = first + 1
        for group in split(range(start, first + size)):
            t += fork
            grow(group[0], len(group), t)
        ready[first] = t

    if workers:
        grow(0, workers, 0.0)
    return ready


def branch(own: Connection, others: list[Connection], spill: str) -> None:
    """A root worker's life (forked by the fork server): fork the workers of ``others`` (the far ends of the
    client's pipes, :func:`split`), serve ``own``, then wait for the workers it forked to end."""
    reapers = _fork(own, others, spill)
    try:
        serve(own, spill)
    finally:
        _collect(reapers)


def hello(conn: Connection) -> tuple[int, int]:
    """The pid, and its parent's, that a worker forked by another sends first on its pipe (EOFError: it was
    never forked)."""
    data = conn.recv_bytes()
    if len(data) != HELLO.size:
        raise EOFError("not a worker's first message")
    pid, parent = HELLO.unpack(data)
    return int(pid), int(parent)


def exit_file(spill: str, pid: int) -> str:
    """Where the parent of the worker ``pid`` (forked by a worker) leaves its exit code once it has ended."""
    return os.path.join(spill, f"exit-{pid}")


def _fork(own: Connection, others: Sequence[Connection], spill: str) -> list[threading.Thread]:
    """Fork a worker for each group of ``others``, and a thread for each that collects it as soon as it ends
    (:func:`_reap`); the threads.  This process keeps ``own`` alone."""
    children = []
    for group in split(others):
        pid = os.fork()
        if pid == 0:
            _forked(own, others, group, spill)
        children.append(pid)
        for conn in group:
            conn.close()
    reapers = [threading.Thread(target=_reap, args=(pid, spill), name=f"pokerpipe-reap-{pid}", daemon=True)
               for pid in children]
    for thread in reapers:
        thread.start()
    return reapers


def _forked(parent: Connection, everyone: Sequence[Connection], group: Sequence[Connection], spill: str) -> None:
    """A worker forked by a worker: it closes the pipes not its group's, forks for the rest of its group, says
    its pid, serves the group's first pipe, waits for its children and ends (never returning to its parent's
    code)."""
    code = 1
    try:
        parent.close()
        for conn in everyone:
            if conn not in group:           # (by identity: a Connection has no equality of its own)
                conn.close()
        own = group[0]
        reapers = _fork(own, group[1:], spill)
        try:
            own.send_bytes(HELLO.pack(os.getpid(), os.getppid()))
            serve(own, spill)
        finally:
            _collect(reapers)
        code = 0
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _reap(pid: int, spill: str) -> None:
    """Collect the child ``pid`` once it ends, at once (a process that ends is a zombie until its parent
    collects it; a parent that ended first would leave it to the machine's first process, which in a container
    may never collect it), and leave its exit code where the pool reads it (:func:`exit_file`).  Only this
    child: a task's own child processes stay its own to wait for."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    with contextlib.suppress(OSError):
        write_atomic(exit_file(spill, pid), str(code).encode())


def _collect(reapers: list[threading.Thread]) -> None:
    """Wait for this worker's children (told to end as it was, or killed by the pool) to be collected."""
    for thread in reapers:
        thread.join()


def _readable(fd: int, timeout: float | None) -> bool:
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    except (OSError, ValueError):
        return True          # closed: it has been dealt with


class Branch:
    """A worker forked by another worker, as the pool handles it (what it uses of ``multiprocessing.Process``).
    Its ``pidfd`` is the sentinel, readable once the process has ended, and closed with this object."""

    __slots__ = ("pid", "parent", "sentinel", "_spill", "_code", "__weakref__")

    def __init__(self, pid: int, parent: int, spill: str) -> None:
        self.pid, self.parent, self._spill = pid, parent, spill
        self.sentinel = os.pidfd_open(pid)
        self._code: int | None = None
        weakref.finalize(self, _close, self.sentinel)

    def is_alive(self) -> bool:
        return not _readable(self.sentinel, 0)

    def join(self, timeout: float | None = None) -> None:
        _readable(self.sentinel, timeout)

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(self.sentinel, signal.SIGKILL)

    def collected(self, timeout: float) -> bool:
        """Whether its parent has collected it (its exit code left for the pool), waiting ``timeout`` seconds
        at most."""
        path, end = exit_file(self._spill, self.pid), time.monotonic() + timeout
        while not os.path.exists(path):
            if time.monotonic() >= end:
                return False
            time.sleep(0.001)
        return True

    @property
    def exitcode(self) -> int | None:
        """As ``multiprocessing.Process.exitcode``: None while it runs; its exit status, or minus the signal
        that ended it, as its parent collected it."""
        if self._code is None and not self.is_alive() and self.collected(0.5):
            with contextlib.suppress(OSError, ValueError), open_regular(exit_file(self._spill, self.pid)) as f:
                self._code = int(f.read())
        return self._code


def depths(processes: Sequence[T]) -> list[list[T]]:
    """``processes`` (a pool's: ``multiprocessing.Process`` or :class:`Branch`) by their depth in the trees
    they were forked in, the deepest first: the order to stop them in, each after its children, so that every
    worker that ends is collected by its parent, still alive (:func:`_reap`).

    >>> class P:
    ...     def __init__(self, pid, parent=None): self.pid, self.parent = pid, parent
    >>> [[p.pid for p in level] for level in depths([P(1), P(2, 1), P(3, 2), P(4, 1)])]
    [[3], [2, 4], [1]]
    """
    parent = {p.pid: getattr(p, "parent", None) for p in processes}    # type: ignore[attr-defined]

    def depth(pid: int) -> int:
        seen = 0
        while parent.get(pid) in parent and seen < len(parent):
            pid, seen = parent[pid], seen + 1          # type: ignore[assignment]
        return seen

    levels: dict[int, list[T]] = {}
    for p in processes:
        levels.setdefault(depth(p.pid), []).append(p)          # type: ignore[attr-defined]
    return [levels[d] for d in sorted(levels, reverse=True)]


def ended(processes: Sequence[Branch | BaseProcess], kill: bool, seconds: float) -> None:
    """End a pool's ``processes``, told to end (a second at most each, ``seconds``, then killed) or, ``kill``,
    killed now; each tree from its leaves up (:func:`depths`), every worker collected by its parent before the
    parent is stopped."""
    for level in depths(processes):
        for p in level:
            if kill:
                with contextlib.suppress(Exception):
                    p.kill()
        for p in level:
            p.join(0 if kill else seconds)
            if p.is_alive():
                with contextlib.suppress(Exception):
                    p.kill()
                p.join(seconds)
            if isinstance(p, Branch):
                p.collected(COLLECT_SECONDS)


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)
