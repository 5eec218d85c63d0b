"""Hand evaluator: comparable int values for 5, 6 and 7 cards.

>>> import numpy as np
>>> from pipeline import parse_cards, evaluate, category, describe
>>> v = evaluate(np.array([parse_cards("9s9h8c8dAs2c3d")]))
>>> int(category(v)[0]), describe(int(v[0]))
(2, 'two pair, Nines and Eights')

Values are ``category << 12 | index`` (see :mod:`.classes`): higher wins, equal
splits, ``value >> 12`` is the category 0 (high card) .. 8 (straight flush).

``deck=`` evaluates the hands of another deck (:mod:`.decks`) with the same kernels and
its own tables: short-deck (6+) hold'em, where a flush beats a full house and
A-6-7-8-9 is the lowest straight.  Its values are ``tier << 12 | index``, the tier
being the category's place in the deck's order; :func:`category` gives the category.

>>> from pipeline.evaluator.decks import SHORT_DECK
>>> v = evaluate(np.array([parse_cards("Ah6c7d8s9hKhKd"), parse_cards("KhKdKs9h9c6h7h")]), deck=SHORT_DECK)
>>> [CATEGORY_NAMES[c] for c in category(v, SHORT_DECK)], [describe(int(x), SHORT_DECK) for x in v]
(['straight', 'full house'], ['a straight, Ace to Nine', 'a full house, Kings full of Nines'])
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..core.cards import CardError
from ..core.cpu import SCALAR, simd_level
from ..core.inputs import integer
from .classes import CATEGORY_NAMES, CATEGORY_SHIFT, describe_value
from .decks import SHORT_DECK, SHORT_DECK_TRIPS, STANDARD, Deck
from .kernels import evaluate_checked, evaluate_into, first_id_outside_deck
from .simd import evaluate_hands7, offsets32
from .tables import tables

__all__ = ["evaluate", "category", "describe", "CATEGORY_NAMES", "Deck", "STANDARD", "SHORT_DECK", "SHORT_DECK_TRIPS"]


def evaluate(cards: np.ndarray, *, check: bool = True, out: Optional[np.ndarray] = None,
             deck: Deck = STANDARD) -> np.ndarray:
    """Values (int32, higher wins) of ``cards``: an integer array (n, 5|6|7) of card ids of ``deck``.

    ``out``, an int32 array of n values, receives them instead of a new array (numpy's convention): a caller
    who evaluates batch after batch saves the new array's page faults, a fifth of the time of a large batch.

    With ``check`` (the default) a row with an id outside 0..51 or a repeated
    card raises :class:`~pipeline.core.cards.CardError`.  ``check=False`` skips the
    repeated-card scan only: ids are still bound-checked (an id outside the deck
    would read outside the tables and crash the process), and a hand with a
    repeated card gets a meaningless value.  A deck without the low ranks refuses
    their ids as well, in the same checks.
    """
    cards = np.asarray(cards)
    if cards.ndim == 1:
        cards = cards[None, :]
    if cards.ndim != 2 or cards.shape[1] not in (5, 6, 7) or cards.dtype.kind not in "iu":
        raise CardError(f"cards must be an integer array of shape (n, 5|6|7), got {cards.dtype} {cards.shape}")
    if out is None:
        out = np.empty(len(cards), np.int32)
    elif out.dtype != np.int32 or out.shape != (len(cards),) or not out.flags.c_contiguous:
        raise CardError(f"out must be a contiguous int32 array of {len(cards)} values, got {out.dtype} {out.shape}")
    T, first = tables(deck), deck.first_card
    level = simd_level()
    if check and level != SCALAR and cards.shape[1] == 7 and cards.dtype.itemsize == 1 and cards.flags.c_contiguous:
        # eight hands a step on the AVX2 or AVX-512 path, the checks (ids in first..51, distinct) in the same
        # vector work (int8 viewed as uint8: a negative id is > 51)
        bad = evaluate_hands7(cards.view(np.uint8), out, T, T.rank_values, offsets32(deck), level, first)
    elif check:      # one pass: the checks ride along the key sums
        bad = evaluate_checked(cards, out, T, first) if first else evaluate_checked(cards, out, T)
    else:
        bad = first_id_outside_deck(cards, first) if first else first_id_outside_deck(cards)
        if bad < 0:
            evaluate_into(cards, out, T)
    if bad >= 0:
        raise CardError(f"row {bad} of cards is not a hand of distinct card ids {first}..51"
                        + (f" (the {deck.title})" if first else "") + f": {cards[bad].tolist()}")
    return out


def category(values: np.ndarray, deck: Deck = STANDARD) -> np.ndarray:
    """Category 0..8 (high card .. straight flush) of each value of ``deck``; see ``CATEGORY_NAMES``."""
    tiers = np.asarray(values) >> CATEGORY_SHIFT
    return tiers if deck.order == STANDARD.order else np.array(deck.order)[tiers]


def describe(value: int, deck: Deck = STANDARD) -> str:
    """PokerStars' words for a hand value of ``deck`` (:func:`evaluate`'s), e.g. ``'a full house, Kings full of
    Fours'``; :class:`~pipeline.core.cards.CardError` for anything that is not one."""
    v = integer(value, "hand value", 0, (9 << CATEGORY_SHIFT) - 1, error=CardError, strict=True)
    try:
        return describe_value(v, deck)
    except ValueError:
        raise CardError(f"hand value {v} is not the value of any hand") from None
