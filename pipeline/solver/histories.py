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

import numpy as np
from numba import njit

from .vector import CHANCE, DECISION, FOLDED, GameArrays

CARDS = 6


@njit(nogil=True)      # recursive: numba's cache cannot reload it
def _walk(G: GameArrays, node: int, x: int, y: int, c: int, r0: float, r1: float, rc: float, player: int,
          cur: np.ndarray, regret: np.ndarray, avg: np.ndarray, t: float) -> tuple:
    kind = G.kind[node]
    if kind == FOLDED:
        f = G.player[node]
        lost = float(G.put[node, f])
        return (-lost, lost) if f == 0 else (lost, -lost)
    if kind != DECISION and kind != CHANCE:            # showdown
        s0 = 10 + x // 2 if x // 2 == c // 2 else x // 2
        s1 = 10 + y // 2 if y // 2 == c // 2 else y // 2
        won = float(G.put[node, 0])
        if s0 > s1:
            return won, -won
        if s1 > s0:
            return -won, won
        return 0.0, 0.0
    if kind == CHANCE:
        v0 = 0.0
        v1 = 0.0
        p = 1.0 / (CARDS - 2)
        for card in range(CARDS):
            if card == x or card == y:
                continue
            u0, u1 = _walk(G, G.child[node, 0], x, y, card, r0, r1, rc * p, player, cur, regret, avg, t)
            v0 += p * u0
            v1 += p * u1
        return v0, v1
    if r0 == 0.0 and r1 == 0.0:
        return 0.0, 0.0
    cp = G.player[node]
    mine = x if cp == 0 else y
    row = G.row_base[node] + (mine if c < 0 else mine * CARDS + c)
    u0s = np.zeros(3)
    u1s = np.zeros(3)
    v0 = 0.0
    v1 = 0.0
    for a in range(3):
        nxt = G.child[node, a]
        if nxt < 0:
            continue
        pa = cur[row, a]
        if cp == 0:
            u0, u1 = _walk(G, nxt, x, y, c, r0 * pa, r1, rc, player, cur, regret, avg, t)
        else:
            u0, u1 = _walk(G, nxt, x, y, c, r0, r1 * pa, rc, player, cur, regret, avg, t)
        v0 += pa * u0
        v1 += pa * u1
        u0s[a] = u0
        u1s[a] = u1
    if cp != player:
        return v0, v1
    reach = r0 if cp == 0 else r1
    cf = 1.0 * (r1 * rc) if cp == 0 else r0 * rc
    mine_v = v0 if cp == 0 else v1
    for a in range(3):
        if G.child[node, a] < 0:
            continue
        ua = u0s[a] if cp == 0 else u1s[a]
        regret[row, a] += cf * (ua - mine_v)
        avg[row, a] += t * reach * cur[row, a]
    return v0, v1


@njit(nogil=True)
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


@njit(nogil=True)
def openspiel_iteration(G: GameArrays, regret: np.ndarray, avg: np.ndarray, cur: np.ndarray, legal: np.ndarray,
                        t: int) -> None:
    """One CFR+ iteration of both players in OpenSpiel's order; ``cur`` is the current policy, kept between
    iterations (uniform at the start)."""
    for player in range(2):
        for x in range(CARDS):
            for y in range(CARDS):
                if y != x:
                    _walk(G, 0, x, y, -1, 1.0, 1.0, 1.0 * (1.0 / CARDS) * (1.0 / (CARDS - 1)), player, cur, regret,
                          avg, float(t))
        current_policy(regret, legal, cur)


def row_legal(G: GameArrays, rows: int) -> np.ndarray:
    """(rows, 3) whether each answer is legal at each row's decision."""
    out = np.zeros((rows, 3), np.bool_)
    nodes = np.flatnonzero(G.row_base >= 0)
    ends = list(G.row_base[nodes[1:]]) + [rows]
    for n, end in zip(nodes, ends):
        out[G.row_base[n]:end] = G.child[n] >= 0
    return out


__all__ = ["current_policy", "openspiel_iteration", "row_legal"]
