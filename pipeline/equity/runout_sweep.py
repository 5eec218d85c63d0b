"""Two players' exact counts on one runout without listing their pairs: the sort-and-sweep of :mod:`.runouts`.

Heads-up with two large ranges the list of combo pairs would be long (a thousand combos each: a million
pairs), so :func:`_sweep_two` counts them instead: both ranges' live combos in order of value, running
totals of the other player's combos below and equal, less those sharing a card with the hand (per-card
totals) plus the identical combo — inclusion–exclusion over the two cards, linear after the sort.
:func:`_sweep_pays` says when that beats the list, :func:`_twins` pairs each combo with the other player's
combo of the same two cards.  Apart from :mod:`.runouts` (whose plan it reads) as one concept of its own.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _twins(combos: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Heads-up: for each combo, the other player's combo of the same two cards, or -1."""
    where = np.full((52, 52), -1, np.int64)
    twin = np.full(combos.shape[0], -1, np.int64)
    for i in range(offsets[1]):
        where[combos[i, 0], combos[i, 1]] = i
        where[combos[i, 1], combos[i, 0]] = i
    for j in range(offsets[1], offsets[2]):
        i = where[combos[j, 0], combos[j, 1]]
        if i >= 0:
            twin[i], twin[j] = j, i
    return twin


def _sweep_pays(n1: int, n2: int) -> bool:
    """Whether the sort-and-sweep beats listing the n1 * n2 pairs (measured crossover, roughly)."""
    return n1 * n2 > 24 * (n1 + n2)


@njit(cache=True, nogil=True, inline="always")
def _tally(total: np.ndarray, cards: np.ndarray, q: int, c1: int, c2: int, w: float) -> None:
    """Count one combo of player ``q`` (cards ``c1``, ``c2``, weight ``w``) into ``total[q]`` and its cards'
    entries of ``cards[q]``: count in column 0, weight in column 1."""
    total[q, 0] += 1.0
    total[q, 1] += w
    cards[q, 0, c1] += 1.0
    cards[q, 1, c1] += w
    cards[q, 0, c2] += 1.0
    cards[q, 1, c2] += w


@njit(cache=True, nogil=True)
def _sweep_two(values: np.ndarray, p: Any, m: int, counts: np.ndarray, wcounts: np.ndarray,
               card_all: np.ndarray, card_below: np.ndarray, card_eq: np.ndarray) -> tuple:
    """Two players on one runout: every pair of live combos with no card shared, counted without listing
    the pairs.  Walking both ranges' live combos in order of value, a combo of one player beats the other's
    combos below it and ties those equal to it; the ones sharing a card with it are taken out by per-card
    running totals, and the other player's identical combo (taken out twice: it shares both cards) is added
    back once.  Returns the pairs and their weight, adding ``m`` times to the counts.

    ``p`` is the :class:`.runouts.RunoutPlan` (not imported: that module imports this one).  ``card_*`` are
    (2, 2, 52) work arrays (player, count | weight, card), zero on entry and on return.
    """
    o1, o2 = p.offsets[1], p.offsets[2]
    live = np.empty(o2, np.int64)
    n = 0
    total = np.zeros((2, 2))                    # player, count | weight: live combos
    for i in range(o2):
        if values[i] >= 0:
            live[n] = i
            n += 1
            _tally(total, card_all, 0 if i < o1 else 1, p.combos[i, 0], p.combos[i, 1], p.weights[i])
    order = live[:n][np.argsort(values[live[:n]], kind="mergesort")]
    below = np.zeros((2, 2))
    eq = np.zeros((2, 2))
    got = np.zeros((2, 3, 2))                   # player, win | tie | all pairs, count | weight
    start = 0
    while start < n:
        v = values[order[start]]
        end = start
        while end < n and values[order[end]] == v:
            i = order[end]
            _tally(eq, card_eq, 0 if i < o1 else 1, p.combos[i, 0], p.combos[i, 1], p.weights[i])
            end += 1
        for t in range(start, end):
            i = order[t]
            q = 0 if i < o1 else 1
            o = 1 - q
            c1, c2 = p.combos[i, 0], p.combos[i, 1]
            w = p.weights[i]
            j = p.twin[i]                       # the other player's combo of the same two cards
            for u in range(2):
                s = 0.0
                if j >= 0 and values[j] >= 0:
                    s = 1.0 if u == 0 else p.weights[j]
                scale = 1.0 if u == 0 else w
                got[q, 0, u] += scale * (below[o, u] - card_below[o, u, c1] - card_below[o, u, c2])
                got[q, 1, u] += scale * (eq[o, u] - card_eq[o, u, c1] - card_eq[o, u, c2] + s)
                if q == 0:
                    got[q, 2, u] += scale * (total[o, u] - card_all[o, u, c1] - card_all[o, u, c2] + s)
        for t in range(start, end):             # the group joins the totals below; its card totals are cleared
            i = order[t]
            q = 0 if i < o1 else 1
            for u in range(2):
                for c in (p.combos[i, 0], p.combos[i, 1]):
                    card_below[q, u, c] += card_eq[q, u, c]
                    card_eq[q, u, c] = 0.0
        for q in range(2):
            for u in range(2):
                below[q, u] += eq[q, u]
                eq[q, u] = 0.0
        start = end
    for q in range(2):
        counts[q, 0] += m * int(round(got[q, 0, 0]))
        counts[q, 1] += m * int(round(got[q, 1, 0]))
        wcounts[q, 0] += m * got[q, 0, 1]
        wcounts[q, 1] += m * got[q, 1, 1]
    for i in range(n):                          # the work arrays back to zero
        c = live[i]
        q = 0 if c < o1 else 1
        for u in range(2):
            card_all[q, u, p.combos[c, 0]] = 0.0
            card_all[q, u, p.combos[c, 1]] = 0.0
            card_below[q, u, p.combos[c, 0]] = 0.0
            card_below[q, u, p.combos[c, 1]] = 0.0
    return m * int(round(got[0, 2, 0])), m * got[0, 2, 1]
