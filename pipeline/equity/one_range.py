"""Exact equity after the flop of one range against specific hands, counted by rank pairs.

When every player but one holds a specific hand (``AhKh`` against ``22+`` on
``Qh7h2c``), a deal is one combo of the range and a runout, and the fixed
hands are the same on every deal.  On a runout where nobody can make a flush,
every hand's value depends on ranks alone: the fixed hands' best value, and the
value of each *rank pair* of the range (13 for ``22+``, at most 91), are the
same on every runout of the same ranks.  So, per class of runout ranks (at
most 91 on a flop), each rank pair of the range is compared once with the
fixed hands, giving how many of the range's live combos win, tie and lose; a
runout takes that class's totals and takes out, by inclusion–exclusion, the
combos holding one of its cards (per card and rank pair counts, the combo of
both cards added back).

On a runout where a flush is possible (three or more of one suit on the
board), the fixed hands are valued one by one, each rank pair is compared with
their best value, and only the combos that can make the flush — two cards of
the suit with three on the board, one with four — are valued whole, taking
the place of their rank pair's value (with five of a suit on the board every
live combo is valued whole).  A 7-card hand holding a flush holds no full house
or quads, so a combo that cannot make the flush has its ranks' value.

The counts are the integers of :mod:`.exact` and :mod:`.runouts`, checked
against a plain brute force in ``tests/equity/test_one_range.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluator.kernels import (
    FLUSH_FLAGS,
    RANK_KEYS,
    RANK_SUM_MASK,
    board_state,
    flush_suit,
    live_cards,
    suit_ranks,
    suited_bit,
)
from .ranksets import HM, HS


@njit(cache=True, nogil=True, inline="always")
def rank_sum_value(rs: np.uint64, rank_offsets: np.ndarray, rank_values: np.ndarray) -> int:
    """Value of a flush-free hand from its rank-key sum (the evaluator's lookup, on the bare arrays)."""
    return rank_values[rank_offsets[rs >> HS] + (rs & HM)]


@njit(cache=True, nogil=True, inline="always")
def key_value(key: np.uint64, suited: np.uint64, rank_offsets: np.ndarray, rank_values: np.ndarray,
              flush_values: np.ndarray) -> int:
    """Value of a 7-card hand from its key and suited mask (:func:`..evaluator.kernels.hand_value`)."""
    if key & FLUSH_FLAGS:
        return flush_values[suit_ranks(suited, flush_suit(key))]
    return rank_sum_value(key & RANK_SUM_MASK, rank_offsets, rank_values)


@njit(cache=True, nogil=True)
def _combo_tables(combos: np.ndarray, weights: np.ndarray, used: np.uint64, K: np.ndarray) -> tuple:
    """The live combos (none touching ``used``) and what scoring them by rank pair needs:

    - ``live`` (L,) their rows in ``combos``, and ``ckey``, ``csuited``, ``cw`` their keys, suited masks and
      weights;
    - ``group`` (L,) each one's rank pair (0..U-1), ``pair_rs`` (U,) that pair's rank-key sum, ``n_u`` and
      ``w_u`` (U,) the live combos of each pair and their weight;
    - per card, the rank pairs of the live combos holding it, compressed: entries ``card_start[c]`` to
      ``card_start[c + 1]`` of ``card_u`` (pair), ``card_d`` (combos) and ``card_w`` (their weight);
    - ``both`` (52, 52) the live combo of two given cards, or -1;
    - ``by_suit`` (4, L): per suit, the live combos holding two of its cards, then one, then none; the
      first ``n2[s]`` make a flush with three of the suit on the board, the first ``n12[s]`` with four.
    """
    one = np.uint64(1)
    n = combos.shape[0]
    live = np.empty(n, np.int64)
    group = np.empty(n, np.int64)
    slot = np.full(169, -1, np.int64)
    pair_rs = np.empty(91, np.uint64)
    U = 0
    L = 0
    for i in range(n):
        a, b = combos[i, 0], combos[i, 1]
        if ((one << np.uint64(a)) | (one << np.uint64(b))) & used:
            continue
        code = 13 * max(a >> 2, b >> 2) + min(a >> 2, b >> 2)
        if slot[code] < 0:
            slot[code] = U
            pair_rs[U] = RANK_KEYS[a >> 2] + RANK_KEYS[b >> 2]
            U += 1
        live[L] = i
        group[L] = slot[code]
        L += 1
    n_u = np.zeros(U, np.int64)
    w_u = np.zeros(U)
    deg = np.zeros((52, 13), np.int64)          # per card and the other card's rank: live combos, weight
    wdeg = np.zeros((52, 13))
    both = np.full((52, 52), -1, np.int64)
    ckey = np.empty(L, np.uint64)
    csuited = np.empty(L, np.uint64)
    cw = np.empty(L)
    n2 = np.zeros(4, np.int64)
    n12 = np.zeros(4, np.int64)
    for j in range(L):
        i = live[j]
        a, b = combos[i, 0], combos[i, 1]
        w = weights[i]
        cw[j] = w
        n_u[group[j]] += 1
        w_u[group[j]] += w
        deg[a, b >> 2] += 1
        deg[b, a >> 2] += 1
        wdeg[a, b >> 2] += w
        wdeg[b, a >> 2] += w
        both[a, b] = j
        both[b, a] = j
        ckey[j] = K[a] + K[b]
        csuited[j] = suited_bit(a) | suited_bit(b)
        if (a & 3) == (b & 3):
            n2[a & 3] += 1
        else:
            n12[a & 3] += 1
            n12[b & 3] += 1
    by_suit = np.empty((4, L), np.int64)
    for s in range(4):
        n12[s] += n2[s]
        k2, k1, k0 = 0, n2[s], n12[s]
        for j in range(L):
            i = live[j]
            h = ((combos[i, 0] & 3) == s) + ((combos[i, 1] & 3) == s)
            if h == 2:
                by_suit[s, k2] = j
                k2 += 1
            elif h == 1:
                by_suit[s, k1] = j
                k1 += 1
            else:
                by_suit[s, k0] = j
                k0 += 1
    card_start = np.zeros(53, np.int64)
    card_u = np.empty(52 * 13, np.int64)
    card_d = np.empty(52 * 13, np.int64)
    card_w = np.empty(52 * 13)
    e = 0
    for c in range(52):
        for r in range(13):
            if deg[c, r] > 0:
                card_u[e] = slot[13 * max(c >> 2, r) + min(c >> 2, r)]
                card_d[e] = deg[c, r]
                card_w[e] = wdeg[c, r]
                e += 1
        card_start[c + 1] = e
    return (live[:L], ckey, csuited, cw, group[:L], pair_rs[:U], n_u, w_u, card_start, card_u, card_d, card_w,
            both, by_suit, n2, n12)


@njit(cache=True, nogil=True)
def _signatures(used: np.uint64, bsuits: np.ndarray, k: int, both: np.ndarray) -> tuple:
    """The runouts, every set of the ``k`` missing cards from the cards outside ``used``, gathered into
    signatures: the class of the runout's ranks and, where three or more of one suit are on the board,
    that suit and which runout cards are of it.  Every hand's value is the same on all the runouts of a
    signature, but for the combos that make a flush, which vary by their own cards alone.

    Returns ``(S, rep (S, 2), N (S,), A (S, 8), head (S,), rec_j, rec_next, runouts)``: per signature one
    of its runouts (-1 for no card), how many it has, and how many hold each card (slot ``suit`` for the
    lower rank's cards, ``4 + suit`` for the higher rank's); the runouts equal to the two cards of a live
    combo (``both``) are listed from ``head``: the combo ``rec_j``, the next entry ``rec_next`` (-1 ends).
    """
    deck = np.empty(52, np.int64)
    D = live_cards(used, deck)
    R = D * (D - 1) // 2 if k == 2 else (D if k == 1 else 1)
    ftype = np.zeros((5, 5), np.int64)      # (suit of t, of v; 4: no card) -> 0, or 1 + 4 * suit + pattern
    for st in range(5):
        for sv in range(5):
            for s in range(4):
                if bsuits[s] + (st == s) + (sv == s) >= 3:
                    ftype[st, sv] = 1 + 4 * s + (st == s) + 2 * (sv == s)
    cap = min(R, 169 * 17)
    sid_of = np.full(169 * 17, -1, np.int64)
    N = np.empty(cap, np.int64)
    A = np.empty((cap, 8), np.int64)
    rep = np.empty((cap, 2), np.int64)
    head = np.empty(cap, np.int64)
    rec_j = np.empty(R, np.int64)
    rec_next = np.empty(R, np.int64)
    S = 0
    nrec = 0
    for x in range(D if k >= 1 else 1):
        t = deck[x] if k >= 1 else -1
        for y in range(x + 1, D if k == 2 else x + 2):
            v = deck[y] if k == 2 else -1
            cls = 0
            if t >= 0:
                cls = t >> 2
            if v >= 0:
                cls = 13 * cls + (v >> 2)
            code = 17 * cls + ftype[t & 3 if t >= 0 else 4, v & 3 if v >= 0 else 4]
            sid = sid_of[code]
            if sid < 0:
                sid = S
                sid_of[code] = S
                rep[S, 0] = t
                rep[S, 1] = v
                N[S] = 0
                A[S, :] = 0
                head[S] = -1
                S += 1
            N[sid] += 1
            if t >= 0:
                A[sid, t & 3] += 1
            if v >= 0:
                A[sid, (v & 3) + 4 * ((v >> 2) != (t >> 2))] += 1
                j = both[t, v]
                if j >= 0:
                    rec_j[nrec] = j
                    rec_next[nrec] = head[sid]
                    head[sid] = nrec
                    nrec += 1
    return S, rep, N, A, head, rec_j, rec_next, R


@njit(cache=True, nogil=True)
def one_range_counts(board: np.ndarray, dead_mask: np.uint64, fixed: np.ndarray, seats: np.ndarray, seat: int,
                     combos: np.ndarray, weights: np.ndarray, card_keys: np.ndarray, rank_offsets: np.ndarray,
                     rank_values: np.ndarray, flush_values: np.ndarray) -> tuple:
    """Counts by number of winners of the range of player ``seat`` (``combos`` (n, 2), ``weights`` (n,))
    against the specific hands ``fixed`` (F, 2) of players ``seats`` (F,), on ``board`` (3 to 5 cards) with
    the dead cards of ``dead_mask``; combos touching the board, the dead cards or a fixed hand are left out.

    Returns ``(counts (P, P) int64, wcounts (P, P) float64, boards, weighted boards, live combos, their
    weight, whether each of their weights is 1, runouts)``: ``counts[p, j]`` the deals (combo and runout)
    on which player ``p`` is one of exactly ``j + 1`` winners, as :func:`.exact.exact_counts` counts them.
    """
    F = fixed.shape[0]
    P = F + 1
    K = card_keys
    counts = np.zeros((P, P), np.int64)
    wcounts = np.zeros((P, P))
    one = np.uint64(1)
    bkey, bsuited, used = board_state(board, dead_mask, K)
    bsuits = np.zeros(4, np.int64)
    for c in board:
        bsuits[c & 3] += 1
    fkey = np.empty(F, np.uint64)
    fsuited = np.empty(F, np.uint64)
    frs = np.empty(F, np.uint64)
    for f in range(F):
        a, b = fixed[f, 0], fixed[f, 1]
        used |= (one << np.uint64(a)) | (one << np.uint64(b))
        fkey[f] = K[a] + K[b]
        fsuited[f] = suited_bit(a) | suited_bit(b)
        frs[f] = RANK_KEYS[a >> 2] + RANK_KEYS[b >> 2]
    (live, ckey, csuited, cw, group, pair_rs, n_u, w_u, card_start, card_u, card_d, card_w, both, by_suit, n2,
     n12) = _combo_tables(combos, weights, used, K)
    L = live.size
    U = pair_rs.size
    unit = True
    wlive = 0.0
    n_all = 0
    w_all = 0.0
    for j in range(L):
        wlive += cw[j]
        unit = unit and cw[j] == 1.0
    for u in range(U):
        n_all += n_u[u]
        w_all += w_u[u]
    S, rep, N, A, head, rec_j, rec_next, R = _signatures(used, bsuits, 5 - board.size, both)
    if L == 0:
        return counts, wcounts, 0, 0.0, 0, 0.0, unit, R

    # each signature scored once: its rank pairs against the fixed hands' best value, times its runouts, less
    # the combos holding a runout card (per card and rank pair), plus those equal to the runout (taken out
    # twice); then the combos that make a flush, valued whole, in place of their rank pair's value
    brs = bkey & RANK_SUM_MASK
    have_v = np.zeros(169, np.bool_)
    V = np.empty((169, U), np.int64)        # per class of runout ranks: each rank pair's value
    win = np.empty(U, np.int64)
    tie = np.empty(U, np.int64)
    boards = 0
    wboards = 0.0
    for sid in range(S):
        t, v = rep[sid, 0], rep[sid, 1]
        key = bkey
        suited = bsuited
        rrs = brs
        cls = 0
        rx = ry = -1
        if t >= 0:
            key += K[t]
            suited |= suited_bit(t)
            rrs += RANK_KEYS[t >> 2]
            cls = rx = t >> 2
        if v >= 0:
            key += K[v]
            suited |= suited_bit(v)
            rrs += RANK_KEYS[v >> 2]
            ry = v >> 2
            cls = 13 * cls + ry
        fs = 0
        flush_n = 0
        for s in range(4):
            n_s = bsuits[s] + (t >= 0 and (t & 3) == s) + (v >= 0 and (v & 3) == s)
            if n_s >= 3:
                fs = s
                flush_n = n_s
        if not have_v[cls]:
            for u in range(U):
                V[cls, u] = rank_sum_value(rrs + pair_rs[u], rank_offsets, rank_values)
            have_v[cls] = True
        best = -1
        holders = 0
        for f in range(F):
            if flush_n == 0:
                x = rank_sum_value(rrs + frs[f], rank_offsets, rank_values)
            else:
                x = key_value(key + fkey[f], suited | fsuited[f], rank_offsets, rank_values, flush_values)
            if x > best:
                best = x
                holders = 1 << f
            elif x == best:
                holders |= 1 << f
        gw = ew = 0
        wgw = wew = 0.0
        for u in range(U):
            x = V[cls, u]
            g = x > best
            h = x == best
            win[u] = g
            tie[u] = h
            gw += g * n_u[u]
            ew += h * n_u[u]
            wgw += g * w_u[u]
            wew += h * w_u[u]
        n = N[sid]
        gw *= n
        ew *= n
        wgw *= n
        wew *= n
        aw = n * n_all
        waw = n * w_all
        for z in range(8):
            held = A[sid, z]
            if held == 0:
                continue
            c = 4 * (rx if z < 4 else ry) + (z & 3)
            for e in range(card_start[c], card_start[c + 1]):
                u = card_u[e]
                d = held * card_d[e]
                wd = held * card_w[e]
                gw -= win[u] * d
                ew -= tie[u] * d
                aw -= d
                wgw -= win[u] * wd
                wew -= tie[u] * wd
                waw -= wd
        e = head[sid]
        while e >= 0:                            # (a combo that makes the flush: its flush's outcome)
            j = rec_j[e]
            g = win[group[j]]
            h = tie[group[j]]
            if flush_n > 0 and ((combos[live[j], 0] & 3) == fs) + ((combos[live[j], 1] & 3) == fs) >= 5 - flush_n:
                x = flush_values[((suited | csuited[j]) >> np.uint64(16 * fs)) & np.uint64(0x1FFF)]
                g = x > best
                h = x == best
            gw += g
            ew += h
            aw += 1
            wgw += g * cw[j]
            wew += h * cw[j]
            waw += cw[j]
            e = rec_next[e]
        if flush_n > 0:                          # the combos that make the flush
            top = n2[fs] if flush_n == 3 else (n12[fs] if flush_n == 4 else L)
            shift = np.uint64(16 * fs)
            for e in range(top):
                j = by_suit[fs, e]
                c0, c1 = combos[live[j], 0], combos[live[j], 1]
                held = n                         # the signature's runouts that miss both its cards
                if (c0 >> 2) == rx:
                    held -= A[sid, c0 & 3]
                elif (c0 >> 2) == ry:
                    held -= A[sid, 4 + (c0 & 3)]
                if (c1 >> 2) == rx:
                    held -= A[sid, c1 & 3]
                elif (c1 >> 2) == ry:
                    held -= A[sid, 4 + (c1 & 3)]
                if held == 0:
                    continue
                u = group[j]
                x = flush_values[((suited | csuited[j]) >> shift) & np.uint64(0x1FFF)]
                g = ((x > best) - win[u]) * held
                h = ((x == best) - tie[u]) * held
                gw += g
                ew += h
                wgw += g * cw[j]
                wew += h * cw[j]
        # the range's wins, its ties with the best fixed hands, and its losses to them
        lw = aw - gw - ew
        wlw = waw - wgw - wew
        nh = 0
        for f in range(F):
            nh += (holders >> f) & 1
        counts[seat, 0] += gw
        wcounts[seat, 0] += wgw
        counts[seat, nh] += ew
        wcounts[seat, nh] += wew
        for f in range(F):
            if (holders >> f) & 1:
                counts[seats[f], nh] += ew
                wcounts[seats[f], nh] += wew
                counts[seats[f], nh - 1] += lw
                wcounts[seats[f], nh - 1] += wlw
        boards += aw
        wboards += waw
    if unit:                                      # every weight 1: the weighted sums are the counts
        for p in range(P):
            for q in range(P):
                wcounts[p, q] = counts[p, q]
        wboards = float(boards)
    return counts, wcounts, boards, wboards, L, wlive, unit, R
