"""Scoring one showdown into integer counts: the pots a player shares, by how many share them.

A player's counts are one row of length *players*: entry ``j`` counts the boards
(or deals) on which the player is one of exactly ``j + 1`` winners — entry 0 his
sole wins, entry 1 his two-way ties, and so on (OMPEval reports the same split
as ``winsByPlayerMask``).  Everything else follows exactly from that row:

* ``wins`` = entry 0, ``ties`` = the sum of the others;
* the pot shares won, in units of 1/2520 (2520 = lcm(1..10) is divisible by every
  split of up to ten players): ``sum_j row[j] * 2520 // (j + 1)``;
* equity = ``sum_j row[j] / (j + 1) / boards`` — :func:`equity_fraction` divides the
  integers once, so the float is the correctly rounded rational.

>>> row = [787966, 6732]                   # AhKh vs QsQd preflop: sole wins, two-way ties
>>> wins_ties_units(row)
(787966, 6732, 8482320)
>>> round(equity_fraction(787966, 8482320, 1712304), 6)
0.462145
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from numba import njit

SHARE_UNIT = 2520  # lcm(1..10): a k-way split is SHARE_UNIT // k units


def equity_fraction(wins: Any, shares: Any, boards: Any, unit: int = SHARE_UNIT) -> Any:
    """Equity ``(wins * unit + shares) / (unit * boards)`` with ``shares`` the pots won in ties
    in units of ``1/unit``: one division of exact integers, so the float is the correctly
    rounded rational.  Heads-up a tie is half a pot: ``unit=2`` with ``shares`` = ties.
    Works on Python or numpy integers alike."""
    return (wins * unit + shares) / (unit * boards)


def wins_ties_units(row: Sequence[Any]) -> tuple[Any, Any, Any]:
    """``(wins, ties, tie shares in 1/SHARE_UNIT)`` of one player's row of counts by number
    of winners (integers stay integers; weighted float rows give floats)."""
    wins = row[0]
    ties = sum(row[1:])
    units = sum(row[j] * (SHARE_UNIT // (j + 1)) for j in range(1, len(row)))
    return wins, ties, units


def row_equity(row: Sequence[Any], boards: Any) -> float:
    """Equity of one row of counts by number of winners over ``boards`` boards."""
    wins, _, units = wins_ties_units(row)
    return float(equity_fraction(wins, units, boards))


@njit(cache=True, nogil=True)
def score(values: np.ndarray, counts: np.ndarray, mult: int) -> None:
    """Add one showdown of ``values`` (P,) to ``counts`` (P, P), ``mult`` times: each player
    holding the best value gains ``mult`` in the column of the number of winners less one."""
    best = values[0]
    nbest = 1
    for p in range(1, values.size):
        v = values[p]
        if v > best:
            best = v
            nbest = 1
        elif v == best:
            nbest += 1
    for p in range(values.size):
        if values[p] == best:
            counts[p, nbest - 1] += mult
