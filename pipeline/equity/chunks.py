"""Run numbered chunks of work on an optional executor, merged in order, stoppable.

The equity kernels release the GIL, so chunks run in threads.  The calling
thread only submits chunks, waits on them with a short timeout (so Ctrl-C is
seen within a fraction of a second) and merges finished chunks *in index
order*: a stopping rule that looks at the merged results (a standard-error
target) therefore stops at the same chunk whatever the number of threads.
At most ``2 * workers`` chunks are in flight, so memory stays flat however
many chunks a run has.  Following pokerkit's pattern, the caller may pass a
``concurrent.futures.Executor``; without one, a thread pool is made for the
call (or, for one thread, the chunks run inline).
"""
from __future__ import annotations

import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Callable, Optional, TypeVar

import numpy as np

T = TypeVar("T")
Progress = Callable[[int, Optional[int], float, str], None]   # (done, total, seconds, unit)

POLL_SECONDS = 0.1


def run_chunks(task: Callable[[int], T], merge: Callable[[int, T], bool], count: Optional[int],
               executor: Optional[Executor] = None, workers: int = 1) -> int:
    """Run ``task(0), task(1), ...`` (``count`` chunks, or until ``merge`` returns True when
    ``count`` is None) and pass each result to ``merge(i, result)`` in index order.

    Returns the number of chunks merged.  An exception in a task or in the
    caller (KeyboardInterrupt included) cancels the chunks not yet started
    and propagates.
    """
    if executor is None and workers > 1 and count != 1:
        with ThreadPoolExecutor(workers) as pool:
            try:
                return _run(task, merge, count, pool, workers)
            finally:
                pool.shutdown(wait=False, cancel_futures=True)
    if executor is None:
        done = 0
        while count is None or done < count:
            stop = merge(done, task(done))
            done += 1
            if stop:
                break
        return done
    return _run(task, merge, count, executor, workers)


def _run(task: Callable[[int], T], merge: Callable[[int, T], bool], count: Optional[int], executor: Executor,
         workers: int) -> int:
    pending: dict[int, Future] = {}
    submitted = merged = 0
    try:
        while True:
            while len(pending) < 2 * max(workers, 1) and (count is None or submitted < count):
                pending[submitted] = executor.submit(task, submitted)
                submitted += 1
            if merged not in pending:
                return merged
            future = pending[merged]
            while True:
                try:
                    result = future.result(timeout=POLL_SECONDS)
                    break
                except FutureTimeout:
                    continue
            del pending[merged]
            stop = merge(merged, result)
            merged += 1
            if stop:
                return merged
    finally:
        for f in pending.values():
            f.cancel()


ExactKernel = Callable[[int, int, np.ndarray, np.ndarray], tuple[int, float]]


def chunked_exact(bounds: np.ndarray, kernel: ExactKernel, shape: tuple[int, ...],
                  progress: Optional[Progress], unit: str,
                  executor: Optional[Executor] = None, workers: int = 1) -> tuple[np.ndarray, np.ndarray, int, float]:
    """An exact enumeration cut at ``bounds`` (chunk ``i`` is ``bounds[i]..bounds[i+1]``), run by
    :func:`run_chunks` and summed in index order: ``kernel(start, stop, counts, wcounts)`` adds its
    chunk's integer counts and weighted sums to the zeroed arrays of ``shape`` (int64, float64) and
    returns ``(boards, weighted boards)``.  Chunks are merged in index order, so for given
    ``bounds`` the result is the same whatever the threads or executor (the integer counts are
    the same for any ``bounds``; the float sums' rounding follows the cut).  After each merged chunk
    ``progress(bounds[i + 1], bounds[-1], seconds, unit)`` is called.

    Returns ``(counts, wcounts, boards, weighted boards)``.
    """
    counts = np.zeros(shape, np.int64)
    wcounts = np.zeros(shape, np.float64)
    totals: list = [0, 0.0]
    total = int(bounds[-1])
    start = time.monotonic()

    def task(i: int) -> tuple:
        c = np.zeros(shape, np.int64)
        w = np.zeros(shape, np.float64)
        nb, wb = kernel(int(bounds[i]), int(bounds[i + 1]), c, w)
        return c, w, nb, wb

    def merge(i: int, got: tuple) -> bool:
        c, w, nb, wb = got
        counts[:] += c
        wcounts[:] += w
        totals[0] += int(nb)
        totals[1] += float(wb)
        if progress is not None:
            progress(int(bounds[i + 1]), total, time.monotonic() - start, unit)
        return False

    run_chunks(task, merge, len(bounds) - 1, executor, workers)
    return counts, wcounts, int(totals[0]), float(totals[1])
