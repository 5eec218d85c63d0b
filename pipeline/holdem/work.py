"""How long the hold'em engine plays at most: the estimate that refuses a run beyond a day before it starts.

:func:`play_seconds` is a low estimate of playing ``hands`` hands at a table
of ``names`` on ``processes`` processes, from rates on the fast side of every
measurement (so that only a run certainly beyond a day is refused):
:func:`pipeline.holdem.simulate` refuses such a run itself
(:func:`refuse_play`), and ``pokerpipe play`` asks the same before it starts
a cluster.

>>> round(play_seconds(["tag", "station"], 10**12, 1) / 86400, 1)
1.7
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from ..core.budget import refuse_beyond

MAX_HANDS = 10**12   # beyond any day's work: the estimate refuses far fewer on most tables
# microseconds per seat and hand on one core, about half the fastest measured (issue 24's engine, weights
# from the tables, tables of 2 and 10 seats: random 0.20-0.31, station 0.18-0.24, maniac 0.39-0.40,
# thesis-preflop 0.22-0.31, tag 0.38-0.45 per CPU second on the loaded 2-core machine, which runs about
# twice that quiet): the rule bot and evolved players weigh their hands after the flop, the others barely think
SEAT_MICROSECONDS = {"random": 0.05, "station": 0.05, "maniac": 0.1, "thesis-preflop": 0.06, "tag": 0.1}
EVOLVED_MICROSECONDS = 0.1
HISTORY_HANDS_PER_SECOND = 5_000      # hand histories are written by one process; measured 300-2,200


def play_seconds(names: Sequence[str], hands: int, processes: int = 1, history: bool = False) -> float:
    """A low estimate of the seconds ``hands`` hands take at a table of ``names`` (policy names; anything
    else counts as an evolved player) on ``processes`` processes, and their ``history`` written by one."""
    per_hand = sum(SEAT_MICROSECONDS.get(str(n).lower(), EVOLVED_MICROSECONDS) for n in names) * 1e-6
    return hands * per_hand / max(1, processes) + (hands / HISTORY_HANDS_PER_SECOND if history else 0.0)


def refuse_play(names: Sequence[str], hands: int, processes: int = 1, history: bool = False) -> None:
    """:class:`~pipeline.core.budget.TooMuchWork` when :func:`play_seconds` is beyond a day."""
    refuse_beyond(play_seconds(names, hands, processes, history),
                  f"--hands {hands:,} on {processes} process{'es' if processes > 1 else ''}",
                  "fewer --hands (or more --workers)")


def workers_of(executor: Optional[Any]) -> int:
    """The processes an executor plays on (its ``workers`` or ``_max_workers``; 1 for none or unknown)."""
    if executor is None:
        return 1
    return max(1, int(getattr(executor, "workers", 0) or getattr(executor, "_max_workers", 0) or 1))
