"""Heads-up limit hold'em on a card abstraction, for CFR+ with public chance sampling.

The betting is the engine's (:func:`pipeline.holdem.tree.hulhe`).  An
information set is the street, the player's bucket there and the betting
(imperfect recall: earlier buckets are forgotten): preflop the 169 hand
classes, after the flop the bucket of the built ``abstraction`` datasets
(:mod:`pipeline.abstraction`: potential-aware on the flop, distribution-aware
on the turn, OCHS on the river), ``k`` each.

Public chance sampling (Johanson, Bowling, Burch, Gibson and Lanctot,
"Efficient Nash equilibrium approximation through Monte Carlo counterfactual
regret minimization", AAMAS 2012): an iteration deals one board (flop, turn,
river) from the seeded stream of ``(seed, iteration)`` and walks the whole
betting tree on it with both players' reach over all 1,326 holdings; each
chance node weighs its one outcome by the chance of a compatible outcome over
the chance the sampler drew it (``C(52,3)/C(48,3)`` on the flop, ``49/45`` on
the turn, ``48/44`` on the river), so the values are unbiased estimates of the
full game's.  The river's showdown sorts the 1,081 live holdings once
(:mod:`.vector`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import comb
from typing import Any, Optional, Protocol

import numpy as np
from numba import njit

from ..core.hand_classes import CLASS_COUNT, CLASS_LABELS, class_of
from ..core.rng import seed_stream, stream_deal
from ..evaluator.kernels import KEY_BASE, Tables, hand_value, suited_bit
from ..evaluator.tables import tables
from ..holdem.tree import BettingTree, hulhe
from ..isomorphism.situations import block_table, situation_index_nb
from .game import row_bases
from .vector import Boards, GameArrays

HOLDINGS = 1326
SOLVER_STREAM = 7                     # the core.rng purpose of the solver's boards
FLOP_WEIGHT = comb(52, 3) / comb(48, 3)
TURN_WEIGHT = 49 / 45
RIVER_WEIGHT = 48 / 44
BOARD_SEEN = (0, 3, 4, 5)


def holding_cards() -> np.ndarray:
    """(1326, 2) the cards of each holding, ``a > b``, numbered ``a(a-1)/2 + b`` (as :mod:`pipeline.exploit`)."""
    out = np.zeros((HOLDINGS, 2), np.int64)
    for a in range(52):
        for b in range(a):
            out[a * (a - 1) // 2 + b] = (a, b)
    return out


class BucketSource(Protocol):
    """Buckets of situation indices (:func:`pipeline.isomorphism.situations.situation_index`) per street:
    a built abstraction (:class:`pipeline.abstraction.lookup.Abstraction`) is one."""

    def buckets(self, indices: np.ndarray, street: str) -> np.ndarray:
        ...


@njit(cache=True, nogil=True)
def deal_board(seed: int, iteration: int, board: np.ndarray) -> None:
    """The five board cards of ``iteration`` (flop, turn, river), from the stream of ``(seed, iteration)``."""
    state = np.zeros(1, np.uint64)
    seed_stream(state, seed, iteration, SOLVER_STREAM)
    deck = np.arange(52, dtype=np.int64)
    for i in range(5):
        board[i] = stream_deal(state, deck, i, 52)


@njit(cache=True, nogil=True)
def board_features(board: np.ndarray, cards: np.ndarray, b3: np.ndarray, b4: np.ndarray, b5: np.ndarray,
                   T: Tables, classes: np.ndarray, index: np.ndarray, rank: np.ndarray, order: np.ndarray) -> int:
    """Per holding: its class (``classes``), its situation index on the flop, turn and river (``index``, -1
    where it holds a card of that board) and its river strength (``rank``); ``order`` the live holdings of the
    river, weakest first; returns how many."""
    n = cards.shape[0]
    key = KEY_BASE
    suited = np.uint64(0)
    for i in range(5):
        key += T.card_keys[board[i]]
        suited |= suited_bit(board[i])
    live = 0
    for x in range(n):
        a, b = cards[x, 0], cards[x, 1]
        classes[x] = class_of(a, b)
        for s in range(3):
            m = 3 + s
            hit = False
            for i in range(m):
                if board[i] == a or board[i] == b:
                    hit = True
            if hit:
                index[s, x] = -1
            else:
                index[s, x] = situation_index_nb(a, b, board, m, b3 if s == 0 else (b4 if s == 1 else b5))
        if index[2, x] >= 0:
            rank[x] = hand_value(key + T.card_keys[a] + T.card_keys[b], suited | suited_bit(a) | suited_bit(b), T)
            order[live] = x
            live += 1
        else:
            rank[x] = -1
    srt = np.argsort(rank[order[:live]], kind="mergesort")
    tmp = order[:live].copy()
    for i in range(live):
        order[i] = tmp[srt[i]]
    return live


@dataclass
class HULHE:
    """Heads-up limit hold'em with ``k`` buckets a postflop street from ``source`` (:class:`BucketSource`)."""

    k: int
    source: Any = field(repr=False)
    name: str = "hulhe"
    full_traversal: bool = False

    @property
    def tree(self) -> BettingTree:
        return hulhe()

    @property
    def street_rows(self) -> tuple[int, ...]:
        return (CLASS_COUNT, self.k, self.k, self.k)

    @cached_property
    def _bases(self) -> tuple[np.ndarray, int]:
        return row_bases(self.tree, self.street_rows)

    @property
    def rows(self) -> int:
        return self._bases[1]

    @cached_property
    def arrays(self) -> GameArrays:
        t = self.tree
        return GameArrays(t.kind, t.player, t.child, t.put, self._bases[0], holding_cards(), 52,
                          1.0 / (HOLDINGS * comb(50, 2)))

    @cached_property
    def _scratch(self) -> dict[str, np.ndarray]:
        return {"classes": np.zeros(HOLDINGS, np.int64), "index": np.zeros((3, HOLDINGS), np.int64),
                "rank": np.zeros(HOLDINGS, np.int64), "order": np.zeros(HOLDINGS, np.int64),
                "board": np.zeros(5, np.int64)}

    def boards(self, iteration: int, seed: int = 0, board: Optional[np.ndarray] = None) -> Boards:
        """The sampled board of ``iteration`` (or ``board``, five cards) with every holding's buckets."""
        s = self._scratch
        if board is None:
            deal_board(seed, iteration, s["board"])
        else:
            s["board"][:] = board
        return self.boards_of(s["board"])

    def boards_of(self, board: np.ndarray) -> Boards:
        s = self._scratch
        cards = self.arrays.cards
        live = board_features(board, cards, block_table(3), block_table(4), block_table(5), tables(), s["classes"],
                              s["index"], s["rank"], s["order"])
        bucket = np.full((4, HOLDINGS), -1, np.int64)
        bucket[0] = s["classes"]
        for st, name in enumerate(("flop", "turn", "river")):
            idx = s["index"][st]
            ok = idx >= 0
            got = np.asarray(self.source.buckets(idx[ok], name), np.int64)
            if np.any(got >= self.k):
                raise ValueError(f"the {name} abstraction has buckets beyond k={self.k} (not built for this board?)")
            bucket[st + 1, ok] = got
        return Boards(np.array([1, 2, 3, 0], np.int64), np.array([1, 1, 1, 0], np.int64), bucket,
                      np.array([-1, -1, -1, 0], np.int64), s["order"][None, :].copy(), np.array([live], np.int64),
                      s["rank"][None, :].copy(), np.array([1.0, FLOP_WEIGHT, TURN_WEIGHT, RIVER_WEIGHT]))

    def bucket_name(self, street: int, bucket: int) -> str:
        return CLASS_LABELS[bucket] if street == 0 else str(bucket)


class ModuloBuckets:
    """A stand-in abstraction for tests and smoke runs: the bucket of a situation is its index modulo ``k``
    (no build needed; it keeps suit-isomorphic situations together and nothing else)."""

    def __init__(self, k: int) -> None:
        self.k = k

    def buckets(self, indices: np.ndarray, street: str) -> np.ndarray:
        return np.asarray(indices, np.int64) % self.k


@lru_cache(maxsize=4)
def modulo_game(k: int) -> HULHE:
    return HULHE(k, ModuloBuckets(k))


__all__ = ["BucketSource", "HULHE", "ModuloBuckets", "deal_board", "holding_cards", "modulo_game"]
