"""Pay-independent tables of video poker, built once per deck family and cached on disk.

* **Subset counts.**  For every subset ``S`` of 0..4 cards of the deck and every
  final-hand type ``t``: how many 5-card hands contain ``S`` and have type ``t``
  (seed 004's tables 2-6); for five cards just the hand's type (table 1).  A
  subset's row is ``OFFSET[|S|] + colex(S)``, the combinatorial number system,
  so no hashing is needed.
* **Deal classes.**  The 2,598,960 deals (2,869,685 with a joker) up to suit
  permutation: 134,459 canonical deals with weights (how many deals each stands for).

Then the draws of a hold ``S`` from deal ``D`` are exactly the hands ``H`` with
``H ∩ D = S``; by inclusion-exclusion their type counts are
``sum over U ⊆ D\\S of (-1)^|U| counts[S ∪ U]`` — for all 32 holds at once a
superset Möbius transform over the deal's five cards (see :mod:`.analyzer`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ..evaluator.tables import cache_dir, load_or_build
from .hands import CLASSIFIERS, FAMILIES

_BINOM = np.zeros((54, 6), np.int64)
for _n in range(54):
    _BINOM[_n, 0] = 1
    for _k in range(1, 6):
        _BINOM[_n, _k] = _BINOM[_n - 1, _k - 1] + _BINOM[_n - 1, _k] if _n else 0
TABLES_VERSION = 2


def subset_offsets(n: int) -> np.ndarray:
    """First row of each subset size 0..5 (and the total) for an ``n``-card deck."""
    return np.concatenate([[0], np.cumsum([_BINOM[n, k] for k in range(6)])]).astype(np.int64)


@njit(cache=True, nogil=True)
def subset_row(cards, mask: int, offsets: np.ndarray, binom: np.ndarray) -> int:
    """Row of the subset of ``cards`` (5 ascending ids) picked by the bits of ``mask``."""
    k = 0
    idx = 0
    for i in range(5):
        if mask >> i & 1:
            k += 1
            idx += binom[cards[i], k]
    return offsets[k] + idx


@njit(cache=True, nogil=True)
def all_hands(n: int) -> np.ndarray:
    """Every 5-card hand of an ``n``-card deck, ascending ids, in colex order."""
    total = 0
    for a in range(n):
        for b in range(a):
            for c in range(b):
                for d in range(c):
                    total += d
    out = np.empty((total, 5), np.uint8)
    i = 0
    for e in range(4, n):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4] = a, b, c, d, e
                        i += 1
    return out


@njit(cache=True, nogil=True)
def _count_subsets(hands, types, ntypes, offsets, binom) -> np.ndarray:
    counts = np.zeros((offsets[5], ntypes), np.int32)
    for i in range(hands.shape[0]):
        t = types[i]
        for m in range(31):               # every proper subset (mask 31 is the hand itself)
            counts[subset_row(hands[i], m, offsets, binom), t] += 1
    return counts


@njit(cache=True, nogil=True)
def _canonical_deals(hands, joker: bool):
    """Canonical code of each hand up to suit permutation: its four suit rank-masks
    sorted high to low (13 bits each), plus bit 52 for the joker."""
    codes = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        m0 = m1 = m2 = m3 = 0
        extra = 0
        for j in range(5):
            c = hands[i, j]
            if joker and c == 52:
                extra = 1 << 52
            elif c & 3 == 0:
                m0 |= 1 << (c >> 2)
            elif c & 3 == 1:
                m1 |= 1 << (c >> 2)
            elif c & 3 == 2:
                m2 |= 1 << (c >> 2)
            else:
                m3 |= 1 << (c >> 2)
        # sorting network for four values, high to low
        if m0 < m1:
            m0, m1 = m1, m0
        if m2 < m3:
            m2, m3 = m3, m2
        if m0 < m2:
            m0, m2 = m2, m0
        if m1 < m3:
            m1, m3 = m3, m1
        if m1 < m2:
            m1, m2 = m2, m1
        codes[i] = extra | (m0 << 39) | (m1 << 26) | (m2 << 13) | m3
    return codes


def _deal_cards(codes: np.ndarray) -> np.ndarray:
    """Canonical deals (ascending ids) from codes: suit 0 gets the largest mask, and so on."""
    out = np.zeros((len(codes), 5), np.uint8)
    for i, code in enumerate(codes.tolist()):
        cards = [52] if code >> 52 & 1 else []
        for suit in range(4):
            mask = code >> (39 - 13 * suit) & 0x1FFF
            cards += [4 * r + suit for r in range(13) if mask >> r & 1]
        out[i] = sorted(cards)
    return out


class FamilyTables(NamedTuple):
    family: str
    deck: int
    types: tuple
    offsets: np.ndarray     # (7,) subset row offsets by size
    counts: np.ndarray      # (rows of 0..4-card subsets, types) int32 subset counts
    hand_types: np.ndarray  # (hands,) uint8 type of each 5-card hand, colex order
    deals: np.ndarray       # (classes, 5) uint8 canonical deals
    weights: np.ndarray     # (classes,) int64


def _build(family: str) -> dict:
    deck, types = FAMILIES[family]
    hands = all_hands(deck)
    t = CLASSIFIERS[family](hands)
    offsets = subset_offsets(deck)
    counts = _count_subsets(hands, t, len(types), offsets, _BINOM)
    codes, weights = np.unique(_canonical_deals(hands, family == "joker"), return_counts=True)
    deals = _deal_cards(codes)
    return {"counts": counts, "hand_types": t, "deals": deals, "weights": weights.astype(np.int64)}


@lru_cache(maxsize=None)
def family_tables(family: str) -> FamilyTables:
    """The tables of a deck family, from the disk cache or built now (a few seconds)."""
    deck, types = FAMILIES[family]
    got = load_or_build(cache_dir() / f"videopoker-{family}-v{TABLES_VERSION}.npz", lambda: _build(family))
    return FamilyTables(family, deck, types, subset_offsets(deck), got["counts"], got["hand_types"],
                        got["deals"], got["weights"])


BINOM = _BINOM
