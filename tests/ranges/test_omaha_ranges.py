"""Omaha range notation (ProPokerTools' generic syntax): counts worked out by hand, a plain matcher over
random hands, bad input; the documentation's examples are in test_omaha_ppt.py."""
from itertools import permutations
from math import comb

import numpy as np
import pytest

from pipeline import CardError
from pipeline.ranges.omaha import parse_omaha_range

RANKS, SUITS = "23456789TJQKA", "cdhs"

COUNTS = {   # hands of four cards, counted by hand
    "AA**": comb(4, 2) * comb(48, 2) + comb(4, 3) * 48 + 1,
    "AKQJ": 4 ** 4,
    "AKQJr": 24,
    "AAKKds": 6,
    "AAKKss": 4 * 3 * 2,
    "AsKs**": comb(50, 2),
    "$ds": 6 * comb(13, 2) ** 2,
    "$ss": 4 * comb(13, 2) * 3 * 13 * 13,
    "$r": 13 ** 4,
    "AAAA": 1,
    "AsKsQdJd": 1,
    "AA@0.5, AsKsQdJd": comb(4, 2) * comb(48, 2) + comb(4, 3) * 48 + 1 + 1,
}


@pytest.mark.parametrize("text, n", COUNTS.items())
def test_counts(text, n):
    assert len(parse_omaha_range(text)) == n


def test_suit_shapes_partition_the_deck():
    shapes = ["$ds", "$ss", "$r", "$ts", "$ms"]
    three_one, four = 4 * comb(13, 3) * 3 * 13, 4 * comb(13, 4)
    assert [len(parse_omaha_range(s)) for s in shapes[3:]] == [three_one, four]
    assert sum(len(parse_omaha_range(s)) for s in shapes) == comb(52, 4)


def _matches(hand, items):
    """A plain matcher: some ordering of the hand's cards meets the items one by one."""
    for order in permutations(hand):
        if all(it == "x" or (len(it) == 1 and RANKS[c // 4] == it) or
               (len(it) == 2 and RANKS[c // 4] + SUITS[c % 4] == it) for c, it in zip(order, items)):
            return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize("pattern, items, k", [("KKJT**", ["K", "K", "J", "T", "x", "x"], 6),
                                              ("AsK**", ["As", "K", "x", "x"], 4),
                                              ("Q9", ["Q", "9", "x", "x", "x"], 5)])
def test_patterns_against_a_plain_matcher(pattern, items, k):
    got = {tuple(h) for h in parse_omaha_range(pattern, k).combos.tolist()}
    rng = np.random.default_rng(k)
    sample = [tuple(sorted(rng.choice(52, k, replace=False).tolist())) for _ in range(1200)] + sorted(got)[:200]
    for hand in sample:
        assert (hand in got) == _matches(hand, items), hand


@pytest.mark.parametrize("text, k, match", [
    ("AKQJT", 4, "has 5 cards; a hand of this game holds 4"),
    ("AKQJT**", 6, "has 7 cards; a hand of this game holds 6"),
    ("Z#", 4, "cannot read"),
    ("AsAsxx", 4, "duplicate card As"),
    ("AAAAds", 4, "matches no 4-card hand"),
    ("AKQJTr", 5, "rainbow hand has at most 4"),
    ("AA@1e400", 4, "finite number"),
    ("AA,,KK", 4, "empty part"),
    ("AA@0", 4, "no hand with a positive weight"),
    ("", 4, "empty range"),
    ("AA", 7, "4, 5 or 6"),
])
def test_bad_ranges_are_one_line(text, k, match):
    with pytest.raises(CardError, match=match):
        parse_omaha_range(text, k)
