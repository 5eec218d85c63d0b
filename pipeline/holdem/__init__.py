"""Fixed-limit Texas Hold'em: a numba rules kernel, policies as data, duplicate simulation, hand histories.

>>> r = simulate(["tag", "station"], hands=2_000, seed=1)
>>> r.hands, [s.policy for s in r.seats]
(2000, ['tag', 'station'])

Chips are integer units, 100 to the big blind (:data:`BB`); stakes are written
as a $1/$2 table (small blind $0.50) in histories.  Modules: :mod:`.rng`
(random streams), :mod:`.engine` (one hand), :mod:`.settle` (pots, rake),
:mod:`.policies`, :mod:`.genes` (the evolved players' gene tables, :mod:`pipeline.ga`),
:mod:`.handweight` (preflop, sampled), :mod:`.weight_table` (the hand-weight
tables after the flop), :mod:`.table`, :mod:`.simulate`,
:mod:`.record` (hands kept for histories) and the history writers.
"""
from __future__ import annotations

from .policies import KINDS
from .seating import Table, TableError
from .settle import BB
from .simulate import SeatResult, SimResult, simulate

__all__ = ["BB", "KINDS", "SeatResult", "SimResult", "Table", "TableError", "simulate"]
