"""Issue 39, case 5: an Omaha pattern counts every item, wildcards included, against the game's hand size.

``xxxxx`` was answered as ``random`` in four-card Omaha (so were ``xxx`` and 5,000 ``x``s) while ``AAxxx`` was
refused: an all-wildcard pattern is the whole deck only when it has exactly as many items as a hand has cards.
"""
import pytest

from pipeline.core.cards import CardError
from pipeline.omaha.equity import omaha_equity
from pipeline.ranges.omaha import is_random, parse_omaha_range

GAMES = {"omaha": 4, "omaha5": 5, "omaha6": 6}


@pytest.mark.parametrize("game, k", GAMES.items())
@pytest.mark.parametrize("more", [-1, 0, 1, 5000])
@pytest.mark.parametrize("wild", ["x", "*", "X"])
def test_every_item_counts(game, k, more, wild):
    items = k + more
    pattern = wild * items
    assert is_random(pattern, k) == (items == k)
    if items == k:
        with pytest.raises(CardError, match="random is the whole deck"):   # listed as a range: deal it instead
            parse_omaha_range(pattern, k)
        return
    with pytest.raises(CardError, match=f"has {items} cards.*; a hand of this game holds {k} ") as e:
        omaha_equity([pattern, "random"], game=game, trials=1000)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


def test_a_whole_deck_pattern_of_the_right_size_is_random():
    """``xxxx`` is ``random`` in Omaha: the same seeded answer."""
    a = omaha_equity(["AAxx", "xxxx"], trials=20_000, seed=3)
    b = omaha_equity(["AAxx", "random"], trials=20_000, seed=3)
    assert a.players[0].equity == b.players[0].equity
