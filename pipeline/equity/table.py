"""Preflop heads-up range vs range equity as a sum over the matchups table.

With no board and no dead cards, every pair of disjoint hole-card combos is
one of the 47,008 suit-isomorphic matchup classes whose exact wins, ties and
losses over all 1,712,304 boards the ``matchups`` dataset holds
(:mod:`pipeline.datasets.matchups`).  Summing those rows over the combo pairs
of two ranges gives the same integers as enumerating every board — in
microseconds for typical ranges instead of milliseconds to seconds.

:func:`table_counts` is a pure function of the ranges and the table arrays;
:func:`load_matchup_table` finds the table: a built ``matchups`` dataset under
``$POKERPIPE_MATCHUPS`` (an ``--out`` folder, every part verified), else the
copy packaged with this module (``data/matchups-wtl.npz``), else None.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Optional

import numpy as np
from numba import njit

from ..preflop import SUIT_PERMUTATIONS, _canonical, canonical_matchups
from ..ranges import Range
from .scoring import SHARE_UNIT, SHARES, TIES, WINS

BOARDS = 1_712_304        # C(48, 5): boards of one preflop heads-up matchup
PACKAGED = Path(__file__).with_name("data") / "matchups-wtl.npz"


@njit(cache=True, nogil=True)
def _sum_pairs(hero: np.ndarray, hero_w: np.ndarray, villain: np.ndarray, villain_w: np.ndarray,
               sorted_codes: np.ndarray, order: np.ndarray, wtl: np.ndarray, perms: np.ndarray,
               counts: np.ndarray, wcounts: np.ndarray) -> tuple:
    half = SHARE_UNIT // 2
    boards = 0
    wboards = 0.0
    for i in range(hero.shape[0]):
        a1, a2 = hero[i, 0], hero[i, 1]
        for j in range(villain.shape[0]):
            b1, b2 = villain[j, 0], villain[j, 1]
            if a1 == b1 or a1 == b2 or a2 == b1 or a2 == b2:
                continue
            code, hero_first = _canonical(a1, a2, b1, b2, perms)
            k = order[np.searchsorted(sorted_codes, code)]
            w, t, lose = wtl[k, 0], wtl[k, 1], wtl[k, 2]
            if not hero_first:
                w, lose = lose, w
            counts[0, WINS] += w
            counts[1, WINS] += lose
            for p in range(2):
                counts[p, TIES] += t
                counts[p, SHARES] += t * half
            ww = hero_w[i] * villain_w[j]
            wcounts[0, WINS] += ww * w
            wcounts[1, WINS] += ww * lose
            for p in range(2):
                wcounts[p, TIES] += ww * t
                wcounts[p, SHARES] += ww * (t * half)
            n = w + t + lose
            boards += n
            wboards += ww * n
    return boards, wboards


def table_counts(hero: Range, villain: Range, codes: np.ndarray,
                 wtl: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, float]:
    """``(counts (2, 3) int64, weighted counts (2, 3), boards, weighted boards)`` — wins, ties
    and pot shares (see :mod:`.scoring`) of hero and villain summed over every disjoint
    combo pair, from the matchup classes' ``codes`` (47,008,) and hero's wins, ties,
    losses ``wtl`` (47,008, 3)."""
    order = np.argsort(codes, kind="stable")
    counts = np.zeros((2, 3), np.int64)
    wcounts = np.zeros((2, 3), np.float64)
    boards, wboards = _sum_pairs(np.ascontiguousarray(hero.combos, np.int64), hero.weights.astype(np.float64),
                                 np.ascontiguousarray(villain.combos, np.int64),
                                 villain.weights.astype(np.float64),
                                 np.ascontiguousarray(codes[order]), order, np.ascontiguousarray(wtl, np.int64),
                                 SUIT_PERMUTATIONS, counts, wcounts)
    return counts, wcounts, int(boards), float(wboards)


@lru_cache(maxsize=4)
def _load(source: str) -> Optional[tuple[np.ndarray, np.ndarray]]:
    codes, _ = canonical_matchups()
    if source == "packaged":
        if not PACKAGED.exists():
            return None
        with np.load(PACKAGED) as z:
            wtl = np.stack([z["wins"], z["ties"], z["losses"]], axis=1).astype(np.int64)
    else:
        from ..datasets import DatasetError, is_built, matchup_counts, read
        try:
            if not is_built("matchups", source):
                return None
            codes, wtl = matchup_counts(read("matchups", source, columns=["wins", "ties", "losses"]))
        except (DatasetError, OSError, ValueError):
            return None
    if len(wtl) != len(codes) or not np.all(wtl.sum(axis=1) == BOARDS):
        return None
    return codes, wtl


def load_matchup_table() -> Optional[tuple[np.ndarray, np.ndarray]]:
    """``(codes, wtl)`` of the matchups table, or None when none is found (see module doc)."""
    out = os.environ.get("POKERPIPE_MATCHUPS")
    if out:
        got = _load(out)
        if got is not None:
            return got
    return _load("packaged")
