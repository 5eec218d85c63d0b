"""One Omaha showdown into integer counts: the high pot, and for hi/lo the low half and how it split.

A player's counts are one row of a ``(P, 2P + 5)`` int64 *tally*:

* columns ``0 .. P-1``: the boards on which he is one of exactly ``j + 1`` best high hands
  (the ``shares`` of :mod:`pipeline.equity.scoring`; column 0 his sole high wins);
* columns ``P .. 2P-1``: the same for the best qualifying low (hi/lo; zero otherwise);
* column ``2P`` (:data:`UNITS`): the pot he took, in units of ``1 / unit`` of a pot, where
  ``unit = 2 * lcm(1..P)`` (:func:`pot_unit`) divides every split of either half;
* ``2P + 1`` scoops (the whole pot, alone), ``2P + 2`` high only (a share of the high half
  and none of a low that qualified), ``2P + 3`` low only (a share of the low half and none
  of the high), ``2P + 4`` quartered (exactly a quarter of the pot: most often one of two
  equal lows, or of two equal highs, with nothing of the other half).

Hi/lo: each board's pot is halved between the best high and the best qualifying low (ties
split each half); without a qualifying low the high takes it all.  Equity is the units
over ``unit * boards``.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

SPLIT_COLUMNS = ("scoops", "high_only", "low_only", "quartered")


def tally_width(players: int) -> int:
    """Columns of a tally of ``players`` players."""
    return 2 * players + 1 + len(SPLIT_COLUMNS)


def pot_unit(players: int) -> int:
    """Units a pot is counted in: ``2 * lcm(1..players)``, so any split of either half is whole."""
    return 2 * math.lcm(*range(1, players + 1))


@njit(cache=True, nogil=True, inline="always")
def score_board(high: np.ndarray, low: np.ndarray, hilo: bool, unit: int, tally: np.ndarray, mult: int) -> None:
    """Add ``mult`` boards of high values ``high`` (P,) and low values ``low`` (P,; 0 = none) to ``tally``."""
    P = high.size
    best = 0
    nh = 0
    for p in range(P):
        if high[p] > best:
            best, nh = high[p], 1
        elif high[p] == best:
            nh += 1
    lbest = 0
    nl = 0
    if hilo:
        for p in range(P):
            if low[p] > lbest:
                lbest, nl = low[p], 1
            elif low[p] == lbest and lbest > 0:
                nl += 1
    for p in range(P):
        h = high[p] == best
        lo = nl > 0 and low[p] == lbest
        if h:
            tally[p, nh - 1] += mult
        if lo:
            tally[p, P + nl - 1] += mult
        if nl == 0:
            units = unit // nh if h else 0
        else:
            units = (unit // 2 // nh if h else 0) + (unit // 2 // nl if lo else 0)
        tally[p, 2 * P] += units * mult
        if hilo and units > 0:
            if units == unit:
                tally[p, 2 * P + 1] += mult
            if h and nl > 0 and not lo:
                tally[p, 2 * P + 2] += mult
            if lo and not h:
                tally[p, 2 * P + 3] += mult
            if 4 * units == unit:
                tally[p, 2 * P + 4] += mult
