"""Short-deck preflop tables: every heads-up matchup of the 36-card deck, exactly, and the 81x81 grid.

The 52-card machinery of :mod:`pipeline.equity.matchups` with the deck as its parameter: the 176,715
unordered pairs of disjoint hands fall into 10,215 classes under the 24 suit permutations (canonical codes
as there, each with its weight), each class's hero counts wins, ties and losses over all C(32, 5) =
201,376 boards of the cards left (:func:`matchup_counts`, by rank multiset with a flush correction), and the
81x81 grid sums them over the specific matchups of each ordered pair of classes.  Against two random hands
(:func:`vs_two`) every deal is counted too, board first, by :mod:`pipeline.equity.two_opponents` on the
short deck's 19,998 canonical boards.

>>> codes, weights = matchups()
>>> len(codes), int(weights.sum())
(10215, 176715)
>>> [int(x) for x in matchup_counts(codes[:1])[0]]      # AsAh against AdAc
[3466, 194444, 3466]
"""
from __future__ import annotations

import numpy as np

from ..equity.matchups import canonical_matchups, class_grid, count_matchups
from ..equity.two_opponents import board_orbits, class_counts_of_boards, deals_per_combo
from ..evaluator.decks import SHORT_DECK, Deck
from ..evaluator.tables import tables
from .classes import HOLDEM_INDEX

FIRST = SHORT_DECK.first_card        # the six of clubs: the deck's lowest id
BOARDS = 201_376                     # C(32, 5) boards of each matchup
SPECIFIC_MATCHUPS = 176_715          # C(36, 2) C(34, 2) / 2
DEALS_AGAINST_TWO = deals_per_combo(SHORT_DECK.absent_mask)   # C(34, 5) x C(29, 2) C(27, 2) / 2 per hand


def matchups() -> tuple[np.ndarray, np.ndarray]:
    """Canonical codes of the 10,215 matchup classes of the short deck (descending) and their weights."""
    return canonical_matchups(FIRST)


def matchup_counts(codes: np.ndarray, deck: Deck = SHORT_DECK) -> np.ndarray:
    """(n, 3) int64: hero's wins, ties and losses over the 201,376 boards of each matchup code, hands ranked
    by ``deck`` (:data:`~pipeline.evaluator.decks.SHORT_DECK`, or the trips-over-straight ranking)."""
    if deck.first_card != FIRST:
        raise ValueError(f"{deck.name} is not a short deck")
    return count_matchups(np.ascontiguousarray(codes, np.int64), tables(deck), FIRST)


def grid(codes: np.ndarray, wtl: np.ndarray) -> np.ndarray:
    """(81, 81, 4) int64 combos, wins, ties and losses of every ordered pair of classes (row hand's view),
    summed over the 353,430 ordered specific matchups, from the classes' counts ``wtl``."""
    full = class_grid(np.asarray(codes, np.int64), np.asarray(wtl, np.int64), FIRST)
    return np.ascontiguousarray(full[np.ix_(HOLDEM_INDEX, HOLDEM_INDEX)])


def vs_random(grid: np.ndarray) -> np.ndarray:
    """(81, 3) wins, ties and losses of each class against one random hand of the short deck, from the grid."""
    return grid[:, :, 1:].sum(axis=1)


def vs_two(deck: Deck = SHORT_DECK) -> np.ndarray:
    """(81, 4) int64: sole wins, two-way ties, three-way ties and losses of each class against two random hands
    over every deal of the short deck (each row sums to its combos x :data:`DEALS_AGAINST_TWO`), hands ranked
    by ``deck``.  A few seconds of one core."""
    from ..isomorphism.boards import all_card_sets, cards_of_codes, suit_canonical_codes

    if deck.first_card != FIRST:
        raise ValueError(f"{deck.name} is not a short deck")
    codes = np.unique(suit_canonical_codes(all_card_sets(52 - FIRST, 5) + np.uint8(FIRST), False))
    boards = np.ascontiguousarray(cards_of_codes(codes), np.int64)          # one of each suit orbit
    return class_counts_of_boards(boards, board_orbits(boards), deck)[HOLDEM_INDEX]
