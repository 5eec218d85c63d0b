"""Blocking Ctrl-C in the thread that starts a local cluster's processes (:mod:`.workers`, :mod:`.session`).

A module of its own, free of :mod:`distributed`, so that the thread that starts
the fork server can block SIGINT before this process has imported Dask (the
fork server starts first, and Dask is imported while it prepares).
"""
from __future__ import annotations

import signal


def block_sigint_in_this_thread() -> None:
    """Block SIGINT in the calling thread, and so in the threads and processes it starts from now on.

    A signal sent to the whole process is delivered to a thread that does not
    block it, so the main thread still gets Ctrl-C.
    """
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
