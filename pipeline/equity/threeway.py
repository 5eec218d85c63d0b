"""Three-way preflop tables: every unordered triple of hole-card hands up to suit isomorphism,
counted exactly over all 1,370,754 boards, and the class triples summed from them.

A *triple* is an unordered set of three disjoint hole-card pairs: 305,377,800 of them.
Permuting suits maps triples onto triples with the same showdown counts, leaving
:data:`THREE_WAY_CLASSES` classes (against 47,008 heads-up).  A class is named by its
canonical member: over the 24 suit permutations, the one whose code
``hand1 << 24 | hand2 << 12 | hand3`` is largest, each hand ``high card << 6 | low card``
and the hands in descending order; ``weight`` counts the specific triples it stands for.

The canonical members are found without listing all 305 M triples: the largest hand of a
canonical triple is the largest of its own suit orbit, so only the 169 such hands are tried
first, and a candidate is kept when no permutation raises its code (its weight is 24 over
the permutations that fix it).

Each triple's counts are the players' pots by number of winners (:mod:`.scoring`): for
hand ``i`` of the code, ``shares[i, j]`` boards on which it is one of exactly ``j + 1``
winners, from the rank-multiset enumeration (:mod:`.ranksets`) with three players.

>>> codes, weights = canonical_triples()
>>> len(codes), int(weights.sum())
(13763646, 305377800)
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from ..core.cards import format_cards
from ..core.hand_classes import class_of
from ..evaluator.kernels import KEY_BASE, Tables, suited_bit
from .matchups import SUIT_PERMUTATIONS
from .ranksets import enumerate_by_ranks

SPECIFIC_TRIPLES = 305_377_800        # C(52,2) C(50,2) C(48,2) / 3!
BOARDS = 1_370_754                    # C(46, 5): boards of one three-way preflop deal
THREE_WAY_CLASSES = 13_763_646         # suit classes of triples (counted by canonical_triples)
CLASS_TRIPLES = 818_805               # C(171, 3): class triples c1 <= c2 <= c3, dealable or not


@njit(cache=True, nogil=True, inline="always")
def _hand(a: int, b: int) -> int:
    return (a << 6) | b if a > b else (b << 6) | a


@njit(cache=True, nogil=True, inline="always")
def _sorted3(x: int, y: int, z: int) -> int:
    if x < y:
        x, y = y, x
    if y < z:
        y, z = z, y
        if x < y:
            x, y = y, x
    return (x << 24) | (y << 12) | z


@njit(cache=True, nogil=True, inline="always")
def _image(h: int, p: np.ndarray) -> int:
    a, b = h >> 6, h & 63
    return _hand(4 * (a >> 2) + p[a & 3], 4 * (b >> 2) + p[b & 3])


@njit(cache=True, nogil=True)
def canonical_code(h1: int, h2: int, h3: int, perms: np.ndarray) -> int:
    """The largest code over the suit permutations of the triple of hand codes ``h1, h2, h3``."""
    best = 0
    for k in range(perms.shape[0]):
        p = perms[k]
        code = _sorted3(_image(h1, p), _image(h2, p), _image(h3, p))
        if code > best:
            best = code
    return best


@njit(cache=True, nogil=True)
def _canonical_members(perms: np.ndarray) -> tuple:
    hands = np.empty(1326, np.int64)
    n = 0
    for a in range(52):
        for b in range(a):
            hands[n] = (a << 6) | b
            n += 1
    hands = np.sort(hands)[::-1]
    codes = np.empty(14_000_000, np.int64)
    weights = np.empty(14_000_000, np.int64)
    m = 0
    for i in range(1326):
        h1 = hands[i]
        top = True                       # the largest hand of a canonical triple tops its own orbit
        for k in range(perms.shape[0]):
            if _image(h1, perms[k]) > h1:
                top = False
                break
        if not top:
            continue
        m1 = (np.int64(1) << (h1 >> 6)) | (np.int64(1) << (h1 & 63))
        for j in range(i + 1, 1326):
            h2 = hands[j]
            m2 = (np.int64(1) << (h2 >> 6)) | (np.int64(1) << (h2 & 63))
            if m1 & m2:
                continue
            for q in range(j + 1, 1326):
                h3 = hands[q]
                m3 = (np.int64(1) << (h3 >> 6)) | (np.int64(1) << (h3 & 63))
                if (m1 | m2) & m3:
                    continue
                own = (h1 << 24) | (h2 << 12) | h3
                fixed = 0
                beaten = False
                for k in range(perms.shape[0]):
                    p = perms[k]
                    code = _sorted3(_image(h1, p), _image(h2, p), _image(h3, p))
                    if code > own:
                        beaten = True
                        break
                    fixed += code == own
                if not beaten:
                    codes[m] = own
                    weights[m] = perms.shape[0] // fixed
                    m += 1
    return codes[:m], weights[:m]


@lru_cache(maxsize=1)
def canonical_triples() -> tuple[np.ndarray, np.ndarray]:
    """Canonical codes of the three-way classes (descending) and their weights (summing to
    305,377,800 specific triples); found once (about a minute) and kept in the disk cache."""
    from ..core.cache import cache_dir, load_or_build

    def build() -> dict:
        codes, weights = _canonical_members(SUIT_PERMUTATIONS)
        order = np.argsort(-codes, kind="stable")
        return {"codes": codes[order], "weights": weights[order]}

    got = load_or_build(cache_dir() / "triples-v1.npz", build, {"codes", "weights"})
    return got["codes"], got["weights"]


def decode(code: int) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The three hands of a triple code, each (high card, low card)."""
    hands = ((code >> 24) & 4095, (code >> 12) & 4095, code & 4095)
    return tuple((h >> 6, h & 63) for h in hands)   # type: ignore[return-value]


def format_triple(code: int) -> tuple[str, str, str]:
    """``('AsAh', 'AdAc', 'KsKh')``: the three hands of a triple code."""
    return tuple(format_cards(list(h)) for h in decode(code))   # type: ignore[return-value]


@njit(cache=True, nogil=True)
def count_triples(codes: np.ndarray, T: Tables) -> np.ndarray:
    """(n, 3, 3) pots by number of winners of each triple's three hands over all 1,370,754 boards."""
    out = np.zeros((codes.size, 3, 3), np.int64)
    keys = np.empty(3, np.uint64)
    suited = np.empty(3, np.uint64)
    live = np.empty(46, np.uint8)
    counts = np.zeros((3, 3), np.int64)
    for i in range(codes.size):
        used = np.int64(0)
        for p in range(3):
            h = (codes[i] >> (24 - 12 * p)) & 4095
            a, b = h >> 6, h & 63
            keys[p] = KEY_BASE + T.card_keys[a] + T.card_keys[b]
            suited[p] = suited_bit(a) | suited_bit(b)
            used |= (np.int64(1) << a) | (np.int64(1) << b)
        n = 0
        for c in range(52):
            if not (used >> c) & 1:
                live[n] = c
                n += 1
        counts[:] = 0
        enumerate_by_ranks(keys, suited, live, 5, counts, T)
        out[i] = counts
    return out


def class_triple_index() -> np.ndarray:
    """(169, 169, 169) int64: the row of class triple ``c1 <= c2 <= c3`` among the 818,805 in
    lexicographic order (-1 where the indices are not sorted)."""
    index = np.full((169, 169, 169), -1, np.int64)
    c1, c2, c3 = np.meshgrid(np.arange(169), np.arange(169), np.arange(169), indexing="ij")
    ok = (c1 <= c2) & (c2 <= c3)
    index[ok] = np.arange(int(ok.sum()))
    return index


@njit(cache=True, nogil=True)
def _class_sums(codes: np.ndarray, weights: np.ndarray, shares: np.ndarray, index: np.ndarray,
                combos: np.ndarray, sums: np.ndarray) -> None:
    """Add each triple's weight and counts to its class triple (sorted class indices), once per
    assignment of its hands to the class-sorted players."""
    perms = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    cls = np.empty(3, np.int64)
    for i in range(codes.size):
        for p in range(3):
            h = (codes[i] >> (24 - 12 * p)) & 4095
            cls[p] = class_of(h >> 6, h & 63)
        order = np.argsort(cls)
        c1, c2, c3 = cls[order[0]], cls[order[1]], cls[order[2]]
        row = index[c1, c2, c3]
        for k in range(6):
            s = perms[k]            # player q holds hand s[q]
            if cls[s[0]] != c1 or cls[s[1]] != c2 or cls[s[2]] != c3:
                continue
            combos[row] += weights[i]
            for q in range(3):
                for j in range(3):
                    sums[row, q, j] += weights[i] * shares[i, s[q], j]


def add_class_triples(codes: np.ndarray, weights: np.ndarray, shares: np.ndarray, index: np.ndarray,
                      combos: np.ndarray, sums: np.ndarray) -> None:
    """Add triples (``codes``, ``weights``, ``shares`` (n, 3, 3)) to the class-triple totals
    ``combos`` (818805,) and ``sums`` (818805, 3, 3), rows by ``index`` (:func:`class_triple_index`)."""
    _class_sums(np.asarray(codes, np.int64), np.asarray(weights, np.int64), np.asarray(shares, np.int64),
                index, combos, sums)


def class_triples(codes: np.ndarray, weights: np.ndarray, shares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(combos (818805,), sums (818805, 3, 3))`` per class triple ``c1 <= c2 <= c3`` (indices of
    :data:`pipeline.core.hand_classes.CLASS_LABELS`, rows by :func:`class_triple_index`): the
    specific deals of class ``c1`` to player 1, ``c2`` to player 2 and ``c3`` to player 3, and
    each player's pots by number of winners summed over them, from the triples' ``codes``,
    ``weights`` and ``shares`` (n, 3, 3)."""
    combos = np.zeros(CLASS_TRIPLES, np.int64)
    sums = np.zeros((CLASS_TRIPLES, 3, 3), np.int64)
    add_class_triples(codes, weights, shares, class_triple_index(), combos, sums)
    return combos, sums


@njit(cache=True, nogil=True)
def _table_sum(classes: np.ndarray, weights: np.ndarray, offsets: np.ndarray, index: np.ndarray,
               combos: np.ndarray, sums: np.ndarray, counts: np.ndarray, wcounts: np.ndarray) -> tuple:
    """Sum the class-triple rows over every choice of one class per player (``classes[offsets[p]:
    offsets[p+1]]`` with weights), each row's players mapped back to the callers' seats."""
    boards = 0
    wboards = 0.0
    cls = np.empty(3, np.int64)
    for i in range(offsets[0], offsets[1]):
        for j in range(offsets[1], offsets[2]):
            for k in range(offsets[2], offsets[3]):
                cls[0], cls[1], cls[2] = classes[i], classes[j], classes[k]
                w = weights[i] * weights[j] * weights[k]
                order = np.argsort(cls, kind="mergesort")     # seat order[q] holds the q-th smallest class
                row = index[cls[order[0]], cls[order[1]], cls[order[2]]]
                n = combos[row]
                if n == 0:
                    continue
                boards += n * BOARDS
                wboards += w * n * BOARDS
                for q in range(3):
                    for s in range(3):
                        counts[order[q], s] += sums[row, q, s]
                        wcounts[order[q], s] += w * sums[row, q, s]
    return boards, wboards


class ThreeWayTable:
    """Exact three-way preflop counts per class triple (the ``preflop-3way`` dataset's integers),
    summed on request for three ranges made of whole classes.

    ``combos`` (818805,) and ``sums`` (818805, 3, 3) as :func:`class_triples` gives them, from
    every triple (a table summed from a limited ``matchups-3way`` is partial: its readers refuse it)."""

    def __init__(self, combos: np.ndarray, sums: np.ndarray) -> None:
        self.combos = np.ascontiguousarray(combos, np.int64)
        self.sums = np.ascontiguousarray(sums, np.int64)
        self.index = class_triple_index()

    def counts(self, classes: list[np.ndarray], weights: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, int, float]:
        """``(counts (3, 3), weighted counts (3, 3), boards, weighted boards)`` of three players, each
        a set of class indices with a weight per class: as the exact enumeration would count them."""
        counts = np.zeros((3, 3), np.int64)
        wcounts = np.zeros((3, 3), np.float64)
        offsets = np.cumsum([0] + [len(c) for c in classes]).astype(np.int64)
        boards, wboards = _table_sum(np.concatenate(classes).astype(np.int64),
                                     np.concatenate(weights).astype(np.float64), offsets, self.index,
                                     self.combos, self.sums, counts, wcounts)
        return counts, wcounts, int(boards), float(wboards)

