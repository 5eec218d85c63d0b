"""Final-hand types of video poker, fine enough for every pay table of a deck family.

Three families, each with its own deck and its own classifier (numba):

* ``natural`` (52 cards): pair ranks (threshold games pay jacks, tens, ...) and
  four-of-a-kind ranks with kickers (bonus games) are told apart.
* ``deuces`` (52 cards, the four deuces wild).
* ``joker`` (53 cards: id 52 is the joker, wild).

A pay table maps its hand names onto sets of these types (:mod:`.paytable`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

NATURAL_TYPES = (
    "nothing", "pair 2-9", "pair of tens", "pair of jacks or queens", "pair of kings", "pair of aces",
    "two pair", "three of a kind", "straight", "flush", "full house",
    "four 5-10", "four J-K", "four 2-4 with A-4 kicker", "four 2-4 with 5-K kicker",
    "four aces with 2-4 kicker", "four aces with 5-K kicker", "straight flush", "royal flush",
)
DEUCES_TYPES = (
    "nothing", "three of a kind", "straight", "flush", "full house", "four of a kind",
    "straight flush", "five of a kind", "wild royal flush", "four deuces", "natural royal flush",
)
JOKER_TYPES = (
    "nothing", "kings or better", "two pair", "three of a kind", "straight", "flush", "full house",
    "four of a kind", "straight flush", "wild royal flush", "five of a kind", "natural royal flush",
)
FAMILIES = {"natural": (52, NATURAL_TYPES), "deuces": (52, DEUCES_TYPES), "joker": (53, JOKER_TYPES)}


@njit(cache=True, nogil=True)
def _shape(cards: np.ndarray, wild_rank: int, joker: bool) -> tuple[np.ndarray, int, bool, int]:
    """Counts per rank of the natural (non-wild) cards, number of wilds, flush?, rank mask."""
    counts = np.zeros(13, np.int64)
    wilds = 0
    suit = -1
    flush = True
    mask = 0
    for c in cards:
        if (joker and c == 52) or (c >> 2) == wild_rank:
            wilds += 1
            continue
        r = c >> 2
        counts[r] += 1
        mask |= 1 << r
        if suit == -1:
            suit = c & 3
        elif suit != (c & 3):
            flush = False
    return counts, wilds, flush, mask


@njit(cache=True, nogil=True)
def _straight_possible(mask: int, distinct: int, wilds: int) -> int:
    """Highest straight top (rank 3..12) the natural ranks + wilds can make, else -1.

    Needs no repeated natural rank (checked by the caller through ``distinct``).
    """
    for top in range(12, 2, -1):
        window = (0b11111 << (top - 4)) if top >= 4 else 0b1000000001111
        if mask & ~window == 0 and distinct + wilds >= 5:
            return top
    return -1


@njit(cache=True, nogil=True)
def natural_type(cards: np.ndarray) -> int:
    counts, _, flush, mask = _shape(cards, -1, False)
    distinct = 0
    most = 0
    pairs = 0
    quad = -1
    trips = False
    pair_rank = -1
    for r in range(13):
        n = counts[r]
        if n:
            distinct += 1
        if n > most:
            most = n
        if n == 4:
            quad = r
        elif n == 3:
            trips = True
        elif n == 2:
            pairs += 1
            pair_rank = r
    if distinct == 5:
        top = _straight_possible(mask, 5, 0)
        if flush and top == 12:
            return 18
        if flush and top >= 0:
            return 17
        if flush:
            return 9
        if top >= 0:
            return 8
        return 0
    if quad >= 0:
        kicker = 0
        for r in range(13):
            if counts[r] == 1:
                kicker = r
        if quad == 12:
            return 15 if 0 <= kicker <= 2 else 16
        if quad <= 2:
            return 13 if kicker == 12 or kicker <= 2 else 14
        return 12 if quad >= 9 else 11
    if trips:
        return 10 if pairs else 7
    if pairs == 2:
        return 6
    if pair_rank == 12:
        return 5
    if pair_rank == 11:
        return 4
    if pair_rank >= 9:
        return 3
    if pair_rank == 8:
        return 2
    return 1


@njit(cache=True, nogil=True)
def _wild_type(cards: np.ndarray, wild_rank: int, joker: bool) -> int:
    """Shared wild-card logic; returns a key in joker's numbering (see JOKER_TYPES)."""
    counts, wilds, flush, mask = _shape(cards, wild_rank, joker)
    distinct = 0
    most = 0
    pairs = 0
    for r in range(13):
        if counts[r]:
            distinct += 1
        if counts[r] > most:
            most = counts[r]
        if counts[r] == 2:
            pairs += 1
    natural_cards = 5 - wilds
    top = _straight_possible(mask, distinct, wilds) if distinct == natural_cards else -1
    if wilds == 0 and flush and top == 12:
        return 11                                   # natural royal
    if most + wilds >= 5:
        return 10                                   # five of a kind
    if flush and top == 12:
        return 9                                    # wild royal
    if flush and top >= 0:
        return 8
    if most + wilds >= 4:
        return 7
    if (most == 3 and pairs == 1) or (pairs == 2 and wilds == 1):
        return 6
    if flush:
        return 5
    if top >= 0:
        return 4
    if most + wilds >= 3:
        return 3
    if pairs == 2:
        return 2
    # one pair (natural, or a wild matched with the highest card): kings or better?
    if most + wilds >= 2:
        best = -1
        for r in range(13):
            if counts[r] >= 2 or (wilds and counts[r]):
                best = r
        return 1 if best >= 11 else 0
    return 0


# the joker numbering of _wild_type (JOKER_TYPES) -> DEUCES_TYPES (kings or better and two pair pay nothing)
_DEUCES_OF_JOKER = np.array([0, 0, 0, 1, 2, 3, 4, 5, 6, 8, 7, 10], np.int64)


@njit(cache=True, nogil=True)
def deuces_type(cards: np.ndarray) -> int:
    wilds = 0
    for c in cards:
        if c >> 2 == 0:
            wilds += 1
    if wilds == 4:
        return 9
    return _DEUCES_OF_JOKER[_wild_type(cards, 0, False)]


@njit(cache=True, nogil=True)
def joker_type(cards: np.ndarray) -> int:
    return _wild_type(cards, -1, True)


FAMILY_CODES = {"natural": 0, "deuces": 1, "joker": 2}


@njit(cache=True, nogil=True)
def classify(hands: np.ndarray, family: int) -> np.ndarray:
    """The type of each row of ``hands`` (card ids) in the family of code ``family`` (:data:`FAMILY_CODES`)."""
    out = np.empty(hands.shape[0], np.uint8)
    for i in range(hands.shape[0]):
        if family == 0:
            out[i] = natural_type(hands[i])
        elif family == 1:
            out[i] = deuces_type(hands[i])
        else:
            out[i] = joker_type(hands[i])
    return out


def classify_family(hands: np.ndarray, family: str) -> np.ndarray:
    """:func:`classify` for a family named as in :data:`FAMILIES`."""
    return classify(hands, FAMILY_CODES[family])
