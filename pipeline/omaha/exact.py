"""Exact Omaha equity: every completion of the board, for every deal of the players' ranges.

For one deal (a hand per player) each board is summarised once
(:func:`.kernels.board_classes`) and every player's value is a few lookups of the
hole pairs he summarised once before the loop (:func:`.kernels.hole_pairs`); the
showdown goes into the integer tally of :mod:`.showdown`.  Ranges are dealt by
enumerating the *assignments* (a hand per player, no card shared) between
``start`` and ``stop`` of the odometer over the players' hands, each weighted by
the product of its hands' weights: integers stay integers (``tally``), the weighted
sums go beside them (``wtally``), so unweighted ranges give exact rationals.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.odometer import next_combination
from ..evaluator.kernels import HASH_MASK, HASH_SHIFT, RANK_SUM_MASK
from .kernels import LOW_BIT, add_card, classify, flush_value, high_value, hole_pairs, low_value, nonflush_values
from .showdown import score_board
from .tables import BOARD_CLASSES, OmahaTables

_HS = np.uint64(HASH_SHIFT)
_HM = np.uint64(HASH_MASK)


BINOMIAL = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]], np.int64)


@njit(cache=True, nogil=True)
def _walk(cols: np.ndarray, suits: np.ndarray, lows: np.ndarray, n: int, known: np.ndarray, deck: np.ndarray,
          hilo: bool, unit: int, OT: OmahaTables, tally: np.ndarray, nonflush: np.ndarray) -> int:
    """Score every board completing ``known`` from ``deck``, walked lexicographically with the sums of
    its first cards kept per depth (:func:`.kernels.add_card`: a step costs one card, not five).
    With ``nonflush`` tabled (P, 6175) a hand's non-flush value is one lookup."""
    P = cols.shape[0]
    nk = known.size
    m = 5 - nk
    L = deck.size
    if m > L:
        return 0
    tabled = nonflush.shape[1] == BOARD_CLASSES
    sums = np.zeros(m + 1, np.uint64)
    suiteds = np.zeros(m + 1, np.uint64)
    lowsets = np.zeros(m + 1, np.int64)
    s, su, lo = np.uint64(0), np.uint64(0), 0
    for q in range(nk):
        s, su, lo = add_card(known[q], s, su, lo, OT)
    sums[0], suiteds[0], lowsets[0] = s, su, lo
    idx = np.arange(m)
    high = np.zeros(P, np.int64)
    low = np.zeros(P, np.int64)
    boards = 0
    depth = 0                       # the sums of cards idx[:depth] are current
    while True:
        for j in range(depth, m):
            sums[j + 1], suiteds[j + 1], lowsets[j + 1] = add_card(deck[idx[j]], sums[j], suiteds[j], lowsets[j], OT)
        bclass, fsuit, fclass, low_set = classify(sums[m], suiteds[m], lowsets[m], OT)
        for p in range(P):
            if tabled:
                high[p] = max(nonflush[p, bclass], flush_value(cols, suits, p, n, fsuit, fclass, OT))
            else:
                high[p] = high_value(cols, suits, p, n, bclass, fsuit, fclass, OT)
        if hilo:
            for p in range(P):
                low[p] = low_value(lows, p, n, low_set, OT)
        score_board(high, low, hilo, unit, tally, 1)
        boards += 1
        # the next board: core.odometer.next_combination's step, written out here because this loop
        # takes it once a board and the call costs ~5% of a flop's walk (measured; inline="always" ~15%)
        j = m - 1
        while j >= 0 and idx[j] == L - m + j:
            j -= 1
        if j < 0:
            return boards
        idx[j] += 1
        for q in range(j + 1, m):
            idx[q] = idx[q - 1] + 1
        depth = j


@njit(cache=True, nogil=True)
def _suited_boards(suited: np.ndarray, live_others: np.ndarray, rest: int, cols: np.ndarray, lows: np.ndarray,
                   n: int, hilo: bool, unit: int, OT: OmahaTables, tally: np.ndarray, nonflush: np.ndarray,
                   seen: np.ndarray, flushes: np.ndarray) -> int:
    """The boards made of the flush suit's cards ``suited`` (3 to 5) and ``rest`` cards of the other
    suits: no other suit reaches three, so a board's outcome depends on its rank class alone, and
    the boards of each choice of ``rest`` ranks (``C(live_others[r], count)`` multiplied out) are
    scored at once — at most 91 rank choices instead of C(33, 2) = 528 boards."""
    P = cols.shape[0]
    s0 = np.uint64(0)
    low0 = 0
    for c in suited:
        s0 += OT.card_keys[c]
        low0 |= LOW_BIT[c >> 2]
    high = np.zeros(P, np.int64)
    low = np.zeros(P, np.int64)
    boards = 0
    r1_end = 13 if rest >= 1 else 1
    for r1 in range(r1_end):
        for r2 in range(r1 if rest == 2 else 0, 13 if rest == 2 else 1):
            if rest == 0:
                count, s, lowset = 1, s0, low0
            elif rest == 1:
                count = live_others[r1]
                s, lowset = s0 + OT.card_keys[4 * r1], low0 | LOW_BIT[r1]
            elif r1 == r2:
                count = BINOMIAL[live_others[r1], 2]
                s, lowset = s0 + OT.card_keys[4 * r1] + OT.card_keys[4 * r1], low0 | LOW_BIT[r1]
            else:
                count = live_others[r1] * live_others[r2]
                s, lowset = s0 + OT.card_keys[4 * r1] + OT.card_keys[4 * r2], low0 | LOW_BIT[r1] | LOW_BIT[r2]
            if count == 0:
                continue
            r = s & RANK_SUM_MASK
            bclass = OT.board_index[OT.rank_offsets[r >> _HS] + (r & _HM)]
            seen[bclass] += count
            for p in range(P):
                high[p] = max(nonflush[p, bclass], flushes[p])
                low[p] = low_value(lows, p, n, lowset, OT) if hilo else 0
            score_board(high, low, hilo, unit, tally, count)
            boards += count
    return boards


@njit(cache=True, nogil=True)
def deal_tally(holes: np.ndarray, known: np.ndarray, deck: np.ndarray, hilo: bool, unit: int,
               OT: OmahaTables, tally: np.ndarray) -> int:
    """Add every board completing ``known`` from ``deck`` for the hands ``holes`` (P, k) to
    ``tally``; returns the number of boards.

    Preflop, boards are scored by rank class instead of one by one.  A board's low and every
    non-flush value depend on its rank class only (each hand's non-flush value is tabled over the
    6,175 classes first), and a flush needs three board cards of a suit in which some hand holds
    two.  So for each such *flush suit* and each choice of its 3 to 5 board cards — which fixes
    every hand's flush — the other-suit cards are counted by rank (:func:`_suited_boards`); every
    remaining board is scored once per class, ``C(live cards of each rank, its count)`` multiplied
    out less the flush boards counted.  Heads-up double-suited hands cost about 1/100 of a walk
    over the 1,086,008 boards, rainbow hands less."""
    P, k = holes.shape
    n = k * (k - 1) // 2
    cols = np.empty((P, 15), np.int64)
    suits = np.empty((P, 15), np.int64)
    lows = np.empty((P, 15), np.int64)
    for p in range(P):
        hole_pairs(holes[p], p, cols, suits, lows)
    if known.size or deck.size < 5:
        return _walk(cols, suits, lows, n, known, deck, hilo, unit, OT, tally, np.zeros((P, 1), np.uint16))
    nonflush = np.zeros((P, BOARD_CLASSES), np.uint16)
    for p in range(P):
        nonflush_values(cols, p, n, OT, nonflush[p])
    seen = np.zeros(BOARD_CLASSES, np.int64)
    boards = 0
    for u in range(4):
        relevant = False
        for p in range(P):
            for j in range(n):
                if suits[p, j] == u:
                    relevant = True
        if not relevant:
            continue
        du = np.array([c for c in deck if c & 3 == u], np.int64)
        live_others = np.zeros(13, np.int64)
        for c in deck:
            if c & 3 != u:
                live_others[c >> 2] += 1
        for size in range(3, min(5, du.size) + 1):
            idx = np.arange(size)
            flushes = np.zeros(P, np.int64)
            while True:
                mask = 0
                for q in range(size):
                    mask |= 1 << (du[idx[q]] >> 2)
                for p in range(P):                # the flush suit's cards are these: one flush value a hand
                    flushes[p] = flush_value(cols, suits, p, n, u, OT.flush_index[mask], OT)
                boards += _suited_boards(du[idx], live_others, 5 - size, cols, lows, n, hilo, unit, OT, tally,
                                         nonflush, seen, flushes)
                if next_combination(idx, du.size) < 0:
                    break
    live = np.zeros(13, np.int64)
    for c in deck:
        live[c >> 2] += 1
    high = np.zeros(P, np.int64)
    low = np.zeros(P, np.int64)
    for b in range(BOARD_CLASSES):
        count = 1
        q = 0
        while q < 5:
            r = OT.board_ranks[b, q]
            e = q
            while e < 5 and OT.board_ranks[b, e] == r:
                e += 1
            count *= BINOMIAL[live[r], e - q] if e - q <= live[r] else 0
            q = e
        count -= seen[b]
        if count <= 0:
            continue
        for p in range(P):
            high[p] = nonflush[p, b]
            low[p] = low_value(lows, p, n, OT.board_low[b], OT) if hilo else 0
        score_board(high, low, hilo, unit, tally, count)
        boards += count
    return boards


@njit(cache=True, nogil=True)
def _assignment(number: int, sizes: np.ndarray, offsets: np.ndarray, out: np.ndarray) -> None:
    """Hand indices of assignment ``number`` of the odometer (last player fastest)."""
    for p in range(sizes.size - 1, -1, -1):
        out[p] = offsets[p] + number % sizes[p]
        number //= sizes[p]


@njit(cache=True, nogil=True)
def assignments_tally(start: int, stop: int, hands: np.ndarray, weights: np.ndarray, masks: np.ndarray,
                      offsets: np.ndarray, used: np.uint64, known: np.ndarray, hilo: bool, unit: int,
                      OT: OmahaTables, tally: np.ndarray, wtally: np.ndarray) -> tuple:
    """Enumerate assignments ``start..stop-1`` (player ``p``'s hands ``hands[offsets[p]:offsets[p+1]]``):
    those sharing no card with each other or ``used`` are scored over every board.  Returns
    ``(boards, weighted boards)``."""
    P = offsets.size - 1
    k = hands.shape[1]
    sizes = offsets[1:] - offsets[:-1]
    pick = np.empty(P, np.int64)
    holes = np.empty((P, k), np.int64)
    local = np.zeros_like(tally)
    boards = 0
    wboards = 0.0
    deck = np.empty(52, np.int64)
    for a in range(start, stop):
        _assignment(a, sizes, offsets, pick)
        m = used
        w = 1.0
        ok = True
        for p in range(P):
            hm = masks[pick[p]]
            if hm & m:
                ok = False
                break
            m |= hm
            w *= weights[pick[p]]
            holes[p] = hands[pick[p]]
        if not ok:
            continue
        L = 0
        for c in range(52):
            if not (m >> np.uint64(c)) & np.uint64(1):
                deck[L] = c
                L += 1
        local[:] = 0
        nb = deal_tally(holes, known, deck[:L], hilo, unit, OT, local)
        tally += local
        wtally += w * local
        boards += nb
        wboards += w * nb
    return boards, wboards
