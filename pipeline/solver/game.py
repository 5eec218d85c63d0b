"""What the solver solves: a two-player zero-sum game as a public betting tree, chance, and information-set rows.

Every game the solver and the exact best responses walk is a :class:`Game`:

* ``tree``: the betting (:class:`pipeline.holdem.tree.BettingTree`);
* ``streets_rows``: information sets per decision on each street (a decision
  node of street ``s`` owns that many consecutive rows of the tables);
* ``arrays``: the tree, the rows and the holdings as the kernels read them
  (:class:`.vector.GameArrays`);
* :meth:`Game.boards`: the public cards an iteration walks, with each
  holding's bucket on them (:class:`.vector.Boards`): every board for a full
  traversal (Leduc), or one sampled board an iteration (public chance
  sampling in hold'em);
* :meth:`Game.row_labels`: street, bucket and betting history of every row
  (the Parquet strategy's keys).
"""
from __future__ import annotations

from typing import Protocol

import numpy as np

from ..holdem.tree import DECISION, BettingTree
from .vector import Boards, GameArrays


class Game(Protocol):
    """A game the solver can walk (see the module's text)."""

    name: str
    tree: BettingTree
    street_rows: tuple[int, ...]
    arrays: GameArrays
    full_traversal: bool          # True: every iteration walks every board (the same :class:`Boards`)

    @property
    def rows(self) -> int:
        """Rows of the regret and strategy tables."""
        ...

    def boards(self, iteration: int, seed: int) -> Boards:
        """The boards iteration ``iteration`` walks (the same every call for a full traversal)."""
        ...

    def bucket_name(self, street: int, bucket: int) -> str:
        """How a row's bucket reads (a card, a hand class, a bucket number)."""
        ...


def row_bases(tree: BettingTree, street_rows: tuple[int, ...]) -> tuple[np.ndarray, int]:
    """The first row of each decision node (-1 elsewhere) and the rows in all: the decisions of a street in
    the tree's order, each owning ``street_rows[street]`` rows."""
    base = np.full(tree.nodes, -1, np.int64)
    at = 0
    for n in range(tree.nodes):
        if tree.kind[n] == DECISION:
            base[n] = at
            at += street_rows[int(tree.street[n])]
    return base, at


def row_labels(game: Game) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray]:
    """Per row: ``(street, bucket, betting history, node)``."""
    t = game.tree
    base = game.arrays.row_base
    streets, buckets, nodes = [], [], []
    for n in np.flatnonzero(t.kind == DECISION):
        k = game.street_rows[int(t.street[n])]
        streets.append(np.full(k, t.street[n], np.int64))
        buckets.append(np.arange(k, dtype=np.int64))
        nodes.append(np.full(k, n, np.int64))
        assert base[n] == sum(len(b) for b in buckets[:-1])
    node = np.concatenate(nodes)
    return np.concatenate(streets), np.concatenate(buckets), [t.history[int(n)] for n in node], node
