"""Knowing when numba compiles: the first use of a kernel after an install or an upgrade.

pokerpipe's kernels are compiled by numba on first use and cached on disk
(:func:`pipeline.core.cache.numba_cache_dir`), so a later run loads them in
milliseconds.  The first run of a command after an install or an upgrade
compiles them instead, which takes from seconds to two minutes (the Omaha
kernels), and a command that printed nothing meanwhile looked hung.

Numba announces a compilation through its event API: the ``numba:compile``
event starts only when a dispatcher has no compiled code for a signature
*and* its disk cache had none either (a cache hit loads without the event).
:func:`on_first_compile` calls back once, at the first such event, in
whatever thread compiles, so a front end can say what is happening before
the wait, and nothing when every kernel comes from the cache.

>>> calls = []
>>> with on_first_compile(lambda where: calls.append(where)):
...     pass                      # nothing compiled: no call
>>> calls
[]
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from numba.core import event

COMPILE_EVENT = "numba:compile"


class _FirstCompile(event.Listener):
    """Calls ``callback(module of the kernel)`` at the first compilation it hears of, then never again."""

    def __init__(self, callback: Callable[[str], None]) -> None:
        self.callback = callback
        self.heard = False
        self.lock = threading.Lock()

    def on_start(self, ev: Any) -> None:
        with self.lock:
            if self.heard:
                return
            self.heard = True
        dispatcher = (ev.data or {}).get("dispatcher")
        self.callback(str(getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""))

    def on_end(self, ev: Any) -> None:
        pass


@contextmanager
def on_first_compile(callback: Callable[[str], None]) -> Iterator[None]:
    """Within the block, call ``callback(module)`` once, when numba first compiles a kernel (cache misses
    only), with the module of that kernel (``pipeline.omaha.montecarlo``, say)."""
    listener = _FirstCompile(callback)
    event.register(COMPILE_EVENT, listener)
    try:
        yield
    finally:
        event.unregister(COMPILE_EVENT, listener)


__all__ = ["COMPILE_EVENT", "on_first_compile"]
