"""Ctrl-C while a local cluster starts: blocked in the thread that starts its processes (:mod:`.workers`,
:mod:`.forkserver`), held in the main thread until the start is done (:mod:`.session`).

A module of its own, free of :mod:`distributed`, so that the thread that starts
the fork server can block SIGINT before this process has imported Dask (the
fork server starts first, and Dask is imported while it prepares).
"""
from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator
from typing import Any


def block_sigint_in_this_thread() -> None:
    """Block SIGINT in the calling thread, and so in the threads and processes it starts from now on.

    A signal sent to the whole process is delivered to a thread that does not
    block it, so the main thread still gets Ctrl-C.
    """
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold a Ctrl-C that comes while the block runs, and act on it when the block ends.

    A local cluster interrupted while its workers start cannot be closed
    cleanly (Dask's exit hook then trips over workers half started, with a
    traceback); one fully started can.  So the start, a second or two, finishes
    first; a second Ctrl-C stops waiting for it.  Outside the main thread, where
    no handler can be set, nothing is held.
    """
    held: list[int] = []

    def hold(signum: int, frame: object) -> None:
        if held:                         # Ctrl-C again: the start seems stuck, stop now
            raise KeyboardInterrupt
        held.append(signum)

    with signal_handled(signal.SIGINT, hold) as old:
        yield
    if held and callable(old):
        old(signal.SIGINT, None)         # Python's own handler raises KeyboardInterrupt


@contextlib.contextmanager
def signal_handled(signum: int, handler: Callable[[int, Any], None]) -> Iterator[Any]:
    """Handle ``signum`` with ``handler`` for the duration of the block, then restore the handler it replaced
    (which it yields).  Outside the main thread, where no handler can be set, nothing changes (None)."""
    try:
        old = signal.signal(signum, handler)
    except ValueError:                   # not the main thread
        yield None
        return
    try:
        yield old
    finally:
        signal.signal(signum, old)
