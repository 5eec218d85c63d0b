"""A plain brute force of pots by number of winners: every board, every combo assignment.

For each assignment of the players' combos (no shared card) and each completion
of the board from the cards left, every player's 7-card value comes from the
engine's plain evaluator (:func:`pipeline.evaluator.kernels.hand_value` on the
summed card keys, itself tested against peers and :mod:`.reference`), and the
winners are counted by comparing the values — none of the equity package's
rank-multiset, suit-class or Monte Carlo machinery.  ``counts[p, j]``: the boards
on which player ``p`` is one of exactly ``j + 1`` winners.
"""
from __future__ import annotations

from itertools import product

import numpy as np
from numba import njit

from pipeline.evaluator.kernels import KEY_BASE, Tables, hand_value, suited_bit
from pipeline.evaluator.tables import tables


@njit(cache=True, nogil=True)
def _showdown(keys: np.ndarray, suited: np.ndarray, d: int, values: np.ndarray, counts: np.ndarray,
              T: Tables) -> None:
    P = values.size
    best = -1
    for p in range(P):
        values[p] = hand_value(keys[d, p], suited[d, p], T)
        best = max(best, values[p])
    winners = 0
    for p in range(P):
        if values[p] == best:
            winners += 1
    for p in range(P):
        if values[p] == best:
            counts[p, winners - 1] += 1


@njit(cache=True, nogil=True)
def _every_board(hole: np.ndarray, board: np.ndarray, live: np.ndarray, counts: np.ndarray, T: Tables) -> int:
    """Nested loops over the missing board cards (``k`` of them, the live cards in ascending order),
    the players' keys summed level by level; the last level scores each board."""
    P = hole.shape[0]
    k = 5 - board.size
    n = live.size
    keys = np.full((6, P), KEY_BASE, np.uint64)      # keys[d]: hole + board + the first d new cards
    suited = np.zeros((6, P), np.uint64)
    for p in range(P):
        for c in list(hole[p]) + list(board):
            keys[0, p] += T.card_keys[c]
            suited[0, p] |= suited_bit(c)
    values = np.empty(P, np.int64)
    if k == 0:
        _showdown(keys, suited, 0, values, counts, T)
        return 1
    boards = 0
    idx = np.zeros(6, np.int64)
    d = 0                 # the level being filled: cards 0..d-1 are placed
    idx[0] = -1
    while d >= 0:
        idx[d] += 1
        if idx[d] > n - (k - d):
            d -= 1
            continue
        c = live[idx[d]]
        ck = T.card_keys[c]
        cs = suited_bit(c)
        if d < k - 1:
            for p in range(P):
                keys[d + 1, p] = keys[d, p] + ck
                suited[d + 1, p] = suited[d, p] | cs
            d += 1
            idx[d] = idx[d - 1]
            continue
        best = -1                    # the last card: one showdown per live card after the others
        for p in range(P):
            values[p] = hand_value(keys[d, p] + ck, suited[d, p] | cs, T)
            best = max(best, values[p])
        winners = 0
        for p in range(P):
            winners += values[p] == best
        for p in range(P):
            if values[p] == best:
                counts[p, winners - 1] += 1
        boards += 1
    return boards


def brute_shares(players: list[list[tuple[int, int]]], board: list[int] = (), dead: list[int] = ()
                 ) -> tuple[np.ndarray, int]:
    """``(counts (P, P), boards)`` summed over every combo assignment of ``players`` (each a list
    of ``(card, card)`` combos) that shares no card with the others, the board or the dead cards."""
    P = len(players)
    counts = np.zeros((P, P), np.int64)
    boards = 0
    t = tables()
    taken = set(board) | set(dead)
    for combo in product(*players):
        cards = [c for h in combo for c in h]
        if len(set(cards)) < len(cards) or taken & set(cards):
            continue
        live = np.array([c for c in range(52) if c not in taken and c not in cards], np.int64)
        boards += _every_board(np.array(combo, np.int64), np.array(board, np.int64), live, counts, t)
    return counts, boards
