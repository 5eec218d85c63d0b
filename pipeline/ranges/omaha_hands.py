"""Every k-card Omaha hand at once: the deck of hands a range is cut from, its suit shapes and class labels.

A range of :mod:`.omaha` is a set of hands, held as a boolean row over *all*
C(52, k) hands (270,725 of four cards; 2,598,960 of five; 20,358,520 of six),
so that ``,``, ``:`` and ``!`` are ``|``, ``&`` and ``& ~`` of two rows.  The
hands (:func:`all_hands`) are listed in colex order — ascending by 64-bit card
mask, the order ranges have always been listed in — so hand ``i``'s row index is
its colex rank ``C(c0, 1) + C(c1, 2) + ... + C(c[k-1], k)`` (:func:`colex_ranks`).

A hand's **class label** (:func:`class_labels`, the ``omaha_class`` column of the
Omaha tables) is the notation players write: the ranks high to low, then the
hand's suit shape (the sizes of its suit groups, largest first):

=========  ==========  ===================================================
shape      suffix      4 cards (5 cards: the same names, one more card)
=========  ==========  ===================================================
1-1-1-1    ``r``       rainbow: ``AKQJr`` (five cards cannot be rainbow)
2-1-1(-1)  ``ss``      single suited: exactly one suit holds two cards
2-2(-1)    ``ds``      double suited: exactly two suits hold two cards each
2-2-2      ``tds``     (six cards) three suits of two
3-1(-1)    ``ts``      three of one suit, the others of different suits
3-2        ``dts``     (five cards) three of one suit and two of another
4(-1)      ``qs``      four of one suit (``ms`` when that is every card)
k          ``ms``      monotone: every card of one suit
=========  ==========  ===================================================

Any other shape (six cards only) is written ``s`` and its group sizes, e.g.
``s42``.  A label names a rank multiset and a suit shape, so it stands for one or
more of the 16,432 suit classes of :mod:`pipeline.omaha.classes`: ``AAKKds`` is
one class (AsKs AhKh), ``AKQJds`` three (which card each suit pairs with).

>>> h = all_hands(4)
>>> len(h), h[0].tolist(), h[-1].tolist()
(270725, [0, 1, 2, 3], [48, 49, 50, 51])
>>> class_labels(np.array([[51, 50, 47, 46], [24, 25, 20, 22], [51, 46, 41, 36], [51, 47, 43, 39]])).tolist()
['AAKKds', '8877ss', 'AKQJr', 'AKQJms']
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import permutations

import numpy as np
from numba import njit

SHAPE_SUFFIX = {(1, 1, 1, 1): "r", (2, 1, 1): "ss", (2, 1, 1, 1): "ss", (2, 2): "ds", (2, 2, 1): "ds",
                (2, 2, 1, 1): "ds", (2, 2, 2): "tds", (3, 1): "ts", (3, 1, 1): "ts", (3, 1, 1, 1): "ts",
                (3, 2): "dts", (3, 2, 1): "dts", (4, 1): "qs", (4, 1, 1): "qs",
                (4,): "ms", (5,): "ms", (6,): "ms"}
SUFFIXES = ("r", "rb", "ss", "ds", "tds", "ts", "dts", "qs", "ms", "mt")   # rb, mt: other tools' names
ALIASES = {"rb": "r", "mt": "ms"}
_RANK_CHARS = np.array(list("23456789TJQKA"))


def shape_suffix(shape: tuple[int, ...]) -> str:
    """The label suffix of a suit shape (group sizes, largest first), e.g. ``(2, 2)`` -> ``ds``."""
    return SHAPE_SUFFIX.get(shape, "s" + "".join(map(str, shape)))


@njit(cache=True, nogil=True)
def _fill_colex(out: np.ndarray) -> None:
    """Every k-subset of 0..51 in colex order (ascending by card mask), one sorted row each."""
    n, k = out.shape
    row = np.arange(k)
    for i in range(n):
        out[i, :] = row
        j = 0                      # the next subset: raise the first card that can rise
        while j < k - 1 and row[j] + 1 == row[j + 1]:
            j += 1
        row[j] += 1
        for t in range(j):
            row[t] = t


@lru_cache(maxsize=3)
def all_hands(k: int) -> np.ndarray:
    """Every k-card hand, (C(52, k), k) int8 card ids ascending within a row, rows ascending by card mask."""
    out = np.empty((math.comb(52, k), k), np.int8)
    _fill_colex(out)
    out.setflags(write=False)
    return out


def colex_ranks(hands: np.ndarray) -> np.ndarray:
    """Row index in :func:`all_hands` of each hand (n, k) of ascending card ids."""
    k = hands.shape[1]
    binom = np.array([[math.comb(n, r) for r in range(k + 1)] for n in range(52)], np.int64)
    return sum(binom[hands[:, i].astype(np.int64), i + 1] for i in range(k))


@njit(cache=True, nogil=True)
def _keys(hands: np.ndarray, rank_key: np.ndarray, shape: np.ndarray, most: np.ndarray) -> None:
    """Per hand: its rank multiset as a base-5 number, its suit shape code and its largest rank count."""
    for i in range(hands.shape[0]):
        rc = np.zeros(13, np.int64)
        sc = np.zeros(4, np.int64)
        key = 0
        for j in range(hands.shape[1]):
            c = np.int64(hands[i, j])
            rc[c >> 2] += 1
            sc[c & 3] += 1
        m = 0
        for r in range(13):
            key = key * 5 + rc[12 - r]
            m = max(m, rc[r])
        sc.sort()
        rank_key[i] = key
        shape[i] = sc[3] * 1000 + sc[2] * 100 + sc[1] * 10 + sc[0]
        most[i] = m


def hand_keys(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rank_key, shape_code, most)`` of each hand (n, k): its ranks as a base-5 number (A's count the
    highest digit), its suit shape (group sizes largest first, as decimal digits: ``22`` is ds) and the
    most cards it holds of one rank."""
    hands = np.ascontiguousarray(hands)
    n = len(hands)
    out = (np.empty(n, np.int64), np.empty(n, np.int16), np.empty(n, np.int8))
    if n:
        _keys(hands, *out)
    return out


@lru_cache(maxsize=2)
def deck_keys(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`hand_keys` of :func:`all_hands` (kept for four and five cards; six-card hands are recomputed)."""
    return hand_keys(all_hands(k))


def keys_of(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return deck_keys(k) if k < 6 else hand_keys(all_hands(k))


def rank_key(ranks: list[int]) -> int:
    """The :func:`hand_keys` rank key of a rank multiset."""
    counts = np.bincount(np.array(ranks, np.int64), minlength=13)
    key = 0
    for r in range(12, -1, -1):
        key = key * 5 + int(counts[r])
    return key


def shape_of_code(code: int) -> tuple[int, ...]:
    """The group sizes of a shape code."""
    return tuple(d for d in (code // 1000, code // 100 % 10, code // 10 % 10, code % 10) if d)


def shape_codes_named(suffix: str) -> list[int]:
    """The shape codes whose label suffix is ``suffix`` (aliases ``rb``, ``mt`` allowed)."""
    suffix = ALIASES.get(suffix, suffix)
    codes = [a * 1000 + b * 100 + c * 10 + d for a in range(7) for b in range(a + 1) for c in range(b + 1)
             for d in range(c + 1) if 0 < a + b + c + d <= 6]
    return [c for c in codes if shape_suffix(shape_of_code(c)) == suffix]


def class_labels(hands: np.ndarray) -> np.ndarray:
    """The class label (module doc) of each hand (n, k) of card ids, as a string array."""
    hands = np.asarray(hands)
    if len(hands) == 0:
        return np.zeros(0, "<U12")
    ranks = -np.sort(-(hands // 4), axis=1)
    words = ["".join(row) for row in _RANK_CHARS[ranks]]
    _, codes, _ = hand_keys(hands.astype(np.int64))
    names = {int(c): shape_suffix(shape_of_code(int(c))) for c in np.unique(codes)}
    return np.array([w + names[int(c)] for w, c in zip(words, codes.tolist())])


def label_mask(k: int, ranks: list[int], suffix: str) -> np.ndarray:
    """Row of :func:`all_hands` (bool) of the hands whose label is ``ranks`` (high to low) plus ``suffix``."""
    keys, codes, _ = keys_of(k)
    return (keys == rank_key(ranks)) & np.isin(codes, shape_codes_named(suffix))


def canonical_masks(hands: np.ndarray) -> np.ndarray:
    """The smallest card mask over the 24 suit permutations of each hand (n, k) of card ids: the key of
    its suit class (:mod:`pipeline.omaha.classes`)."""
    hands = np.asarray(hands, np.int64)
    ranks, suits = hands >> 2, hands & 3
    best = None
    for perm in permutations(range(4)):
        mapped = (ranks << 2) | np.array(perm, np.int64)[suits]
        m = np.bitwise_or.reduce(np.uint64(1) << mapped.astype(np.uint64), axis=1)
        best = m if best is None else np.minimum(best, m)
    assert best is not None
    return best


@njit(cache=True, nogil=True)
def match_items(hands: np.ndarray, masks: np.ndarray, rvar: np.ndarray, svar: np.ndarray, group: np.ndarray,
                out: np.ndarray) -> None:
    """``out[i] = True`` where the items can be matched one to one to cards of hand ``i`` (depth-first search).

    Item ``d`` takes a card of ``masks[d]`` (a 52-bit set); items sharing a rank variable
    ``rvar[d] >= 0`` take one rank, different variables different ranks (likewise suits and
    ``svar``); items of one no-pair group ``group[d] >= 0`` take different ranks.
    """
    n, k = hands.shape
    m = masks.size
    pos = np.empty(m, np.int64)
    set_r = np.zeros(m, np.bool_)
    set_s = np.zeros(m, np.bool_)
    rbound = np.full(16, -1, np.int64)
    sbound = np.full(8, -1, np.int64)
    used = np.zeros(k, np.bool_)
    for i in range(n):
        if m == 0:
            out[i] = True
            continue
        rbound[:] = -1
        sbound[:] = -1
        used[:] = False
        d = 0
        pos[0] = -1
        found = False
        while d >= 0:
            p = pos[d] + 1
            ok = False
            while p < k:
                if not used[p]:
                    c = np.int64(hands[i, p])
                    r, s = c >> 2, c & 3
                    ok = (masks[d] >> np.uint64(c)) & np.uint64(1) == np.uint64(1)
                    v = rvar[d]
                    if ok and v >= 0:
                        if rbound[v] >= 0:
                            ok = rbound[v] == r
                        else:
                            for u in range(16):
                                if rbound[u] == r:
                                    ok = False
                    v = svar[d]
                    if ok and v >= 0:
                        if sbound[v] >= 0:
                            ok = sbound[v] == s
                        else:
                            for u in range(8):
                                if sbound[u] == s:
                                    ok = False
                    if ok and group[d] >= 0:
                        for e in range(d):
                            if group[e] == group[d] and np.int64(hands[i, pos[e]]) >> 2 == r:
                                ok = False
                    if ok:
                        break
                p += 1
            if ok:
                pos[d] = p
                used[p] = True
                c = np.int64(hands[i, p])
                set_r[d] = rvar[d] >= 0 and rbound[rvar[d]] < 0
                if set_r[d]:
                    rbound[rvar[d]] = c >> 2
                set_s[d] = svar[d] >= 0 and sbound[svar[d]] < 0
                if set_s[d]:
                    sbound[svar[d]] = c & 3
                if d == m - 1:
                    found = True
                    break
                d += 1
                pos[d] = -1
            else:
                d -= 1
                if d >= 0:          # take back item d's card and the variables it bound
                    used[pos[d]] = False
                    if set_r[d]:
                        rbound[rvar[d]] = -1
                    if set_s[d]:
                        sbound[svar[d]] = -1
        out[i] = found
