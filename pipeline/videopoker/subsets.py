"""Pay-independent tables of video poker, built once per deck family and cached on disk.

* **Subset counts.**  For every subset ``S`` of 0..4 cards of the deck and every
  final-hand type ``t``: how many 5-card hands contain ``S`` and have type ``t``
  (tables 2-6 of Michael Shackleford's method, Wizard of Odds, "My video poker
  analysis method"); for five cards just the hand's type (his table 1).  A
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

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.cache import cache_dir, load_or_build
from ..core.combinatorics import BINOM
from ..isomorphism.boards import all_card_sets, cards_of_codes, suit_canonical_codes
from .hands import FAMILIES, classify_family

TABLES_VERSION = 3


def subset_offsets(n: int) -> np.ndarray:
    """First row of each subset size 0..5 (and the total) for an ``n``-card deck."""
    return np.concatenate([[0], np.cumsum([BINOM[n, k] for k in range(6)])]).astype(np.int64)


@njit(cache=True, nogil=True)
def subset_row(cards: np.ndarray, mask: int, offsets: np.ndarray, binom: np.ndarray) -> int:
    """Row of the subset of ``cards`` (5 ascending ids) picked by the bits of ``mask``."""
    k = 0
    idx = 0
    for i in range(5):
        if mask >> i & 1:
            k += 1
            idx += binom[cards[i], k]
    return offsets[k] + idx


@njit(cache=True, nogil=True)
def _count_subsets(hands: np.ndarray, types: np.ndarray, ntypes: int, offsets: np.ndarray,
                   binom: np.ndarray) -> np.ndarray:
    counts = np.zeros((offsets[5], ntypes), np.int32)
    for i in range(hands.shape[0]):
        t = types[i]
        for m in range(31):               # every proper subset (mask 31 is the hand itself)
            counts[subset_row(hands[i], m, offsets, binom), t] += 1
    return counts


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
    hands = all_card_sets(deck, 5)                 # colex order: the subset tables' indexing
    t = classify_family(hands, family)
    offsets = subset_offsets(deck)
    counts = _count_subsets(hands, t, len(types), offsets, BINOM)
    codes, weights = np.unique(suit_canonical_codes(hands, family == "joker"), return_counts=True)
    deals = cards_of_codes(codes)
    return {"counts": counts, "hand_types": t, "deals": deals, "weights": weights.astype(np.int64)}


@cache
def family_tables(family: str) -> FamilyTables:
    """The tables of a deck family, from the disk cache or built now (a few seconds)."""
    deck, types = FAMILIES[family]
    got = load_or_build(cache_dir() / f"videopoker-{family}-v{TABLES_VERSION}.npz", lambda: _build(family),
                        {"counts", "hand_types", "deals", "weights"})
    return FamilyTables(family, deck, types, subset_offsets(deck), got["counts"], got["hand_types"],
                        got["deals"], got["weights"])

