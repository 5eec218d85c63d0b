"""An exact answer from its counts by number of winners, and the error when no deal is possible.

Every exact path (:mod:`.fast_postflop`, :mod:`.exact_runs`, :mod:`.tabled`) sums counts by number of
winners, the row :mod:`.scoring` describes, and ends here: integers where every weight is 1, else the
weighted sums scaled to the boards.  Apart from :mod:`.result`, which its readers take without the kernels.
"""
from __future__ import annotations

import numpy as np

from ..core.cards import CardError
from ..ranges.syntax import Range
from .result import EquityResult, PlayerEquity
from .scoring import equity_fraction, wins_ties_units


def _no_assignment(ranges: list[Range]) -> CardError:
    return CardError("no deal is possible: the players' ranges cannot all be dealt without sharing a card ("
                     + " vs ".join(r.text for r in ranges) + ")")


def _exact_result(ranges: list[Range], counts: np.ndarray, wcounts: np.ndarray, boards: int,
                  wboards: float) -> EquityResult:
    """Players' results from counts by number of winners (:mod:`.scoring`): integers where every
    range is unweighted, else the weighted sums scaled to ``boards``."""
    return _result([r.text for r in ranges], all(r.unit_weights for r in ranges), counts, wcounts, boards,
                   wboards)


def _result(texts: list[str], unit: bool, counts: np.ndarray, wcounts: np.ndarray, boards: int,
            wboards: float) -> EquityResult:
    """:func:`_exact_result` from the players' texts and whether every weight is 1."""
    boards = int(boards)
    players = []
    for p, text in enumerate(texts):
        if unit:   # exact rationals from integers
            row = [int(x) for x in counts[p]]
            wins, ties, units = wins_ties_units(row)
            eq = equity_fraction(wins, units, boards)
            players.append(PlayerEquity(text, wins / boards, ties / boards, float(eq), wins, ties,
                                        boards - wins - ties, shares=row))
        else:
            wrow = [float(x) for x in wcounts[p]]
            wins_w, ties_w, units_w = wins_ties_units(wrow)
            eq = equity_fraction(wins_w, units_w, wboards)
            players.append(PlayerEquity(text, wins_w / wboards, ties_w / wboards, float(eq),
                                        shares=[x * boards / wboards for x in wrow]))
    return EquityResult(True, boards, players)
