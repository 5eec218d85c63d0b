"""Fixed-limit Texas Hold'em: a numba rules kernel, policies as data, duplicate simulation, hand histories.

>>> r = simulate(["tag", "station"], hands=2_000, seed=1)
>>> r.hands, [s.policy for s in r.seats]
(2000, ['tag', 'station'])

Chips are integer units, 100 to the big blind (:data:`BB`); stakes are written
as a $1/$2 table (small blind $0.50) in histories.  Modules: :mod:`.engine`
(one hand), :mod:`.settle` (pots, rake), :mod:`.policies`, :mod:`.genes` (the
evolved players' gene tables) and :mod:`.player` (their files),
:mod:`.seating` (a table of policies), :mod:`.weights` (hand weights: preflop,
sampled, the tables after the flop) and :mod:`.weight_build` (building those
tables), :mod:`.simulate`, :mod:`.record` (hands kept whole) and
:mod:`.histories` (PokerStars, PHH and OHH writers); :mod:`.work` estimates a
run's time, so that one beyond a day is refused before it starts, and
:mod:`.plan` checks a ``play`` run's options (:class:`~.plan.PlayPlan`).
"""
from __future__ import annotations

from .player import Layout, Player, PlayerFileError
from .policies import KINDS
from .seating import Table, TableError
from .settle import BB
from .simulate import SeatResult, SimResult, simulate

__all__ = ["BB", "KINDS", "Layout", "Player", "PlayerFileError", "SeatResult", "SimResult", "Table", "TableError",
           "simulate"]
