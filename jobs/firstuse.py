"""The one line a command prints when it compiles its kernels: first use after an install or an upgrade.

numba compiles pokerpipe's kernels the first time a command needs them and
caches them on disk; until then a command may print nothing for up to two
minutes (the Omaha kernels), which looks like a hang.  When numba starts to
compile (:func:`pipeline.core.compiling.on_first_compile`: cache misses
only), the command says so once, on stderr, with the time the compilation
took on the project's 2-core machine (:data:`FIRST_USE_SECONDS`):

    pokerpipe: compiling kernels, about 25 seconds, once per version (first use; cached in ~/.cache/pokerpipe/0.1.0)

A run whose kernels all come from the cache prints nothing, and neither does
a command given ``--quiet``, a command whose first use takes a few seconds, a
batch command (its workers compile, under the progress bar it shows at
once), or any command when ``POKERPIPE_COMPILE_NOTICE=0`` (logs that must
stay byte-stable; the test suite).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import ContextManager, Optional

from pipeline.core.budget import duration

SWITCH = "POKERPIPE_COMPILE_NOTICE"      # "0": never print the line

# Wall seconds a command's first run takes beyond a warm one (kernels compiled, tables built: a fresh
# POKERPIPE_CACHE), measured with benchmarks/bench_first_use.py on the project's 2-core AMD EPYC (Zen 5) at load
# 2-4, so upper bounds there; the costliest of the command's usual forms (equity: heads-up exact, Monte Carlo,
# three-handed on a flop, ranges).  Keys: the command, or for equity the command and its game's family.
FIRST_USE_SECONDS: dict[str, float] = {
    "equity": 19.0, "equity omaha": 25.0, "equity shortdeck": 17.0, "ehs": 7.5, "odds": 18.0, "outs": 2.6,
    "play": 18.0, "videopoker": 7.6, "exploit": 49.0, "range": 0.0, "bucket": 2.9, "solve": 4.4,
}
DEFAULT_SECONDS = 60.0                   # a command not measured
QUICK_SECONDS = 5.0                      # a first use no longer than this goes unannounced
BATCH = frozenset({"tables", "matchups", "preflop-grid", "odds-table", "vs-random", "ehs-table", "holdem-weights",
                   "evolve"})            # their workers compile, under the progress bar the command shows at once


def command_key(args: list[str]) -> str:
    """The key of :data:`FIRST_USE_SECONDS` for a command line: its command, and for ``equity`` its game's
    family (``equity omaha``, ``equity shortdeck``; hold'em is plain ``equity``)."""
    words = [a for a in args if not a.startswith("-")]
    command = words[0] if words else ""
    if command != "equity":
        return command
    game = _option(args, "--game", "-g") or "holdem"
    low = game.lower()
    if low.startswith(("omaha", "plo", "o8")):
        return "equity omaha"
    if low.startswith("shortdeck"):
        return "equity shortdeck"
    return "equity"


def _option(args: list[str], long: str, short: str) -> Optional[str]:
    """The value of an option in ``args`` (``--game X``, ``--game=X``, ``-g X``), or None."""
    for i, a in enumerate(args):
        if a in (long, short) and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(long + "="):
            return a.split("=", 1)[1]
    return None


def notice(args: list[str]) -> str:
    """The line printed for the command line ``args`` when its kernels compile."""
    from pipeline.core.cache import cache_dir

    seconds = FIRST_USE_SECONDS.get(command_key(args), DEFAULT_SECONDS)
    where = str(cache_dir()).replace(os.path.expanduser("~"), "~", 1)
    return (f"pokerpipe: compiling kernels, about {duration(seconds)}, once per version "
            f"(first use; cached in {where})")


def compile_notice(args: list[str]) -> ContextManager[None]:
    """Around a command's run: print :func:`notice` once if numba compiles in this process, unless ``--quiet``
    (``-q``) is given, ``POKERPIPE_COMPILE_NOTICE=0``, the command's first use was measured at
    :data:`QUICK_SECONDS` or less, or it is a batch command (:data:`BATCH`)."""
    key = command_key(args)
    if (os.environ.get(SWITCH, "1") == "0" or "--quiet" in args or "-q" in args or key in BATCH
            or FIRST_USE_SECONDS.get(key, DEFAULT_SECONDS) <= QUICK_SECONDS):
        return nullcontext()
    return _noticing(notice(args))


@contextmanager
def _noticing(line: str) -> Iterator[None]:
    from pipeline.core.compiling import on_first_compile

    def say(_module: str) -> None:
        print(line, file=sys.stderr, flush=True)

    with on_first_compile(say):
        yield
