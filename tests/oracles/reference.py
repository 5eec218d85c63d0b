"""An independent, deliberately plain evaluator for tests: best of all 5-card subsets.

Nothing here is shared with the engine: it works on (rank, suit) pairs and
compares tuples ``(category, ranks...)`` the way a poker book describes hands.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations


def rank5(cards: list[int]) -> tuple:
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suits = {c % 4 for c in cards}
    counts = Counter(ranks)
    flush = len(suits) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_top = 3
    if straight_top is not None and flush:
        return (8, straight_top)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if shape == [4, 1]:
        return (7,) + order
    if shape == [3, 2]:
        return (6,) + order
    if flush:
        return (5,) + tuple(ranks)
    if straight_top is not None:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3,) + order
    if shape == [2, 2, 1]:
        return (2,) + order
    if shape == [2, 1, 1, 1]:
        return (1,) + order
    return (0,) + tuple(ranks)


def best_hand(cards: list[int]) -> tuple:
    """Best 5-card hand of 5..7 cards, as a comparable tuple."""
    return max(rank5(list(c)) for c in combinations(cards, 5))


def showdown_counts(hands: list[list[int]], board: list[int], dead: list[int] = ()) -> list[tuple[int, int, float]]:
    """Brute-force (wins, ties, equity share sum) per player over every board completion."""
    used = set(board) | set(dead) | {c for h in hands for c in h}
    live = [c for c in range(52) if c not in used]
    out = [[0, 0, 0.0] for _ in hands]
    for extra in combinations(live, 5 - len(board)):
        full = list(board) + list(extra)
        vals = [best_hand(h + full) for h in hands]
        best = max(vals)
        winners = [i for i, v in enumerate(vals) if v == best]
        for i in winners:
            if len(winners) == 1:
                out[i][0] += 1
            else:
                out[i][1] += 1
            out[i][2] += 1 / len(winners)
    return [tuple(x) for x in out]
