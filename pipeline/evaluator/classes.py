"""The 7,462 equivalence classes of five-card poker hands and their int values (1,404 of the short deck's).

A hand value is ``category << 12 | index``: ``category`` is 0 (high card) .. 8
(straight flush) and ``index`` the class's place among its category's classes,
0 for the weakest.  Higher values win; equal values split; ``value >> 12`` is the
category.  Every class is named by its *tiebreak*: the ranks (0..12 = 2..A)
that decide it, most significant first — e.g. two pair ``(7, 6, 12)`` is nines
and eights with an ace kicker, a straight ``(3,)`` is the wheel (five high).

Every function takes a :class:`~.decks.Deck` (the 52-card one by default): its
classes use only its ranks, its lowest straight is the ace and its four lowest
ranks, and a value is ``tier << 12 | index`` with ``tier`` the category's place
in the deck's order — the category itself on 52 cards; on the short deck a flush
(tier 6) beats a full house (tier 5).

This module is plain Python: it defines the classes, builds the value of a rank
multiset or of a suited rank set, and describes values in PokerStars' words.

>>> from .decks import SHORT_DECK
>>> len(class_tables()[1]), len(class_tables(SHORT_DECK)[1])
(7462, 1404)
>>> describe_value(value_of_class((STRAIGHT, (7,)), SHORT_DECK), SHORT_DECK)
'a straight, Ace to Nine'
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..core.cards import RANK_NAMES, RANK_PLURALS
from .decks import STANDARD, Deck

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")
CATEGORY_SHIFT = 12


@lru_cache(maxsize=None)
def straights(deck: Deck = STANDARD) -> tuple[tuple[int, int], ...]:
    """The deck's straights, highest first: ``(top, rank mask)``, ``top`` the rank of the highest card; the
    lowest straight, the ace playing low, tops at :attr:`~.decks.Deck.wheel_top` (A-2-3-4-5 at the five,
    A-6-7-8-9 at the nine)."""
    low = deck.low_rank
    return tuple((top, (0b11111 << (top - 4)) if top > deck.wheel_top else (1 << 12) | (0b1111 << low))
                 for top in range(12, deck.wheel_top - 1, -1))


STRAIGHTS = straights()      # the 52-card deck's, the wheel A-2-3-4-5 topping at 5 (rank 3)


def _straight_top(rank_mask: int, deck: Deck = STANDARD) -> int:
    """Rank of the highest straight's top card in a 13-bit rank mask, or -1."""
    for top, m in straights(deck):
        if rank_mask & m == m:
            return top
    return -1


@lru_cache(maxsize=None)
def class_tables(deck: Deck = STANDARD) -> tuple[dict[tuple[int, tuple[int, ...]], int],
                                                 list[tuple[int, tuple[int, ...]]]]:
    """All classes of the deck (7,462 of 52 cards): ``(category, tiebreak) -> value`` and ``value-sorted list``."""
    by_cat: list[list[tuple[int, ...]]] = [[] for _ in range(9)]
    ranks_down = range(12, deck.low_rank - 1, -1)
    for ranks in combinations(ranks_down, 5):
        mask = sum(1 << r for r in ranks)
        top = _straight_top(mask, deck)
        if top >= 0:
            by_cat[STRAIGHT].append((top,))
            by_cat[STRAIGHT_FLUSH].append((top,))
        else:
            by_cat[HIGH_CARD].append(ranks)
            by_cat[FLUSH].append(ranks)
    for p in ranks_down:
        others = [r for r in ranks_down if r != p]
        for ks in combinations(others, 3):
            by_cat[PAIR].append((p,) + ks)
        for k in others:
            by_cat[FOUR_OF_A_KIND].append((p, k))
            by_cat[FULL_HOUSE].append((p, k))
        for kickers in combinations(others, 2):
            by_cat[THREE_OF_A_KIND].append((p,) + kickers)
    for p1, p2 in combinations(ranks_down, 2):
        for k in ranks_down:
            if k not in (p1, p2):
                by_cat[TWO_PAIR].append((p1, p2, k))
    value_of: dict[tuple[int, tuple[int, ...]], int] = {}
    for cat, tbs in enumerate(by_cat):
        for i, tb in enumerate(sorted(tbs)):
            value_of[(cat, tb)] = deck.tier(cat) << CATEGORY_SHIFT | i
    ordered = sorted(value_of, key=value_of.__getitem__)
    return value_of, ordered


def rank_multiset_class(counts: list[int], deck: Deck = STANDARD) -> tuple[int, tuple[int, ...]]:
    """Best non-flush class of 5..7 cards given as counts per rank (index 0..12): of the classes the ranks
    make in each category, the one whose category the deck ranks highest (a weaker category's tiebreak may
    lack a kicker: it never wins)."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    trips = [r for r in present if counts[r] >= 3]
    pairs = [r for r in present if counts[r] >= 2]
    made = [(HIGH_CARD, tuple(present[:5]))]
    if quads:
        q = quads[0]
        made.append((FOUR_OF_A_KIND, (q, next(r for r in present if r != q))))
    if trips:
        t = trips[0]
        rest = [r for r in pairs if r != t]
        if rest:
            made.append((FULL_HOUSE, (t, rest[0])))
        made.append((THREE_OF_A_KIND, (t,) + tuple(r for r in present if r != t)[:2]))
    top = _straight_top(sum(1 << r for r in present), deck)
    if top >= 0:
        made.append((STRAIGHT, (top,)))
    if len(pairs) >= 2:
        p1, p2 = pairs[:2]
        made.append((TWO_PAIR, (p1, p2, next((r for r in present if r not in (p1, p2)), -1))))
    if pairs:
        p = pairs[0]
        made.append((PAIR, (p,) + tuple(r for r in present if r != p)[:3]))
    return max(made, key=lambda cls: deck.tier(cls[0]))


def suited_class(rank_mask: int, deck: Deck = STANDARD) -> tuple[int, tuple[int, ...]]:
    """Best class of five or more cards of one suit given as a 13-bit rank mask."""
    top = _straight_top(rank_mask, deck)
    if top >= 0:
        return STRAIGHT_FLUSH, (top,)
    return FLUSH, tuple(r for r in range(12, -1, -1) if rank_mask >> r & 1)[:5]


def value_of_class(cls: tuple[int, tuple[int, ...]], deck: Deck = STANDARD) -> int:
    """Int value of a ``(category, tiebreak)`` class."""
    return class_tables(deck)[0][cls]


def class_of_value(value: int, deck: Deck = STANDARD) -> tuple[int, tuple[int, ...]]:
    """``(category, tiebreak)`` of a hand value."""
    tier, idx = value >> CATEGORY_SHIFT, value & ((1 << CATEGORY_SHIFT) - 1)
    ordered = class_tables(deck)[1]
    pos = _tier_start(deck)[tier] + idx if 0 <= tier <= STRAIGHT_FLUSH else -1
    if not 0 <= pos < len(ordered) or deck.tier(ordered[pos][0]) != tier:
        raise ValueError(f"{value} is not a hand value")
    cls = ordered[pos]
    return cls


@lru_cache(maxsize=None)
def _tier_start(deck: Deck) -> list[int]:
    ordered = class_tables(deck)[1]
    starts = [0] * 10
    for cat, _ in ordered:
        starts[deck.tier(cat) + 1] += 1
    for i in range(1, 10):
        starts[i] += starts[i - 1]
    return starts


def _straight_words(top: int, deck: Deck = STANDARD) -> str:
    low = 12 if top == deck.wheel_top else top - 4
    return f"{RANK_NAMES[low]} to {RANK_NAMES[top]}"


_WORDS = ("high card {n0}", "a pair of {p0}", "two pair, {p0} and {p1}", "three of a kind, {p0}", "a straight, {run}",
          "a flush, {n0} high", "a full house, {p0} full of {p1}", "four of a kind, {p0}", "a straight flush, {run}")


def describe_value(value: int, deck: Deck = STANDARD) -> str:
    """PokerStars' words for a hand value: ``'two pair, Nines and Eights'``."""
    cat, tb = class_of_value(int(value), deck)
    if cat == STRAIGHT_FLUSH and tb[0] == 12:
        return "a Royal Flush"
    return _WORDS[cat].format(n0=RANK_NAMES[tb[0]], p0=RANK_PLURALS[tb[0]],
                              p1=RANK_PLURALS[tb[1]] if len(tb) > 1 else "", run=_straight_words(tb[0], deck))
