"""Short-deck (6+) hold'em: 36 cards, six to ace; a flush beats a full house, A-6-7-8-9 is the lowest straight.

The game is a deck of the shared machinery (:mod:`pipeline.evaluator.decks`): one evaluator with the deck's
own tables, one equity calculator dealing from its cards.  This package holds what is the short deck's own:
its 81 starting classes (:mod:`.classes`) and its preflop tables (:mod:`.preflop`), and the calls below with
the deck filled in.  Three of a kind ranks below a straight, as pokerkit's ``ShortDeckHoldemHand`` has it;
``ranking="trips"`` (:data:`~pipeline.evaluator.decks.SHORT_DECK_TRIPS`) puts it above, as the original Six
Plus rules do.

>>> import numpy as np
>>> from pipeline.core.cards import parse_cards
>>> [describe(int(v)) for v in evaluate(np.array([parse_cards("Ah6c7d8s9h"), parse_cards("Kh9h8h7h6h")]))]
['a straight, Ace to Nine', 'a flush, King high']
>>> round(equity(["AhKh", "QsQd"]).players[0].equity, 4)
0.5428
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..equity.calculator import EquityResult
from ..evaluator.decks import SHORT_DECK, SHORT_DECK_TRIPS, Deck

__all__ = ["RANKINGS", "SHORT_DECK", "SHORT_DECK_TRIPS", "deck_of", "describe", "equity", "evaluate"]

RANKINGS = {"straight": SHORT_DECK, "trips": SHORT_DECK_TRIPS}   # which of the two beats the other


def deck_of(ranking: str) -> Deck:
    """The short deck whose hands rank a ``"straight"`` (pokerkit's, the default) or ``"trips"`` higher."""
    if ranking not in RANKINGS:
        raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {ranking!r}")
    return RANKINGS[ranking]


def evaluate(cards: np.ndarray, *, ranking: str = "straight", **kw: Any) -> np.ndarray:
    """:func:`pipeline.evaluate` on short-deck hands (card ids 16..51)."""
    from ..evaluator import evaluate as evaluate_any

    return evaluate_any(cards, deck=deck_of(ranking), **kw)


def describe(value: int, ranking: str = "straight") -> str:
    """PokerStars' words for a short-deck hand value."""
    from ..evaluator import describe as describe_any

    return describe_any(value, deck_of(ranking))


def equity(players: list, board: str = "", dead: str = "", *, ranking: str = "straight",
           trials: Optional[int] = None, **kw: Any) -> EquityResult:
    """:func:`pipeline.equity.equity` dealing from the short deck (ranges keep their six-to-ace combos)."""
    from ..equity.calculator import equity as equity_any

    return equity_any(players, board, dead, trials, deck=deck_of(ranking), **kw)
