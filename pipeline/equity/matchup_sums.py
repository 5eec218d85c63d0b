"""Preflop heads-up range vs range equity as a sum over the matchups table.

With no board and no dead cards, every pair of disjoint hole-card combos is
one of the 47,008 suit-isomorphic matchup classes whose exact wins, ties and
losses over all 1,712,304 boards the ``matchups`` dataset holds
(:mod:`pipeline.datasets.recipes.matchups`).  Summing those rows over the combo pairs
of two ranges gives the same integers as enumerating every board — in
microseconds for typical ranges instead of milliseconds to seconds.

:func:`table_counts` is a pure function of the ranges and the table arrays.
:func:`packaged_table` loads the copy shipped with this module
(``data/matchups-wtl.npz``, 383 kB); a caller holding a built ``matchups``
dataset passes its arrays instead (``equity(..., table=(codes, wtl))``, e.g.
from :func:`pipeline.datasets.read` and
:func:`pipeline.datasets.matchup_arrays`; ``pokerpipe equity`` does so when
``$POKERPIPE_MATCHUPS`` names the dataset's ``--out`` folder).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Optional

import numpy as np
from numba import njit

from ..ranges.syntax import Range
from .matchups import SUIT_PERMUTATIONS, canonical_matchups, matchup_result

BOARDS = 1_712_304        # C(48, 5): boards of one preflop heads-up matchup
PACKAGED = Path(__file__).with_name("data") / "matchups-wtl.npz"


@njit(cache=True, nogil=True)
def _sum_pairs(hero: np.ndarray, hero_w: np.ndarray, villain: np.ndarray, villain_w: np.ndarray,
               sorted_codes: np.ndarray, order: np.ndarray, wtl: np.ndarray, perms: np.ndarray,
               counts: np.ndarray, wcounts: np.ndarray) -> tuple:
    boards = 0
    wboards = 0.0
    for i in range(hero.shape[0]):
        a1, a2 = hero[i, 0], hero[i, 1]
        for j in range(villain.shape[0]):
            b1, b2 = villain[j, 0], villain[j, 1]
            if a1 == b1 or a1 == b2 or a2 == b1 or a2 == b2:
                continue
            w, t, lose = matchup_result(a1, a2, b1, b2, sorted_codes, order, wtl, perms)
            counts[0, 0] += w
            counts[1, 0] += lose
            counts[0, 1] += t
            counts[1, 1] += t
            ww = hero_w[i] * villain_w[j]
            wcounts[0, 0] += ww * w
            wcounts[1, 0] += ww * lose
            wcounts[0, 1] += ww * t
            wcounts[1, 1] += ww * t
            n = w + t + lose
            boards += n
            wboards += ww * n
    return boards, wboards


def table_counts(hero: Range, villain: Range, codes: np.ndarray,
                 wtl: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, float]:
    """``(counts (2, 2) int64, weighted counts (2, 2), boards, weighted boards)`` — sole wins and
    two-way ties (by number of winners, :mod:`.scoring`) of hero and villain summed over every disjoint
    combo pair, from the matchup classes' ``codes`` (47,008,) and hero's wins, ties,
    losses ``wtl`` (47,008, 3)."""
    order = np.argsort(codes, kind="stable")
    counts = np.zeros((2, 2), np.int64)
    wcounts = np.zeros((2, 2), np.float64)
    boards, wboards = _sum_pairs(np.ascontiguousarray(hero.combos, np.int64), hero.weights.astype(np.float64),
                                 np.ascontiguousarray(villain.combos, np.int64),
                                 villain.weights.astype(np.float64),
                                 np.ascontiguousarray(codes[order]), order, np.ascontiguousarray(wtl, np.int64),
                                 SUIT_PERMUTATIONS, counts, wcounts)
    return counts, wcounts, int(boards), float(wboards)


@lru_cache(maxsize=1)
def packaged_table() -> Optional[tuple[np.ndarray, np.ndarray]]:
    """``(codes, wtl)`` from the copy packaged with this module, or None when it is missing
    or not whole."""
    if not PACKAGED.exists():
        return None
    codes, _ = canonical_matchups()
    with np.load(PACKAGED) as z:
        wtl = np.stack([z["wins"], z["ties"], z["losses"]], axis=1).astype(np.int64)
    return (codes, wtl) if is_whole(codes, wtl) else None


def is_whole(codes: np.ndarray, wtl: np.ndarray) -> bool:
    """Does ``(codes, wtl)`` hold every matchup class, each with all 1,712,304 boards?"""
    return len(codes) == len(wtl) == 47008 and bool(np.all(np.asarray(wtl).sum(axis=1) == BOARDS))
