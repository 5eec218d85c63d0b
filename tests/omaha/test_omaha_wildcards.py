"""Issue 39, case 5, in ProPokerTools' syntax (issue 40): an Omaha pattern counts every item against the game's
hand size, and only the wildcard ``*`` is "any card".

``xxxxx`` was answered as ``random`` in four-card Omaha (so were ``xxx`` and 5,000 ``x``s) while ``AAxxx`` was
refused.  In PPT's syntax ``x`` (``y``, ``z``, ``w``; any case) is a suit variable — ``xxx`` is three cards of
one suit, a fourth card free — and a pattern may name fewer cards than a hand holds (the rest are free), never
more.  So: more items than the hand holds is refused, whatever they are; ``*`` alone, up to the hand size, is
the whole deck; ``x`` repeated is a suit shape, counted here by hand.
"""
from math import comb

import pytest

from pipeline.core.cards import CardError
from pipeline.omaha.equity import omaha_equity
from pipeline.ranges.omaha import is_random, parse_omaha_range

GAMES = {"omaha": 4, "omaha5": 5, "omaha6": 6}


@pytest.mark.parametrize("game, k", GAMES.items())
@pytest.mark.parametrize("more", [1, 5000])
@pytest.mark.parametrize("item", ["x", "*", "X", "A"])
def test_more_items_than_a_hand_holds_are_refused(game, k, more, item):
    items = k + more
    pattern = item * items
    assert not is_random(pattern, k)
    with pytest.raises(CardError, match=f"has {items} cards; a hand of this game holds {k} ") as e:
        omaha_equity([pattern, "random"], game=game, trials=1000)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


@pytest.mark.parametrize("k", GAMES.values())
def test_wildcards_up_to_the_hand_size_are_the_whole_deck(k):
    for items in range(1, k + 1):
        assert is_random("*" * items, k)
        with pytest.raises(CardError, match="random is the whole deck"):     # listed as a range: deal it instead
            parse_omaha_range("*" * items, k)


@pytest.mark.slow
@pytest.mark.parametrize("k", GAMES.values())
def test_a_suit_variable_repeated_is_a_suit_shape(k):
    """``x`` times k: every card of one suit, 4 * C(13, k) hands; ``x`` times (k - 1): at least k - 1 cards of
    one suit (k - 1 of them and any other card, or all k), 4 * (C(13, k-1) * 39 + C(13, k)) for k >= 4."""
    assert not is_random("x" * k, k)
    assert len(parse_omaha_range("x" * k, k)) == 4 * comb(13, k)
    assert len(parse_omaha_range("X" * (k - 1), k)) == 4 * (comb(13, k - 1) * 39 + comb(13, k))


def test_a_whole_deck_pattern_is_random():
    """``****`` is ``random`` in Omaha: the same seeded answer."""
    a = omaha_equity(["AA**", "****"], trials=20_000, seed=3)
    b = omaha_equity(["AA**", "random"], trials=20_000, seed=3)
    assert a.players[0].equity == b.players[0].equity
