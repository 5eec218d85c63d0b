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

:func:`representative_class` decides, assignment by assignment, whether it represents
its class (the smallest member) and if so the class size and the sum of its
members' weight products; the enumeration (:mod:`.exact`) streams the
assignments through it, so memory does not grow with their number.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np
from numba import njit

ALL_PERMUTATIONS = np.array(list(permutations(range(4))), np.int64)


def stabilizer(board: list[int], dead: list[int]) -> np.ndarray:
    """(g, 4) the suit permutations mapping the board and the dead cards each onto itself (read-only)."""
    return _stabilizer(frozenset(int(c) for c in board), frozenset(int(c) for c in dead))


@lru_cache(maxsize=4096)
def _stabilizer(b: frozenset, d: frozenset) -> np.ndarray:
    keep = []
    for perm in ALL_PERMUTATIONS:
        image_b = {4 * (c >> 2) + int(perm[c & 3]) for c in b}
        image_d = {4 * (c >> 2) + int(perm[c & 3]) for c in d}
        if image_b == b and image_d == d:
            keep.append(perm)
    out = np.array(keep, np.int64)
    out.flags.writeable = False
    return out


def combo_index(combos: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(P, 52, 52) int32: the index in ``combos`` of player ``p``'s combo of two cards (both
    orders), -1 where the combo is not in his range."""
    P = offsets.size - 1
    index = np.full((P, 52, 52), -1, np.int32)
    for p in range(P):
        ids = np.arange(offsets[p], offsets[p + 1])
        c = combos[ids]
        index[p, c[:, 0], c[:, 1]] = ids
        index[p, c[:, 1], c[:, 0]] = ids
    return index


@njit(cache=True, nogil=True)
def representative_class(assign: np.ndarray, combos: np.ndarray, weights: np.ndarray, index: np.ndarray,
             perms: np.ndarray, images: np.ndarray) -> tuple:
    """``(size, weight sum)`` of the suit class of assignment ``assign`` (P,) when it is the
    class's representative, else ``(0, 0.0)``.

    The class is the assignment's images under the group ``perms`` that are
    assignments too (every player's image combo in his range, by ``index``,
    :func:`combo_index`); its representative is the smallest of them as a tuple
    of combo indexes, so each class is met once in a walk over all
    assignments, with no table of classes kept.  ``images`` (g, P) is scratch.
    """
    P = assign.size
    n = 0
    wsum = 0.0
    for g in range(perms.shape[0]):
        valid = True
        for p in range(P):
            c1 = combos[assign[p], 0]
            c2 = combos[assign[p], 1]
            k = index[p, 4 * (c1 >> 2) + perms[g, c1 & 3], 4 * (c2 >> 2) + perms[g, c2 & 3]]
            if k < 0:
                valid = False
                break
            images[n, p] = k
        if not valid:
            continue
        for p in range(P):                 # a smaller member: another assignment represents the class
            if images[n, p] != assign[p]:
                if images[n, p] < assign[p]:
                    return 0, 0.0
                break
        new = True
        for e in range(n):                 # the same image by another permutation: counted once
            same = True
            for p in range(P):
                if images[e, p] != images[n, p]:
                    same = False
                    break
            if same:
                new = False
                break
        if new:
            w = 1.0
            for p in range(P):
                w *= weights[images[n, p]]
            wsum += w
            n += 1
    return n, wsum
