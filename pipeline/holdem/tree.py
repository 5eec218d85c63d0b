"""Heads-up fixed-limit betting trees: every betting sequence, who acts, what each player has put in.

One public tree serves every program that walks heads-up limit betting: the
CFR+ solver (:mod:`pipeline.solver`), the engine's ``cfr`` policy (which
follows the hand down the tree to find its information set) and the best
responses of :mod:`pipeline.exploit`.  :func:`hulhe` is heads-up limit hold'em
exactly as the engine plays it with deep stacks (:mod:`.engine`, the ACPC
game ``holdem.limit.2p.reverse_blinds.game``); :func:`limit_tree` builds any
other two-player limit game (Leduc hold'em: :mod:`pipeline.solver.leduc`).

Players are numbered as in the ACPC game definition: player 0 posts the big
blind and acts first after the flop, player 1 (the button) posts the small
blind and acts first preflop.  Answers are the engine's: :data:`FOLD`,
:data:`CALL` (check or call), :data:`RAISE` (bet or raise).  A node is

* ``DECISION``: ``player[n]`` acts; ``child[n, a]`` is where answer ``a``
  leads (-1 where it is not legal: a fold facing no bet, a raise at the cap);
* ``CHANCE``: the street is over and the next one's cards are dealt;
  ``child[n, 0]`` is the next street's first decision;
* ``FOLD``: ``player[n]`` folded;
* ``SHOWDOWN``: the river's betting is over.

``put[n]`` is what each player has put in at the node (blinds included), so a
fold at ``n`` wins the other player ``put[n, folder]`` and a showdown is won or
lost by ``put[n, 0]`` (equal to ``put[n, 1]`` there).  ``history[n]`` is the
ACPC betting string (``cr/rc/`` …; ``f`` fold, ``c`` check or call, ``r`` bet
or raise, ``/`` between streets).

>>> t = hulhe()
>>> t.decisions, t.street_decisions
(6378, (8, 70, 630, 5670))
>>> n = t.follow("rc/cr")
>>> t.history[n], int(t.player[n]), t.put[n].tolist()
('rc/cr', 0, [200, 300])
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .policies import CALL, FOLD, RAISE
from .settle import BB

DECISION, CHANCE, FOLDED, SHOWDOWN = range(4)
LETTERS = "fcr"                       # ACPC's letters of FOLD, CALL, RAISE
BIG_BLIND, BUTTON = 0, 1              # the tree's players, as the ACPC game numbers them


@dataclass(frozen=True)
class Rules:
    """A two-player limit game's betting: blinds (or antes), bet size, cap and first player per street."""

    blinds: tuple[int, int]           # put in by players 0 and 1 before the first street
    bets: tuple[int, ...]             # the fixed bet of each street
    max_bets: tuple[int, ...]         # bets a street allows (preflop's blind counts as one when it is a bet)
    first: tuple[int, ...]            # who acts first on each street
    blind_bets: int = 1               # bets the blinds count for on the first street (0 for antes)


HULHE = Rules((BB, BB // 2), (BB, BB, 2 * BB, 2 * BB), (4, 4, 4, 4), (BUTTON, BIG_BLIND, BIG_BLIND, BIG_BLIND))


@dataclass(frozen=True)
class BettingTree:
    """The nodes of a limit betting tree as arrays (node 0 is the root), in depth-first order."""

    kind: np.ndarray          # (nodes,) int64: DECISION, CHANCE, FOLDED or SHOWDOWN
    player: np.ndarray        # (nodes,) int64: who acts (DECISION), who folded (FOLDED), else -1
    street: np.ndarray        # (nodes,) int64
    child: np.ndarray         # (nodes, 3) int64: by answer FOLD, CALL, RAISE; -1 not legal
    put: np.ndarray           # (nodes, 2) int64: what each player has put in
    decision: np.ndarray      # (nodes,) int64: the decision's number among its street's decisions, else -1
    history: tuple[str, ...]  # the ACPC betting string of each node
    rules: Rules

    @property
    def nodes(self) -> int:
        return int(self.kind.size)

    @property
    def decisions(self) -> int:
        """Decision nodes (the information sets of a player who sees no cards)."""
        return int((self.kind == DECISION).sum())

    @property
    def street_decisions(self) -> tuple[int, ...]:
        """Decision nodes of each street."""
        return tuple(int(((self.kind == DECISION) & (self.street == s)).sum()) for s in range(len(self.rules.bets)))

    def follow(self, history: str) -> int:
        """The node an ACPC betting string leads to (KeyError if no legal sequence reads so)."""
        n = 0
        for ch in history:
            if ch == "/":
                if self.kind[n] != CHANCE:
                    raise KeyError(f"{history!r}: '/' before the street is over")
                n = int(self.child[n, 0])
                continue
            if self.kind[n] == CHANCE:             # the '/' may be left out
                n = int(self.child[n, 0])
            if ch not in LETTERS or self.kind[n] != DECISION or self.child[n, LETTERS.index(ch)] < 0:
                raise KeyError(f"{history!r}: {ch!r} is not legal after {self.history[n]!r}")
            n = int(self.child[n, LETTERS.index(ch)])
        return n


def limit_tree(rules: Rules) -> BettingTree:
    """Every betting sequence of a two-player limit game with deep stacks (nobody runs out of chips)."""
    kind: list[int] = []
    player: list[int] = []
    street_of: list[int] = []
    child: list[list[int]] = []
    put: list[tuple[int, int]] = []
    history: list[str] = []

    def add(k: int, p: int, s: int, inp: tuple[int, int], h: str) -> int:
        kind.append(k)
        player.append(p)
        street_of.append(s)
        child.append([-1, -1, -1])
        put.append(inp)
        history.append(h)
        return len(kind) - 1

    def street_node(s: int, total: tuple[int, int], h: str) -> int:
        """The first decision of street ``s``, with the street's state; returns the subtree's root."""
        if s == 0:
            level, bets, street_in = max(rules.blinds), rules.blind_bets, rules.blinds
        else:
            level, bets, street_in = 0, 0, (0, 0)
        return decision(s, rules.first[s], level, bets, street_in, (True, True), total, h)

    def decision(s: int, actor: int, level: int, bets: int, street_in: tuple[int, int], need: tuple[bool, bool],
                 total: tuple[int, int], h: str) -> int:
        n = add(DECISION, actor, s, total, h)
        owe = level - street_in[actor]
        other = 1 - actor
        if owe > 0:
            child[n][FOLD] = add(FOLDED, actor, s, total, h + "f")
        answers = [CALL] + ([RAISE] if bets < rules.max_bets[s] else [])
        for a in answers:
            put_now = owe + (rules.bets[s] if a == RAISE else 0)
            new_in = list(street_in)
            new_in[actor] += put_now
            new_total = list(total)
            new_total[actor] += put_now
            new_need = [need[0], need[1]]
            new_need[actor] = False
            if a == RAISE:
                new_need[other] = True
            hh = h + LETTERS[a]
            if new_need[other]:
                c = decision(s, other, max(level, new_in[actor]), bets + (a == RAISE), (new_in[0], new_in[1]),
                             (new_need[0], new_need[1]), (new_total[0], new_total[1]), hh)
            elif s + 1 < len(rules.bets):
                c = add(CHANCE, -1, s, (new_total[0], new_total[1]), hh)
                child[c][0] = street_node(s + 1, (new_total[0], new_total[1]), hh + "/")
            else:
                c = add(SHOWDOWN, -1, s, (new_total[0], new_total[1]), hh)
            child[n][a] = c
        return n

    street_node(0, rules.blinds, "")
    kinds = np.array(kind, np.int64)
    streets = np.array(street_of, np.int64)
    number = np.full(kinds.size, -1, np.int64)
    for s in range(len(rules.bets)):
        at = np.flatnonzero((kinds == DECISION) & (streets == s))
        number[at] = np.arange(at.size)
    frozen = [np.array(player, np.int64), streets, np.array(child, np.int64), np.array(put, np.int64), number]
    for a in (kinds, *frozen):
        a.setflags(write=False)
    return BettingTree(kinds, frozen[0], streets, frozen[2], frozen[3], number, tuple(history), rules)


@lru_cache(maxsize=1)
def hulhe() -> BettingTree:
    """Heads-up limit hold'em as the engine plays it: blinds 50/100 units, bets 100, 100, 200, 200, four bets a
    street (the big blind the first preflop), the button first preflop and the big blind first after."""
    return limit_tree(HULHE)


def tree_player(seat: int, button: int) -> int:
    """The tree's player of an engine seat at a heads-up table (the button is :data:`BUTTON`)."""
    return BUTTON if seat == button else BIG_BLIND


__all__ = ["BIG_BLIND", "BUTTON", "BettingTree", "CHANCE", "DECISION", "FOLDED", "HULHE", "Rules", "SHOWDOWN",
           "hulhe", "limit_tree", "tree_player"]
