"""The ``pokerpipe`` console script's first step, before the command line loads.

A command that builds datasets on local workers has its cluster's fork server started here
(:func:`pipeline.batch.forkserver.start_ahead`), before the command line imports Typer, Click, Rich and
the command's own modules (0.25 s): the server's imports (numpy, Arrow, numba and numba's start, 0.6 s of
CPU) then run on another core from the process's first instant, and the cluster is ready sooner after the
command has planned its run.  The command itself still asks for the server where it always did
(:func:`jobs.options.ahead`), which finds it started; a server no run uses is stopped when the command
ends (:func:`jobs.main.entry`).  Nothing but :mod:`os`, :mod:`pipeline.core.numba_start` and the fork server's
module is imported here.
"""
from __future__ import annotations

import sys

# the commands that build datasets on local workers, each calling jobs.options.ahead first thing
# (tests/cli/test_launch.py holds this list to the commands' own code)
BUILDERS = frozenset({"ehs-table", "holdem-weights", "matchups", "odds-table", "preflop-grid", "tables",
                      "vs-random"})


def builds_locally(argv: list[str]) -> bool:
    """Whether the command line ``argv`` (without the program's name) builds datasets on local workers: a
    command of :data:`BUILDERS`, no ``--scheduler`` (a cluster elsewhere) and no help asked for.

    >>> builds_locally(["tables", "abstraction/turn", "--workers", "8"])
    True
    >>> builds_locally(["tables", "--scheduler", "tcp://10.0.0.5:8786"]), builds_locally(["cards", "As"])
    (False, False)
    """
    command = next((a for a in argv if not a.startswith("-")), None)
    if command not in BUILDERS:
        return False
    return not any(a in ("--help", "-h") or a == "--scheduler" or a.startswith("--scheduler=") for a in argv)


def entry() -> None:
    """Console-script entry: the fork server first when the command will use one, then the command line
    (:func:`jobs.main.entry`).  numba's start, when the command's first kernel loads, skips SciPy
    (:func:`pipeline.core.numba_start.start_numba_without_scipy`)."""
    try:
        from pipeline.core.numba_start import start_numba_without_scipy

        start_numba_without_scipy()
        if builds_locally(sys.argv[1:]):
            from pipeline.batch.forkserver import start_ahead

            start_ahead()
        from jobs.main import entry as run
    except KeyboardInterrupt:            # Ctrl-C while the command line itself is still importing
        print("pokerpipe: interrupted", file=sys.stderr)
        sys.exit(130)
    run()
