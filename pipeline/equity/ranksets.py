"""Board enumeration by rank multiset, with an exact flush correction.

Without flushes a showdown depends only on the ranks of the board cards, so
all boards sharing a rank multiset have the same outcome.  The kernel
:func:`enumerate_by_ranks`

1. walks every multiset of the missing cards' ranks (at most 6,175 for five
   cards), weighs it by the number of boards that have it —
   ``prod_r C(live cards of rank r, cards of rank r)`` — and scores it once
   with the rank table only;
2. then visits explicitly the boards on which some player can hold a flush —
   suit ``s`` needs ``5 - max_p(cards of s held by p with the known board)``
   new cards of ``s`` — and, for each, replaces the rank-only outcome by the
   true one (score it with weight +1, its rank-only version with weight -1).
   A board reaching the threshold of two suits is visited for the first only.

Heads-up preflop this scores ~6,000 multisets plus 50,000–200,000 flush
boards instead of 1,712,304 boards.  Counts are the same integers as
the card-by-card kernel in ``tests/card_by_card.py`` gives (the tests check both against each
other and against brute force).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.combinatorics import BINOM
from ..core.odometer import next_combination
from ..evaluator.kernels import (
    HASH_MASK,
    HASH_SHIFT,
    KEY_BASE,
    RANK_KEYS,
    RANK_SUM_MASK,
    Tables,
    hand_value,
    rank_value,
    suit_ranks,
    suited_bit,
)
from .scoring import score

HS = np.uint64(HASH_SHIFT)
HM = np.uint64(HASH_MASK)


@njit(cache=True, nogil=True)
def _score_ranks(sums: np.ndarray, add: np.uint64, values: np.ndarray, counts: np.ndarray, mult: int,
                 T: Tables) -> None:
    for p in range(sums.size):
        values[p] = rank_value(sums[p] + add, T)
    score(values, counts, mult)


@njit(cache=True, nogil=True)
def _walk_multisets(avail: np.ndarray, missing: int, sums: np.ndarray, flush: np.ndarray, correct: bool,
                    counts: np.ndarray, weight: int, values: np.ndarray, tvalues: np.ndarray, path: np.ndarray,
                    add: np.ndarray, T: Tables) -> int:
    """Visit every multiset of ``missing`` ranks with at most ``avail[r]`` of rank r.

    Each multiset stands for ``weight * prod_r C(avail[r], k_r)`` boards.  With
    ``correct`` False its rank-only showdown is scored; with ``correct`` True,
    where a player's ``flush`` value beats his rank-only value, the true
    showdown replaces the rank-only one.  Returns the boards visited.

    ``values``, ``tvalues`` (P,) are scratch for the players' rank-only and true
    values; ``path`` (3, 14) int64 and ``add`` (14,) uint64 for the current path
    per rank: the cards taken, the cards still to place and the boards (rows of
    ``path``), and the rank-key sum.
    """
    take, left, ways = path[0], path[1], path[2]
    rank_offsets, rank_values = T.rank_offsets, T.rank_values     # locals: the walk's lookups stay in registers
    P = sums.size
    boards = 0
    left[0] = missing
    add[0] = 0
    ways[0] = weight
    r = 0
    take[0] = -1
    while r >= 0:
        take[r] += 1
        if take[r] > avail[r] or take[r] > left[r]:
            take[r] = -1
            r -= 1
            continue
        k = take[r]
        nl = left[r] - k
        na = add[r] + np.uint64(k) * RANK_KEYS[r]
        nw = ways[r] * BINOM[avail[r], k]
        if nl == 0:
            changed = False
            for p in range(P):
                key = (sums[p] + na) & RANK_SUM_MASK
                v = rank_values[rank_offsets[key >> HS] + (key & HM)]
                values[p] = v
                if correct and flush[p] > v:
                    tvalues[p] = flush[p]
                    changed = True
                else:
                    tvalues[p] = v
            if not correct:
                score(values, counts, nw)
            elif changed:
                score(tvalues, counts, nw)
                score(values, counts, -nw)
            boards += nw
            take[r] = avail[r]          # more of this rank would overshoot: finish it
            continue
        if r == 12:
            continue
        r += 1
        left[r], add[r], ways[r] = nl, na, nw
        take[r] = -1
    return boards


@njit(cache=True, nogil=True, inline="always")
def _suited_boards(take: np.ndarray, top: int, avail: np.ndarray, live_suit: np.ndarray, need: np.ndarray,
                   ranks: np.ndarray, poly: np.ndarray) -> int:
    """Boards of five distinct ranks ``take[0..top]`` on which some suit ``s`` holds ``need[s]`` or more
    cards (0 for a multiset with a repeated rank): per suit, the ways to pick one card of each
    rank by how many are of ``s`` (a rank has at most one live card of ``s``, ``live_suit[s, r]``),
    summed from ``need[s]`` up.  Preflop no board reaches two suits' thresholds (each is at
    least three), so suits add.  ``ranks`` (5,) and ``poly`` (6,) are scratch."""
    d = 0
    for r in range(top + 1):
        if take[r] > 0:
            if take[r] > 1:
                return 0
            ranks[d] = r
            d += 1
    total = 0
    for s in range(4):
        poly[0] = 1
        deg = 0
        for i in range(5):
            r = ranks[i]
            if live_suit[s, r]:                 # (avail - 1) other cards or the card of s
                f0 = avail[r] - 1
                poly[deg + 1] = poly[deg]
                for x in range(deg, 0, -1):
                    poly[x] = poly[x] * f0 + poly[x - 1]
                poly[0] *= f0
                deg += 1
            else:
                f = avail[r]
                for x in range(deg + 1):
                    poly[x] *= f
        for x in range(need[s], deg + 1):
            total += poly[x]
    return total


@njit(cache=True, nogil=True)
def _preflop_by_ranks(keys: np.ndarray, suited: np.ndarray, live: np.ndarray, counts: np.ndarray,
                      T: Tables) -> int:
    """Five missing board cards (preflop), every suit's threshold three or more.

    On a flush board whose five ranks are distinct nobody holds a full house or quads, so the
    best flush wins whatever the other ranks: step 1 leaves those boards out of each rank
    multiset's weight (counted by :func:`_suited_boards`) and step 2 scores them once per set
    of suited cards, the other cards' boards summed, with no lookup.  Paired flush boards are
    scored by ranks in step 1 and corrected in step 2 as :func:`enumerate_by_ranks` does."""
    P = keys.size
    rank_offsets, rank_values, flush_values = T.rank_offsets, T.rank_values, T.flush_values
    values = np.empty(P, np.int32)
    sums = np.empty(P, np.uint64)
    for p in range(P):
        sums[p] = keys[p] & RANK_SUM_MASK
    avail = np.zeros(13, np.int64)
    live_suit = np.zeros((4, 13), np.int64)
    for c in live:
        avail[c >> 2] += 1
        live_suit[c & 3, c >> 2] = 1
    need = np.empty(4, np.int64)
    for s in range(4):
        most = 0
        for p in range(P):
            most = max(most, int(((keys[p] - KEY_BASE) >> np.uint64(32 + 4 * s)) & np.uint64(15)))
        need[s] = 5 - most

    # 1. rank multisets, weighed by their boards without a flush threshold
    ranks5 = np.empty(5, np.int64)
    poly = np.empty(6, np.int64)
    path = np.zeros((3, 14), np.int64)
    add = np.zeros(14, np.uint64)
    take, left, ways = path[0], path[1], path[2]
    boards = 0
    left[0] = 5
    ways[0] = 1
    r = 0
    take[0] = -1
    while r >= 0:
        take[r] += 1
        if take[r] > avail[r] or take[r] > left[r]:
            take[r] = -1
            r -= 1
            continue
        k = take[r]
        nl = left[r] - k
        na = add[r] + np.uint64(k) * RANK_KEYS[r]
        nw = ways[r] * BINOM[avail[r], k]
        if nl == 0:
            plain = nw - _suited_boards(take, r, avail, live_suit, need, ranks5, poly)
            if plain > 0:
                for p in range(P):
                    key = (sums[p] + na) & RANK_SUM_MASK
                    values[p] = rank_values[rank_offsets[key >> HS] + (key & HM)]
                score(values, counts, plain)
            boards += nw
            take[r] = avail[r]
            continue
        if r == 12:
            continue
        r += 1
        left[r], add[r], ways[r] = nl, na, nw
        take[r] = -1

    # 2. each suit's boards with need[s] or more of its cards: the suited cards one set at a time,
    #    the others as rank multisets listed once per suit and size
    flush = np.empty(P, np.int32)
    tvalues = np.empty(P, np.int32)
    suit_cards = np.empty(13, np.int64)
    okeys = np.empty(91, np.uint64)
    oways = np.empty(91, np.int64)
    omask = np.empty(91, np.int64)
    opair = np.empty(91, np.bool_)
    for s in range(4):
        ns = 0
        for c in live:
            if c & 3 == s:
                suit_cards[ns] = c >> 2
                ns += 1
        for k in range(need[s], min(5, ns) + 1):
            j = 5 - k
            no = 0                          # the j other cards' rank multisets (j <= 2)
            if j == 0:
                okeys[0], oways[0], omask[0], opair[0] = 0, 1, 0, False
                no = 1
            for a in range(13):
                ba = avail[a] - live_suit[s, a]
                if j == 1 and ba > 0:
                    okeys[no], oways[no], omask[no], opair[no] = RANK_KEYS[a], ba, 1 << a, False
                    no += 1
                elif j == 2:
                    if ba >= 2:
                        okeys[no], oways[no], omask[no], opair[no] = 2 * RANK_KEYS[a], BINOM[ba, 2], 1 << a, True
                        no += 1
                    for b in range(a + 1, 13):
                        bb = avail[b] - live_suit[s, b]
                        if ba > 0 and bb > 0:
                            okeys[no], oways[no] = RANK_KEYS[a] + RANK_KEYS[b], ba * bb
                            omask[no], opair[no] = (1 << a) | (1 << b), False
                            no += 1
            idx = np.arange(k)              # the suited cards' indices into suit_cards
            while True:
                sk = np.uint64(0)
                smask = 0
                for q in range(k):
                    sk += RANK_KEYS[suit_cards[idx[q]]]
                    smask |= 1 << suit_cards[idx[q]]
                for p in range(P):
                    flush[p] = flush_values[suit_ranks(suited[p], s) | np.uint64(smask)]
                distinct = 0
                for q in range(no):
                    if opair[q] or omask[q] & smask:      # a paired board: full houses and quads can beat a flush
                        changed = False
                        for p in range(P):
                            key = (sums[p] + sk + okeys[q]) & RANK_SUM_MASK
                            v = rank_values[rank_offsets[key >> HS] + (key & HM)]
                            values[p] = v
                            if flush[p] > v:
                                tvalues[p] = flush[p]
                                changed = True
                            else:
                                tvalues[p] = v
                        if changed:                         # step 1 scored it by ranks: replace that
                            score(tvalues, counts, oways[q])
                            score(values, counts, -oways[q])
                    else:
                        distinct += oways[q]
                if distinct > 0:
                    score(flush, counts, distinct)
                if next_combination(idx, ns) < 0:
                    break
    return boards


@njit(cache=True, nogil=True)
def enumerate_by_ranks(keys: np.ndarray, suited: np.ndarray, live: np.ndarray, missing: int,
                       counts: np.ndarray, T: Tables) -> int:
    """Same contract as the card-by-card kernel in ``tests/card_by_card.py``: add every completion's showdown
    to ``counts`` (P, P) (by number of winners, :mod:`.scoring`) and return the number of boards."""
    if missing == 5:
        return _preflop_by_ranks(keys, suited, live, counts, T)
    P = keys.size
    card_keys, flush_values = T.card_keys, T.flush_values     # locals: read in the loops below
    values = np.empty(P, np.int32)
    sums = np.empty(P, np.uint64)
    for p in range(P):
        sums[p] = keys[p] & RANK_SUM_MASK
    avail = np.zeros(13, np.int64)
    for c in live:
        avail[c >> 2] += 1

    # 1. rank multisets
    tvalues = np.empty(P, np.int32)
    flush = np.zeros(P, np.int64)
    path = np.zeros((3, 14), np.int64)
    add = np.zeros(14, np.uint64)
    boards = _walk_multisets(avail, missing, sums, flush, False, counts, 1, values, tvalues, path, add, T)

    # 2. flush boards: true outcome replaces the rank-only one
    held = np.zeros((P, 4), np.int64)
    for p in range(P):
        key = keys[p] - KEY_BASE
        for s in range(4):
            held[p, s] = (key >> np.uint64(32 + 4 * s)) & np.uint64(15)
    need = np.full(4, 99, np.int64)
    for s in range(4):
        most = 0
        for p in range(P):
            most = max(most, held[p, s])
        need[s] = 5 - most
    suit_cards = np.empty(13, np.uint8)
    other_cards = np.empty(52, np.uint8)
    board = np.empty(5, np.uint8)
    tkeys = np.empty(P, np.uint64)
    tsuited = np.empty(P, np.uint64)
    for s in range(4):
        if need[s] > missing:
            continue
        ns = 0
        no = 0
        for c in live:
            if c & 3 == s:
                suit_cards[ns] = c
                ns += 1
            else:
                other_cards[no] = c
                no += 1
        # Can a board with need[s] cards of s also reach another suit's threshold?  If
        # not, the other cards matter by rank only and are walked as rank multisets.
        lone = True
        for t in range(4):
            if t != s and need[t] <= missing - max(need[s], 0):
                lone = False
        avail_o = np.zeros(13, np.int64)
        if lone:
            for q in range(no):
                avail_o[other_cards[q] >> 2] += 1
        for k in range(max(need[s], 0), min(missing, ns) + 1):
            j = missing - k
            if j > no:
                continue
            i1 = np.arange(k)
            while True:                     # each set of k cards of suit s
                if lone:                    # the j others by rank multiset, scored where a flush changes them
                    sk = np.uint64(0)
                    sranks = np.uint64(0)
                    for q in range(k):
                        c = suit_cards[i1[q]]
                        sk += RANK_KEYS[c >> 2]
                        sranks |= np.uint64(1) << np.uint64(c >> 2)
                    anyflush = False
                    for p in range(P):
                        flush[p] = flush_values[suit_ranks(suited[p], s) | sranks]
                        if flush[p]:
                            anyflush = True
                    if anyflush:
                        for p in range(P):
                            tkeys[p] = sums[p] + sk
                        _walk_multisets(avail_o, j, tkeys, flush, True, counts, 1, values, tvalues, path, add, T)
                else:                       # each set of j others, card by card
                    i2 = np.arange(j)
                    while True:
                        for q in range(k):
                            board[q] = suit_cards[i1[q]]
                        for q in range(j):
                            board[k + q] = other_cards[i2[q]]
                        # count cards per suit on this board: skip if an earlier suit reaches its threshold
                        earlier = False
                        for t in range(s):
                            n_t = 0
                            for q in range(missing):
                                if board[q] & 3 == t:
                                    n_t += 1
                            if n_t >= need[t]:
                                earlier = True
                                break
                        if not earlier:
                            bk = np.uint64(0)
                            bs = np.uint64(0)
                            for q in range(missing):
                                bk += card_keys[board[q]]
                                bs |= suited_bit(board[q])
                            for p in range(P):
                                tkeys[p] = keys[p] + bk
                                tsuited[p] = suited[p] | bs
                                values[p] = hand_value(tkeys[p], tsuited[p], T)
                            score(values, counts, 1)
                            _score_ranks(sums, bk & RANK_SUM_MASK, values, counts, -1, T)
                        if j == 0 or next_combination(i2, no) < 0:
                            break
                if k == 0 or next_combination(i1, ns) < 0:
                    break
    return boards
