"""An independent count of a hand against two random opponents on one board: every pair of opponent hands.

The library (:mod:`pipeline.equity.two_opponents`) counts disjoint opponent pairs
by inclusion–exclusion over shared cards; this oracle walks every unordered pair
of the 990 opponent hands one by one, skips those sharing a card and scores the
three-handed showdown directly.  Values come from the public evaluator
(:func:`pipeline.evaluator.evaluate`, seven cards per row), not from the
board-key kernels the library uses.
"""
from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from pipeline.evaluator import evaluate


@njit(cache=True)
def _showdowns(hero_value: int, values: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """(sole wins, two-way ties, three-way ties, losses) of the hero over unordered disjoint pairs."""
    out = np.zeros(4, np.int64)
    n = values.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if cards[i, 0] == cards[j, 0] or cards[i, 0] == cards[j, 1] \
                    or cards[i, 1] == cards[j, 0] or cards[i, 1] == cards[j, 1]:
                continue
            best = max(values[i], values[j])
            if hero_value > best:
                out[0] += 1
            elif hero_value < best:
                out[3] += 1
            elif values[i] == values[j]:
                out[2] += 1
            else:
                out[1] += 1
    return out


def brute_outcomes(board: list[int], hero: tuple[int, int]) -> np.ndarray:
    """Hero's (sole wins, two-way ties, three-way ties, losses) on ``board`` against every opponent pair."""
    dead = set(board) | set(hero)
    rest = [c for c in range(52) if c not in dead]
    opp = np.array(list(itertools.combinations(rest, 2)), np.int64)
    rows = np.array([list(o) + list(board) for o in opp], np.uint8)
    values = evaluate(rows).astype(np.int64)
    hero_value = int(evaluate(np.array([list(hero) + list(board)], np.uint8))[0])
    return _showdowns(hero_value, values, opp)
