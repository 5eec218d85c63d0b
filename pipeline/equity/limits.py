"""How much work an equity question may take on: the limits the front ends share, and the checks of a budget.

The hold'em calculator (:mod:`.calculator`) chooses exact enumeration up to :data:`EXACT_WORK_LIMIT`
hand evaluations and :data:`DEFAULT_TRIALS` Monte Carlo trials beyond; the Omaha front
(:mod:`pipeline.omaha.equity`), the odds (:mod:`pipeline.strength.win_odds`) and the ``vs-random`` dataset's
estimate refuse work by the same numbers.  :func:`check_budget` checks a Monte Carlo budget (refusing work beyond a day,
:mod:`pipeline.core.budget`) and :func:`thread_count` the threads asked for.  Apart from the calculator so
that the other games take its limits without its paths.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np

from ..core.budget import refuse_beyond, refuse_count
from ..core.cards import CardError
from ..core.cores import available_cores
from ..core.inputs import integer, shown

__all__ = ["EXACT_WORK_LIMIT", "EXACT_SECONDS_LIMIT", "DEFAULT_TRIALS", "MAX_TRIALS", "MC_TRIALS_PER_SECOND",
           "CHUNK_TRIALS", "MAX_PLAYERS", "MAX_THREADS", "check_budget", "thread_count"]

EXACT_WORK_LIMIT = 1_000_000_000
EXACT_SECONDS_LIMIT = 3600.0           # even --exact is refused when estimated above an hour on the threads
DEFAULT_TRIALS = 1_000_000
MAX_TRIALS = 10**15                   # about a year at 30 M trials/s: refused above, as beyond reason
MC_TRIALS_PER_SECOND = 100e6          # Monte Carlo trials a second on one thread, above the fastest measured (41.5 M
                                      # heads-up, docs/measured.md): work refused at it is certainly beyond a day
CHUNK_TRIALS = 1 << 16                # trials per chunk: its own RNG stream, one merge, one interrupt check
MAX_PLAYERS = 10
MAX_THREADS = 4096                    # threads one process may ask for


def thread_count(requested: Optional[int]) -> int:
    """Threads to run on: ``requested``, or every core when None."""
    if requested is None:
        return available_cores()
    return integer(requested, "threads", 1, MAX_THREADS, error=CardError, strict=True)


def check_budget(trials: Optional[int], seed: int, stderr: Optional[float], seconds: Optional[float],
                 workers: int = 1, rate: float = MC_TRIALS_PER_SECOND) -> None:
    """One :class:`CardError` line on a Monte Carlo budget of the wrong type or out of bounds, and
    :class:`~pipeline.core.budget.TooMuchWork` on ``trials`` or ``seconds`` beyond a day on ``workers``
    threads at ``rate`` trials a second each (shared by every game; a ``stderr`` target is judged by its
    pilot, :class:`~pipeline.core.budget.TargetWatch`)."""
    for name, count in (("trials", trials), ("seed", seed)):
        if count is not None and (isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer))):
            raise CardError(f"{name} must be an integer, got {shown(count)}")
    for name, number in (("stderr target", stderr), ("time budget", seconds)):
        if number is not None and (isinstance(number, (bool, np.bool_)) or not isinstance(number, (int, float))):
            raise CardError(f"{name} must be a number, got {shown(number)}")
    if trials is not None and trials <= 0:
        raise CardError(f"trials must be positive, got {trials}")
    if trials is not None and trials > MAX_TRIALS:
        raise CardError(f"{trials:,} trials is beyond reason (at most {MAX_TRIALS:,}); "
                        "use --stderr TARGET or --time SECONDS to bound the work")
    if not 0 <= seed < 2**63:
        raise CardError(f"seed must be 0 to 2**63-1, got {seed}")
    if stderr is not None and not (0.0 < stderr < 1.0):
        raise CardError(f"stderr target must be above 0 and below 1 (e.g. 0.001), got {stderr}")
    if seconds is not None and not (0.0 < seconds < math.inf):
        raise CardError(f"time budget must be a positive number of seconds, got {seconds}")
    if trials is not None:
        refuse_count(trials, rate, f"Monte Carlo of {trials:,} trials on {workers} thread{'s' if workers > 1 else ''}",
                     "fewer trials, or a --stderr or --time target", workers)
    if seconds is not None:
        refuse_beyond(seconds, f"a time budget of {seconds:,.0f} seconds", "a time budget of at most a day")
