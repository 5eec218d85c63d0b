"""Leduc's full traversal history by history, in OpenSpiel's order of floating-point operations.

The vector walk (:mod:`.vector`) computes the same CFR+ iteration, but it adds
the same terms in another order, and regret matching+ turns rounding
differences into strategy differences about ten times larger every 25
iterations (docs/solver.md): after 1,000 iterations the two runs are 7.4e-6
apart in exploitability.  This walk visits the histories as OpenSpiel's
``CFRPlusSolver`` does (the private cards dealt in ascending order, then the
betting depth first, the public card ascending), multiplies the reach and
chance probabilities, sums the values and accumulates the regrets and the
average strategy's sums in its order, and applies regret matching+ and the new
current policy after each player's pass, as ``_apply_regret_matching_plus_reset``
and ``_update_current_policy`` do.  So the full-traversal mode
(``pokerpipe solve leduc``) is OpenSpiel's iteration for iteration, to the
last bit of its tables.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..exploit.bestresponse import MAX_DEPTH, next_answer
from .vector import CHANCE, DECISION, FOLDED, GameArrays

CARDS = 6


class Frames(NamedTuple):
    """The explicit stack of :func:`_walk`: a frame per depth of a history."""

    node: np.ndarray      # (MAX_DEPTH,) int64: the frame's node
    card: np.ndarray      # (MAX_DEPTH,) int64: the public card dealt (-1 before the second round)
    next: np.ndarray      # (MAX_DEPTH,) int64: the next answer or public card to walk, -1 before it is entered
    row: np.ndarray       # (MAX_DEPTH,) int64: the row of a decision's information set
    reach: np.ndarray     # (MAX_DEPTH, 3): the reach of player 0, of player 1 and of chance
    value: np.ndarray     # (MAX_DEPTH, 2): the frame's value to each player (what the recursion returned)
    answer: np.ndarray    # (MAX_DEPTH, 2, 3): each answer's value to each player


def new_frames() -> Frames:
    """The scratch of :func:`_walk` (one per iteration)."""
    return Frames(np.zeros(MAX_DEPTH, np.int64), np.zeros(MAX_DEPTH, np.int64), np.zeros(MAX_DEPTH, np.int64),
                  np.zeros(MAX_DEPTH, np.int64), np.zeros((MAX_DEPTH, 3)), np.zeros((MAX_DEPTH, 2)),
                  np.zeros((MAX_DEPTH, 2, 3)))


@njit(cache=True, nogil=True)
def _walk(G: GameArrays, x: int, y: int, player: int, cur: np.ndarray, regret: np.ndarray, avg: np.ndarray,
          t: float, F: Frames) -> None:
    """The histories of the deal ``x``, ``y`` (player 0's and player 1's card), depth first as OpenSpiel's
    ``_compute_counterfactual_regret_for_player`` recurses, updating ``player``'s regrets and average sums.

    A loop over the explicit stack ``F`` (as :func:`pipeline.exploit.bestresponse.best_response_walk`), not a
    recursion, so that numba caches it; each frame does the recursion's operations in its order: the values of
    the answers (or public cards) summed as they come back, a decision's update after its last answer."""
    p = 1.0 / (CARDS - 2)
    F.node[0] = 0
    F.card[0] = -1
    F.next[0] = -1
    F.reach[0, 0] = 1.0
    F.reach[0, 1] = 1.0
    F.reach[0, 2] = 1.0 * (1.0 / CARDS) * (1.0 / (CARDS - 1))
    d = 0
    while d >= 0:
        node = F.node[d]
        c = F.card[d]
        kind = G.kind[node]
        r0 = F.reach[d, 0]
        r1 = F.reach[d, 1]
        rc = F.reach[d, 2]
        cp = G.player[node]
        if F.next[d] < 0:                                   # entering the frame
            F.next[d] = 0
            if kind == FOLDED:
                lost = float(G.put[node, cp])
                F.value[d, 0] = -lost if cp == 0 else lost
                F.value[d, 1] = lost if cp == 0 else -lost
                d -= 1
                continue
            if kind != DECISION and kind != CHANCE:         # showdown
                s0 = 10 + x // 2 if x // 2 == c // 2 else x // 2
                s1 = 10 + y // 2 if y // 2 == c // 2 else y // 2
                won = float(G.put[node, 0])
                F.value[d, 0] = won if s0 > s1 else -won if s1 > s0 else 0.0
                F.value[d, 1] = -won if s0 > s1 else won if s1 > s0 else 0.0
                d -= 1
                continue
            if kind == DECISION and r0 == 0.0 and r1 == 0.0:
                F.value[d, 0] = 0.0
                F.value[d, 1] = 0.0
                d -= 1
                continue
            F.value[d, 0] = 0.0
            F.value[d, 1] = 0.0
            if kind == DECISION:
                mine = x if cp == 0 else y
                F.row[d] = G.row_base[node] + (mine if c < 0 else mine * CARDS + c)
        elif kind == CHANCE:                                # a public card is done
            F.value[d, 0] += p * F.value[d + 1, 0]
            F.value[d, 1] += p * F.value[d + 1, 1]
        else:                                               # an answer is done
            a = F.next[d] - 1
            pa = cur[F.row[d], a]
            F.value[d, 0] += pa * F.value[d + 1, 0]
            F.value[d, 1] += pa * F.value[d + 1, 1]
            F.answer[d, 0, a] = F.value[d + 1, 0]
            F.answer[d, 1, a] = F.value[d + 1, 1]
        # the next child, or the frame is left
        k = F.next[d]
        if kind == CHANCE:
            while k < CARDS and (k == x or k == y):
                k += 1
            if k >= CARDS:
                d -= 1
                continue
            F.node[d + 1] = G.child[node, 0]
            F.card[d + 1] = k
            F.reach[d + 1, 0] = r0
            F.reach[d + 1, 1] = r1
            F.reach[d + 1, 2] = rc * p
        else:
            k = next_answer(G.child, node, k)
            row = F.row[d]
            if k >= 3:
                if cp == player:
                    _update(G, node, row, cp, r0, r1, rc, F.value[d], F.answer[d], cur, regret, avg, t)
                d -= 1
                continue
            pa = cur[row, k]
            F.node[d + 1] = G.child[node, k]
            F.card[d + 1] = c
            F.reach[d + 1, 0] = r0 * pa if cp == 0 else r0
            F.reach[d + 1, 1] = r1 if cp == 0 else r1 * pa
            F.reach[d + 1, 2] = rc
        F.next[d] = k + 1
        F.next[d + 1] = -1
        d += 1


@njit(cache=True, nogil=True, inline="always")
def _update(G: GameArrays, node: int, row: int, cp: int, r0: float, r1: float, rc: float, value: np.ndarray,
            answer: np.ndarray, cur: np.ndarray, regret: np.ndarray, avg: np.ndarray, t: float) -> None:
    """A decision's update in OpenSpiel's order: each legal answer's regret grows by the counterfactual reach
    times its value less the decision's, the average sums by ``t`` times the player's reach times the
    current policy (linear averaging, Tammelin 2014)."""
    reach = r0 if cp == 0 else r1
    cf = 1.0 * (r1 * rc) if cp == 0 else r0 * rc
    mine_v = value[0] if cp == 0 else value[1]
    for a in range(3):
        if G.child[node, a] < 0:
            continue
        ua = answer[0, a] if cp == 0 else answer[1, a]
        regret[row, a] += cf * (ua - mine_v)
        avg[row, a] += t * reach * cur[row, a]


@njit(cache=True, nogil=True)
def current_policy(regret: np.ndarray, legal: np.ndarray, cur: np.ndarray) -> None:
    """Regret matching+ reset and the current policy of every row (OpenSpiel's ``_regret_matching``)."""
    for row in range(regret.shape[0]):
        s = 0.0
        m = 0
        for a in range(3):
            if legal[row, a]:
                m += 1
                if regret[row, a] < 0.0:
                    regret[row, a] = 0.0
                if regret[row, a] > 0.0:
                    s += regret[row, a]
        for a in range(3):
            if not legal[row, a]:
                cur[row, a] = 0.0
            elif s > 0.0:
                cur[row, a] = max(0.0, regret[row, a]) / s
            else:
                cur[row, a] = 1.0 / m


@njit(cache=True, nogil=True)
def openspiel_iteration(G: GameArrays, regret: np.ndarray, avg: np.ndarray, cur: np.ndarray, legal: np.ndarray,
                        t: int, F: Frames) -> None:
    """One CFR+ iteration of both players in OpenSpiel's order; ``cur`` is the current policy, kept between
    iterations (uniform at the start); ``F`` the walk's scratch (:func:`new_frames`)."""
    for player in range(2):
        for x in range(CARDS):
            for y in range(CARDS):
                if y != x:
                    _walk(G, x, y, player, cur, regret, avg, float(t), F)
        current_policy(regret, legal, cur)


def row_legal(G: GameArrays, rows: int) -> np.ndarray:
    """(rows, 3) whether each answer is legal at each row's decision."""
    out = np.zeros((rows, 3), np.bool_)
    nodes = np.flatnonzero(G.row_base >= 0)
    ends = list(G.row_base[nodes[1:]]) + [rows]
    for n, end in zip(nodes, ends):
        out[G.row_base[n]:end] = G.child[n] >= 0
    return out


__all__ = ["Frames", "current_policy", "new_frames", "openspiel_iteration", "row_legal"]
