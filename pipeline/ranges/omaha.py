"""Omaha hand ranges in the notation Omaha players type (ProPokerTools' patterns).

A range is a comma-separated list of parts, each optionally weighted with ``:w``
(as hold'em ranges, :func:`.syntax.split_weight`).  A part names hands of exactly
*k* cards (4 in Omaha, 5 and 6 in its five- and six-card forms):

==============  ================================================================
``AsKsQdJd``    one specific hand
``random``      any k cards (also ``any``; the deck, dealt, never listed)
``AAxx``        a pattern of k items: a rank (``A``), a card (``As``) or a wildcard
                (``x`` or ``*``, any card): the hands whose cards can be matched
                one to one with the items — ``AAxx`` holds two aces or more
``AKQJ``        every item a rank: those ranks exactly
``AsKs**``      specific cards with wildcards (six-card Omaha)
``AAKKds``      a trailing suit qualifier over the whole hand: ``ds`` double suited
                (two suits of exactly two cards, none of more), ``ss`` single suited
                (one suit of exactly two, none of more), ``r`` rainbow (no two cards
                of a suit); ``$ds``, ``$ss``, ``$r`` as ProPokerTools writes them
==============  ================================================================

A later part overrides an earlier one's weight for the hands they share; hands
are listed ascending by card id, one row each.  Hold'em notation (``AKs``,
``QQ+``, two-card hands) is refused with a line saying so, as is a pattern with
the wrong number of items.

>>> len(parse_omaha_range("AAxx")), len(parse_omaha_range("AAKKds")), len(parse_omaha_range("AKQJr"))
(6961, 6, 24)
>>> r = parse_omaha_range("AsKsQdJd, AAxx:0.5")
>>> len(r), float(r.weights.min())
(6962, 0.5)
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from itertools import chain, combinations, product

import numpy as np

from ..core.cards import RANKS, SUITS, CardError, check_ascii, format_cards
from .syntax import Range, split_weight

RANDOM_WORDS = ("random", "any")
QUALIFIERS = {"ds": "double suited", "ss": "single suited", "r": "rainbow"}
_ITEM = re.compile(r"([2-9TJQKA])([cdhs]?)|([xX*])")
_HOLDEM = re.compile(r"[2-9TJQKA]{2}[so]?[+-]?|[2-9TJQKA]{2}[so]?-[2-9TJQKA]{2}[so]?", re.IGNORECASE)


def is_random(text: str, k: int | None = None) -> bool:
    """Whether ``text`` is the whole deck (``random``/``any``, or one all-wildcard pattern of ``k`` items:
    ``xxxxx`` is not a 4-card hand, every item counts, wildcards too)."""
    t = text.strip().lower()
    return t in RANDOM_WORDS or (bool(t) and set(t) <= {"x", "*"} and (k is None or len(t) == k))


def _items(pattern: str, part: str, k: int) -> list[tuple[int, int]]:
    """``(rank, suit)`` items of a pattern, -1 for a wildcard's rank or a rank's suit."""
    items, pos = [], 0
    while pos < len(pattern):
        m = _ITEM.match(pattern, pos)
        if not m:
            raise CardError(f"cannot read Omaha range part {part!r} at {pattern[pos:]!r}: items are ranks "
                            "(A, K, ... 2), cards (As) or wildcards (x, *), then optionally ds, ss or r")
        if m[3]:
            items.append((-1, -1))
        else:
            items.append((RANKS.index(m[1]), SUITS.index(m[2]) if m[2] else -1))
        pos = m.end()
    if len(items) != k:
        hint = " (hold'em notation?)" if len(items) == 2 else ""
        raise CardError(f"Omaha range part {part if len(part) <= 40 else part[:37] + '...'!r} has {len(items)} "
                        f"cards{hint}; a hand of this game holds {k} "
                        f"(write wildcards out: {'AA' + 'x' * (k - 2)} for any hand with two aces)")
    return items


def _qualifier(part: str) -> tuple[str, str]:
    """``(pattern, qualifier)``: a trailing ``ds``/``ss``/``r`` (``$`` optional) split off."""
    for q in ("ds", "ss", "r"):
        for suffix in ("$" + q, q):
            if part.endswith(suffix) and len(part) > len(suffix):
                return part[:-len(suffix)], q
    return part, ""


def _suit_ok(hands: np.ndarray, qualifier: str) -> np.ndarray:
    counts = np.stack([np.count_nonzero(hands % 4 == s, axis=1) for s in range(4)], axis=1)
    twos = np.count_nonzero(counts == 2, axis=1)
    most = counts.max(axis=1)
    if qualifier == "ds":
        return (twos == 2) & (most == 2)
    if qualifier == "ss":
        return (twos == 1) & (most == 2)
    return most == 1


def _pattern_hands(items: list[tuple[int, int]], k: int, part: str) -> np.ndarray:
    """Every k-card hand matching the items, as a sorted array of 64-bit card masks."""
    cards = [4 * r + s for r, s in items if s >= 0]
    if len(set(cards)) != len(cards):
        raise CardError(f"duplicate card {format_cards([c for c in cards if cards.count(c) > 1][:1])} in {part!r}")
    fixed = sum(1 << c for c in cards)
    ranks = [r for r, s in items if r >= 0 and s < 0]
    wild = sum(1 for r, _ in items if r < 0)
    choices = [[4 * r + s for s in range(4) if not fixed >> (4 * r + s) & 1] for r in ranks]
    masks: set[int] = set()
    for pick in product(*choices):
        m = fixed
        for c in pick:
            if m >> c & 1:
                break
            m |= 1 << c
        else:
            if m.bit_count() == k - wild:
                masks.add(m)
    if not masks:
        return np.zeros(0, np.uint64)
    base = np.array(sorted(masks), np.uint64)
    if wild == 0:
        return base
    out = []
    for m in base.tolist():
        rest = np.array([c for c in range(52) if not m >> c & 1], np.uint64)
        extra = choose(len(rest), wild)
        bits = np.bitwise_or.reduce(np.uint64(1) << rest[extra], axis=1)
        out.append(bits | np.uint64(m))
    return np.unique(np.concatenate(out))


@lru_cache(maxsize=8)
def choose(n: int, r: int) -> np.ndarray:
    """Every r-subset of 0..n-1, one row each (lexicographic), as int64."""
    flat = np.fromiter(chain.from_iterable(combinations(range(n), r)), np.int8, count=math.comb(n, r) * r)
    return flat.reshape(-1, r).astype(np.int64)


@lru_cache(maxsize=256)
def _part_hands(part: str, k: int) -> np.ndarray:
    """The sorted card masks a part names (cached: a range is parsed for every equity call)."""
    if _HOLDEM.fullmatch(part):
        raise CardError(f"{part!r} is hold'em notation; an Omaha range part names {k} cards, e.g. "
                        f"{'AA' + 'x' * (k - 2)}, AKQJ, AsKsQdJd or AAKKds")
    pattern, qualifier = _qualifier(part)
    items = _items(pattern, part, k)
    if qualifier == "r" and k > 4:
        raise CardError(f"{part!r}: a rainbow hand has at most 4 cards, this game's hold {k}")
    hands = _pattern_hands(items, k, part)
    if qualifier and len(hands):
        ok = _suit_ok(cards_of_masks(hands, k), qualifier)
        hands = hands[ok]
    return hands


def cards_of_masks(masks: np.ndarray, k: int) -> np.ndarray:
    """(n, k) card ids, ascending, of k-card masks."""
    bits = (masks[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)
    return np.nonzero(bits)[1].reshape(len(masks), k).astype(np.int64)


def parse_omaha_range(text: str, k: int = 4) -> Range:
    """Parse an Omaha range of k-card hands (see the module doc); one :class:`CardError` line on
    anything it cannot read or on a range that names no hand."""
    check_ascii(text, "range")
    if k not in (4, 5, 6):
        raise CardError(f"Omaha hands hold 4, 5 or 6 cards, not {k}")
    if not text or not text.strip():
        raise CardError("empty range")
    if is_random(text, k):
        raise CardError("random is the whole deck: deal it, do not list it (see is_random)")
    weights: dict[int, float] = {}
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            raise CardError(f"empty part in range {text!r}")
        part, weight = split_weight(part, text)
        if is_random(part, k):
            raise CardError(f"range {text!r}: random stands alone, not as a part of a union")
        hands = _part_hands(part, k)
        if len(hands) == 0:
            raise CardError(f"Omaha range part {part!r} matches no {k}-card hand")
        weights.update(dict.fromkeys(hands.tolist(), weight))
    kept = sorted(m for m, w in weights.items() if w > 0)
    if not kept:
        raise CardError(f"range {text!r} has no hand with a positive weight")
    masks = np.array(kept, np.uint64)
    return Range(text.strip(), cards_of_masks(masks, k), np.array([weights[m] for m in kept], np.float64))


def hands_in_deck(k: int) -> int:
    """Number of k-card hands: 270,725 for 4 cards."""
    return math.comb(52, k)
