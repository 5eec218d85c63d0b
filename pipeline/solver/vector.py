"""Vector-form walks of a public tree: both players' reach over their private holdings, values for all at once.

A *public state* is a node of the betting tree (:mod:`pipeline.holdem.tree`)
and the public cards dealt so far (a *board*, :class:`Boards`).  Each carries
the reach of both players over their holdings (Leduc: 6 cards; hold'em: the
1,326 pairs) and returns the counterfactual value of every holding of the
player being updated, so that a whole street's holdings are one pass of
array arithmetic (Johanson, Bowling, Waugh and Zinkevich, "Accelerating best
response calculation in large extensive games", IJCAI 2011; Johanson et al.,
"Efficient Nash equilibrium approximation through Monte Carlo counterfactual
regret minimization", AAMAS 2012).

Terminal values are exact with card removal: a holding meets only the
opponent's holdings that share none of its cards, counted by inclusion and
exclusion over its (one or two) cards, so a fold costs O(n) and a showdown
O(n) after the board's holdings are sorted by strength once (O(n log n)).

Information sets are rows of the regret and strategy tables: the row of a
holding at a decision node is ``row_base[node] + bucket[board, holding]``
(its card in Leduc's first round, card and public card in its second; in
hold'em its preflop class or its bucket of the card abstraction on the board).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..exploit.bestresponse import MAX_DEPTH, next_answer
from ..exploit.terminals import fold_values, showdown_values
from ..holdem.tree import CHANCE, DECISION, FOLDED, SHOWDOWN


class GameArrays(NamedTuple):
    """A game as the kernels read it: the betting tree, the rows of its information sets and the holdings."""

    kind: np.ndarray        # (nodes,) int64: DECISION, CHANCE, FOLDED, SHOWDOWN
    player: np.ndarray      # (nodes,) int64
    child: np.ndarray       # (nodes, 3) int64: by answer fold, call, raise (-1 not legal)
    put: np.ndarray         # (nodes, 2) int64: what each player has put in
    row_base: np.ndarray    # (nodes,) int64: the first row of a decision's information sets, -1 elsewhere
    cards: np.ndarray       # (holdings, 2) int64: a holding's cards (the second -1 for one-card holdings)
    deck: int               # cards in the deck
    deal_weight: float      # chance of each deal of two compatible holdings (1/30 in Leduc)


class Boards(NamedTuple):
    """The public cards of a walk: a tree of boards, street by street (board 0 is the empty one).

    A chance node at a board walks every child board, each weighing
    ``weight[street of the child]``: the chance of one compatible outcome over
    the share of the deck's outcomes that are walked (1/4 in Leduc's full
    traversal; ``C(52,3) / C(48,3)`` for one sampled flop), so that a walk of
    sampled boards is an unbiased estimate of the full one.
    """

    first_child: np.ndarray   # (boards,) int64: the first of a board's next-street boards
    n_child: np.ndarray       # (boards,) int64
    bucket: np.ndarray        # (boards, holdings) int64: a holding's bucket there, -1 if it holds a board card
    showdown: np.ndarray      # (boards,) int64: the row of ``order``/``rank`` of a complete board, else -1
    order: np.ndarray         # (complete boards, holdings) int64: the valid holdings, weakest first
    n_valid: np.ndarray       # (complete boards,) int64
    rank: np.ndarray          # (complete boards, holdings) int64: strength (ties equal)
    weight: np.ndarray        # (streets,) float64: the weight of a chance outcome into each street


class Work(NamedTuple):
    """Scratch of one walk: a frame per depth (where it is, what it walks next), both reaches, the value, the
    values by answer and the strategy."""

    reach: np.ndarray     # (MAX_DEPTH, 2, holdings)
    value: np.ndarray     # (MAX_DEPTH, holdings)
    answer: np.ndarray    # (MAX_DEPTH, 3, holdings)
    sigma: np.ndarray     # (MAX_DEPTH, 3, holdings)
    card_sum: np.ndarray  # (3, deck): reach per card (below, in the tie group, in all)
    node: np.ndarray      # (MAX_DEPTH,) int64: the frame's node
    board: np.ndarray     # (MAX_DEPTH,) int64: its board
    street: np.ndarray    # (MAX_DEPTH,) int64: its street
    weight: np.ndarray    # (MAX_DEPTH,) float64: the chance weight of its boards
    next: np.ndarray      # (MAX_DEPTH,) int64: the next answer or board to walk, -1 before the frame is entered
    legal: np.ndarray     # (MAX_DEPTH, 3) bool: the legal answers of its decision


class Split(NamedTuple):
    """Where an iteration's walk is cut so that its subtrees run on several threads: at the chance nodes that
    ``slot_of`` numbers (hold'em: the 63 that deal the turn).  A ``COLLECT`` walk stops there and records the
    reaches (updating nothing); each subtree then runs on its own (:func:`cfr_slots`) and records its values;
    a ``USE`` walk reads them there.  The subtrees update disjoint information sets (their betting differs),
    so the result is the same bytes as one walk, whatever the threads."""

    mode: int                 # NORMAL, COLLECT or USE
    slot_of: np.ndarray       # (nodes,) int64: a cut chance node's slot, else -1
    node: np.ndarray          # (slots,) int64: the chance node of each slot
    reach: np.ndarray         # (slots, 2, holdings)
    value: np.ndarray         # (slots, holdings)
    board: np.ndarray         # (slots,) int64: the board at the slot, -1 if the walk did not reach it
    weight: np.ndarray        # (slots,) float64: the chance weight there
    street: np.ndarray        # (slots,) int64


NORMAL, COLLECT, USE = range(3)


def no_split(nodes: int, holdings: int) -> Split:
    """The :class:`Split` of a walk that is not cut."""
    return Split(NORMAL, np.full(nodes, -1, np.int64), np.zeros(0, np.int64), np.zeros((0, 2, holdings)),
                 np.zeros((0, holdings)), np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64))


def split_at(kind: np.ndarray, street: np.ndarray, cut_street: int, holdings: int) -> Split:
    """A :class:`Split` (mode ``COLLECT``) at the chance nodes that end ``cut_street``."""
    nodes = np.flatnonzero((kind == CHANCE) & (street == cut_street))
    slot_of = np.full(kind.size, -1, np.int64)
    slot_of[nodes] = np.arange(nodes.size)
    k = nodes.size
    return Split(COLLECT, slot_of, nodes.astype(np.int64), np.zeros((k, 2, holdings)), np.zeros((k, holdings)),
                 np.full(k, -1, np.int64), np.zeros(k), street[nodes].astype(np.int64))


def new_work(holdings: int, deck: int) -> Work:
    """The scratch of a walk over ``holdings`` private holdings of a ``deck``-card deck."""
    frames = np.zeros(MAX_DEPTH, np.int64)
    return Work(np.zeros((MAX_DEPTH, 2, holdings)), np.zeros((MAX_DEPTH, holdings)),
                np.zeros((MAX_DEPTH, 3, holdings)), np.zeros((MAX_DEPTH, 3, holdings)), np.zeros((3, deck)),
                frames.copy(), frames.copy(), frames.copy(), np.zeros(MAX_DEPTH), frames.copy(),
                np.zeros((MAX_DEPTH, 3), np.bool_))


@njit(cache=True, nogil=True, inline="always")
def regret_matching(regret: np.ndarray, row: int, legal: np.ndarray, out: np.ndarray, x: int) -> None:
    """The strategy of regret matching at ``row`` into ``out[:, x]``: positive regrets normalised, uniform over
    the legal answers when none is positive."""
    s = 0.0
    m = 0
    for a in range(3):
        if legal[a]:
            m += 1
            if regret[row, a] > 0.0:
                s += regret[row, a]
    for a in range(3):
        if not legal[a]:
            out[a, x] = 0.0
        elif s > 0.0:
            out[a, x] = regret[row, a] / s if regret[row, a] > 0.0 else 0.0
        else:
            out[a, x] = 1.0 / m


@njit(cache=True, nogil=True, inline="always")
def average_strategy(avg: np.ndarray, row: int, legal: np.ndarray, out: np.ndarray, x: int) -> None:
    """The average strategy at ``row`` into ``out[:, x]`` (uniform over the legal answers where nothing was
    added, as OpenSpiel's average policy)."""
    s = 0.0
    m = 0
    for a in range(3):
        if legal[a]:
            m += 1
            s += avg[row, a]
    for a in range(3):
        if not legal[a]:
            out[a, x] = 0.0
        elif s > 0.0:
            out[a, x] = avg[row, a] / s
        else:
            out[a, x] = 1.0 / m


@njit(cache=True, nogil=True)
def terminal(G: GameArrays, B: Boards, node: int, board: int, me: int, w: float, r_opp: np.ndarray,
             out: np.ndarray, cs: np.ndarray) -> None:
    """The value of a fold or showdown ``node`` for player ``me``'s holdings, chance weight ``w`` included."""
    if G.kind[node] == FOLDED:
        folder = G.player[node]
        payoff = -G.put[node, me] if folder == me else G.put[node, 1 - me]
        fold_values(out, r_opp, w * payoff, G.cards, B.bucket[board], cs[0])
    else:
        s = B.showdown[board]
        showdown_values(out, r_opp, w * G.put[node, 0], B.order[s], B.n_valid[s], B.rank[s], G.cards,
                        B.bucket[board], cs)


@njit(cache=True, nogil=True)
def cfr_walk(G: GameArrays, B: Boards, root: int, board: int, street: int, me: int, w: float, regret: np.ndarray,
             avg: np.ndarray, t_weight: float, W: Work, S: Split) -> None:
    """CFR+ in the subtree of ``root`` on ``board`` for player ``me`` (alternating updates): counterfactual
    values into ``W.value[0]``, ``me``'s regrets (floored at zero: regret matching+) and average strategy
    (weighted ``t_weight``) updated at its decisions, from the reaches in ``W.reach[0]``.

    A loop over an explicit stack of frames (one a depth: node, board, street, chance weight, next answer or
    board), as :func:`pipeline.exploit.bestresponse.best_response_walk`, not a recursion, so that numba caches
    it: reaches go down as a frame enters a child, values come up as the child's frame is left.  It does the
    recursion's floating-point operations in the recursion's order (depth first, answers fold, call, raise,
    boards in their order; each decision's update after its children), so its tables are those bytes."""
    n = W.value.shape[1]
    W.node[0] = root
    W.board[0] = board
    W.street[0] = street
    W.weight[0] = w
    W.next[0] = -1
    d = 0
    while d >= 0:
        node = W.node[d]
        b = W.board[d]
        kind = G.kind[node]
        out = W.value[d]
        r_me = W.reach[d, me]
        r_opp = W.reach[d, 1 - me]
        p = G.player[node]
        if W.next[d] < 0:                                   # entering the frame
            W.next[d] = 0
            if kind == FOLDED or kind == SHOWDOWN:
                terminal(G, B, node, b, me, W.weight[d], r_opp, out, W.card_sum)
                d -= 1
                continue
            if kind == CHANCE:
                slot = S.slot_of[node]
                if slot >= 0 and S.mode == COLLECT:
                    S.reach[slot] = W.reach[d]
                    S.board[slot] = b
                    S.weight[slot] = W.weight[d]
                    out[:] = 0.0
                    d -= 1
                    continue
                if slot >= 0 and S.mode == USE:
                    out[:] = S.value[slot]
                    d -= 1
                    continue
                out[:] = 0.0
            else:
                any_reach = False
                for x in range(n):
                    if r_me[x] != 0.0 or r_opp[x] != 0.0:
                        any_reach = True
                        break
                if not any_reach:                           # nobody gets here: nothing to update below, every value 0
                    out[:] = 0.0
                    d -= 1
                    continue
                base = G.row_base[node]
                bk = B.bucket[b]
                legal = W.legal[d]
                for a in range(3):
                    legal[a] = G.child[node, a] >= 0
                sig = W.sigma[d]
                for x in range(n):
                    if bk[x] >= 0:
                        regret_matching(regret, base + bk[x], legal, sig, x)
                    else:
                        sig[0, x] = sig[1, x] = sig[2, x] = 0.0
                out[:] = 0.0
        elif kind == CHANCE:                                # a board is done: its values into this frame
            for x in range(n):
                out[x] += W.value[d + 1, x]
        else:                                               # an answer is done
            a = W.next[d] - 1
            sig = W.sigma[d]
            va = W.answer[d, a]
            for x in range(n):
                va[x] = W.value[d + 1, x]
                out[x] += sig[a, x] * va[x] if p == me else va[x]
        # the next child, or the frame is left
        k = W.next[d]
        if kind == CHANCE:
            if k >= B.n_child[b]:
                d -= 1
                continue
            nb = B.first_child[b] + k
            bk = B.bucket[nb]
            for x in range(n):
                ok = 1.0 if bk[x] >= 0 else 0.0
                W.reach[d + 1, 0, x] = W.reach[d, 0, x] * ok
                W.reach[d + 1, 1, x] = W.reach[d, 1, x] * ok
            W.node[d + 1] = G.child[node, 0]
            W.board[d + 1] = nb
            W.street[d + 1] = W.street[d] + 1
            W.weight[d + 1] = W.weight[d] * B.weight[W.street[d] + 1]
        else:
            k = next_answer(G.child, node, k)
            if k >= 3:
                if p == me and S.mode != COLLECT:
                    update(regret, avg, G.row_base[node], B.bucket[b], W.legal[d], W.answer[d], out, r_me,
                           W.sigma[d], t_weight)
                d -= 1
                continue
            sig = W.sigma[d]
            for x in range(n):
                W.reach[d + 1, me, x] = r_me[x] * (sig[k, x] if p == me else 1.0)
                W.reach[d + 1, 1 - me, x] = r_opp[x] * (sig[k, x] if p != me else 1.0)
            W.node[d + 1] = G.child[node, k]
            W.board[d + 1] = b
            W.street[d + 1] = W.street[d]
            W.weight[d + 1] = W.weight[d]
        W.next[d] = k + 1
        W.next[d + 1] = -1
        d += 1


@njit(cache=True, nogil=True, inline="always")
def update(regret: np.ndarray, avg: np.ndarray, base: int, bk: np.ndarray, legal: np.ndarray, answer: np.ndarray,
           value: np.ndarray, r_me: np.ndarray, sig: np.ndarray, t_weight: float) -> None:
    """The CFR+ update of a decision of the player being updated, once its answers' values are known: each
    legal answer's regret grows by its value less the decision's, the average strategy by ``t_weight`` times
    the reach times the strategy (linear averaging), then regrets below zero are forgotten (regret matching+,
    Tammelin 2014)."""
    n = value.size
    for x in range(n):
        if bk[x] < 0:
            continue
        row = base + bk[x]
        for a in range(3):
            if legal[a]:
                regret[row, a] += answer[a, x] - value[x]
                avg[row, a] += t_weight * r_me[x] * sig[a, x]
    for x in range(n):                # regret matching+: what is below zero is forgotten
        if bk[x] >= 0:
            row = base + bk[x]
            for a in range(3):
                if regret[row, a] < 0.0:
                    regret[row, a] = 0.0


@njit(cache=True, nogil=True)
def cfr_slots(G: GameArrays, B: Boards, slots: np.ndarray, me: int, regret: np.ndarray, avg: np.ndarray,
              t_weight: float, W: Work, S: Split, normal: Split) -> None:
    """Walk the cut subtrees ``slots`` of the :class:`Split` ``S`` (below them as one walk: ``normal``)."""
    for i in slots:
        if S.board[i] < 0:
            S.value[i, :] = 0.0
            continue
        W.reach[0] = S.reach[i]
        cfr_walk(G, B, S.node[i], S.board[i], S.street[i], me, S.weight[i], regret, avg, t_weight, W, normal)
        S.value[i] = W.value[0]


__all__ = ["CHANCE", "DECISION", "FOLDED", "SHOWDOWN", "Boards", "GameArrays", "Split", "Work", "cfr_slots",
           "cfr_walk", "fold_values", "new_work", "no_split", "showdown_values", "split_at", "update"]
