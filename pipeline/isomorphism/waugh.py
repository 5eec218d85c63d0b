"""Waugh's hand isomorphism: the hand index open solvers share, written from the paper.

K. Waugh, "A Fast and Optimal Hand Isomorphism Algorithm", Second Computer
Poker and Imperfect Information Symposium at AAAI, 2013 — the index of his C
library's ``hand_indexer_init``, ``hand_index_last``, ``hand_index_all`` and
``hand_unindex``, which many open solvers key their abstractions and
strategies by.  :class:`HandIndexer` gives the same numbers, tested against
index sizes and values that library computes.

A hand is dealt in *rounds* (``cards_per_round``: hold'em's ``(2, 3, 1, 1)``
for the hole cards, flop, turn and river).  Two hands are isomorphic when a
permutation of the suits maps one onto the other round by round, the cards
of a round taken as a set.  Each round's classes are numbered densely,
``0 .. size(round) - 1``, in O(1) per hand:

1. **Suit index.**  Per suit, the ranks it receives in each round; round by
   round their colex rank among the ranks the suit has not yet received
   (:mod:`.ranksets`), combined in mixed radix, the first round least
   significant.  The suit's *configuration* is its count per round.
2. **Configuration.**  The four suits sorted by configuration, largest first
   (the count of round 0, then round 1, ...), make the hand's configuration.
   A round's configurations are listed in ascending lexicographic order and
   each owns a block of indices, its *offset* the sizes of those before it.
3. **Groups.**  Suits sharing a configuration are interchangeable: their suit
   indices are a multiset, ranked in the combinatorial number system (the
   largest ``x_0`` counts ``C(x_0 + g - 1, g)``, the next ``C(x_1 + g - 2,
   g - 1)``, ... for a group of ``g``).  The groups' ranks combine in mixed
   radix, the first (largest) configuration least significant.

:meth:`HandIndexer.unindex` inverts it to the *canonical hand* the C
library's ``hand_unindex`` writes: the ``i``-th suit of the configuration
gets suit ``i`` (within a group the largest suit index first), and in each
round suit 0's cards come first, each suit's by ascending rank.

Card ids are pokerpipe's, ``4 * rank + suit`` with rank 0 the deuce — the C
library's too; it names the suits ``s h d c`` where pokerpipe says ``c d h s``,
which changes no index (an index is the same for every relabelling of the
suits), and the canonical hands are the same integers.

Hold'em's indexers (:data:`HOLDEM_ROUNDS`): the export of the abstraction
uses the boards-as-sets indexers ``(2, 3)``, ``(2, 4)``, ``(2, 5)`` — the
situations pokerpipe's abstraction buckets (imperfect recall) — and ``(2,)``
preflop; the perfect-recall indexer ``(2, 3, 1, 1)`` keeps the order of the
board's rounds, so its turn and river are larger.

>>> flop = HandIndexer((2, 3))
>>> flop.size(0), flop.size(1)
(169, 1286792)
>>> flop.index("AhKh2c7d9s") == flop.index("AsKs9h7c2d")
True
>>> [HandIndexer(HOLDEM_ROUNDS[s]).size() for s in ("turn", "river")]
[13960050, 123156254]
>>> PERFECT_RECALL.size(2), PERFECT_RECALL.size(3)
(55190538, 2428287420)
>>> cards = flop.unindex(flop.index("AhKh2c7d9s"))
>>> flop.index(cards) == flop.index("AhKh2c7d9s")
True
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any, Optional, Union

import numpy as np
from numba import njit

from ..core.cards import CardError, cards_arg
from ..core.combinatorics import BINOM
from ..core.inputs import integer, shown
from .ranksets import COLEX13, POP13, UNCOLEX13
from .sort4 import sort4_desc

Cards = Union[str, Sequence[int]]

HOLDEM_ROUNDS = {"preflop": (2,), "flop": (2, 3), "turn": (2, 4), "river": (2, 5)}
"""Cards per round of the boards-as-sets hold'em indexers (the export's, one per street)."""
MAX_ROUNDS = 8                 # the C library's
MAX_CONFIGURATIONS = 10_000     # a round's suit configurations (hold'em's most: 158, perfect-recall river)
SUIT_BITS = 24                 # a suit index below 2**24 (hold'em's largest, perfect recall, is 720,720)
_SUIT_MASK = (1 << SUIT_BITS) - 1


class IndexerError(CardError):
    """Cards per round no indexer takes, an index outside a round, or cards that are not a hand of it."""


# ---------------------------------------------------------------------------------------------------------
# The tables of one round: its configurations in order, their offsets and their suits' sizes


def _suit_size(counts: Sequence[int]) -> int:
    """Rank sets a suit can receive with ``counts`` cards per round: the product of C(13 - used, n)."""
    size, used = 1, 0
    for n in counts:
        size *= comb(13 - used, n)
        used += n
    return size


def _word(counts: Sequence[int]) -> int:
    """A suit's configuration packed 4 bits a round, round 0 highest: integers compare as the tuples do."""
    word = 0
    for n in counts:
        word = word << 4 | n
    return word


def _multiset_count(n: int, g: int) -> int:
    """Multisets of ``g`` values below ``n``: C(n + g - 1, g)."""
    return comb(n + g - 1, g)


def _splits(n: int) -> list[tuple[int, ...]]:
    """The ways to deal ``n`` cards of a round among the four suits (counts per suit)."""
    return [s for s in product(range(n + 1), repeat=4) if sum(s) == n]


@lru_cache(maxsize=None)
def _configurations(cards_per_round: tuple[int, ...]) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """Each round's configurations (four suits' counts per round so far, sorted largest first), in ascending
    lexicographic order of their suit words: a round's are the last round's, each suit given its share of the
    round's cards, sorted again — so only distinct configurations are ever extended."""
    level: set[tuple[tuple[int, ...], ...]] = {((), (), (), ())}
    out = []
    for j, n in enumerate(cards_per_round):
        level = {tuple(sorted((cfg[i] + (s[i],) for i in range(4)), reverse=True))
                 for cfg in level for s in _splits(n) if all(sum(cfg[i]) + s[i] <= 13 for i in range(4))}
        if len(level) > MAX_CONFIGURATIONS:
            raise IndexerError(f"cards per round {shown(list(cards_per_round))}: round {j} has {len(level):,} suit "
                               f"configurations, more than the {MAX_CONFIGURATIONS:,} an indexer here tabulates")
        out.append(tuple(sorted(level, key=lambda cfg: tuple(_word(c) for c in cfg))))
    return tuple(out)


MAX_LOOKUP = 1 << 20     # count patterns up to which a round finds its configuration by one table read


@lru_cache(maxsize=None)
def _round_tables(cards_per_round: tuple[int, ...], last: int) -> tuple[np.ndarray, ...]:
    """``(words, offsets, suit_sizes, lookup)`` of round ``last``: each configuration's four suit words
    (largest first), in ascending lexicographic order; the first index of each and, last, the round's size;
    each position's suit size; and the configuration of every pattern of counts (per round, suits 0..2 in
    mixed radix ``cards + 1``; empty where the patterns exceed :data:`MAX_LOOKUP`: a binary search then)."""
    rounds = cards_per_round[:last + 1]
    order = _configurations(cards_per_round)[last]
    words = np.array([[_word(c) for c in cfg] for cfg in order], np.int64)
    sizes = np.array([[_suit_size(c) for c in cfg] for cfg in order], np.int64)
    starts = [0]
    for cfg in order:
        block = 1
        for c in sorted(set(cfg), reverse=True):
            block *= _multiset_count(_suit_size(c), cfg.count(c))
        starts.append(starts[-1] + block)
    if int(sizes.max()) > _SUIT_MASK or starts[-1] >= 1 << 63:
        raise IndexerError(f"cards per round {shown(list(cards_per_round))}: more hands than this indexer numbers "
                           f"(a suit's rank sets below 2**{SUIT_BITS}, a round's classes below 2**63)")
    offsets = np.array(starts, np.int64)
    patterns = 1
    for n in rounds:
        patterns *= (n + 1) ** 3
    lookup = np.zeros(0, np.int32)
    if patterns <= MAX_LOOKUP:
        lookup = np.full(patterns, -1, np.int32)
        ids = {cfg: i for i, cfg in enumerate(order)}
        for choice in product(*(_splits(n) for n in rounds)):
            suits = [tuple(choice[j][i] for j in range(len(rounds))) for i in range(4)]
            if any(sum(c) > 13 for c in suits):
                continue
            key = 0
            for n, split in zip(rounds, choice):
                key = key * (n + 1) ** 3 + (split[0] * (n + 1) + split[1]) * (n + 1) + split[2]
            lookup[key] = ids[tuple(sorted(suits, reverse=True))]
    return words, offsets, sizes, lookup


# ---------------------------------------------------------------------------------------------------------
# Kernels


@njit(cache=True, nogil=True)
def _choose(n: int, k: int) -> int:
    """C(n, k) for k 0..4 (a group has at most four suits), exact in int64 for every size an index reaches."""
    if n < k:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True, nogil=True)
def _expand(squeezed: int, used: int) -> int:
    """The ranks of ``squeezed`` counted among those not in ``used`` (a round's ranks renumbered past the ranks
    its suit received before, as the suit index numbers them)."""
    out = 0
    at = 0
    for r in range(13):
        if used >> r & 1:
            continue
        if squeezed >> at & 1:
            out |= 1 << r
        at += 1
    return out


@njit(cache=True, nogil=True)
def _find(words: np.ndarray, w0: int, w1: int, w2: int, w3: int) -> int:
    """The row of ``words`` equal to ``(w0, w1, w2, w3)`` (binary search: rows ascend lexicographically)."""
    lo = 0
    hi = words.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        a, b, c, d = words[mid, 0], words[mid, 1], words[mid, 2], words[mid, 3]
        if a < w0 or (a == w0 and (b < w1 or (b == w1 and (c < w2 or (c == w2 and d < w3))))):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def _index_rows(cards: np.ndarray, cards_per_round: np.ndarray, last: int, words: np.ndarray,
                offsets: np.ndarray, sizes: np.ndarray, lookup: np.ndarray, out: np.ndarray) -> int:
    """Index each row of ``cards`` (its rounds' cards, in order) on round ``last`` into ``out``; the first
    row holding a card twice or a card outside 0..51, or -1 when every row is a hand."""
    for row in range(cards.shape[0]):
        used0 = used1 = used2 = used3 = 0
        idx0 = idx1 = idx2 = idx3 = 0
        mul0 = mul1 = mul2 = mul3 = 1
        w0 = w1 = w2 = w3 = 0
        pattern = 0
        at = 0
        for j in range(last + 1):
            m0 = m1 = m2 = m3 = 0                  # this round's ranks per suit, and squeezed past the used ones
            q0 = q1 = q2 = q3 = 0
            for t in range(at, at + cards_per_round[j]):
                c = cards[row, t]
                if c < 0 or c > 51:
                    return row
                bit = 1 << (c >> 2)
                s = c & 3
                if s == 0:
                    if (m0 | used0) & bit:
                        return row
                    m0 |= bit
                    q0 |= bit >> POP13[used0 & (bit - 1)]
                elif s == 1:
                    if (m1 | used1) & bit:
                        return row
                    m1 |= bit
                    q1 |= bit >> POP13[used1 & (bit - 1)]
                elif s == 2:
                    if (m2 | used2) & bit:
                        return row
                    m2 |= bit
                    q2 |= bit >> POP13[used2 & (bit - 1)]
                else:
                    if (m3 | used3) & bit:
                        return row
                    m3 |= bit
                    q3 |= bit >> POP13[used3 & (bit - 1)]
            at += cards_per_round[j]
            idx0 += mul0 * COLEX13[q0]
            idx1 += mul1 * COLEX13[q1]
            idx2 += mul2 * COLEX13[q2]
            idx3 += mul3 * COLEX13[q3]
            mul0 *= BINOM[13 - POP13[used0], POP13[m0]]
            mul1 *= BINOM[13 - POP13[used1], POP13[m1]]
            mul2 *= BINOM[13 - POP13[used2], POP13[m2]]
            mul3 *= BINOM[13 - POP13[used3], POP13[m3]]
            used0 |= m0
            used1 |= m1
            used2 |= m2
            used3 |= m3
            w0 = w0 << 4 | POP13[m0]
            w1 = w1 << 4 | POP13[m1]
            w2 = w2 << 4 | POP13[m2]
            w3 = w3 << 4 | POP13[m3]
            radix = cards_per_round[j] + 1
            pattern = pattern * radix * radix * radix + (POP13[m0] * radix + POP13[m1]) * radix + POP13[m2]
        k0, k1, k2, k3 = sort4_desc(w0 << SUIT_BITS | idx0, w1 << SUIT_BITS | idx1, w2 << SUIT_BITS | idx2,
                                    w3 << SUIT_BITS | idx3)
        if lookup.size:
            cfg = lookup[pattern]
        else:
            cfg = _find(words, k0 >> SUIT_BITS, k1 >> SUIT_BITS, k2 >> SUIT_BITS, k3 >> SUIT_BITS)
        index = offsets[cfg]
        mult = 1
        i = 0
        while i < 4:
            g = 1
            while i + g < 4 and words[cfg, i + g] == words[cfg, i]:
                g += 1
            part = 0
            for t in range(g):                     # the keys of a group descend by suit index
                k = k0 if i + t == 0 else (k1 if i + t == 1 else (k2 if i + t == 2 else k3))
                part += _choose((k & _SUIT_MASK) + g - 1 - t, g - t)
            index += mult * part
            mult *= _choose(sizes[cfg, i] + g - 1, g)
            i += g
        out[row] = index
    return -1


@njit(cache=True, nogil=True)
def _unindex_rows(indices: np.ndarray, cards_per_round: np.ndarray, last: int, words: np.ndarray,
                  offsets: np.ndarray, sizes: np.ndarray, out: np.ndarray) -> None:
    """The canonical hand of each index of round ``last`` (every one checked in range) into ``out``'s rows."""
    suit = np.zeros(4, np.int64)
    starts = np.zeros(last + 2, np.int64)
    for j in range(last + 1):
        starts[j + 1] = starts[j] + cards_per_round[j]
    where = np.zeros(last + 1, np.int64)
    for row in range(indices.shape[0]):
        index = indices[row]
        lo = 0                                     # the last configuration starting at or before index
        hi = words.shape[0] - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if offsets[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        cfg = lo
        rest = index - offsets[cfg]
        i = 0
        while i < 4:
            g = 1
            while i + g < 4 and words[cfg, i + g] == words[cfg, i]:
                g += 1
            n = sizes[cfg, i]
            block = _choose(n + g - 1, g)
            here = rest % block
            rest //= block
            for t in range(g - 1):                 # the largest x with C(x + k - 1, k) <= here, k = g - t
                k = g - t
                a = 0
                b = n - 1
                while a < b:
                    mid = (a + b + 1) // 2
                    if _choose(mid + k - 1, k) <= here:
                        a = mid
                    else:
                        b = mid - 1
                suit[i + t] = a
                here -= _choose(a + k - 1, k)
            suit[i + g - 1] = here
            i += g
        for j in range(last + 1):
            where[j] = starts[j]
        for s in range(4):
            used = 0
            x = suit[s]
            for j in range(last + 1):
                n = (words[cfg, s] >> (4 * (last - j))) & 15
                size = BINOM[13 - POP13[used], n]
                ranks = _expand(UNCOLEX13[n, x % size], used)
                x //= size
                for r in range(13):
                    if ranks >> r & 1:
                        out[row, where[j]] = 4 * r + s
                        where[j] += 1
                used |= ranks


# ---------------------------------------------------------------------------------------------------------
# The indexer


class HandIndexer:
    """An indexer of hands dealt ``cards_per_round`` (``hand_indexer_init``): ``(2,)`` preflop, ``(2, 3)``
    hole and flop, ``(2, 5)`` hole and the whole board as one round, ``(2, 3, 1, 1)`` hold'em with perfect
    recall.  1 to 8 rounds of 1 to 13 cards, 52 at most in all.

    Every method checks its arguments (card ids 0..51, no card twice, an index of its round) and raises
    :class:`IndexerError` in one line otherwise.
    """

    def __init__(self, cards_per_round: Sequence[int]) -> None:
        if isinstance(cards_per_round, (str, bytes)) or not isinstance(cards_per_round, (Sequence, np.ndarray)):
            raise IndexerError(f"cards per round must be a list of counts, got {shown(cards_per_round)}")
        rounds = tuple(integer(n, "cards per round", 1, 13, error=IndexerError, strict=True)
                       for n in cards_per_round)
        if not 1 <= len(rounds) <= MAX_ROUNDS or sum(rounds) > 52:
            raise IndexerError(f"an indexer deals 1 to {MAX_ROUNDS} rounds of at most 52 cards in all, got "
                               f"{shown(list(rounds))}")
        self.cards_per_round = rounds
        self.rounds = len(rounds)
        self._cpr = np.array(rounds, np.int64)
        self._tables = [_round_tables(rounds, r) for r in range(self.rounds)]

    def __repr__(self) -> str:
        return f"HandIndexer({self.cards_per_round})"

    def _round(self, round: Optional[int]) -> int:
        if round is None:
            return self.rounds - 1
        return integer(round, "round", 0, self.rounds - 1, error=IndexerError, strict=True)

    def size(self, round: Optional[int] = None) -> int:
        """Classes of hands on ``round`` (default the last): ``hand_indexer_size``."""
        return int(self._tables[self._round(round)][1][-1])

    def cards(self, round: Optional[int] = None) -> int:
        """Cards dealt through ``round`` (default the last)."""
        return sum(self.cards_per_round[:self._round(round) + 1])

    def configurations(self, round: Optional[int] = None) -> int:
        """Suit configurations of ``round`` (blocks of its index space)."""
        return len(self._tables[self._round(round)][0])

    def _round_of(self, count: int) -> int:
        for r in range(self.rounds):
            if self.cards(r) == count:
                return r
        ends = ", ".join(str(self.cards(r)) for r in range(self.rounds))
        raise IndexerError(f"a hand of {self} holds {ends} cards (its rounds'), got {count}")

    def index(self, cards: Cards) -> int:
        """The index of ``cards`` (the rounds' cards in order, e.g. ``"AhKh2c7d9s"``) on the last round they
        complete: ``hand_index_last`` when they are all the indexer's cards."""
        c = cards_arg(cards, "cards")
        return int(self.index_array(np.array([c], np.int64), self._round_of(len(c)))[0])

    def index_all(self, cards: Cards) -> list[int]:
        """The index of ``cards`` on every round they complete (``hand_index_all``)."""
        c = cards_arg(cards, "cards")
        last = self._round_of(len(c))
        return [int(self.index_array(np.array([c[:self.cards(r)]], np.int64), r)[0]) for r in range(last + 1)]

    def unindex(self, index: int, round: Optional[int] = None) -> list[int]:
        """The canonical hand of ``index`` on ``round`` (default the last): ``hand_unindex``'s cards."""
        r = self._round(round)
        index = integer(index, f"index of round {r}", 0, self.size(r) - 1, error=IndexerError, strict=True)
        return [int(c) for c in self.unindex_array(np.array([index], np.int64), r)[0]]

    def index_array(self, cards: Any, round: Optional[int] = None) -> np.ndarray:
        """Indices (int64) on ``round`` (default the last) of the rows of ``cards``, an integer array of
        shape (hands, cards through ``round``); numba, tens of nanoseconds a hand."""
        r = self._round(round)
        a = np.asarray(cards)
        need = self.cards(r)
        if a.ndim != 2 or a.shape[1] != need or (a.dtype.kind not in "iu" and a.size):
            raise IndexerError(f"cards must be an integer array of shape (hands, {need}), got "
                               f"{a.dtype} {a.shape}")
        out = np.empty(a.shape[0], np.int64)
        if a.shape[0]:
            words, offsets, sizes, lookup = self._tables[r]
            kept = a.dtype in (np.uint8, np.int32, np.int64)          # the kernels compiled; others as int64
            rows = np.ascontiguousarray(a if kept else a.astype(np.int64))
            bad = _index_rows(rows, self._cpr, r, words, offsets, sizes, lookup, out)
            if bad >= 0:
                raise IndexerError(f"cards: row {bad:,} ({shown(a[bad].tolist())}) holds a card twice or one "
                                   "outside 0..51")
        return out

    def unindex_array(self, indices: Any, round: Optional[int] = None) -> np.ndarray:
        """The canonical hands (uint8 card ids, one row each) of ``indices`` (integers of ``round``)."""
        r = self._round(round)
        a = np.asarray(indices)
        if a.ndim != 1 or (a.dtype.kind not in "iu" and a.size):
            raise IndexerError(f"indices must be a 1-D integer array, got {a.dtype} {a.shape}")
        a = a.astype(np.int64, copy=False)
        if a.size and (int(a.min()) < 0 or int(a.max()) >= self.size(r)):
            bad = int(a.min()) if int(a.min()) < 0 else int(a.max())
            raise IndexerError(f"indices: {bad:,} is outside 0..{self.size(r) - 1:,} of round {r}")
        out = np.empty((a.size, self.cards(r)), np.uint8)
        if a.size:
            words, offsets, sizes, _ = self._tables[r]
            _unindex_rows(a, self._cpr, r, words, offsets, sizes, out)
        return out


@lru_cache(maxsize=None)
def holdem_indexer(street: str) -> HandIndexer:
    """The boards-as-sets indexer of a hold'em street (:data:`HOLDEM_ROUNDS`): preflop, flop, turn, river."""
    if not isinstance(street, str) or street not in HOLDEM_ROUNDS:
        raise IndexerError(f"street must be one of {', '.join(HOLDEM_ROUNDS)}, got {shown(street)}")
    return HandIndexer(HOLDEM_ROUNDS[street])


def situations_of(street: str, indices: Any) -> np.ndarray:
    """pokerpipe's situation index (:mod:`.situations`) of each Waugh index of ``street``'s boards-as-sets
    indexer: the two number the same classes, so this is a permutation of ``0 .. size - 1`` (tested)."""
    from .situations import situation_indices

    return situation_indices(holdem_indexer(street).unindex_array(indices))


PERFECT_RECALL = HandIndexer((2, 3, 1, 1))
"""Hold'em with perfect recall: rounds 0..3 are preflop (169), flop (1,286,792), turn (55,190,538) and river
(2,428,287,420) hands, the board's rounds kept apart."""

__all__ = ["HOLDEM_ROUNDS", "PERFECT_RECALL", "HandIndexer", "IndexerError", "holdem_indexer", "situations_of"]
