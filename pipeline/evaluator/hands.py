"""Prebuilt hands: the evaluator's key of a set of cards, accumulated once and evaluated many times.

A hand's key is the sum of its cards' keys (rank multipliers and suit counters, :mod:`.tables`) and its
suited mask the OR of their suit bits; both add card by card, so a caller who scores many hands sharing cards
— every hole against one board, every river against one turn — builds the shared part once and adds the rest
(OMPEval's ``Hand`` objects, by the same idea).  :func:`evaluate_keys` is then one flag test and one lookup
per hand; where the CPU has AVX2 or AVX-512, the flush test is taken 64 hands at a time (:func:`_evaluate_chunks`).

>>> import numpy as np
>>> from pipeline.core.cards import parse_cards
>>> board = hand_keys(np.array([parse_cards("Qh7h2c5d9s")]))
>>> holes = np.array([parse_cards("AhKh"), parse_cards("7c7d"), parse_cards("QsJd")])
>>> keys, suited = add_cards(np.repeat(board[0], 3), np.repeat(board[1], 3), holes)
>>> from pipeline import describe
>>> [describe(int(v)) for v in evaluate_keys(keys, suited)]
['high card Ace', 'three of a kind, Sevens', 'a pair of Queens']

Keys are only meaningful when they come from these functions with 5 to 7 distinct cards in all;
:func:`hand_keys` checks its cards, :func:`evaluate_keys` trusts its keys (as OMPEval's evaluator does).
A key is the same for every deck (:mod:`.decks`); ``deck=`` says which deck's cards to accept and whose
tables value the keys.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from numba import njit

from ..core.cards import CardError
from ..core.cpu import SCALAR, simd_level
from .decks import STANDARD, Deck
from .intrinsics import prefetch_item
from .kernels import (
    _HM,
    _HS,
    FLUSH_FLAGS,
    KEY_BASE,
    RANK_SUM_MASK,
    Tables,
    check_cards,
    flush_shift,
    suited_bit,
    trailing_zeros,
)
from .simd import offsets32
from .tables import tables

__all__ = ["add_cards", "evaluate_keys", "hand_keys"]


@njit(cache=True, nogil=True)
def _accumulate(cards: np.ndarray, keys: np.ndarray, suited: np.ndarray, card_keys: np.ndarray) -> None:
    n, m = cards.shape
    for i in range(n):
        k = keys[i]
        s = suited[i]
        for j in range(m):
            c = cards[i, j]
            k += card_keys[c]
            s |= suited_bit(c)
        keys[i] = k
        suited[i] = s


@njit(cache=True, nogil=True)
def _evaluate_keys(keys: np.ndarray, suited: np.ndarray, out: np.ndarray, T: Tables) -> None:
    """The scalar lookups, on the ``scalar`` path (:mod:`pipeline.core.cpu`).  A branch on the flush flag: on random
    hands it mispredicts for 3% of them (370 M hands/s, 837 without flushes), yet every branch-free form
    measured ran at a third of this rate on hands sharing cards (one board, all its holes: 349 against 928 M/s
    here), and those are the callers this path is for (issue 24)."""
    offsets, values, flush_values = T.rank_offsets, T.rank_values, T.flush_values   # locals: kept in registers
    for i in range(keys.size):
        key = keys[i]
        if key & FLUSH_FLAGS:
            out[i] = flush_values[(suited[i] >> flush_shift(key)) & np.uint64(0x1FFF)]
        else:
            s = key & RANK_SUM_MASK
            out[i] = values[offsets[s >> _HS] + (s & _HM)]


CHUNK = 64          # hands whose flush flags make one 64-bit mask
AHEAD = 512         # rows ahead of the chunk in hand whose suited masks are asked for (4 KB)


@njit(inline="always")
def _flush_lanes(keys: np.ndarray, start: np.uint64) -> np.uint64:
    """Bit ``j`` set where ``keys[start + j]`` (:data:`CHUNK` of them) is a flush (vectorized by LLVM)."""
    lanes = np.uint64(0)
    for j in range(CHUNK):
        lanes |= np.uint64((keys[start + np.uint64(j)] & FLUSH_FLAGS) != 0) << np.uint64(j)
    return lanes


@njit(cache=True, nogil=True)
def _evaluate_chunks(keys: np.ndarray, suited: np.ndarray, out: np.ndarray, offsets: np.ndarray,
                     values: np.ndarray, flush_values: np.ndarray) -> None:
    """:func:`_evaluate_keys` for the vector paths: per :data:`CHUNK` hands, every hand's rank lookups (a flush's
    too: its rank sum is a real one, read and overwritten), then the flushes among them, found by one mask.

    Why this form (issue 41; AVX2 target on an AMD EPYC Zen 4, 10 M hands): the rank lookups alone run at
    1,460-1,500 M hands/s on hands sharing boards, 740-760 on random ones; a branch per hand on the flush flag
    mispredicts (736 and 281 with it), and valuing flushes in their lanes took two gathers per eight hands
    (the vector paths before this one: 730-880 and 580-610).  Here a chunk's flushes cost one mask and one
    mispredicted exit of its loop.  Their suited masks, read sparsely (3% of hands), would each miss the
    cache, the hardware's prefetcher seeing no stream: so the whole suited array is asked for :data:`AHEAD`
    rows early, a line per eight hands (without it 800-830 by board, 350 random).  Together 1,090-1,120 by
    board and 610-660 random.  The indexes are unsigned (numba adds a test for a negative index to every
    signed one; slices instead cost a reference count per chunk).  ``offsets`` are :func:`~.simd.offsets32`,
    ``values`` and ``flush_values`` the deck's tables (:class:`~.kernels.Tables`)."""
    n = out.size
    whole = np.uint64(n - n % CHUNK)
    one = np.uint64(1)
    c = np.uint64(0)
    while c < whole:
        for j in range(0, CHUNK, 8):
            prefetch_item(suited, c + np.uint64(AHEAD + j))
        for j in range(CHUNK):
            i = c + np.uint64(j)
            s = keys[i] & RANK_SUM_MASK
            out[i] = values[np.uint64(offsets[s >> _HS]) + (s & _HM)]
        flushes = _flush_lanes(keys, c)
        while flushes:
            i = c + np.uint64(trailing_zeros(flushes))
            flushes &= flushes - one
            out[i] = flush_values[(suited[i] >> flush_shift(keys[i])) & np.uint64(0x1FFF)]
        c += np.uint64(CHUNK)
    for t in range(n - n % CHUNK, n):       # the tail, hand by hand
        key = keys[t]
        if key & FLUSH_FLAGS:
            out[t] = flush_values[(suited[t] >> flush_shift(key)) & np.uint64(0x1FFF)]
        else:
            s = key & RANK_SUM_MASK
            out[t] = values[np.uint64(offsets[s >> _HS]) + (s & _HM)]


def _checked(cards: np.ndarray, deck: Deck) -> np.ndarray:
    cards = np.asarray(cards)
    if cards.ndim != 2 or cards.shape[1] > 7 or cards.dtype.kind not in "iu":
        raise CardError(f"cards must be an integer array of shape (n, 0..7), got {cards.dtype} {cards.shape}")
    bad = check_cards(cards, deck.first_card) if cards.size else -1
    if bad >= 0:
        raise CardError(f"row {bad} of cards is not a set of distinct card ids {deck.first_card}..51: "
                        f"{cards[bad].tolist()}")
    return cards


def hand_keys(cards: np.ndarray, deck: Deck = STANDARD) -> tuple[np.ndarray, np.ndarray]:
    """``(keys, suited)`` (uint64 each, one per row) of the card sets ``cards`` (n, 0..7 distinct ids of
    ``deck``)."""
    cards = _checked(cards, deck)
    keys = np.full(len(cards), KEY_BASE, np.uint64)
    suited = np.zeros(len(cards), np.uint64)
    _accumulate(cards, keys, suited, tables().card_keys)
    return keys, suited


def add_cards(keys: np.ndarray, suited: np.ndarray, cards: np.ndarray,
              deck: Deck = STANDARD) -> tuple[np.ndarray, np.ndarray]:
    """New ``(keys, suited)``: each row's hand with the cards of the same row of ``cards`` (ids of ``deck``)
    added.

    The caller keeps the hands' cards distinct (a card added twice makes a key no real hand has).
    """
    cards = _checked(cards, deck)
    keys = np.array(keys, np.uint64)
    suited = np.array(suited, np.uint64)
    if keys.shape != (len(cards),) or suited.shape != keys.shape:
        raise CardError(f"{len(cards)} rows of cards for {keys.shape} keys and {suited.shape} suited masks")
    _accumulate(cards, keys, suited, tables().card_keys)
    return keys, suited


def evaluate_keys(keys: np.ndarray, suited: np.ndarray, out: Optional[np.ndarray] = None,
                  deck: Deck = STANDARD) -> np.ndarray:
    """Values (int32, as :func:`pipeline.evaluate`) of complete hands of 5 to 7 cards of ``deck`` given by their
    keys.

    ``out`` (int32, one per key) receives them instead of a new array, as in :func:`pipeline.evaluate`.
    """
    keys = np.ascontiguousarray(keys, np.uint64)
    suited = np.ascontiguousarray(suited, np.uint64)
    if keys.shape != suited.shape or keys.ndim != 1:
        raise CardError(f"keys {keys.shape} and suited masks {suited.shape} must be two equal 1-d arrays")
    if out is None:
        out = np.empty(keys.size, np.int32)
    elif out.dtype != np.int32 or out.shape != keys.shape or not out.flags.c_contiguous:
        raise CardError(f"out must be a contiguous int32 array of {keys.size} values, got {out.dtype} {out.shape}")
    level = simd_level()
    if level != SCALAR:
        T = tables(deck)
        _evaluate_chunks(keys, suited, out, offsets32(deck), T.rank_values, T.flush_values)
    else:
        _evaluate_keys(keys, suited, out, tables(deck))
    return out
