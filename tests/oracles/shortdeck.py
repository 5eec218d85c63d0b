"""An independent short-deck (6+) evaluator and brute-force enumerator for tests.

Nothing here is shared with the engine's tables or kernels: a hand's ranks and suits are counted the way a
rule book describes the game — a flush beats a full house, A-6-7-8-9 is the lowest straight, and a straight
beats three of a kind unless ``trips_over_straight`` (the Six Plus ranking) — and the best hand is the
largest code ``tier << 20 | five tiebreak ranks, 4 bits each``.  :func:`best_code` works on any 5..7 cards
in numba (the brute-force enumerations below run it on millions of hands); :func:`rank5` is a plain Python
version on five cards, for a second opinion.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
from numba import njit

# categories as the book names them, and each ranking's order from weakest to strongest
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
POKERKIT_ORDER = np.array([HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FULL_HOUSE, FLUSH, QUADS, STRAIGHT_FLUSH])
TRIPS_ORDER = np.array([HIGH, PAIR, TWO_PAIR, STRAIGHT, TRIPS, FULL_HOUSE, FLUSH, QUADS, STRAIGHT_FLUSH])
SHORT_CARDS = np.arange(16, 52)          # 6c .. As


def tiers(order: np.ndarray) -> np.ndarray:
    """Category -> its place in ``order``."""
    out = np.empty(9, np.int64)
    out[order] = np.arange(9)
    return out


@njit(cache=True)
def _straight_top(mask: int) -> int:
    """Top rank of the best straight in a rank mask of the short deck (ranks 4..12), or -1."""
    for top in range(12, 7, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    wheel = (1 << 12) | (0b1111 << 4)     # A-6-7-8-9: the nine (rank 7) on top
    if mask & wheel == wheel:
        return 7
    return -1


@njit(cache=True)
def _pack(tier: int, r: np.ndarray, n: int) -> int:
    code = tier
    for i in range(5):
        code = code * 16 + (r[i] if i < n else 0)
    return code


@njit(cache=True)
def best_code(cards: np.ndarray, tier_of: np.ndarray) -> int:
    """The best hand of 5..7 short-deck cards as a comparable code (``tier_of``: category -> tier)."""
    return _best_code(cards, tier_of, np.zeros(13, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
                      np.zeros(5, np.int64))


@njit(cache=True)
def _best_code(cards: np.ndarray, tier_of: np.ndarray, count: np.ndarray, suit_mask: np.ndarray,
               suit_count: np.ndarray, tb: np.ndarray) -> int:
    """:func:`best_code` with its scratch arrays given (zeros on entry; left dirty)."""
    for c in cards:
        count[c // 4] += 1
        suit_mask[c % 4] |= 1 << (c // 4)
        suit_count[c % 4] += 1
    best = -1
    for s in range(4):
        if suit_count[s] >= 5:
            top = _straight_top(suit_mask[s])
            if top >= 0:
                tb[0] = top
                best = max(best, _pack(tier_of[STRAIGHT_FLUSH], tb, 1))
            else:
                n = 0
                for r in range(12, -1, -1):
                    if suit_mask[s] >> r & 1 and n < 5:
                        tb[n] = r
                        n += 1
                best = max(best, _pack(tier_of[FLUSH], tb, 5))
    present = 0
    for r in range(13):
        if count[r]:
            present |= 1 << r
    top = _straight_top(present)
    if top >= 0:
        tb[0] = top
        best = max(best, _pack(tier_of[STRAIGHT], tb, 1))
    quad = trip = pair1 = pair2 = -1
    for r in range(12, -1, -1):
        if count[r] == 4 and quad < 0:
            quad = r
        elif count[r] == 3 and trip < 0:
            trip = r
        elif count[r] >= 2:              # a second set of trips plays as a pair
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
    if quad >= 0:
        tb[0] = quad
        for r in range(12, -1, -1):
            if count[r] and r != quad:
                tb[1] = r
                break
        best = max(best, _pack(tier_of[QUADS], tb, 2))
    if trip >= 0 and pair1 >= 0:
        tb[0], tb[1] = trip, pair1
        best = max(best, _pack(tier_of[FULL_HOUSE], tb, 2))
    if trip >= 0:
        tb[0] = trip
        n = 1
        for r in range(12, -1, -1):
            if count[r] and r != trip and n < 3:
                tb[n] = r
                n += 1
        best = max(best, _pack(tier_of[TRIPS], tb, 3))
    if pair1 >= 0 and pair2 >= 0:
        tb[0], tb[1] = pair1, pair2
        for r in range(12, -1, -1):
            if count[r] and r != pair1 and r != pair2:
                tb[2] = r
                break
        best = max(best, _pack(tier_of[TWO_PAIR], tb, 3))
    if pair1 >= 0:
        tb[0] = pair1
        n = 1
        for r in range(12, -1, -1):
            if count[r] and r != pair1 and n < 4:
                tb[n] = r
                n += 1
        best = max(best, _pack(tier_of[PAIR], tb, 4))
    n = 0
    for r in range(12, -1, -1):
        if count[r] and n < 5:
            tb[n] = r
            n += 1
    if n == 5:
        best = max(best, _pack(tier_of[HIGH], tb, 5))
    return best


@njit(cache=True)
def showdown_counts(hands: np.ndarray, board: np.ndarray, tier_of: np.ndarray) -> np.ndarray:
    """Brute force over every completion of ``board`` from the short deck: (P, 2) sole wins and shared pots of
    each of the ``hands`` (P, 2), plus (P,) pot shares in units of 1/2520 in a third column."""
    P = hands.shape[0]
    used = np.zeros(52, np.bool_)
    for c in board:
        used[c] = True
    for p in range(P):
        used[hands[p, 0]] = used[hands[p, 1]] = True
    live = np.array([c for c in range(16, 52) if not used[c]])
    k = 5 - board.size
    out = np.zeros((P, 3), np.int64)
    full = np.empty(7, np.int64)
    codes = np.empty(P, np.int64)
    idx = np.arange(k)
    while True:
        for p in range(P):
            full[0], full[1] = hands[p, 0], hands[p, 1]
            for i in range(board.size):
                full[2 + i] = board[i]
            for i in range(k):
                full[2 + board.size + i] = live[idx[i]]
            codes[p] = best_code(full, tier_of)
        top = codes.max()
        winners = 0
        for p in range(P):
            winners += codes[p] == top
        for p in range(P):
            if codes[p] == top:
                out[p, 0 if winners == 1 else 1] += 1
                out[p, 2] += 2520 // winners
        if k == 0:
            break
        i = k - 1
        while i >= 0 and idx[i] == live.size - k + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
    return out


def rank5(cards: list[int], trips_over_straight: bool = False) -> tuple:
    """Five short-deck cards as a comparable tuple, plain Python: ``(tier, ranks...)``."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape, order = [n for _, n in groups], tuple(r for r, _ in groups)
    distinct = sorted(set(ranks), reverse=True)
    top = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        top = distinct[0]
    elif distinct == [12, 7, 6, 5, 4]:
        top = 7
    names = {"sf": 8, "quads": 7, "flush": 6, "full": 5, "straight": 4 - trips_over_straight,
             "trips": 3 + trips_over_straight, "two pair": 2, "pair": 1, "high": 0}
    if top is not None and flush:
        return (names["sf"], top)
    if shape == [4, 1]:
        return (names["quads"],) + order
    if flush:
        return (names["flush"],) + tuple(ranks)
    if shape == [3, 2]:
        return (names["full"],) + order
    if top is not None:
        return (names["straight"], top)
    if shape == [3, 1, 1]:
        return (names["trips"],) + order
    if shape == [2, 2, 1]:
        return (names["two pair"],) + order
    if shape == [2, 1, 1, 1]:
        return (names["pair"],) + order
    return (names["high"],) + tuple(ranks)


def best_hand(cards: list[int], trips_over_straight: bool = False) -> tuple:
    """Best five of 5..7 short-deck cards by :func:`rank5`."""
    return max(rank5(list(c), trips_over_straight) for c in combinations(cards, 5))


@njit(cache=True)
def all_hands(k: int) -> np.ndarray:
    """Every hand of ``k`` cards of the 36-card deck, (C(36, k), k) uint8 ids in lexicographic order."""
    n = 1
    for i in range(k):
        n = n * (36 - i) // (i + 1)
    out = np.empty((n, k), np.uint8)
    idx = np.arange(k)
    for row in range(n):
        for i in range(k):
            out[row, i] = 16 + idx[i]
        i = k - 1
        while i >= 0 and idx[i] == 36 - k + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
    return out


@njit(cache=True)
def codes_of(hands: np.ndarray, tier_of: np.ndarray) -> np.ndarray:
    """:func:`best_code` of each row of ``hands``."""
    out = np.empty(hands.shape[0], np.int64)
    count, suit_mask, suit_count, tb = (np.zeros(13, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
                                        np.zeros(5, np.int64))
    for i in range(hands.shape[0]):
        count[:] = 0
        suit_mask[:] = 0
        suit_count[:] = 0
        out[i] = _best_code(hands[i], tier_of, count, suit_mask, suit_count, tb)
    return out


def categories(codes: np.ndarray, order: np.ndarray = POKERKIT_ORDER) -> np.ndarray:
    """Hands in each category (9,) of an array of :func:`best_code` codes."""
    return np.bincount(order[codes >> 20], minlength=9)
