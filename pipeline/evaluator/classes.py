"""The 7,462 equivalence classes of five-card poker hands and their int values.

A hand value is ``category << 12 | index``: ``category`` is 0 (high card) .. 8
(straight flush) and ``index`` the class's place among its category's classes,
0 for the weakest.  Higher values win; equal values split; ``value >> 12`` is the
category.  Every class is named by its *tiebreak*: the ranks (0..12 = 2..A)
that decide it, most significant first — e.g. two pair ``(7, 6, 12)`` is nines
and eights with an ace kicker, a straight ``(3,)`` is the wheel (five high).

This module is plain Python: it defines the classes, builds the value of a rank
multiset or of a suited rank set, and describes values in PokerStars' words.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..core.cards import RANK_NAMES, RANK_PLURALS

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")
CATEGORY_SHIFT = 12

# straight tops (rank of the highest card) and their rank masks; the wheel A-2-3-4-5 tops at 5 (rank 3)
STRAIGHTS = tuple((top, (0b11111 << (top - 4)) if top >= 4 else 0b1000000001111) for top in range(12, 2, -1))


def _straight_top(rank_mask: int) -> int:
    """Rank of the highest straight's top card in a 13-bit rank mask, or -1."""
    for top, m in STRAIGHTS:
        if rank_mask & m == m:
            return top
    return -1


@lru_cache(maxsize=1)
def class_tables() -> tuple[dict[tuple[int, tuple[int, ...]], int], list[tuple[int, tuple[int, ...]]]]:
    """All 7,462 classes: ``(category, tiebreak) -> value`` and ``value-sorted list``."""
    by_cat: list[list[tuple[int, ...]]] = [[] for _ in range(9)]
    for ranks in combinations(range(12, -1, -1), 5):
        mask = sum(1 << r for r in ranks)
        top = _straight_top(mask)
        if top >= 0:
            by_cat[STRAIGHT].append((top,))
            by_cat[STRAIGHT_FLUSH].append((top,))
        else:
            by_cat[HIGH_CARD].append(ranks)
            by_cat[FLUSH].append(ranks)
    for p in range(13):
        others = [r for r in range(12, -1, -1) if r != p]
        for ks in combinations(others, 3):
            by_cat[PAIR].append((p,) + ks)
        for k in others:
            by_cat[FOUR_OF_A_KIND].append((p, k))
            by_cat[FULL_HOUSE].append((p, k))
        for kickers in combinations(others, 2):
            by_cat[THREE_OF_A_KIND].append((p,) + kickers)
    for p1, p2 in combinations(range(12, -1, -1), 2):
        for k in range(13):
            if k not in (p1, p2):
                by_cat[TWO_PAIR].append((p1, p2, k))
    value_of: dict[tuple[int, tuple[int, ...]], int] = {}
    for cat, tbs in enumerate(by_cat):
        for i, tb in enumerate(sorted(tbs)):
            value_of[(cat, tb)] = cat << CATEGORY_SHIFT | i
    ordered = sorted(value_of, key=value_of.__getitem__)
    return value_of, ordered


def rank_multiset_class(counts: list[int]) -> tuple[int, tuple[int, ...]]:
    """Best non-flush class of 5..7 cards given as counts per rank (index 0..12)."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    trips = [r for r in present if counts[r] >= 3]
    pairs = [r for r in present if counts[r] >= 2]
    if quads:
        q = quads[0]
        return FOUR_OF_A_KIND, (q, next(r for r in present if r != q))
    if trips:
        t = trips[0]
        rest = [r for r in pairs if r != t]
        if rest:
            return FULL_HOUSE, (t, rest[0])
    top = _straight_top(sum(1 << r for r in present))
    if top >= 0:
        return STRAIGHT, (top,)
    if trips:
        t = trips[0]
        return THREE_OF_A_KIND, (t,) + tuple(r for r in present if r != t)[:2]
    if len(pairs) >= 2:
        p1, p2 = pairs[:2]
        return TWO_PAIR, (p1, p2, next(r for r in present if r not in (p1, p2)))
    if pairs:
        p = pairs[0]
        return PAIR, (p,) + tuple(r for r in present if r != p)[:3]
    return HIGH_CARD, tuple(present[:5])


def suited_class(rank_mask: int) -> tuple[int, tuple[int, ...]]:
    """Best class of five or more cards of one suit given as a 13-bit rank mask."""
    top = _straight_top(rank_mask)
    if top >= 0:
        return STRAIGHT_FLUSH, (top,)
    return FLUSH, tuple(r for r in range(12, -1, -1) if rank_mask >> r & 1)[:5]


def value_of_class(cls: tuple[int, tuple[int, ...]]) -> int:
    """Int value of a ``(category, tiebreak)`` class."""
    return class_tables()[0][cls]


def class_of_value(value: int) -> tuple[int, tuple[int, ...]]:
    """``(category, tiebreak)`` of a hand value."""
    cat, idx = value >> CATEGORY_SHIFT, value & ((1 << CATEGORY_SHIFT) - 1)
    ordered = class_tables()[1]
    pos = _category_start()[cat] + idx if 0 <= cat <= STRAIGHT_FLUSH else -1
    if not 0 <= pos < len(ordered) or ordered[pos][0] != cat:
        raise ValueError(f"{value} is not a hand value")
    cls = ordered[pos]
    return cls


@lru_cache(maxsize=1)
def _category_start() -> list[int]:
    ordered = class_tables()[1]
    starts = [0] * 10
    for cat, _ in ordered:
        starts[cat + 1] += 1
    for i in range(1, 10):
        starts[i] += starts[i - 1]
    return starts


def _straight_words(top: int) -> str:
    low = 12 if top == 3 else top - 4
    return f"{RANK_NAMES[low]} to {RANK_NAMES[top]}"


_WORDS = ("high card {n0}", "a pair of {p0}", "two pair, {p0} and {p1}", "three of a kind, {p0}", "a straight, {run}",
          "a flush, {n0} high", "a full house, {p0} full of {p1}", "four of a kind, {p0}", "a straight flush, {run}")


def describe_value(value: int) -> str:
    """PokerStars' words for a hand value: ``'two pair, Nines and Eights'``."""
    cat, tb = class_of_value(int(value))
    if cat == STRAIGHT_FLUSH and tb[0] == 12:
        return "a Royal Flush"
    return _WORDS[cat].format(n0=RANK_NAMES[tb[0]], p0=RANK_PLURALS[tb[0]],
                              p1=RANK_PLURALS[tb[1]] if len(tb) > 1 else "", run=_straight_words(tb[0]))
