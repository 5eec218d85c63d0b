"""The tasks of a :class:`~.pool.Pool` whose arguments are all at hand, in the order free workers take them.

Of the ready tasks, the one of highest ``priority`` goes first, else the one submitted first; a task pinned to
one worker (:meth:`~.pool.Pool.run_each`) waits for that worker.

A task submitted with ``hold`` (a part's write, which takes its pieces' results) waits while other tasks are
ready, unless more held tasks are ready than :attr:`Ready.limit` (the pool's workers: each held task keeps
its arguments' files meanwhile).  The end of a run is then filled with writes that can all run at once,
instead of the writes of the parts whose pieces came last waiting on those pieces while the other workers
idle.  Replayed from abstraction/turn's measured tasks (its 1-worker run: 658 pieces of 0.02-0.36 s, 83
writes of 0.2-0.3 s, each after its part's pieces; workers joining 5 ms apart; issue 38): 64 workers 2.03
-> 1.80 s, 16 workers 6.17 -> 5.99 s, against 1.57 and 5.67 s were no worker ever idle; holding every write
to the end would give 1.79 and 5.98 s with all 83 parts' pieces kept at once.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from .handoff import TaskFuture

__all__ = ["Ready", "Task"]


class Task:
    """A submitted function call: what it runs, where it stands, and the futures it takes as arguments."""

    __slots__ = ("fn", "args", "kwargs", "priority", "hold", "order", "future", "waiting", "failures", "worker",
                 "inputs")

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict, priority: int, order: int,
                 hold: bool = False) -> None:
        self.fn, self.args, self.kwargs, self.priority, self.order = fn, args, kwargs, priority, order
        self.hold = hold
        self.future = TaskFuture()
        self.waiting = 0            # futures among the arguments not yet done
        self.failures = 0
        self.worker: Any = None     # for :meth:`Pool.run_each`: the one worker that must run it
        self.inputs: list[TaskFuture] = []     # the pool's futures among the arguments

    def finished(self) -> None:
        """Its arguments' files may go (:meth:`TaskFuture.release`)."""
        inputs, self.inputs = self.inputs, []
        for f in inputs:
            f.release()

    def key(self) -> tuple[int, int]:
        return -self.priority, self.order


class Ready:
    """The ready tasks: those to run now, and those held (:data:`Task.hold`) while others are ready."""

    def __init__(self, limit: int) -> None:
        self.limit = limit                                  # held tasks that may wait at once
        self._now: list[tuple[int, int, Task]] = []         # heaps by (-priority, order)
        self._held: list[tuple[int, int, Task]] = []

    def __len__(self) -> int:
        return len(self._now) + len(self._held)

    def push(self, task: Task) -> None:
        heapq.heappush(self._held if task.hold else self._now, (*task.key(), task))

    def pop(self) -> Task | None:
        """The next task to hand out, taken off; None when none is ready.  A held one goes first when more than
        :attr:`limit` are held, or when nothing else is ready."""
        if self._held and (len(self._held) > self.limit or not self._now):
            return heapq.heappop(self._held)[2]
        if self._now:
            return heapq.heappop(self._now)[2]
        return None

    def drain(self) -> list[Task]:
        """Every ready task, taken off (a closing pool's, or a failed one's)."""
        tasks = [item[2] for item in (*self._now, *self._held)]
        self._now.clear()
        self._held.clear()
        return tasks

    def pinned(self, worker: Any) -> list[Task]:
        """The tasks pinned to ``worker``, taken off (it died before running them)."""
        tasks = []
        for heap in (self._now, self._held):
            mine = [item for item in heap if item[2].worker is worker]
            if mine:
                heap[:] = [item for item in heap if item[2].worker is not worker]
                heapq.heapify(heap)
                tasks += [item[2] for item in mine]
        return tasks
