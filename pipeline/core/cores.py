"""The cores this process may run on: what ``--workers`` with no value means, and its cap.

A module of its own, importing nothing but :mod:`os`: the command line asks it before its fork server starts
(:func:`pipeline.batch.forkserver.start_ahead`), first thing, when nothing else is loaded yet.

>>> available_cores() >= 1
True
"""
from __future__ import annotations

import os

__all__ = ["available_cores"]


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
