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


@njit(cache=True)
def _every_board(hole: np.ndarray, board: np.ndarray, live: np.ndarray, counts: np.ndarray, T: Tables) -> int:
    P = hole.shape[0]
    k = 5 - board.size
    n = live.size
    idx = np.arange(k)
    values = np.empty(P, np.int64)
    boards = 0
    while True:
        for p in range(P):
            key = KEY_BASE
            suited = np.uint64(0)
            for c in hole[p]:
                key += T.card_keys[c]
                suited |= suited_bit(c)
            for c in board:
                key += T.card_keys[c]
                suited |= suited_bit(c)
            for q in range(k):
                c = live[idx[q]]
                key += T.card_keys[c]
                suited |= suited_bit(c)
            values[p] = hand_value(key, suited, T)
        best = values.max()
        winners = 0
        for p in range(P):
            if values[p] == best:
                winners += 1
        for p in range(P):
            if values[p] == best:
                counts[p, winners - 1] += 1
        boards += 1
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            return boards
        idx[i] += 1
        for q in range(i + 1, k):
            idx[q] = idx[q - 1] + 1


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
