"""Leduc hold'em exactly as OpenSpiel's ``leduc_poker``: six cards, one private card each, one public card.

The deck is J, Q, K in two suits, cards ``0..5`` with rank ``card // 2``
(OpenSpiel's numbering).  Each player antes 1 chip; player 0 acts first in
both rounds; a bet is 2 chips in the first round and 4 in the second, at most
two bets a round (the second a raise); the public card is dealt between the
rounds.  At the showdown a pair with the public card wins, else the higher
card; equal ranks split.  An information set is the player's card (first
round), or its card and the public card (second round), and the betting: the
card, not only its rank, as OpenSpiel keys its information states (suits are
told apart: ``suit_isomorphism`` off).

>>> g = leduc()
>>> g.tree.decisions, g.rows, (g.tree.street_decisions)
(36, 1116, (6, 30))
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from ..exploit.public import PublicCards
from ..holdem.tree import BettingTree, Rules, limit_tree
from .game import row_bases
from .vector import Boards, GameArrays

CARDS = 6
RANKS = "JQK"
LEDUC = Rules(blinds=(1, 1), bets=(2, 4), max_bets=(2, 2), first=(0, 0), blind_bets=0)


def card_name(card: int) -> str:
    """``J0``, ``J1`` ... ``K1``: rank and suit of a card."""
    return f"{RANKS[card // 2]}{card % 2}"


@lru_cache(maxsize=1)
def _boards() -> Boards:
    n_boards = 1 + CARDS
    bucket = np.full((n_boards, CARDS), -1, np.int64)
    bucket[0] = np.arange(CARDS)
    order = np.zeros((CARDS, CARDS), np.int64)
    rank = np.zeros((CARDS, CARDS), np.int64)
    n_valid = np.zeros(CARDS, np.int64)
    for c in range(CARDS):
        valid = [x for x in range(CARDS) if x != c]
        for x in valid:
            bucket[1 + c, x] = x * CARDS + c
            rank[c, x] = 10 + x // 2 if x // 2 == c // 2 else x // 2
        srt = sorted(valid, key=lambda x: rank[c, x])
        order[c, :len(srt)] = srt
        n_valid[c] = len(srt)
    showdown = np.array([-1] + list(range(CARDS)), np.int64)
    first_child = np.array([1] + [0] * CARDS, np.int64)
    n_child = np.array([CARDS] + [0] * CARDS, np.int64)
    # one public card of the six walked, each the chance 1/4 of the four left beside two private cards
    weight = np.array([1.0, 1.0 / 4.0])
    return Boards(first_child, n_child, bucket, showdown, order, n_valid, rank, weight)


@lru_cache(maxsize=1)
def _public_cards() -> PublicCards:
    B = _boards()
    cards = np.zeros((1 + CARDS, 5), np.int64)
    cards[1:, 0] = np.arange(CARDS)
    seen = np.array([0] + [1] * CARDS, np.int64)
    holdings = np.stack([np.arange(CARDS), np.full(CARDS, -1)], axis=1).astype(np.int64)
    holdings.flags.writeable = False    # as hold'em's (exploit.holdings.HOLDING_CARDS): one best-response compile
    return PublicCards(B.first_child, B.n_child, B.bucket, B.showdown, B.order, B.n_valid, B.rank, cards, seen,
                       holdings, CARDS, np.array([CARDS - 2.0, 1.0]))


@dataclass
class Leduc:
    """Leduc hold'em for the solver (:class:`.game.Game`): a full traversal walks the six public cards."""

    name: str = "leduc"
    full_traversal: bool = True
    walk: str = "histories"        # "histories": OpenSpiel's order (.histories); "vector": the vector walk

    @cached_property
    def tree(self) -> BettingTree:
        return limit_tree(LEDUC)

    @property
    def street_rows(self) -> tuple[int, ...]:
        return (CARDS, CARDS * CARDS)

    @cached_property
    def _bases(self) -> tuple[np.ndarray, int]:
        return row_bases(self.tree, self.street_rows)

    @property
    def rows(self) -> int:
        return self._bases[1]

    @cached_property
    def arrays(self) -> GameArrays:
        t = self.tree
        cards = np.stack([np.arange(CARDS), np.full(CARDS, -1)], axis=1).astype(np.int64)
        return GameArrays(t.kind, t.player, t.child, t.put, self._bases[0], cards, CARDS, 1.0 / (CARDS * (CARDS - 1)))

    def boards(self, iteration: int = 0, seed: int = 0) -> Boards:
        return _boards()

    def public_cards(self) -> PublicCards:
        """The six public cards as the exact best response deals them (:mod:`pipeline.exploit.public`): each
        deal of two private cards meets four of them."""
        return _public_cards()

    def bucket_name(self, street: int, bucket: int) -> str:
        if street == 0:
            return card_name(bucket)
        return f"{card_name(bucket // CARDS)}|{card_name(bucket % CARDS)}"


@lru_cache(maxsize=1)
def leduc() -> Leduc:
    """The Leduc game (one per process)."""
    return Leduc()


__all__ = ["LEDUC", "Leduc", "card_name", "leduc"]
