"""Card sets up to suit permutation: the canonical boards of each street, the deals of video poker.

Two boards that a permutation of suits maps onto each other give the same
table rows, so the EHS tables visit one representative per class and video
poker solves one deal per class.  A set's *canonical code* is its four suit
rank-masks sorted high to low; the representative gives suit 0 (clubs) the
largest mask, suit 1 the next, and so on.

>>> [len(canonical_boards(k)) for k in (3, 4, 5)]
[1755, 16432, 134459]
>>> [len(canonical_boards(k)) for k in (3, 4, 5)] == [CANONICAL_BOARDS[k] for k in (3, 4, 5)]
True
"""
from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
from numba import njit

from ..core.cards import CardError
from ..core.inputs import integer
from .sort4 import sort4_desc

MAX_SET_BYTES = 1 << 31          # all_card_sets refuses a table larger than this (C(52, 7) is 0.9 GB)


def all_card_sets(n: int, k: int) -> np.ndarray:
    """Every ``k``-card set of an ``n``-card deck (``n`` 0..53, a joker included), ascending ids, in colex order;
    :class:`~pipeline.core.cards.CardError` for a deck or set size out of range or a table beyond 2 GiB."""
    n = integer(n, "n (cards in the deck)", 0, 53, error=CardError, strict=True)
    k = integer(k, "k (cards in a set)", 0, n, error=CardError, strict=True)
    if comb(n, k) * max(k, 1) > MAX_SET_BYTES:
        raise CardError(f"k (cards in a set): the {comb(n, k):,} sets of {k} of {n} cards would need more than "
                        f"{MAX_SET_BYTES >> 30} GiB")
    return _all_card_sets(n, k)


@njit(cache=True, nogil=True)
def _all_card_sets(n: int, k: int) -> np.ndarray:
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    out = np.empty((total, k), np.uint8)
    c = np.arange(k)
    for row in range(total):
        out[row] = c
        i = 0                                   # next set in colex order: bump the lowest card
        while i < k - 1 and c[i] + 1 == c[i + 1]:  # that can move, reset the ones below it
            i += 1
        c[i] += 1
        for j in range(i):
            c[j] = j
    return out


@njit(cache=True, nogil=True)
def suit_canonical_codes(hands: np.ndarray, joker: bool) -> np.ndarray:
    """Canonical code of each row of card ids up to suit permutation: its four suit
    rank-masks sorted high to low (13 bits each), plus bit 52 for the joker (id 52)."""
    codes = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        m0 = m1 = m2 = m3 = 0
        extra = 0
        for j in range(hands.shape[1]):
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
        m0, m1, m2, m3 = sort4_desc(m0, m1, m2, m3)
        codes[i] = extra | (m0 << 39) | (m1 << 26) | (m2 << 13) | m3
    return codes


def cards_of_codes(codes: np.ndarray, k: int = 5) -> np.ndarray:
    """Canonical ``k``-card sets (ascending ids) from codes: suit 0 gets the largest mask, and so on."""
    out = np.zeros((len(codes), k), np.uint8)
    for i, code in enumerate(codes.tolist()):
        cards = [52] if code >> 52 & 1 else []
        for suit in range(4):
            mask = code >> (39 - 13 * suit) & 0x1FFF
            cards += [4 * r + suit for r in range(13) if mask >> r & 1]
        out[i] = sorted(cards)
    return out


CANONICAL_BOARDS = {3: 1755, 4: 16432, 5: 134459}   # len(canonical_boards(k)), without enumerating them


def canonical_boards(k: int = 5) -> np.ndarray:
    """One representative (ascending ids) of each ``k``-card board (1..7 cards) up to suits:
    1,755 flops, 16,432 turns, 134,459 rivers.

    Listed once and kept in the disk cache (the river's took 1.5 s of a batch
    client's serial time, and again in every worker); read back in a few
    milliseconds.
    """
    return _canonical_boards(integer(k, "k (board cards)", 1, 7, error=CardError, strict=True))


@cache
def _canonical_boards(k: int) -> np.ndarray:
    from ..core.cache import cache_dir, load_or_build

    def build() -> dict[str, np.ndarray]:
        return {"boards": cards_of_codes(np.unique(suit_canonical_codes(all_card_sets(52, k), False)), k)}

    return load_or_build(cache_dir() / f"canonical-boards-{k}.npz", build, {"boards"})["boards"]
