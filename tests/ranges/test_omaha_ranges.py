"""Omaha range notation: counts worked out by hand, a plain matcher over random hands, bad input."""
from itertools import permutations
from math import comb

import numpy as np
import pytest

from pipeline import CardError
from pipeline.ranges.omaha import parse_omaha_range

RANKS, SUITS = "23456789TJQKA", "cdhs"

COUNTS = {   # hands of four cards, counted by hand
    "AAxx": comb(4, 2) * comb(48, 2) + comb(4, 3) * 48 + 1,
    "AKQJ": 4 ** 4,
    "AKQJr": 24,
    "AAKKds": 6,
    "AAKKss": 4 * 3 * 2,
    "AsKs**": comb(50, 2),
    "xxxxds": 6 * comb(13, 2) ** 2,
    "xxxxss": 4 * comb(13, 2) * 3 * 13 * 13,
    "xxxxr": 13 ** 4,
    "AAAA": 1,
    "AsKsQdJd": 1,
    "AAxx:0.5, AsKsQdJd": comb(4, 2) * comb(48, 2) + comb(4, 3) * 48 + 1 + 1,
}


@pytest.mark.parametrize("text, n", COUNTS.items())
def test_counts(text, n):
    assert len(parse_omaha_range(text)) == n


def test_suit_shapes_partition_the_deck():
    shapes = ["xxxxds", "xxxxss", "xxxxr"]
    three_one, four = 4 * comb(13, 3) * 3 * 13, 4 * comb(13, 4)
    assert sum(len(parse_omaha_range(s)) for s in shapes) + three_one + four == comb(52, 4)


def _matches(hand, items):
    """A plain matcher: some ordering of the hand's cards meets the items one by one."""
    for order in permutations(hand):
        if all(it == "x" or (len(it) == 1 and RANKS[c // 4] == it) or
               (len(it) == 2 and RANKS[c // 4] + SUITS[c % 4] == it) for c, it in zip(order, items)):
            return True
    return False


@pytest.mark.parametrize("pattern, items, k", [("KKJTxx", ["K", "K", "J", "T", "x", "x"], 6),
                                              ("AsKxx", ["As", "K", "x", "x"], 4),
                                              ("Q9xxx", ["Q", "9", "x", "x", "x"], 5)])
def test_patterns_against_a_plain_matcher(pattern, items, k):
    got = {tuple(h) for h in parse_omaha_range(pattern, k).combos.tolist()}
    rng = np.random.default_rng(k)
    sample = [tuple(sorted(rng.choice(52, k, replace=False).tolist())) for _ in range(1200)] + sorted(got)[:200]
    for hand in sample:
        assert (hand in got) == _matches(hand, items), hand


@pytest.mark.parametrize("text, k, match", [
    ("AKs", 4, "hold'em notation"),
    ("QQ+", 4, "hold'em notation"),
    ("AhKh", 4, "has 2 cards"),
    ("AAx", 4, "has 3 cards"),
    ("AKQJ", 5, "a hand of this game holds 5"),
    ("Zxxx", 4, "cannot read"),
    ("AsAsxx", 4, "duplicate card As"),
    ("AAAAds", 4, "matches no 4-card hand"),
    ("AKQJTr", 5, "rainbow hand has at most 4"),
    ("AAxx:3", 4, "outside 0..1"),
    ("AAxx,,KKxx", 4, "empty part"),
    ("AAxx:0", 4, "no hand with a positive weight"),
    ("", 4, "empty range"),
    ("AAxx", 7, "4, 5 or 6"),
])
def test_bad_ranges_are_one_line(text, k, match):
    with pytest.raises(CardError, match=match):
        parse_omaha_range(text, k)
