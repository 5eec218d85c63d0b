"""CFR+ in vector form: regret matching+, alternating updates, a linearly weighted average strategy.

Tammelin, "Solving large imperfect information games using CFR+" (2014), as
Bowling, Burch, Johanson and Tammelin ran it to solve heads-up limit hold'em
(*Science* 2015): each iteration updates player 0, then player 1 against
player 0's new strategy; regrets below zero are forgotten (regret
matching+); iteration ``t`` adds its strategy to the average with weight ``t``.
In a full traversal this is OpenSpiel's ``CFRPlusSolver`` iteration for
iteration (``tests/solver`` checks Leduc's exploitability against it within
1e-9).  In hold'em an iteration walks one sampled board (public chance sampling,
:mod:`.hulhe`).

The state is two float64 tables (rows x 3 answers: fold, call, raise), so a
checkpoint is their bytes and the iteration count, and a run resumed from it
continues bit for bit.

>>> from pipeline.solver.leduc import leduc
>>> s = Solver(leduc())
>>> s.run(10)
>>> round(s.exploitability(), 6)
0.610439
"""
from __future__ import annotations

from concurrent.futures import Executor
from functools import partial
from typing import Any, Callable, Optional

import numpy as np
from numba import njit

from ..exploit.bestresponse import table_best_response
from ..exploit.public import public_tree
from .game import Game
from .histories import current_policy, new_frames, openspiel_iteration, row_legal
from .vector import (
    COLLECT,
    USE,
    Boards,
    GameArrays,
    Split,
    Work,
    cfr_slots,
    cfr_walk,
    new_work,
    no_split,
    split_at,
)

CUT_STREET = 1          # hold'em's walk is cut where the turn is dealt: 63 subtrees for the threads


@njit(cache=True, nogil=True)
def iteration(G: GameArrays, B: Boards, regret: np.ndarray, avg: np.ndarray, t: int, W: Work, S: Split) -> None:
    """One CFR+ iteration over the boards ``B``: player 0's update, then player 1's."""
    for me in range(2):
        W.reach[0, :, :] = 1.0
        cfr_walk(G, B, 0, 0, 0, me, G.deal_weight, regret, avg, float(t), W, S)


@njit(cache=True, nogil=True)
def half(G: GameArrays, B: Boards, me: int, regret: np.ndarray, avg: np.ndarray, t: int, W: Work, S: Split) -> None:
    """The walk above the cut of a :class:`.vector.Split`: ``COLLECT`` (reaches down) or ``USE`` (values up)."""
    W.reach[0, :, :] = 1.0
    if S.mode == COLLECT:
        S.board[:] = -1
    cfr_walk(G, B, 0, 0, 0, me, G.deal_weight, regret, avg, float(t), W, S)


def average_policy(avg: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The average strategy of every row (probabilities of fold, call, raise; uniform over the legal answers
    of a row nothing was added to), as OpenSpiel's ``average_policy``."""
    s = avg.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(s > 0, avg / np.where(s > 0, s, 1.0), uniform)


class Solver:
    """CFR+ on a :class:`.game.Game`: :meth:`run` iterations, :meth:`exploitability` of the average strategy.

    ``regret`` and ``avg`` are the tables (rows x 3); ``t`` the iterations done.
    """

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game, self.seed = game, seed
        self.regret = np.zeros((game.rows, 3))
        self.avg = np.zeros((game.rows, 3))
        self.t = 0
        holdings = game.arrays.cards.shape[0]
        self._work = new_work(holdings, game.arrays.deck)
        self._normal = no_split(game.tree.nodes, holdings)
        self._split: Optional[Split] = None
        self._works: list[Work] = []

    def run(self, iterations: int, executor: Optional[Executor] = None,
            stop: Optional[Callable[[], bool]] = None) -> None:
        """``iterations`` more iterations (fewer if ``stop()`` turns true between two).

        A game whose ``walk`` is ``"histories"`` (Leduc's full traversal) walks history by history in
        OpenSpiel's order (:mod:`.histories`); every other walks in vector form."""
        G = self.game.arrays
        histories = getattr(self.game, "walk", "vector") == "histories"
        threads = 0 if executor is None else int(getattr(executor, "_max_workers", 0) or 1)
        if histories:
            legal = row_legal(G, self.game.rows)
            cur = np.zeros_like(self.regret)
            current_policy(self.regret.copy(), legal, cur)      # what the last pass left: RM of the regrets
            frames = new_frames()
        for _ in range(iterations):
            if stop is not None and stop():
                return
            self.t += 1
            if histories:
                openspiel_iteration(G, self.regret, self.avg, cur, legal, self.t, frames)
            elif threads > 1 and not self.game.full_traversal:
                self._threaded(self.game.boards(self.t, self.seed), executor, threads)
            else:
                iteration(G, self.game.boards(self.t, self.seed), self.regret, self.avg, self.t, self._work,
                          self._normal)

    def _threaded(self, B: Boards, executor: Any, threads: int) -> None:
        """One iteration with the turn's subtrees spread over ``threads`` threads of ``executor``: the same
        bytes as one walk (they update disjoint information sets; :class:`.vector.Split`)."""
        G = self.game.arrays
        if self._split is None:
            self._split = split_at(self.game.tree.kind, self.game.tree.street, CUT_STREET, G.cards.shape[0])
            self._works = [new_work(G.cards.shape[0], G.deck) for _ in range(threads)]
        S = self._split
        chunks = [np.arange(k, S.node.size, threads, dtype=np.int64) for k in range(threads)]
        for me in range(2):
            half(G, B, me, self.regret, self.avg, self.t, self._work, S)
            list(executor.map(partial(self._slots, G, B, me, S), chunks, self._works))
            half(G, B, me, self.regret, self.avg, self.t, self._work, S._replace(mode=USE))

    def _slots(self, G: GameArrays, B: Boards, me: int, S: Split, chunk: np.ndarray, W: Work) -> None:
        cfr_slots(G, B, chunk, me, self.regret, self.avg, float(self.t), W, S, self._normal)

    def exploitability(self) -> float:
        """NashConv / 2 of the average strategy in chips a game (OpenSpiel's ``exploitability``): the mean of
        the two players' exact best responses (:mod:`pipeline.exploit.bestresponse`, one walk of the public tree
        each), for a game whose every public card is walked (Leduc)."""
        if not self.game.full_traversal:
            raise ValueError(f"{self.game.name}: the exact exploitability of a sampled game is not computed here "
                             "(pokerpipe exploit --exact measures a hold'em policy)")
        G = self.game.arrays
        probs = average_policy(self.avg, row_legal(G, self.game.rows).astype(np.float64))
        C = self.game.public_cards()     # type: ignore[attr-defined]
        bucket = self.game.boards(0, self.seed).bucket
        tree = public_tree(self.game.tree)
        return 0.5 * sum(table_best_response(tree, C, probs, G.row_base, bucket, me) for me in range(2))

    def state(self) -> dict[str, Any]:
        return {"t": self.t}


__all__ = ["Solver", "average_policy", "iteration"]
