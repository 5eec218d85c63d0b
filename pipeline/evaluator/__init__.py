"""Hand evaluator: comparable int values for 5, 6 and 7 cards.

>>> import numpy as np
>>> from pipeline import parse_cards, evaluate, category, describe
>>> v = evaluate(np.array([parse_cards("9s9h8c8dAs2c3d")]))
>>> int(category(v)[0]), describe(int(v[0]))
(2, 'two pair, Nines and Eights')

Values are ``category << 12 | index`` (see :mod:`.classes`): higher wins, equal
splits, ``value >> 12`` is the category 0 (high card) .. 8 (straight flush).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..core.cards import CardError
from ..core.cpu import SCALAR, simd_level
from .classes import CATEGORY_NAMES, CATEGORY_SHIFT, describe_value
from .kernels import evaluate_checked, evaluate_into, first_id_outside_deck
from .simd import evaluate_hands7, offsets32, padded_values
from .tables import tables

__all__ = ["evaluate", "category", "describe", "CATEGORY_NAMES"]


def evaluate(cards: np.ndarray, *, check: bool = True, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Values (int32, higher wins) of ``cards``: an integer array (n, 5|6|7) of card ids.

    ``out``, an int32 array of n values, receives them instead of a new array (numpy's convention): a caller
    who evaluates batch after batch saves the new array's page faults, a fifth of the time of a large batch.

    With ``check`` (the default) a row with an id outside 0..51 or a repeated
    card raises :class:`~pipeline.core.cards.CardError`.  ``check=False`` skips the
    repeated-card scan only: ids are still bound-checked (an id outside the deck
    would read outside the tables and crash the process), and a hand with a
    repeated card gets a meaningless value.
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
    level = simd_level()
    if check and level != SCALAR and cards.shape[1] == 7 and cards.dtype.itemsize == 1 and cards.flags.c_contiguous:
        # eight hands a step, the checks in the same vector work (int8 viewed as uint8: a negative id is > 51)
        bad = evaluate_hands7(cards.view(np.uint8), out, tables(), padded_values(), offsets32(), level)
    elif check:      # one pass: the checks ride along the key sums
        bad = evaluate_checked(cards, out, tables())
    else:
        bad = first_id_outside_deck(cards)
        if bad < 0:
            evaluate_into(cards, out, tables())
    if bad >= 0:
        raise CardError(f"row {bad} of cards is not a hand of distinct card ids 0..51: {cards[bad].tolist()}")
    return out


def category(values: np.ndarray) -> np.ndarray:
    """Category 0..8 (high card .. straight flush) of each value; see ``CATEGORY_NAMES``."""
    return np.asarray(values) >> CATEGORY_SHIFT


def describe(value: int) -> str:
    """PokerStars' words for a hand value, e.g. ``'a full house, Kings full of Fours'``."""
    return describe_value(int(value))
