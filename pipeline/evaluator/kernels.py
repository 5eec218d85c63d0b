"""Numba kernels of the evaluator and the constants of its key scheme (see :mod:`.tables`).

Every kernel that evaluates takes the evaluator's tables as one :class:`Tables`
value (a named tuple of arrays, which numba passes as a struct), so kernels
cache cleanly, hold no Python objects and never spell the four arrays out.
A kernel whose loop reads a table array directly binds it to a local first
(``flush_values = T.flush_values``): read as ``T.flush_values[i]`` inside a
tight loop the array is reloaded on every pass (measured: half the rate of
:func:`evaluate_into`); :func:`hand_value` and :func:`rank_value` are inlined
into their callers, where the compiler hoists those loads itself.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, cast

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros as _cttz

# numba's intrinsic (one instruction, tzcnt), typed for mypy as the call the kernels make
trailing_zeros = cast(Callable[[Any], Any], _cttz)


class Tables(NamedTuple):
    """The evaluator's lookup tables, the one value every evaluating kernel takes (see :mod:`.tables`)."""

    card_keys: np.ndarray     # (52,) uint64: rank multiplier | 1 << (32 + 4*suit)
    rank_offsets: np.ndarray  # (rows,) uint64: displacement per hash row
    rank_values: np.ndarray   # (slots,) uint16: value of each rank multiset of 5..7 cards
    flush_values: np.ndarray  # (8192,) uint16: value of a suit's 13-bit rank mask (>= 5 bits)


# The key scheme.  These constants live in this file, not beside the table
# builder, because numba's on-disk cache is keyed on this file and freezes the
# globals it reads: a change here recompiles the kernels.
# Found by a greedy search (benchmarks/search_rank_multipliers.py): each is the
# smallest integer above the previous that keeps every sum of <= 7 ranks
# (<= 4 of a rank) unique.  tests/test_evaluator.py checks the property.
RANK_MULTIPLIERS = (1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453,
                    1526359, 3453520)
SUIT_SHIFT = 32
KEY_BASE = np.uint64(0x3333 << SUIT_SHIFT)    # every suit counter starts at 3 ...
FLUSH_FLAGS = np.uint64(0x8888 << SUIT_SHIFT)  # ... so bit 3 of a nibble means five of that suit
DRAW_FLAGS = np.uint64(0x1111 << SUIT_SHIFT)  # added to a key, flags suits holding four
RANK_SUM_MASK = np.uint64(0xFFFFFFFF)
HASH_SHIFT = 10
FLUSH_SLOTS = 1 << 13                         # the flush table: one value per 13-bit rank mask
HASH_MASK = (1 << HASH_SHIFT) - 1

_SUIT_SHIFT_0 = np.uint64(0x0008 << 32)
_SUIT_SHIFT_1 = np.uint64(0x0080 << 32)
_SUIT_SHIFT_2 = np.uint64(0x0800 << 32)
_HS = np.uint64(HASH_SHIFT)
_HM = np.uint64(HASH_MASK)


@njit(cache=True, nogil=True)
def flush_suit(key: np.uint64) -> int:
    """Suit (0..3) whose counter in ``key`` reached five cards; call only when flagged."""
    if key & _SUIT_SHIFT_0:
        return 0
    if key & _SUIT_SHIFT_1:
        return 1
    if key & _SUIT_SHIFT_2:
        return 2
    return 3


_FLAG_BIT_0 = np.uint64(SUIT_SHIFT + 3)         # bit of the clubs flag; suit s flags bit 35 + 4*s
_SPADES_FLAG = np.uint64(0x8000 << SUIT_SHIFT)


@njit(cache=True, nogil=True, inline="always")
def flush_shift(key: np.uint64) -> np.uint64:
    """``16 * suit`` of the suit whose counter in ``key`` reached five, spades' 48 when none did: where that
    suit's ranks lie in a suited mask.  No branch (a flush branch mispredicts in 3% of random hands, which
    costs a third of a lookup loop's rate, issue 24)."""
    return (trailing_zeros((key & FLUSH_FLAGS) | _SPADES_FLAG) - _FLAG_BIT_0) << np.uint64(2)


@njit(cache=True, nogil=True, inline="always")
def rank_value(key: np.uint64, T: Tables) -> int:
    """Value of a non-flush hand from its key (rank sum in the low 32 bits)."""
    s = key & RANK_SUM_MASK
    return T.rank_values[T.rank_offsets[s >> _HS] + (s & _HM)]  # all uint64: no wraparound checks


@njit(cache=True, nogil=True)
def suit_ranks(suited: np.uint64, suit: int) -> np.uint64:
    """13-bit rank mask of ``suit`` from a 4x16-bit suited mask (bit 16*suit + rank)."""
    return (suited >> np.uint64(16 * suit)) & np.uint64(0x1FFF)


SUITED_BITS = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], np.uint64)   # each card's suited_bit


@njit(cache=True, nogil=True)
def suited_bit(card: int) -> np.uint64:
    """Bit of a card in the 4x16-bit suited mask."""
    return np.uint64(1) << np.uint64(16 * (card & 3) + (card >> 2))


@njit(cache=True, nogil=True, inline="always")
def flush_ranks(cards: np.ndarray, i: int, suit: int) -> int:
    """13-bit rank mask of the cards of ``suit`` in row ``i`` of ``cards`` (the rare flush's ranks)."""
    ranks = 0
    for j in range(cards.shape[1]):
        c = cards[i, j]
        if c & 3 == suit:
            ranks |= 1 << (c >> 2)
    return ranks


@njit(cache=True, nogil=True)
def evaluate_into(cards: np.ndarray, out: np.ndarray, T: Tables) -> None:
    """Write the value of each row of ``cards`` (n, 5|6|7 card ids) to ``out`` (n,).

    The seven-card key sum is written out as straight-line code (the hot case);
    everything stays in this one function so that nothing is passed per hand.
    """
    n, m = cards.shape
    K, flush_values = T.card_keys, T.flush_values     # locals: the loop keeps them in registers
    for i in range(n):
        if m == 7:
            key = (KEY_BASE + K[cards[i, 0]] + K[cards[i, 1]] + K[cards[i, 2]] + K[cards[i, 3]]
                   + K[cards[i, 4]] + K[cards[i, 5]] + K[cards[i, 6]])
        else:
            key = KEY_BASE
            for j in range(m):
                key += K[cards[i, j]]
        if key & FLUSH_FLAGS:
            out[i] = flush_values[flush_ranks(cards, i, flush_suit(key))]
        else:
            out[i] = rank_value(key, T)


@njit(cache=True, nogil=True)
def evaluate_checked(cards: np.ndarray, out: np.ndarray, T: Tables, lowest: int = 0) -> int:
    """:func:`evaluate_into` and :func:`check_cards` in one pass: the index of the first row holding an id
    outside ``lowest``..51 or a repeated card (that row's value and the later rows' are not written), else -1.

    The checks ride along the key sum: an id is in the deck when it is at most 51 as an unsigned number
    (a negative id wraps above; ``id - lowest`` at most ``51 - lowest`` for a deck without the low ranks,
    :mod:`.decks`), and a row's cards are distinct when the sum of their bits equals their OR (a repeated
    bit carries).  One pass is 1.6x the rate of a check pass then :func:`evaluate_into` (about 200 against
    123 M hands/s), though still about half the bare kernel's (issue 24).
    """
    n, m = cards.shape
    K, flush_values = T.card_keys, T.flush_values     # locals: the loop keeps them in registers
    one = np.uint64(1)
    low = np.uint64(lowest)
    deck = np.uint64(51) - low
    for i in range(n):
        if m == 7:
            c0, c1, c2, c3, c4, c5, c6 = (np.uint64(cards[i, 0]), np.uint64(cards[i, 1]), np.uint64(cards[i, 2]),
                                          np.uint64(cards[i, 3]), np.uint64(cards[i, 4]), np.uint64(cards[i, 5]),
                                          np.uint64(cards[i, 6]))
            if ((c0 - low > deck) | (c1 - low > deck) | (c2 - low > deck) | (c3 - low > deck) | (c4 - low > deck)
                    | (c5 - low > deck) | (c6 - low > deck)):
                return i
            b0, b1, b2, b3, b4, b5, b6 = (one << c0, one << c1, one << c2, one << c3, one << c4, one << c5,
                                          one << c6)
            if b0 + b1 + b2 + b3 + b4 + b5 + b6 != (b0 | b1 | b2 | b3 | b4 | b5 | b6):
                return i
            key = KEY_BASE + K[c0] + K[c1] + K[c2] + K[c3] + K[c4] + K[c5] + K[c6]
        else:
            total = np.uint64(0)
            union = np.uint64(0)
            key = KEY_BASE
            for j in range(m):
                c = np.uint64(cards[i, j])
                if c - low > deck:
                    return i
                b = one << c
                total += b
                union |= b
                key += K[c]
            if total != union:
                return i
        if key & FLUSH_FLAGS:
            out[i] = flush_values[flush_ranks(cards, i, flush_suit(key))]
        else:
            out[i] = rank_value(key, T)
    return -1


@njit(cache=True, nogil=True)
def check_cards(cards: np.ndarray, lowest: int = 0) -> int:
    """Index of the first row holding an id outside ``lowest``..51 or a repeated card, else -1."""
    n, m = cards.shape
    for i in range(n):
        seen = np.uint64(0)
        for j in range(m):
            c = cards[i, j]
            if c < lowest or c > 51:
                return i
            b = np.uint64(1) << np.uint64(c)
            if seen & b:
                return i
            seen |= b
    return -1


@njit(cache=True, nogil=True)
def first_id_outside_deck(cards: np.ndarray, lowest: int = 0) -> int:
    """Index of the first row holding an id outside ``lowest``..51, else -1: the bound check alone.

    An id past the deck would index the tables out of bounds (numba does not
    check), reading stray memory or crashing; this scan costs a fraction of an
    evaluation, so even ``evaluate(..., check=False)`` runs it.  (A rank the deck
    lacks would read a rank-table slot the deck's table does not hold.)
    """
    n, m = cards.shape
    for i in range(n):
        for j in range(m):
            c = cards[i, j]
            if c < lowest or c > 51:
                return i
    return -1


RANK_KEYS = np.array(RANK_MULTIPLIERS, np.uint64)   # a card's key without its suit counter


@njit(cache=True, nogil=True, inline="always")
def hand_value(key: np.uint64, suited: np.uint64, T: Tables) -> int:
    """Value of a complete hand from its key and suited mask."""
    if key & FLUSH_FLAGS:
        return T.flush_values[suit_ranks(suited, flush_suit(key))]
    return rank_value(key, T)


@njit(cache=True, nogil=True)
def board_state(board: np.ndarray, dead_mask: np.uint64, card_keys: np.ndarray) -> tuple:
    """``(key, suited mask, used-card mask)`` of a known board, its key starting from KEY_BASE."""
    key = KEY_BASE
    suited = np.uint64(0)
    used = dead_mask
    for c in board:
        key += card_keys[c]
        suited |= suited_bit(c)
        used |= np.uint64(1) << np.uint64(c)
    return key, suited, used


@njit(cache=True, nogil=True)
def live_cards(used: np.uint64, live: np.ndarray) -> int:
    """Write the ids missing from the ``used`` mask to ``live`` in ascending order; return how many."""
    n = 0
    for c in range(52):
        if not (used >> np.uint64(c)) & np.uint64(1):
            live[n] = c
            n += 1
    return n
