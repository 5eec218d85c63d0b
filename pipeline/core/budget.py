"""Work of more than a day is refused before it starts, with the estimate that refused it.

A command that would run for days is almost always a typo (``--hands 5e10``
for ``5e5``); starting it silently costs the user the time to notice.  Each
job estimates its own cost from its measured or conservative rate and calls
:func:`refuse_beyond` before it starts.

>>> duration(5400)
'90 minutes'
>>> try:
...     refuse_beyond(3 * 86400, "play --hands 50,000,000,000", "fewer --hands")
... except TooMuchWork as e:
...     print(e)
play --hands 50,000,000,000 would take about 3 days, more than the 24 hours pokerpipe starts; ask for fewer --hands
"""
from __future__ import annotations

from .errors import InputError

MAX_WORK_SECONDS = 24 * 3600        # the longest job pokerpipe starts without being split by the user


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
