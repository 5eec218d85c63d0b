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
    """An executor that shows its tasks on a progress display; ``workers`` is how many run at once."""

    def __init__(self, inner: cf.Executor, progress: TaskProgress, label: str, workers: int) -> None:
        self.inner, self.progress, self.label, self.workers = inner, progress, label, workers

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        future = self.inner.submit(fn, *args, **kwargs)
        self.progress.expect(self.label, 1)
        future.add_done_callback(lambda _f: self.progress.finish(self.label, 1))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """The cluster outlives the executor: the session closes it."""
