"""Scoring one showdown into integer counts: wins, ties and pot shares.

Counts per player are kept as integers: ``wins`` (sole best hand), ``ties``
(best hand shared) and ``shares``, the pot shares won in ties in units of
1/2520 (2520 is divisible by every pot split 2..10), so equity is exactly
``(wins * 2520 + shares) / (2520 * boards)`` — :func:`equity_fraction`.

>>> equity_fraction(787966, 6732 * (SHARE_UNIT // 2), 1712304) == equity_fraction(787966, 6732, 1712304, unit=2)
True
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

SHARE_UNIT = 2520  # lcm(1..10): a k-way split is SHARE_UNIT // k units
WINS, TIES, SHARES = 0, 1, 2


def equity_fraction(wins: Any, shares: Any, boards: Any, unit: int = SHARE_UNIT) -> Any:
    """Equity ``(wins * unit + shares) / (unit * boards)`` with ``shares`` the pots won in ties
    in units of ``1/unit``: one division of exact integers, so the float is the correctly
    rounded rational.  Heads-up a tie is half a pot: ``unit=2`` with ``shares`` = ties.
    Works on Python or numpy integers alike."""
    return (wins * unit + shares) / (unit * boards)


@njit(cache=True, nogil=True)
def score(values: np.ndarray, counts: np.ndarray, mult: int) -> None:
    """Add one showdown of ``values`` (P,) to ``counts`` (P, 3), ``mult`` times."""
    best = values[0]
    nbest = 1
    for p in range(1, values.size):
        v = values[p]
        if v > best:
            best = v
            nbest = 1
        elif v == best:
            nbest += 1
    if nbest == 1:
        for p in range(values.size):
            if values[p] == best:
                counts[p, WINS] += mult
    else:
        share = SHARE_UNIT // nbest
        for p in range(values.size):
            if values[p] == best:
                counts[p, TIES] += mult
                counts[p, SHARES] += share * mult
