"""Exact equity: every non-conflicting assignment of range combos times every board.

The players' ranges are concatenated into one combo array with per-player
``offsets``.  :func:`exact_chunk` walks the cartesian product like an
odometer, skipping any prefix that already shares a card, keeps the
assignments that represent their suit-isomorphism class (:func:`.suits.representative_class`)
and scores their boards with :func:`~.ranksets.enumerate_by_ranks` through
:func:`exact_counts`, weighted by the class size — a stream: nothing is kept
per assignment or per class.  A chunk is a span of the combo pairs of the
first two players; chunks are independent, so a caller may run them in any
order and add the integer counts.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..evaluator.kernels import Tables, board_state, hand_value, live_cards, suited_bit
from .ranksets import enumerate_by_ranks
from .scoring import score
from .suits import representative_class


class Assignments(NamedTuple):
    """The players' ranges as one value for the exact kernels: every combo once, player by player."""

    masks: np.ndarray      # (N,) uint64: each combo's card mask
    offsets: np.ndarray    # (P+1,) int64: player p's combos are rows offsets[p] .. offsets[p+1]-1
    combos: np.ndarray     # (N, 2) int64: card ids
    weights: np.ndarray    # (N,) float64: range weights
    combo_index: np.ndarray  # (P, 52, 52) int32: row of player p's combo of two cards, -1 if none (.suits)
    perms: np.ndarray      # (g, 4) int64: the suit permutations fixing the board and dead cards (.suits.stabilizer)


@njit(cache=True, nogil=True, inline="always")
def _odometer(masks: np.ndarray, offsets: np.ndarray, pos: np.ndarray, taken: np.ndarray, depth: int,
              floor: int) -> int:
    """One move of the walk over combo assignments, like an odometer over the players' combo rows ``pos``
    (players below ``floor`` stay fixed; ``taken[d]`` holds the cards of players below ``d``): from ``depth``
    (``P``: an assignment was just visited, step past it) to the next whole assignment whose combos share no
    card (returns ``P``) or, when there is none, to a depth below ``floor``."""
    P = offsets.size - 1
    if depth == P:                              # step past the assignment just visited
        depth -= 1
        if depth < floor:
            return depth
        pos[depth] += 1
    while True:
        if pos[depth] >= offsets[depth + 1]:    # this player's combos exhausted: back up
            depth -= 1
            if depth < floor:
                return depth
            pos[depth] += 1
            continue
        m = masks[pos[depth]]
        if m & taken[depth]:
            pos[depth] += 1
            continue
        taken[depth + 1] = taken[depth] | m
        depth += 1
        if depth == P:
            return depth
        pos[depth] = offsets[depth]


@njit(cache=True, nogil=True)
def _walk(masks: np.ndarray, offsets: np.ndarray, used: np.uint64, out: np.ndarray, fill: bool,
          limit: int) -> int:
    P = offsets.size - 1
    pos = np.empty(P, np.int64)
    taken = np.empty(P + 1, np.uint64)
    taken[0] = used
    pos[0] = offsets[0]
    count = 0
    depth = _odometer(masks, offsets, pos, taken, 0, 0)
    while depth == P:
        if fill:
            out[count, :] = pos
        count += 1
        if count == limit:
            break
        depth = _odometer(masks, offsets, pos, taken, P, 0)
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


@njit(cache=True, nogil=True)
def exact_counts(assign: np.ndarray, sizes: np.ndarray, wsums: np.ndarray, combos: np.ndarray,
                 board: np.ndarray, dead_mask: np.uint64, counts: np.ndarray, wcounts: np.ndarray,
                 T: Tables) -> tuple:
    """Score all boards of each assignment row, standing for ``sizes[a]`` assignments of
    total weight ``wsums[a]`` (see :mod:`.suits`).  Adds to ``counts`` (P, P) int64 and
    to ``wcounts`` (P, P) float64, by number of winners (:mod:`.scoring`); returns
    ``(boards, weighted boards)``.
    """
    A, P = assign.shape
    missing = 5 - board.size
    bkey, bsuited, used0 = board_state(board, dead_mask, T.card_keys)
    keys = np.empty(P, np.uint64)
    suited = np.empty(P, np.uint64)
    live = np.empty(52, np.uint8)
    local = np.zeros((P, P), np.int64)
    values = np.empty(P, np.int32)
    boards = 0
    wboards = 0.0
    for a in range(A):
        used = used0
        for p in range(P):
            i = assign[a, p]
            c1, c2 = combos[i, 0], combos[i, 1]
            keys[p] = bkey + T.card_keys[c1] + T.card_keys[c2]
            suited[p] = bsuited | suited_bit(c1) | suited_bit(c2)
            used |= (np.uint64(1) << np.uint64(c1)) | (np.uint64(1) << np.uint64(c2))
        local[:] = 0
        if missing == 0:      # a river: one showdown, no walk over the rank multisets
            for p in range(P):
                values[p] = hand_value(keys[p], suited[p], T)
            score(values, local, 1)
            nb = 1
        else:
            n = live_cards(used, live)
            nb = enumerate_by_ranks(keys, suited, live[:n], missing, local, T)
        m = sizes[a]
        w = wsums[a]
        boards += m * nb
        wboards += w * nb
        for p in range(P):
            for k in range(P):
                counts[p, k] += m * local[p, k]
                wcounts[p, k] += w * local[p, k]
    return boards, wboards


REPRESENTATIVES = 256     # class representatives scored together


@njit(cache=True, nogil=True)
def exact_chunk(lo: int, hi: int, ranges: Assignments, board: np.ndarray, dead_mask: np.uint64, used: np.uint64,
                counts: np.ndarray, wcounts: np.ndarray, T: Tables) -> tuple:
    """Score every suit class whose representative gives players 1 and 2 the combo pair
    ``lo .. hi-1`` (pair ``f`` = player 1's combo ``f // n2`` and player 2's ``f % n2``);
    adds to ``counts``/``wcounts`` as :func:`exact_counts` and returns
    ``(boards, weighted boards, classes)``.  ``used``: board and dead cards."""
    masks, offsets, combos = ranges.masks, ranges.offsets, ranges.combos
    P = offsets.size - 1
    n2 = offsets[2] - offsets[1]
    rows = np.empty((REPRESENTATIVES, P), np.int64)
    sizes = np.empty(REPRESENTATIVES, np.int64)
    wsums = np.empty(REPRESENTATIVES, np.float64)
    images = np.empty((ranges.perms.shape[0], P), np.int64)
    pos = np.empty(P, np.int64)
    taken = np.empty(P + 1, np.uint64)
    n = 0
    boards = 0
    wboards = 0.0
    classes = 0
    for f in range(lo, hi):
        pos[0] = offsets[0] + f // n2
        pos[1] = offsets[1] + f % n2
        m0 = masks[pos[0]]
        m1 = masks[pos[1]]
        if m0 & used or m1 & (used | m0):
            continue
        taken[2] = used | m0 | m1
        depth = P                            # players 1 and 2 only: the pair is the assignment
        if P > 2:                            # else an odometer over players 3..P
            pos[2] = offsets[2]
            depth = _odometer(masks, offsets, pos, taken, 2, 2)
        while depth == P:                    # a whole assignment: score it if it represents its class
            size, w = representative_class(pos, combos, ranges.weights, ranges.combo_index, ranges.perms, images)
            if size > 0:
                rows[n, :] = pos
                sizes[n] = size
                wsums[n] = w
                n += 1
                classes += 1
                if n == REPRESENTATIVES:
                    nb, wb = exact_counts(rows, sizes, wsums, combos, board, dead_mask, counts, wcounts, T)
                    boards += nb
                    wboards += wb
                    n = 0
            depth = _odometer(masks, offsets, pos, taken, P, 2)
    if n > 0:
        nb, wb = exact_counts(rows[:n], sizes[:n], wsums[:n], combos, board, dead_mask, counts, wcounts, T)
        boards += nb
        wboards += wb
    return boards, wboards, classes
