"""An independent exact kernel for the tests: every board completion, card by card.

The library's exact calculator enumerates boards by rank multiset
(:mod:`pipeline.equity.ranksets`); this kernel, a different method with the
same contract, checks it.  Counts are as in :mod:`pipeline.equity.scoring`.

Boards are enumerated as combinations of the live cards (ascending ids).  All
but the last board card form a *partial* board, scored once per partial; the
innermost loop over the last card then costs, per player, one key addition and
two table lookups with no branch:

* the rank table gives the best hand ignoring suits;
* six cards (hole + partial board) hold four or more of at most one suit, so
  the only flush the seventh card can make is in that suit: its 13-bit rank
  mask (plus the last card's rank when suits match) indexes the flush table,
  whose entries are 0 below five cards;
* the hand's value is the larger of the two (quads and full houses outrank a
  flush; a flush outranks everything the rank table gives otherwise).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.equity.scoring import score
from pipeline.evaluator.kernels import (
    DRAW_FLAGS,
    FLUSH_FLAGS,
    RANK_KEYS,
    RANK_SUM_MASK,
    Tables,
    flush_suit,
    hand_value,
    rank_value,
    suit_ranks,
    suited_bit,
)

NO_SUIT = 4
POP4 = np.array([bin(x).count('1') for x in range(16)], np.int64)        # bits set in a 4-bit suit mask
LOW4 = np.array([(x & -x).bit_length() - 1 for x in range(16)], np.int64)  # its lowest suit


@njit(cache=True, nogil=True)
def _last_card_value(rank_sum, draw_suit, draw_ranks, c, ck, T):
    r = rank_value(rank_sum + ck, T)
    rbit = np.uint64(1) << np.uint64(c >> 2)
    same = np.uint64(0) - np.uint64((c & 3) == draw_suit)  # all ones when the suits match
    f = T.flush_values[draw_ranks | (rbit & same)]
    return max(r, f)


@njit(cache=True, nogil=True)
def _pair_score(v0, v1, mult, acc):
    """Heads-up: add ``mult`` boards to ``acc`` = [hero wins, villain wins], without branches."""
    acc[0] += mult * (v0 > v1)
    acc[1] += mult * (v1 > v0)


@njit(cache=True, nogil=True)
def enumerate_boards(keys: np.ndarray, suited: np.ndarray, live: np.ndarray, missing: int,
                     counts: np.ndarray, T: Tables) -> int:
    """Score every completion of the board with ``missing`` (0..5) cards from ``live``.

    ``keys``/``suited`` (P,) are each player's key and suited mask over hole cards
    plus the known board; ``live`` the cards that may come, ascending.  Adds to
    ``counts`` (P, P) by number of winners; returns the number of boards.

    The last board card is grouped by rank: cards of one rank whose suit is no
    player's four-flush suit all give the same showdown, which is scored once
    and counted as many times; cards of a four-flush suit are scored one by one.
    """
    P = keys.size
    n = live.size
    values = np.empty(P, np.int32)
    if missing == 0:
        for p in range(P):
            values[p] = hand_value(keys[p], suited[p], T)
        score(values, counts, 1)
        return 1
    live_mask = np.uint64(0)
    for j in range(n):
        live_mask |= np.uint64(1) << np.uint64(live[j])
    r = missing - 1                      # cards in the partial board
    idx = np.arange(r)                   # current partial: live[idx[0]] < ... < live[idx[r-1]]
    pre_key = np.zeros(r + 1, np.uint64)     # pre_key[d]: key of live[idx[0..d-1]]
    pre_suited = np.zeros(r + 1, np.uint64)
    sums = np.empty(P, np.uint64)        # rank sums of the six known cards
    dsuit = np.empty(P, np.int64)        # suit of a four-flush among them (NO_SUIT if none)
    dranks = np.empty(P, np.uint64)      # its ranks
    dflush = np.empty(P, np.int64)       # flush value without the last card (0 below five)
    acc = np.zeros(2, np.int64)
    boards = 0
    changed = 0                          # first level of idx whose prefix needs recomputing
    while True:
        for d in range(changed, r):
            c = live[idx[d]]
            pre_key[d + 1] = pre_key[d] + T.card_keys[c]
            pre_suited[d + 1] = pre_suited[d] | suited_bit(c)
        pk = pre_key[r]
        ps = pre_suited[r]
        draw_suits = 0                   # 4-bit mask of the players' four-flush suits
        for p in range(P):
            key = keys[p] + pk
            sums[p] = key & RANK_SUM_MASK
            if (key + DRAW_FLAGS) & FLUSH_FLAGS:   # some suit holds four of the six cards
                ds = flush_suit(key + DRAW_FLAGS)
                dsuit[p] = ds
                dranks[p] = suit_ranks(suited[p] | ps, ds)
                dflush[p] = T.flush_values[dranks[p]]
                draw_suits |= 1 << ds
            else:
                dsuit[p] = NO_SUIT
                dranks[p] = 0
                dflush[p] = 0
        first = idx[r - 1] + 1 if r > 0 else 0
        first_card = live[first]
        acc[0] = 0
        acc[1] = 0
        for rank in range(first_card >> 2, 13):
            suits = (live_mask >> np.uint64(4 * rank)) & np.uint64(15)
            if rank == first_card >> 2:
                suits &= np.uint64(15) << np.uint64(first_card & 3)   # only cards after the partial
            if suits == 0:
                continue
            ck = np.uint64(RANK_KEYS[rank])
            plain = POP4[suits & ~np.uint64(draw_suits)]
            if plain:                    # suits that make nobody a flush: one showdown
                for p in range(P):
                    values[p] = max(rank_value(sums[p] + ck, T), dflush[p])
                if P == 2:
                    _pair_score(values[0], values[1], plain, acc)
                else:
                    score(values, counts, plain)
            drawn = suits & np.uint64(draw_suits)
            while drawn:                 # a four-flush suit: each card on its own
                s = LOW4[drawn]
                drawn &= drawn - np.uint64(1)
                c = 4 * rank + s
                for p in range(P):
                    values[p] = _last_card_value(sums[p], dsuit[p], dranks[p], c, ck,
                                                 T)
                if P == 2:
                    _pair_score(values[0], values[1], 1, acc)
                else:
                    score(values, counts, 1)
        nb = n - first
        if P == 2:
            t = nb - acc[0] - acc[1]
            counts[0, 0] += acc[0]
            counts[1, 0] += acc[1]
            counts[0, 1] += t
            counts[1, 1] += t
        boards += nb
        # next partial: combinations of r indices from 0..n-2 (the last card comes after)
        i = r - 1
        while i >= 0 and idx[i] == n - 1 - r + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for q in range(i + 1, r):
            idx[q] = idx[q - 1] + 1
        changed = i
    return boards
