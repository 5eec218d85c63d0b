"""The suit symmetries of a runout enumeration: the permutations that fix the board, the dead cards and every
range (weights included), and the runouts canonical under them, each with its orbit's size.

Apart from :mod:`.runouts`, which counts the runouts, so that the grouped enumeration (:mod:`.grouped`) takes
the same canonical runouts without the counting kernels.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..ranges.syntax import Range
from .suits import stabilizer

__all__ = ["canonical_runouts", "range_symmetries"]


def range_symmetries(ranges: list[Range], board: list[int], dead: list[int]) -> np.ndarray:
    """(g, 4) the suit permutations fixing the board, the dead cards and each range with its weights."""
    perms = stabilizer(board, dead)
    if len(perms) == 1:
        return perms
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    weights = np.ascontiguousarray(np.concatenate([r.weights for r in ranges]).astype(np.float64))
    offsets = np.cumsum([0] + [len(r) for r in ranges]).astype(np.int64)
    return perms[_keeps_ranges(perms, combos, weights, offsets)]


@njit(cache=True, nogil=True)
def _keeps_ranges(perms: np.ndarray, combos: np.ndarray, weights: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Which permutations carry every player's range onto itself, weights included: each combo's image is a
    combo of the same player with the same weight (the images are distinct, so the range maps onto itself)."""
    P = offsets.size - 1
    table = np.full((52, 52), -1.0)
    keep = np.ones(perms.shape[0], np.bool_)
    for q in range(P):
        for i in range(offsets[q], offsets[q + 1]):
            table[combos[i, 0], combos[i, 1]] = weights[i]
            table[combos[i, 1], combos[i, 0]] = weights[i]
        for g in range(perms.shape[0]):
            if not keep[g]:
                continue
            for i in range(offsets[q], offsets[q + 1]):
                a, b = combos[i, 0], combos[i, 1]
                if table[4 * (a >> 2) + perms[g, a & 3], 4 * (b >> 2) + perms[g, b & 3]] != weights[i]:
                    keep[g] = False
                    break
        for i in range(offsets[q], offsets[q + 1]):
            table[combos[i, 0], combos[i, 1]] = -1.0
            table[combos[i, 1], combos[i, 0]] = -1.0
    return keep


@njit(cache=True, nogil=True)
def canonical_runouts(live: np.ndarray, k: int, perms: np.ndarray) -> tuple:
    """``(runouts (R, k), multiplicities (R,))``: the k-card subsets of ``live`` (ascending ids) up to
    ``perms``, each the smallest of its orbit as a sorted tuple, with the orbit's size."""
    n = live.size
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    out = np.empty((max(total, 1), max(k, 1)), np.int64)
    mult = np.empty(max(total, 1), np.int64)
    if k == 0:
        mult[0] = 1
        return out[:1, :0], mult[:1]
    g = perms.shape[0]
    codes = np.empty(g, np.int64)
    idx = np.arange(k)
    img = np.empty(k, np.int64)
    count = 0
    while True:
        own = 0
        for j in range(k):
            own = own * 52 + live[idx[j]]
        smallest = True
        distinct = 0
        for p in range(g):
            for j in range(k):                 # the image, insertion-sorted (k <= 5)
                c = live[idx[j]]
                x = 4 * (c >> 2) + perms[p, c & 3]
                t = j
                while t > 0 and img[t - 1] > x:
                    img[t] = img[t - 1]
                    t -= 1
                img[t] = x
            code = 0
            for j in range(k):
                code = code * 52 + img[j]
            if code < own:
                smallest = False
                break
            new = True
            for e in range(distinct):
                if codes[e] == code:
                    new = False
                    break
            if new:
                codes[distinct] = code
                distinct += 1
        if smallest:
            for j in range(k):
                out[count, j] = live[idx[j]]
            mult[count] = distinct
            count += 1
        i = k - 1                              # next k-subset, lexicographic
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
    return out[:count], mult[:count]
