"""Decks and their hand rankings: what the evaluator's tables are built for.

A :class:`Deck` is the ranks it holds (all four suits of each, card ids ``4*rank + suit`` as everywhere) and
the order of the nine hand categories, weakest first.  The tables (:mod:`.tables`) are built per deck, so
one evaluator, one key scheme and every kernel that takes :class:`~.kernels.Tables` serve each deck; a
hand's value is ``tier << 12 | index``, ``tier`` the category's place in the deck's order (the category
itself on the 52-card deck).

* :data:`STANDARD`: 52 cards, deuce to ace, the usual ranking.
* :data:`SHORT_DECK`: short-deck (6+) hold'em, 36 cards, six to ace.  A flush beats a full house (five
  cards of a suit are rarer than a full house among nine ranks) and A-6-7-8-9 is the lowest straight.
  A straight beats three of a kind, as pokerkit's ``ShortDeckHoldemHand`` ranks it.
* :data:`SHORT_DECK_TRIPS`: the same deck with three of a kind above a straight, the ranking of the
  original Six Plus rules; rooms differ on this one.

>>> SHORT_DECK.size, SHORT_DECK.first_card, [CATEGORY_WORDS[c] for c in SHORT_DECK.order[-4:]]
(36, 16, ['full house', 'flush', 'four of a kind', 'straight flush'])
>>> deck_named("shortdeck-trips").tier(3) > deck_named("shortdeck-trips").tier(4)   # trips above a straight
True
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..core.cards import CardError, format_card

__all__ = ["DECKS", "Deck", "SHORT_DECK", "SHORT_DECK_TRIPS", "STANDARD", "deck_named"]

# the categories as :mod:`.classes` numbers them (its CATEGORY_NAMES; repeated here, which imports nothing)
CATEGORY_WORDS = ("high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
                  "four of a kind", "straight flush")


class Deck(NamedTuple):
    """A deck: its ``name`` (in cache keys and on the command line), its lowest rank (0 for the deuce, 4 for
    the six; every rank above it is in, in four suits) and ``order``, the category numbers of
    :mod:`.classes` from the weakest to the strongest.  Hashable: the tables are cached per deck."""

    name: str
    low_rank: int
    order: tuple[int, ...]

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return 4 * (13 - self.low_rank)

    @property
    def first_card(self) -> int:
        """The lowest card id in the deck: every id from it to 51 is in."""
        return 4 * self.low_rank

    @property
    def absent_mask(self) -> int:
        """Card mask of the ids below the deck (0 for the 52-card deck): dead cards to every deal."""
        return (1 << self.first_card) - 1

    @property
    def wheel_top(self) -> int:
        """Rank of the top card of the lowest straight, the ace playing low (the five; the nine of A-6-7-8-9)."""
        return self.low_rank + 3

    def tier(self, category: int) -> int:
        """The place of ``category`` in this deck's order: ``value >> 12`` of its hands."""
        return self.order.index(category)

    def check_cards(self, cards: Iterable[int], what: str = "cards") -> None:
        """:class:`CardError` naming the first of ``cards`` that this deck does not hold."""
        for c in cards:
            if not self.first_card <= c < 52:
                raise CardError(f"{what}: {format_card(c) if 0 <= c < 52 else c} is not a card of the {self.title}")

    @property
    def title(self) -> str:
        """The deck in words: ``'short deck (6 to A)'``."""
        return "52-card deck" if self.low_rank == 0 else f"short deck ({'23456789TJQKA'[self.low_rank]} to A)"


STANDARD = Deck("standard", 0, (0, 1, 2, 3, 4, 5, 6, 7, 8))
SHORT_DECK = Deck("shortdeck", 4, (0, 1, 2, 3, 4, 6, 5, 7, 8))           # full house (6) below flush (5)
SHORT_DECK_TRIPS = Deck("shortdeck-trips", 4, (0, 1, 2, 4, 3, 6, 5, 7, 8))   # and straight (4) below trips (3)
DECKS = {d.name: d for d in (STANDARD, SHORT_DECK, SHORT_DECK_TRIPS)}


def deck_named(name: str) -> Deck:
    """The deck called ``name`` (one of :data:`DECKS`); :class:`CardError` otherwise."""
    if name not in DECKS:
        raise CardError(f"unknown deck {name!r} (expected one of {', '.join(DECKS)})")
    return DECKS[name]
