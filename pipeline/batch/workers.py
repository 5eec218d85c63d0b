"""The worker processes of a local cluster: they leave Ctrl-C to the command that started them.

A terminal's Ctrl-C sends SIGINT to the whole process group, and the local
cluster's worker processes are in it.  Left to Python's default, each worker
raises KeyboardInterrupt — in its event loop, or in the middle of its imports
when the run has just started — and prints a thirty-line traceback before the
command can say ``pokerpipe: interrupted``.  The command is the one that
handles the interrupt: it cancels the run and closes the cluster, which stops
the workers (:func:`stop_workers`).

So a local cluster's worker processes are started with SIGINT blocked.  A
local pool's (:mod:`.pool`) fork from a server started by a thread that
blocks it (:mod:`.forkserver`), and keep that mask.  On a Dask cluster with
its dashboard, a :class:`QuietNanny` blocks it in the thread that starts them (the cluster's
event-loop thread, never the main thread, so the command still sees Ctrl-C
at every moment); the threads that thread creates, and the processes they
fork, inherit the signal mask, and a new Python process keeps it.  Blocked
from their first instruction, the workers never see SIGINT; SIGTERM and the
nanny's own stop still end them.  (Starting multiprocessing's resource
tracker unblocks SIGINT in the thread that starts it, so it is started first.)

This module imports :mod:`distributed`; :mod:`.session` imports it only when
it starts a local cluster.
"""
from __future__ import annotations

import asyncio
from multiprocessing import resource_tracker
from typing import Any

from distributed import Nanny

from .sigint import block_sigint_in_this_thread

STOP_SECONDS = 0.1       # how long a worker gets to finish its task when a run is abandoned, before it is killed


class QuietNanny(Nanny):
    """A nanny whose worker process starts (and restarts) with SIGINT blocked."""

    async def instantiate(self) -> Any:
        """Start the worker process from this (event-loop) thread with SIGINT blocked in it."""
        resource_tracker.ensure_running()     # started later, it would unblock SIGINT in this thread
        block_sigint_in_this_thread()
        return await super().instantiate()


def stop_workers(cluster: Any, seconds: float = STOP_SECONDS) -> None:
    """Stop a local cluster's workers now, not after their running tasks: the run was abandoned (Ctrl-C, a
    failure), so what they compute would be thrown away, and a part is written whole or not at all."""
    async def stop() -> None:
        await asyncio.gather(*(w.close(timeout=seconds) for w in list(cluster.workers.values())),
                             return_exceptions=True)

    cluster.sync(stop)
