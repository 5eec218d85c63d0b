"""Suit isomorphism of combo assignments: enumerate each class of equal showdowns once.

Renaming suits changes no hand's value.  A permutation of the four suits that
maps the board onto itself and the dead cards onto themselves maps every
completion of the board to another completion, so two assignments of hole
cards that such a permutation carries onto each other have the same wins,
ties and pot shares for every player.  Preflop with no dead cards all 24
permutations qualify: ``AA`` vs ``KK`` (36 combo pairs) falls into 3 classes
— the kings share two, one or no suits with the aces — and each class is
enumerated once, its counts multiplied by its size.  This is the suit
isomorphism of Waugh et al. ("A practical use of imperfect recall", SARA
2009) and of OMPEval's combined range evaluation, applied to whole
assignments.

:func:`group_assignments` keys each assignment by its smallest image over
the group (each player's combo as ``52 * high + low``, 12 bits, five players
to a 64-bit word) and keeps one representative per key with the class size
and the sum of its members' weight products.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit

ALL_PERMUTATIONS = np.array(list(permutations(range(4))), np.int64)


def stabilizer(board: list[int], dead: list[int]) -> np.ndarray:
    """(g, 4) the suit permutations mapping the board and the dead cards each onto itself."""
    keep = []
    b, d = set(board), set(dead)
    for perm in ALL_PERMUTATIONS:
        image_b = {4 * (c >> 2) + int(perm[c & 3]) for c in b}
        image_d = {4 * (c >> 2) + int(perm[c & 3]) for c in d}
        if image_b == b and image_d == d:
            keep.append(perm)
    return np.array(keep, np.int64)


@njit(cache=True, nogil=True)
def _keys(assign: np.ndarray, combos: np.ndarray, perms: np.ndarray, out: np.ndarray) -> None:
    A, P = assign.shape
    codes = np.empty(P, np.int64)
    for a in range(A):
        best0 = np.int64(-1)
        best1 = np.int64(-1)
        for g in range(perms.shape[0]):
            for p in range(P):
                c1 = combos[assign[a, p], 0]
                c2 = combos[assign[a, p], 1]
                x = 4 * (c1 >> 2) + perms[g, c1 & 3]
                y = 4 * (c2 >> 2) + perms[g, c2 & 3]
                codes[p] = 52 * max(x, y) + min(x, y)
            k0 = np.int64(0)
            k1 = np.int64(0)
            for p in range(P):
                if p < 5:
                    k0 = (k0 << 12) | codes[p]
                else:
                    k1 = (k1 << 12) | codes[p]
            if best0 < 0 or k0 < best0 or (k0 == best0 and k1 < best1):
                best0 = k0
                best1 = k1
        out[a, 0] = best0
        out[a, 1] = best1


def group_assignments(assign: np.ndarray, combos: np.ndarray, weights: np.ndarray,
                      perms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(representatives (C, P), sizes (C,) int64, weight sums (C,) float64)``.

    ``assign`` (A, P) indexes ``combos``/``weights``; ``perms`` is the group
    (:func:`stabilizer`).  A trivial group returns every assignment as its own class.
    """
    w = np.prod(weights[assign], axis=1) if assign.size else np.zeros(0)
    if len(perms) <= 1:
        return assign, np.ones(len(assign), np.int64), w
    keys = np.empty((len(assign), 2), np.int64)
    _keys(assign, combos, perms, keys)
    order = np.lexsort((keys[:, 1], keys[:, 0]))
    k = keys[order]
    start = np.ones(len(k), bool)
    start[1:] = (k[1:, 0] != k[:-1, 0]) | (k[1:, 1] != k[:-1, 1])
    first = np.flatnonzero(start)
    sizes = np.diff(np.append(first, len(k))).astype(np.int64)
    wsums = np.add.reduceat(w[order], first) if len(first) else np.zeros(0)
    return assign[order[first]], sizes, wsums
