"""The one fan-out: work mapped over an executor, each finished task shown on the run's progress display.

Domain code that parallelises takes a ``concurrent.futures.Executor`` and calls
``executor.map(fn, items)`` (pokerkit's pattern); it never sees Dask.  The
executor it is given is a :class:`ProgressExecutor`: the local pool
(:class:`~.pool.Pool`), or a Dask cluster's own executor
(``Client.get_executor``, tasks not deduplicated), whose tasks advance
one bar of the :class:`~.session.Progress` display as they finish.  The
runner (:mod:`.runner`) submits its partitions through the same class.
"""
from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from typing import Any, Protocol


class TaskProgress(Protocol):
    """What a :class:`ProgressExecutor` reports to (the session's progress display)."""

    def expect(self, label: str, tasks: int) -> None:
        """``tasks`` more tasks of ``label`` were submitted."""
        ...

    def finish(self, label: str, tasks: int) -> None:
        """``tasks`` tasks of ``label`` finished."""
        ...


class ProgressExecutor(cf.Executor):
    """An executor that shows its tasks on a progress display; ``workers`` is how many run at once, each on
    its own core (what the time of a run on it divides by)."""

    def __init__(self, inner: cf.Executor, progress: TaskProgress, label: str, workers: int) -> None:
        self.inner, self.progress, self.label, self.workers = inner, progress, label, workers

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        future = self.inner.submit(fn, *args, **kwargs)
        self.progress.expect(self.label, 1)
        future.add_done_callback(self._ended)
        return future

    def _ended(self, future: Any) -> None:
        """A task ended: shown as finished only if it computed its result.  A run abandoned (Ctrl-C, a failure)
        cancels or loses its other tasks at once: counted, they made the bar's last frame claim nearly all the
        work done (``play`` stopped at 6 of 250 tasks showed 248/250)."""
        if succeeded(future):
            self.progress.finish(self.label, 1)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """The cluster outlives the executor: the session closes it."""


def succeeded(future: Any) -> bool:
    """Whether a future that has ended ended with its result: not cancelled, not failed (its worker lost or
    killed).  A ``concurrent.futures`` future (the local pool's, a Dask executor's) or a Dask future, asked by
    its ``status`` (``"finished"``; else ``"error"``, ``"cancelled"``, ``"lost"``) without a call back to the
    scheduler."""
    status = getattr(future, "status", None)
    if isinstance(status, str):
        return status == "finished"
    return not future.cancelled() and future.exception() is None
