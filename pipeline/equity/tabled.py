"""Preflop exact equity read from precomputed tables rather than enumerated.

Heads-up, the matchups table (:mod:`.matchup_sums`: every class against every class, 1,712,304 boards
each) sums any two ranges' counts; three-way, the class triples' counts (:class:`~.threeway.ThreeWayTable`,
the ``preflop-3way`` dataset) answer when every range is made of whole classes.  The calculator asks
these first, preflop on the 52-card deck, and enumerates when they have no answer.
"""
from __future__ import annotations

from typing import Optional, Union

import numpy as np

from ..core.cards import CardError
from ..ranges.syntax import Range
from .exact_result import _exact_result, _no_assignment
from .result import EquityResult
from .threeway import ThreeWayTable


def _from_table(ranges: list[Range], table: Union[bool, tuple[np.ndarray, np.ndarray]]) -> Optional[EquityResult]:
    """Preflop heads-up exact equity summed from the matchups table, when one is at hand."""
    from .matchup_sums import is_whole, packaged_table, table_counts

    got = packaged_table() if table is True else table
    if got is None or got is False or got is True:
        return None
    if not is_whole(*got):
        raise CardError("the matchups table given is not whole (47,008 classes of 1,712,304 boards each)")
    counts, wcounts, boards, wboards = table_counts(ranges[0], ranges[1], *got)
    if boards == 0:
        raise _no_assignment(ranges)
    result = _exact_result(ranges, counts, wcounts, boards, wboards)
    result.source = "table"
    return result


def _whole_classes(r: Range) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """``(class indices, weights)`` of a range made of whole classes at one weight each, else None."""
    from ..core.hand_classes import CLASS_LABELS, class_of, label_combos

    by_class: dict[int, list[float]] = {}
    for (a, b), w in zip(r.combos.tolist(), r.weights.tolist()):
        by_class.setdefault(class_of(a, b), []).append(w)
    classes, weights = [], []
    for c, ws in sorted(by_class.items()):
        if len(ws) != len(label_combos(CLASS_LABELS[c])) or min(ws) != max(ws):
            return None
        classes.append(c)
        weights.append(ws[0])
    return np.array(classes, np.int64), np.array(weights, np.float64)


def _from_three_way(ranges: list[Range], table: ThreeWayTable) -> Optional[EquityResult]:
    """Preflop three-way exact equity summed from the class triples' counts, when every range is
    made of whole classes."""
    got = [_whole_classes(r) for r in ranges]
    if any(g is None for g in got):
        return None
    counts, wcounts, boards, wboards = table.counts([g[0] for g in got if g is not None],
                                                    [g[1] for g in got if g is not None])
    if boards == 0:
        raise _no_assignment(ranges)
    result = _exact_result(ranges, counts, wcounts, boards, wboards)
    result.source = "table"
    return result
