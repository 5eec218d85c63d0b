"""The short-deck (6+) evaluator: one set of kernels, the deck's own tables (issue 44).

Checked against outside values (the published five-card counts of the 36-card deck), against the
independent oracle of ``tests/oracles/shortdeck.py`` on every 5-, 6- and 7-card hand of the deck, and
against pokerkit's ``ShortDeckHoldemHand`` on every five-card class and on 100,000 random seven-card hands.
"""
from math import comb

import numpy as np
import pytest
from oracles.shortdeck import (
    POKERKIT_ORDER,
    TRIPS_ORDER,
    all_hands,
    best_hand,
    categories,
    codes_of,
    tiers,
)

from pipeline.core.cards import CardError, parse_cards
from pipeline.evaluator import CATEGORY_NAMES, SHORT_DECK, SHORT_DECK_TRIPS, STANDARD, category, describe, evaluate
from pipeline.evaluator.classes import class_tables
from pipeline.evaluator.hands import add_cards, evaluate_keys, hand_keys
from pipeline.evaluator.tables import tables

# Five-card hands of the 36-card deck by category, high card .. straight flush: the published table
# (e.g. Wikipedia's "Six-plus hold'em"), independent of any code.
FIVE_CARD = [122_400, 193_536, 36_288, 16_128, 6_120, 480, 1_728, 288, 24]
# Seven-card hands, by the oracle's enumeration of all C(36, 7) = 8,347,680 (printed in docs/shortdeck.md).
SEVEN_CARD = [233_100, 2_316_600, 3_157_056, 607_200, 1_169_940, 175_560, 633_024, 44_640, 10_560]


def _same_order(ours: np.ndarray, theirs: np.ndarray) -> bool:
    """Whether two value arrays order (and tie) the same hands the same way: an increasing bijection."""
    assert ours.min() >= 0 and ours.max() < 1 << 16 and theirs.min() >= 0 and theirs.max() < 1 << 40
    pairs = np.unique(theirs.astype(np.int64) << 16 | ours)          # sorted by theirs, then ours
    mine = pairs & 0xFFFF
    return (len(np.unique(pairs >> 16)) == len(pairs) == len(np.unique(mine))
            and bool(np.all(np.diff(mine) > 0)))


@pytest.fixture(scope="module")
def seven():
    return all_hands(7)


@pytest.mark.slow
def test_five_card_counts_are_the_published_ones_and_the_oracles():
    hands = all_hands(5)
    assert len(hands) == comb(36, 5)
    counts = np.bincount(category(evaluate(hands, deck=SHORT_DECK), SHORT_DECK), minlength=9)
    codes = codes_of(hands, tiers(POKERKIT_ORDER))
    assert counts.tolist() == FIVE_CARD == categories(codes).tolist()
    assert _same_order(evaluate(hands, deck=SHORT_DECK), codes)
    assert len(class_tables(SHORT_DECK)[1]) == 1_404 == len(np.unique(evaluate(hands, deck=SHORT_DECK)))


@pytest.mark.slow
def test_every_seven_card_hand_is_ordered_as_the_oracle_orders_it(seven):
    values = evaluate(seven, deck=SHORT_DECK)
    codes = codes_of(seven, tiers(POKERKIT_ORDER))
    counts = np.bincount(category(values, SHORT_DECK), minlength=9)
    assert counts.tolist() == SEVEN_CARD == categories(codes).tolist()
    assert _same_order(values, codes)
    six = all_hands(6)
    assert _same_order(evaluate(six, deck=SHORT_DECK), codes_of(six, tiers(POKERKIT_ORDER)))


@pytest.mark.slow
def test_the_trips_over_straight_ranking(seven):
    """The other convention: a hand holding both three of a kind and a straight is three of a kind."""
    values = evaluate(seven, deck=SHORT_DECK_TRIPS)
    codes = codes_of(seven, tiers(TRIPS_ORDER))
    counts = np.bincount(category(values, SHORT_DECK_TRIPS), minlength=9)
    assert counts.tolist() == categories(codes, TRIPS_ORDER).tolist()
    assert _same_order(values[::5], codes[::5])
    assert counts[3] - SEVEN_CARD[3] == SEVEN_CARD[4] - counts[4] == 30_360
    trips, straight = (evaluate(np.array([parse_cards(h)]), deck=SHORT_DECK_TRIPS)[0] for h in ("9c9d9hAsKd",
                                                                                                  "Ac6d7h8s9d"))
    assert trips > straight and best_hand(parse_cards("9c9d9hAsKd"), True) > best_hand(parse_cards("Ac6d7h8s9d"), True)


def _pokerkit_index(cards: np.ndarray) -> np.ndarray:
    """pokerkit's ``ShortDeckHoldemHand`` strength (its entry's index) of each row: two hole cards and a board."""
    from pokerkit import ShortDeckHoldemHand

    text = ["23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in range(52)]
    return np.array([ShortDeckHoldemHand.from_game("".join(text[c] for c in row[:2]),
                                                   "".join(text[c] for c in row[2:])).entry.index
                     for row in cards.tolist()])


def test_every_five_card_class_is_ranked_as_pokerkit_ranks_it():
    hands = all_hands(5)
    values = evaluate(hands, deck=SHORT_DECK)
    _, first = np.unique(values, return_index=True)            # one hand of each of the 1,404 classes
    assert _same_order(values[first], _pokerkit_index(hands[first]))


@pytest.mark.slow
def test_a_hundred_thousand_random_hands_agree_with_pokerkit():
    """pokerkit (pure Python, ~3,000 seven-card hands/s) values one hand of each class the sample holds: a
    hand's strength is fixed by its rank multiset and the ranks of a suit holding five or more, so the
    class's hand stands for all of them (7,059 calls instead of 100,000, 3 s instead of 30)."""
    rng = np.random.default_rng(44)
    cards = (16 + np.argsort(rng.random((100_000, 36)), axis=1)[:, :7]).astype(np.uint8)
    ranks, suits = np.sort(cards >> 2, axis=1).astype(np.int64), cards & 3
    per_suit = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    flush = np.where(per_suit.max(axis=1) >= 5, per_suit.argmax(axis=1), -1)
    flush_ranks = np.bitwise_or.reduce(np.where(suits == flush[:, None], 1 << (cards >> 2).astype(np.int64), 0),
                                       axis=1)
    key = (ranks * 13 ** np.arange(7)).sum(axis=1) * 8192 + flush_ranks
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    theirs = _pokerkit_index(cards[first])[inverse]
    assert _same_order(evaluate(cards, deck=SHORT_DECK), theirs)
    assert len(first) > 5_000


def test_words_categories_and_the_lowest_straight():
    hands = np.array([parse_cards(h) for h in ("Ah6c7d8s9h", "6h7h8h9hTh", "KhKdKs9h9c", "AhQh8h7h6h")])
    v = evaluate(hands, deck=SHORT_DECK)
    assert [describe(int(x), SHORT_DECK) for x in v] == [
        "a straight, Ace to Nine", "a straight flush, Six to Ten", "a full house, Kings full of Nines",
        "a flush, Ace high"]
    assert v[3] > v[2] > v[0]                                   # a flush beats a full house
    assert [CATEGORY_NAMES[c] for c in category(v, SHORT_DECK)] == ["straight", "straight flush", "full house",
                                                                    "flush"]
    wheel, six_high = evaluate(np.array([parse_cards("Ah6c7d8s9h"), parse_cards("6c7d8s9hTh")]), deck=SHORT_DECK)
    assert wheel < six_high


def test_cards_below_the_six_are_refused_on_every_path():
    good = np.array([parse_cards("AhKh6c7d8s9hTd")], np.uint8)
    bad = np.array([parse_cards("AhKh6c7d8s9hTd"), parse_cards("AhKh6c7d8s9h5d")], np.uint8)
    for cards in (bad, bad.astype(np.int64), bad[:, 2:], bad.astype(np.int8)):
        with pytest.raises(CardError, match="row 1 .* 16..51"):
            evaluate(cards, deck=SHORT_DECK)
        with pytest.raises(CardError, match="row 1 .* 16..51"):
            evaluate(cards, deck=SHORT_DECK, check=False)
    many = np.repeat(good, 1000, axis=0)
    many[637, 3] = 2
    with pytest.raises(CardError, match="row 637"):
        evaluate(many, deck=SHORT_DECK)
    with pytest.raises(CardError, match="16..51"):
        hand_keys(bad, deck=SHORT_DECK)
    assert evaluate(bad)[1] > 0                                 # the 52-card deck holds the five


def test_prebuilt_keys_and_the_scalar_kernel_give_the_same_values(seven):
    sample = np.ascontiguousarray(seven[::97])
    want = evaluate(sample, deck=SHORT_DECK)
    keys, suited = hand_keys(sample[:, :2], deck=SHORT_DECK)
    keys, suited = add_cards(keys, suited, sample[:, 2:], deck=SHORT_DECK)
    assert (evaluate_keys(keys, suited, deck=SHORT_DECK) == want).all()
    assert (evaluate(sample.astype(np.int64), deck=SHORT_DECK) == want).all()       # scalar checked kernel
    assert (evaluate(sample, deck=SHORT_DECK, check=False) == want).all()
    assert tables(SHORT_DECK).rank_values.size < tables(STANDARD).rank_values.size // 10
