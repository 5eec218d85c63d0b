"""Lookup tables of the evaluator: card keys, the perfect-hashed rank table, the flush table.

How a hand is evaluated (any 5, 6 or 7 cards, or a partial hand extended card by card):

* Every card has a 64-bit *key*.  Its low 32 bits are a multiplier of the card's
  rank, chosen (:data:`RANK_MULTIPLIERS`) so that the sum over any multiset of up
  to seven ranks, each at most four times, is unique.  Bits 32..47 hold four
  4-bit suit counters.  A hand's key is :data:`KEY_BASE` plus its cards' keys;
  the base starts every suit counter at 3, so a counter reaches 8 — bit 3 of its
  nibble, tested with :data:`FLUSH_FLAGS` — exactly when a suit has five cards.
  Keys are added, so a partial board's key is reused by every completion of it.
* Without a flush, the hand's value depends only on its rank multiset: the
  rank sum (< 2**25) is mapped by a row-displacement perfect hash
  (``RANK_OFFSETS[sum >> HASH_SHIFT] + (sum & HASH_MASK)``) into a dense table
  of 16-bit values, small enough to stay in the L2 cache.
* With a flush, the value is the flush table's entry for the 13-bit rank mask of
  the flush suit.

Tables are built from :mod:`.classes` in a few seconds and cached as one
``.npz`` file (``$POKERPIPE_CACHE`` or ``~/.cache/pokerpipe``); the file name
carries a digest of the constants, so a change of scheme never reads a stale file.

A deck (:mod:`.decks`) is a parameter of the tables, not of the scheme: the card
keys are the same for every deck, the rank table holds the multisets of the deck's
ranks only (the short deck's 10,230 against 73,775: 20 KB against 284) and
the flush table the deck's values.  Every kernel taking :class:`~.kernels.Tables`
thus evaluates any deck; each deck's tables are cached under their own digest.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import numpy as np
from numba import njit

from ..core.cache import cache_dir, load_or_build
from .classes import rank_multiset_class, suited_class, value_of_class
from .decks import STANDARD, Deck
from .kernels import FLUSH_SLOTS, HASH_MASK, HASH_SHIFT, RANK_MULTIPLIERS, SUIT_SHIFT, Tables

TABLE_VERSION = 3   # 3: cached files carry a digest of their arrays


def card_keys() -> np.ndarray:
    """Key of each card id (see module doc)."""
    keys = np.zeros(52, np.uint64)
    for c in range(52):
        keys[c] = RANK_MULTIPLIERS[c >> 2] + (1 << (SUIT_SHIFT + 4 * (c & 3)))
    return keys


def rank_multisets(sizes: tuple[int, ...] = (5, 6, 7), low_rank: int = 0) -> Iterator[list[int]]:
    """Yield count vectors (13 ints, each <= 4, 0 below ``low_rank``) whose total is in ``sizes``."""
    hi = max(sizes)

    def rec(r: int, left: int, acc: list[int]) -> Iterator[list[int]]:
        if r == 13:
            if hi - left in sizes:
                yield list(acc)
            return
        for c in range(min(4 if r >= low_rank else 0, left) + 1):
            acc.append(c)
            yield from rec(r + 1, left - c, acc)
            acc.pop()

    yield from rec(0, hi, [])


@njit(cache=True)
def _first_fit(order: np.ndarray, starts: np.ndarray, cols: np.ndarray, capacity: int) -> np.ndarray:
    """Offsets placing each row's columns (``cols[starts[r]:starts[r+1]]``) in free slots."""
    used = np.zeros(capacity, np.bool_)
    offsets = np.zeros(starts.size - 1, np.int64)
    first_free = 0
    for r in order:
        a, b = starts[r], starts[r + 1]
        if a == b:
            continue
        o = first_free - cols[a]  # columns are sorted: the row's first slot lands on a free one
        if o < 0:
            o = 0
        while True:
            clash = False
            for i in range(a, b):
                if used[o + cols[i]]:
                    clash = True
                    break
            if not clash:
                break
            o += 1
        for i in range(a, b):
            used[o + cols[i]] = True
        offsets[r] = o
        while used[first_free]:
            first_free += 1
    return offsets


def _displace(keys: np.ndarray) -> tuple[np.ndarray, int]:
    """Row-displacement perfect hash: per-row offsets so ``offset[row] + col`` never collide.

    Rows are placed first-fit, fullest first (Tarjan & Yao's heuristic).
    """
    keys = np.sort(keys)
    rows = keys >> HASH_SHIFT
    cols = keys & HASH_MASK
    nrows = int(rows.max()) + 1
    counts = np.bincount(rows, minlength=nrows)
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    order = np.argsort(-counts, kind="stable").astype(np.int64)
    offsets = _first_fit(order, starts, cols, 4 * len(keys) + 4 * (1 << HASH_SHIFT))
    size = int((offsets[rows] + cols).max()) + 1
    return offsets, size


def build_tables(deck: Deck = STANDARD) -> Tables:
    """Build all tables of ``deck`` from the class definitions (plain Python, a few seconds)."""
    mults = np.array(RANK_MULTIPLIERS, np.int64)
    sums, values = [], []
    for counts in rank_multisets(low_rank=deck.low_rank):
        sums.append(int(np.dot(counts, mults)))
        values.append(value_of_class(rank_multiset_class(counts, deck), deck))
    sums_a = np.array(sums, np.int64)
    offsets, size = _displace(sums_a)
    rank_values = np.zeros(size, np.uint16)
    rank_values[offsets[sums_a >> HASH_SHIFT] + (sums_a & HASH_MASK)] = values
    flush_values = np.zeros(FLUSH_SLOTS, np.uint16)
    below = (1 << deck.low_rank) - 1          # ranks the deck lacks: their masks stay 0, never read
    for mask in range(FLUSH_SLOTS):
        if bin(mask).count("1") >= 5 and not mask & below:
            flush_values[mask] = value_of_class(suited_class(mask, deck), deck)
    return Tables(card_keys(), offsets.astype(np.uint64), rank_values, flush_values)


def _cache_path(deck: Deck = STANDARD) -> Path:
    scheme = (TABLE_VERSION, RANK_MULTIPLIERS, SUIT_SHIFT, HASH_SHIFT) + (() if deck == STANDARD else (tuple(deck),))
    tag = hashlib.sha256(repr(scheme).encode()).hexdigest()[:12]
    return cache_dir() / f"evaluator-{tag}.npz"


@lru_cache(maxsize=None)
def tables(deck: Deck = STANDARD) -> Tables:
    """The evaluator's tables of ``deck`` (the 52-card deck's by default), from the disk cache or built (and
    cached) now."""
    return Tables(**load_or_build(_cache_path(deck), lambda: build_tables(deck)._asdict(), set(Tables._fields)))
