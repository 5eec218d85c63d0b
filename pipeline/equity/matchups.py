"""Preflop tables: the 47,008 suit-isomorphic heads-up matchups,
and the 169x169 class grid built from them.

A *matchup* is an unordered pair of disjoint hole-card pairs.  There are
812,175 of them; permuting suits maps matchups onto each other with the same
showdown counts, leaving 47,008 classes.  A class is named by its canonical
member: over the 24 suit permutations, the one whose code
``hero1<<18 | hero2<<12 | villain1<<6 | villain2`` (each hand high card first,
hero the higher hand) is largest.  ``weight`` counts the specific matchups a
class stands for.

>>> codes, weights = canonical_matchups()
>>> len(codes), int(weights.sum())
(47008, 812175)
>>> format_matchup(int(codes[0]))
('AsAh', 'AdAc')

A deck without the low ranks (:mod:`pipeline.evaluator.decks`) is a parameter: its
lowest card ``first`` (16 for short-deck hold'em, six to ace) bounds every loop
over cards, and the deck's tables value the boards.

>>> codes, weights = canonical_matchups(16)
>>> len(codes), int(weights.sum()), format_matchup(int(codes[-1]))
(10215, 176715, ('6s6h', '6d6c'))
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np
from numba import njit

from ..core.cards import format_cards
from ..core.hand_classes import class_of
from ..evaluator.kernels import KEY_BASE, Tables, suited_bit
from .ranksets import enumerate_by_ranks

SPECIFIC_MATCHUPS = 812175
SUIT_PERMUTATIONS = np.array(list(permutations(range(4))), np.int64)


@njit(cache=True, nogil=True)
def canonical_code(a1: int, a2: int, b1: int, b2: int, perms: np.ndarray) -> tuple[int, bool]:
    """(code, hero_is_a) of a matchup: the largest code over suit permutations."""
    best = -1
    a_first = True
    for k in range(perms.shape[0]):
        p = perms[k]
        x1, x2 = 4 * (a1 >> 2) + p[a1 & 3], 4 * (a2 >> 2) + p[a2 & 3]
        y1, y2 = 4 * (b1 >> 2) + p[b1 & 3], 4 * (b2 >> 2) + p[b2 & 3]
        if x2 > x1:
            x1, x2 = x2, x1
        if y2 > y1:
            y1, y2 = y2, y1
        ha = (x1 << 6) | x2
        hb = (y1 << 6) | y2
        if ha >= hb:
            code = (ha << 12) | hb
            first = True
        else:
            code = (hb << 12) | ha
            first = False
        if code > best:
            best = code
            a_first = first
    return best, a_first


def specific_matchups(first: int = 0) -> int:
    """Unordered pairs of disjoint hole-card pairs of the deck from card ``first`` to 51 (812,175 of 52
    cards, 176,715 of the short deck's 36)."""
    n = 52 - first
    return n * (n - 1) // 2 * ((n - 2) * (n - 3) // 2) // 2


@njit(cache=True, nogil=True)
def _all_specific(perms: np.ndarray, first: int = 0, size: int = SPECIFIC_MATCHUPS) -> np.ndarray:
    codes = np.empty(size, np.int64)
    n = 0
    for a1 in range(first, 52):
        for a2 in range(first, a1):
            for b1 in range(a1, 52):
                for b2 in range(first, b1):
                    if b1 == a1 and b2 <= a2:
                        continue      # each unordered pair once: (b1, b2) after (a1, a2)
                    if b1 == a2 or b2 == a1 or b2 == a2 or b1 == a1:
                        continue
                    codes[n] = canonical_code(a1, a2, b1, b2, perms)[0]
                    n += 1
    return codes[:n]


@lru_cache(maxsize=None)
def canonical_matchups(first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Sorted canonical codes of the 47,008 matchup classes (descending) and their weights; of the 10,554 of
    the short deck with ``first`` 16 (the deck's lowest card id).

    Derived from all 812,175 specific matchups (about 1.5 s) and cached on disk
    beside the evaluator tables.
    """
    from ..core.cache import cache_dir, load_or_build

    def build() -> dict:
        codes, weights = np.unique(_all_specific(SUIT_PERMUTATIONS, first, specific_matchups(first)),
                                   return_counts=True)
        order = np.argsort(-codes, kind="stable")
        return {"codes": codes[order], "weights": weights[order].astype(np.int64)}

    name = "matchups-v2.npz" if first == 0 else f"matchups-from-{first}-v1.npz"
    got = load_or_build(cache_dir() / name, build, {"codes", "weights"})
    return got["codes"], got["weights"]


def decode(code: int) -> tuple[int, int, int, int]:
    """Hero's two cards and villain's two cards of a matchup code."""
    return (code >> 18) & 63, (code >> 12) & 63, (code >> 6) & 63, code & 63


def format_matchup(code: int) -> tuple[str, str]:
    """``('AsAh', 'AdAc')``: hero and villain of a matchup code."""
    h1, h2, v1, v2 = decode(code)
    return format_cards([h1, h2]), format_cards([v1, v2])


@njit(cache=True, nogil=True)
def count_matchups(codes: np.ndarray, T: Tables, first: int = 0) -> np.ndarray:
    """(n, 3) hero wins, ties, losses over all 1,712,304 boards of each matchup code; over the 201,376 of the
    short deck with its lowest card ``first`` (16) and its tables ``T``."""
    out = np.empty((codes.size, 3), np.int64)
    keys = np.empty(2, np.uint64)
    suited = np.empty(2, np.uint64)
    live = np.empty(48, np.uint8)
    counts = np.zeros((2, 2), np.int64)     # by number of winners: sole wins, two-way ties
    for i in range(codes.size):
        code = codes[i]
        cards = ((code >> 18) & 63, (code >> 12) & 63, (code >> 6) & 63, code & 63)
        keys[0] = KEY_BASE + T.card_keys[cards[0]] + T.card_keys[cards[1]]
        keys[1] = KEY_BASE + T.card_keys[cards[2]] + T.card_keys[cards[3]]
        suited[0] = suited_bit(cards[0]) | suited_bit(cards[1])
        suited[1] = suited_bit(cards[2]) | suited_bit(cards[3])
        n = 0
        for c in range(first, 52):
            if c != cards[0] and c != cards[1] and c != cards[2] and c != cards[3]:
                live[n] = c
                n += 1
        counts[:] = 0
        boards = enumerate_by_ranks(keys, suited, live[:n], 5, counts, T)
        out[i, 0] = counts[0, 0]
        out[i, 1] = counts[0, 1]
        out[i, 2] = boards - counts[0, 0] - counts[0, 1]
    return out


@njit(cache=True, nogil=True, inline="always")
def matchup_result(a1: int, a2: int, b1: int, b2: int, codes_sorted: np.ndarray, order: np.ndarray, wtl: np.ndarray,
                   perms: np.ndarray) -> tuple:
    """``(wins, ties, losses)`` of hand ``a1 a2`` against ``b1 b2`` over every board, read from the matchup
    classes' counts ``wtl`` (hero's view) through their codes sorted ascending (``codes_sorted``, with
    ``order`` mapping back to the rows of ``wtl``)."""
    code, a_first = canonical_code(a1, a2, b1, b2, perms)
    k = order[np.searchsorted(codes_sorted, code)]
    win, tie, loss = wtl[k, 0], wtl[k, 1], wtl[k, 2]
    return (win, tie, loss) if a_first else (loss, tie, win)


@njit(cache=True, nogil=True)
def _grid(codes_sorted: np.ndarray, order: np.ndarray, wtl: np.ndarray, perms: np.ndarray,
          first: int = 0) -> np.ndarray:
    grid = np.zeros((169, 169, 4), np.int64)   # combos, wins, ties, losses (row hand's view)
    for a1 in range(first, 52):
        for a2 in range(first, a1):
            for b1 in range(first, 52):
                for b2 in range(first, b1):
                    if b1 == a1 or b1 == a2 or b2 == a1 or b2 == a2:
                        continue
                    win, tie, loss = matchup_result(a1, a2, b1, b2, codes_sorted, order, wtl, perms)
                    ca, cb = class_of(a1, a2), class_of(b1, b2)
                    grid[ca, cb, 0] += 1
                    grid[ca, cb, 1] += win
                    grid[ca, cb, 2] += tie
                    grid[ca, cb, 3] += loss
    return grid


def class_grid(codes: np.ndarray, wtl: np.ndarray, first: int = 0) -> np.ndarray:
    """(169, 169, 4) combos, wins, ties, losses of every ordered class pair, summed over
    all 1,624,350 ordered specific matchups, from the matchup classes' counts; for a deck from card ``first``
    (the short deck's 16) the classes it lacks hold zeros."""
    order = np.argsort(codes, kind="stable")
    return _grid(np.ascontiguousarray(codes[order]), order, np.ascontiguousarray(wtl), SUIT_PERMUTATIONS, first)


def vs_random_exact(grid: np.ndarray) -> np.ndarray:
    """(169, 3) wins, ties, losses of each class against one random hand, from the grid."""
    return grid[:, :, 1:].sum(axis=1)
