"""Work of more than a day is refused before it starts, with the estimate that refused it.

A command that would run for days is almost always a typo (``--hands 5e10``
for ``5e5``); starting it silently costs the user the time to notice.  Each
job estimates its own cost from a rate above any measured (so that only work
certainly beyond a day is refused) and calls :func:`refuse_beyond` before it
starts — in the library entry point, so that the command line and a caller
of the library are refused alike.  :func:`refuse_count` is that estimate for
a count of things done at a known rate; :class:`TargetWatch` for a
precision target (a Monte Carlo standard error), whose cost is known only
once a short pilot has measured the spread and the rate.

>>> duration(5400)
'90 minutes'
>>> try:
...     refuse_beyond(3 * 86400, "play --hands 50,000,000,000", "fewer --hands")
... except TooMuchWork as e:
...     print(e)
play --hands 50,000,000,000 would take about 3 days, more than the 24 hours pokerpipe starts; ask for fewer --hands
"""
from __future__ import annotations

import math
from typing import Optional

from .errors import InputError

MAX_WORK_SECONDS = 24 * 3600        # the longest job pokerpipe starts without being split by the user
PILOT_SECONDS = 0.05                # a precision target is judged after this much of its run (and its pilot)
PILOT_TRIALS = 1 << 18              # ... and at least this many trials


class TooMuchWork(InputError):
    """A job estimated to take longer than :data:`MAX_WORK_SECONDS` (or to write more than its limit)."""


def duration(seconds: float) -> str:
    """A duration in the largest unit that keeps at least two of it: ``'90 minutes'``, ``'3 days'``."""
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


def refuse_beyond(seconds: float, what: str, hint: str, limit: float = MAX_WORK_SECONDS) -> None:
    """Raise :class:`TooMuchWork` if ``what`` is estimated at more than ``limit`` seconds; ``hint`` says
    what to ask for instead."""
    if not seconds <= limit:        # also refuses nan
        raise TooMuchWork(f"{what} would take about {duration(seconds)}, more than the {duration(limit)} "
                          f"pokerpipe starts; ask for {hint}")


def refuse_count(count: float, per_second: float, what: str, hint: str, workers: int = 1,
                 limit: float = MAX_WORK_SECONDS) -> None:
    """Refuse ``count`` things done at ``per_second`` each on ``workers`` in parallel when that is beyond
    ``limit`` (:func:`refuse_beyond`); ``per_second`` must be above any rate measured, so that only work
    certainly too long is refused.

    >>> refuse_count(10**9, 1e6, "--hands 1,000,000,000", "fewer --hands", workers=4)
    >>> try:
    ...     refuse_count(10**15, 1e8, "10**15 trials", "fewer trials")
    ... except TooMuchWork as e:
    ...     print(e)
    10**15 trials would take about 116 days, more than the 24 hours pokerpipe starts; ask for fewer trials
    """
    refuse_beyond(count / per_second / max(1, workers), what, hint, limit)


class TargetWatch:
    """Refuses a run to a standard-error ``target`` once its pilot shows it would take beyond a day.

    A standard error falls as ``1/sqrt(n)``: after ``n`` trials at ``stderr``, the target needs about
    ``n·(stderr/target)²``.  :meth:`check` is called after each merged chunk; once the run has gone on for
    :data:`PILOT_SECONDS` and :data:`PILOT_TRIALS` it judges the rest at twice the rate measured since the
    first chunk (start-up excluded), once, and raises :class:`TooMuchWork` if that is beyond a day.

    >>> watch = TargetWatch(1e-9)
    >>> watch.check(1 << 16, 0.002, 0.01)            # the first chunk: its time is start-up
    >>> try:
    ...     watch.check(1 << 20, 0.0005, 0.1)
    ... except TooMuchWork as e:
    ...     print(str(e)[:80])
    a standard error of 1e-09 (about 2.6e+17 trials) would take about 381 years, mor
    """

    def __init__(self, target: float, hint: str = "a larger standard-error target, or a time budget",
                 limit: float = MAX_WORK_SECONDS) -> None:
        self.target, self.hint, self.limit = target, hint, limit
        self.first: Optional[tuple[int, float]] = None
        self.judged = False

    def check(self, trials: int, stderr: float, elapsed: float) -> None:
        """After ``trials`` trials in ``elapsed`` seconds the largest standard error is ``stderr``."""
        if self.judged or trials <= 0:
            return
        if self.first is None:
            self.first = (trials, elapsed)
            return
        t0, e0 = self.first
        if trials < PILOT_TRIALS or elapsed - e0 < PILOT_SECONDS or trials <= t0:
            return
        self.judged = True
        if not stderr > self.target:           # reached, or no spread to measure: nothing to refuse
            return
        needed = trials * (stderr / self.target) ** 2
        rate = 2 * (trials - t0) / (elapsed - e0)
        what = f"a standard error of {self.target:g}" + (f" (about {needed:.2g} trials)" if math.isfinite(needed)
                                                         else "")
        refuse_beyond((needed - trials) / rate if math.isfinite(needed) else math.inf, what, self.hint, self.limit)
