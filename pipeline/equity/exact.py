"""Exact equity: every non-conflicting assignment of range combos times every board.

The players' ranges are concatenated into one combo array with per-player
``offsets``.  :func:`count_assignments` / :func:`list_assignments` walk the
cartesian product like an odometer, skipping any prefix that already shares a
card, and :func:`exact_counts` scores each assignment's boards with
:func:`~.ranksets.enumerate_by_ranks` — once per suit-isomorphism class of
assignments (:mod:`.suits`), weighted by the class size.  Assignments are independent, so a caller
may split them into chunks and add the integer counts in any order.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluator.kernels import board_state, live_cards, suited_bit
from .ranksets import enumerate_by_ranks


@njit(cache=True, nogil=True)
def _walk(masks: np.ndarray, offsets: np.ndarray, used: np.uint64, out: np.ndarray, fill: bool,
          limit: int) -> int:
    P = offsets.size - 1
    pos = np.empty(P, np.int64)
    taken = np.empty(P + 1, np.uint64)
    taken[0] = used
    depth = 0
    pos[0] = offsets[0]
    count = 0
    while depth >= 0:
        if pos[depth] >= offsets[depth + 1]:      # this player's combos exhausted: back up
            depth -= 1
            if depth >= 0:
                pos[depth] += 1
            continue
        m = masks[pos[depth]]
        if m & taken[depth]:
            pos[depth] += 1
            continue
        if depth == P - 1:
            if fill:
                for p in range(P):
                    out[count, p] = pos[p]
            count += 1
            if count == limit:
                return count
            pos[depth] += 1
            continue
        taken[depth + 1] = taken[depth] | m
        depth += 1
        pos[depth] = offsets[depth]
    return count


def count_assignments(masks: np.ndarray, offsets: np.ndarray, used: int) -> int:
    """How many ways to give each player one combo with no card shared (or in ``used``)."""
    return _walk(masks, offsets, np.uint64(used), np.empty((0, 0), np.int64), False, -1)


def any_assignment(masks: np.ndarray, offsets: np.ndarray, used: int) -> bool:
    """Whether at least one such assignment exists (the walk stops at the first)."""
    return _walk(masks, offsets, np.uint64(used), np.empty((0, 0), np.int64), False, 1) > 0


def first_assignments(masks: np.ndarray, offsets: np.ndarray, used: int, k: int) -> np.ndarray:
    """The first ``k`` assignments (fewer if there are fewer), to time a sample of the work."""
    out = np.empty((k, offsets.size - 1), np.int64)
    n = _walk(masks, offsets, np.uint64(used), out, True, k)
    return out[:n]


def list_assignments(masks: np.ndarray, offsets: np.ndarray, used: int) -> np.ndarray:
    """The assignments themselves: (A, P) indexes into the concatenated combos."""
    n = count_assignments(masks, offsets, used)
    out = np.empty((n, offsets.size - 1), np.int64)
    _walk(masks, offsets, np.uint64(used), out, True, -1)
    return out


@njit(cache=True, nogil=True)
def exact_counts(assign: np.ndarray, sizes: np.ndarray, wsums: np.ndarray, combos: np.ndarray,
                 board: np.ndarray, dead_mask: np.uint64, counts: np.ndarray, wcounts: np.ndarray,
                 card_keys: np.ndarray, rank_offsets: np.ndarray, rank_values: np.ndarray,
                 flush_values: np.ndarray) -> tuple:
    """Score all boards of each assignment row, standing for ``sizes[a]`` assignments of
    total weight ``wsums[a]`` (see :mod:`.suits`).  Adds to ``counts`` (P, 3) int64 and
    to ``wcounts`` (P, 3) float64; returns ``(boards, weighted boards)``.
    """
    A, P = assign.shape
    missing = 5 - board.size
    bkey, bsuited, used0 = board_state(board, dead_mask, card_keys)
    keys = np.empty(P, np.uint64)
    suited = np.empty(P, np.uint64)
    live = np.empty(52, np.uint8)
    local = np.zeros((P, 3), np.int64)
    boards = 0
    wboards = 0.0
    for a in range(A):
        used = used0
        for p in range(P):
            i = assign[a, p]
            c1, c2 = combos[i, 0], combos[i, 1]
            keys[p] = bkey + card_keys[c1] + card_keys[c2]
            suited[p] = bsuited | suited_bit(c1) | suited_bit(c2)
            used |= (np.uint64(1) << np.uint64(c1)) | (np.uint64(1) << np.uint64(c2))
        n = live_cards(used, live)
        local[:] = 0
        nb = enumerate_by_ranks(keys, suited, live[:n], missing, local, card_keys, rank_offsets,
                                rank_values, flush_values)
        m = sizes[a]
        w = wsums[a]
        boards += m * nb
        wboards += w * nb
        for p in range(P):
            for k in range(3):
                counts[p, k] += m * local[p, k]
                wcounts[p, k] += w * local[p, k]
    return boards, wboards
