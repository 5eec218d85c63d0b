"""One ``evaluate`` run as asked, checked before anything starts: yardsticks, hand counts, seats, samples.

:class:`EvaluatePlan` checks every option of a run once, in one line naming
the option (:class:`EvaluateError`): the yardsticks (:data:`.yardsticks.YARDSTICKS`;
a solved strategy, ``cfr:DIR``, plays only the engine's own bots heads-up),
the hands per engine and per rlcard yardstick, the table size, the hand-weight
samples, and whether rlcard is installed when an rlcard yardstick is asked
for.  :meth:`EvaluatePlan.refuse_work` then refuses, before a cluster starts,
a run that cannot end within a day (:mod:`pipeline.core.budget`), at the
fastest the kernels play (:func:`.yardsticks.fastest`), so that only work
certainly too long is refused.  The player file itself is read by
:meth:`pipeline.holdem.player.Player.load`, a solved strategy by
:func:`pipeline.datasets.solve.resolve_policy`.

>>> plan = EvaluatePlan("player.json", ("random", "rlcard-rule"), hands=1_000, rlcard_hands=500)
>>> [plan.hands_against(n) for n in plan.against]
[1000, 500]
>>> EvaluatePlan("player.json", ("tag",), hands=0)
Traceback (most recent call last):
    ...
pipeline.ga.assessment.plan.EvaluateError: --hands and --rlcard-hands must be positive
>>> EvaluatePlan("cfr:runs/hulhe", ("tag", "trainers"))    # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
pipeline.ga.assessment.plan.EvaluateError: cfr:DIR plays the engine's yardsticks heads-up (random, ...), not 'trainers'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...core.budget import refuse_beyond
from ...core.errors import InputError
from ...holdem.player import Player
from ...holdem.policies import DEFAULT_SAMPLES, KINDS
from ...holdem.seating import MAX_SEATS
from .rlcard_agent import OPPONENTS as RLCARD
from .yardsticks import DEFAULT_HANDS, DEFAULT_RLCARD_HANDS, YARDSTICKS, fastest, seats_of

MAX_SAMPLES = 100_000            # hand-weight samples a decision at most (what a table takes: holdem.seating)
PARALLEL_HANDS = 400_000         # hands against one engine yardstick from which a run spreads over the cluster
SOLVED_SECONDS_PER_HAND = 2e-6   # the least a heads-up hand against a solved strategy takes (a low estimate)


class EvaluateError(InputError):
    """An option of an ``evaluate`` run out of range; the message names it (``--against``, ``--seats``, ...)."""


def _count(value: object, option: str) -> None:
    """A whole number (not a bool), else :class:`EvaluateError` naming ``option``; the range is the caller's."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise EvaluateError(f"{option} must be an integer, got {value!r}")


@dataclass(frozen=True)
class EvaluatePlan:
    """What an ``evaluate`` run asks for, every field checked (:class:`EvaluateError` names the first that is
    wrong, in the order the command line has always checked them)."""

    player: str                         # a player file written by ``pokerpipe evolve``, or ``cfr:DIR``
    against: tuple[str, ...]            # yardstick names, in the order they are played
    hands: int = DEFAULT_HANDS          # per engine yardstick
    rlcard_hands: int = DEFAULT_RLCARD_HANDS   # per rlcard yardstick (played in rlcard's own environment)
    samples: int = DEFAULT_SAMPLES      # hand-weight samples per decision after the flop
    seats: Optional[int] = None         # the table size against engine bots; None: the player's own

    def __post_init__(self) -> None:
        for n in self.against:
            if n not in YARDSTICKS:
                raise EvaluateError(f"unknown yardstick {n!r} (choose from {', '.join(YARDSTICKS)})")
        if not self.against:
            raise EvaluateError("--against names no yardstick")
        _count(self.hands, "--hands")
        _count(self.rlcard_hands, "--rlcard-hands")
        if self.hands < 1 or self.rlcard_hands < 1:
            raise EvaluateError("--hands and --rlcard-hands must be positive")
        if self.seats is not None:
            _count(self.seats, "--seats")
            if not 2 <= self.seats <= MAX_SEATS:
                raise EvaluateError(f"--seats must be 2 to {MAX_SEATS}, got {self.seats}")
        _count(self.samples, "--samples")
        if not 1 <= self.samples <= MAX_SAMPLES:
            raise EvaluateError(f"--samples must be 1 to {MAX_SAMPLES}, got {self.samples}")
        if self.solved:
            bad = [n for n in self.against if n not in KINDS]
            if bad:
                raise EvaluateError(f"cfr:DIR plays the engine's yardsticks heads-up ({', '.join(KINDS)}), "
                                    f"not {bad[0]!r}")
        elif self.rlcard:
            from .report import rlcard_available

            if not rlcard_available():
                raise EvaluateError("the rlcard yardsticks need rlcard: pip install -e '.[rlcard]'")

    @property
    def solved(self) -> bool:
        """Whether the player is a solved strategy (``cfr:DIR``), played heads-up against the engine's bots."""
        return self.player.strip().lower().startswith("cfr:")

    @property
    def rlcard(self) -> bool:
        """Whether a yardstick is one of rlcard's agents in rlcard's own environment (:data:`.rlcard_agent.OPPONENTS`),
        played with ``--rlcard-hands``; ``rlcard-v1``, the port of its rule agent into the engine, is an engine
        yardstick."""
        return any(n in RLCARD for n in self.against)

    def hands_against(self, name: str) -> int:
        """The hands played against the yardstick ``name``: ``rlcard_hands`` for an rlcard one, else ``hands``."""
        return self.rlcard_hands if name in RLCARD else self.hands

    def spread(self, name: str) -> bool:
        """Whether the hands against ``name`` are worth spreading over the cluster's processes (fewer than
        :data:`PARALLEL_HANDS`, or rlcard's environment: one process, no cluster to start)."""
        if name in RLCARD:
            return False
        return self.hands >= PARALLEL_HANDS

    def refuse_work(self, processes: int = 1, player: Optional[Player] = None, sampled: bool = False) -> None:
        """Refuse (:class:`~pipeline.core.budget.TooMuchWork`), before anything starts, a run beyond a day on
        ``processes`` processes at the fastest the kernels play (a lower bound); ``player`` (loaded) gives the
        table size when :attr:`seats` does not (:func:`.yardsticks.seats_of`; 2 without one); ``sampled``:
        the hand weights sampled, not read from the weight tables."""
        if self.solved:
            refuse_beyond(len(self.against) * self.hands * SOLVED_SECONDS_PER_HAND,
                          f"evaluate of {self.hands:,} hands per yardstick", "fewer --hands")
            return
        seats = self.seats or (seats_of(player) if player is not None else 2)
        seconds = fastest(self.against, self.hands, self.rlcard_hands, seats, processes, sampled)
        per = f"{self.hands:,} hands per yardstick" + (f" ({self.rlcard_hands:,} per rlcard one)"
                                                       if self.rlcard else "")
        refuse_beyond(seconds, f"evaluate of {per} on {processes} worker(s)", "fewer --hands or --rlcard-hands")


__all__ = ["EvaluateError", "EvaluatePlan", "MAX_SAMPLES", "PARALLEL_HANDS"]
