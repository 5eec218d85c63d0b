"""One ``play`` run as asked, checked before anything starts: seats and policies, hands, seed, stakes, histories.

:class:`PlayPlan` checks every option of a run once, in one line naming the
option (:class:`PlayError`), and :meth:`PlayPlan.refuse_work` refuses,
before a cluster starts, a run the engine estimates beyond a day
(:func:`.work.refuse_play`, which :func:`.simulate.simulate` applies too) or
hand histories beyond their limit (:func:`.histories.refuse_histories`,
which :func:`.histories.write_histories` applies too).  The policies are
names as the command line takes them (built-ins, ``cfr:DIR``, player files);
the table is made from them by :meth:`.seating.Table.make`, which checks
the policies, stacks and rake themselves.

>>> PlayPlan(2, ("tag", "station"), 1_000).policies
('tag', 'station')
>>> PlayPlan(3, ("tag", "station"), 1_000)
Traceback (most recent call last):
    ...
pipeline.holdem.plan.PlayError: --policies names 2 policies for 3 seats
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ..core.errors import InputError
from .histories import FORMATS, refuse_histories
from .seating import DEFAULT_STACK_BB, MAX_SEATS
from .work import refuse_play


class PlayError(InputError):
    """An option of a ``play`` run out of range; the message names it (``--seats``, ``--hero``, ...)."""


@dataclass(frozen=True)
class PlayPlan:
    """What a ``play`` run asks for, every field checked (:class:`PlayError` names the first that is wrong)."""

    seats: int
    policies: tuple[str, ...]      # one per seat
    hands: int
    seed: int = 0
    history: Optional[str] = None  # a format of :data:`.histories.FORMATS`, or None for no histories
    hero: Optional[int] = None     # the seat (1 .. seats) whose hole cards PokerStars text shows
    stack: float = DEFAULT_STACK_BB
    rake: float = 0.0
    rake_cap: float = 0.0

    def __post_init__(self) -> None:
        n = len(self.policies)
        if n == 0:          # before the seats, which default to one a policy: "--seats ... got 0" says nothing
            raise PlayError("--policies names no policy: give one a seat, e.g. -p tag,random")
        if not 2 <= self.seats <= MAX_SEATS:
            raise PlayError(f"--seats must be 2 to {MAX_SEATS}, got {self.seats}")
        if n < self.seats:
            raise PlayError(f"--policies names {n} policies for {self.seats} seats")
        if n > self.seats:
            raise PlayError(f"--policies names {n} policies for only {self.seats} seats")
        if self.hands < 1:
            raise PlayError(f"--hands must be positive, got {self.hands}")
        if not -(1 << 63) <= self.seed < 1 << 63:
            raise PlayError(f"--seed must fit in 64 bits, got {self.seed}")
        if self.history is not None and self.history not in FORMATS:
            raise PlayError(f"--history must be one of {', '.join(FORMATS)}, got {self.history!r}")
        if self.hero is not None and not 1 <= self.hero <= self.seats:
            raise PlayError(f"--hero must be a seat 1 to {self.seats}, got {self.hero}")
        if self.hero is not None and self.history != "pokerstars":       # it would change nothing: say so
            raise PlayError("--hero goes with --history pokerstars (the text that shows one seat's hole cards)")
        if not all(math.isfinite(x) for x in (self.stack, self.rake, self.rake_cap)):
            raise PlayError("--stack, --rake and --rake-cap must be finite numbers")

    def refuse_work(self, processes: int = 1, sampled: bool = False) -> None:
        """Refuse (:class:`~pipeline.core.budget.TooMuchWork`), before anything starts, histories beyond their
        limit or a run estimated beyond a day on ``processes`` processes (``sampled``: the hand weights
        sampled, not read from the weight tables)."""
        if self.history is not None:
            refuse_histories(self.history, self.hands, self.seats)
        refuse_play(self.policies, self.hands, processes, self.history is not None, sampled)
