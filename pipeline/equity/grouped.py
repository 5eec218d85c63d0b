"""Exact equity after the flop of listed combo assignments, scored by groups of equal rank pairs.

For ranges small enough to list their combo assignments (``AKs,AQs`` against
``QQ+`` against ``JTs,T9s`` on ``Jh8c2d``: 672), every assignment would be
scored on every runout.  But on a runout where no flush is possible a combo's
value depends on its two ranks alone, so the assignments whose players hold the
same rank pairs (a *group*: 12 here) have the same showdown.  Where three or
more of one suit ``s`` are on the board, a combo's value depends on its ranks
and on which of them it holds in suit ``s`` (the flush it makes, if any): the
groups of such a runout are the assignments whose players hold the same rank
pairs with the same cards of suit ``s`` — only the suited ones when it takes two
of them to make the flush (48 groups here).

A group is scored for as many of its assignments as miss the runout's cards:
its assignments, less those holding either card (per card and group counts),
plus those holding both (inclusion–exclusion).  Runouts where no flush is
possible add these counts into their class of runout ranks (at most 91 on a
flop), and each class is scored once; the assignments holding both cards of a
runout are added by one pass over the assignments' pairs of cards.  Flush
runouts are scored one by one.  Each group's showdown adds its count to the
set of players who hold the best value; the sets become counts by number of
winners at the end.  The runouts are those of :func:`.runout_symmetries.canonical_runouts`
when the board, dead cards and ranges have suit symmetries (each standing for
its orbit), else all of them.

The counts are the integers of :mod:`.exact`, checked against a plain brute
force in ``tests/equity/test_grouped.py``.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
from numba import njit

from ..core.cards import mask_of
from ..evaluator.kernels import RANK_KEYS, RANK_SUM_MASK, Tables, board_state, suited_bit
from ..evaluator.tables import tables
from ..ranges.syntax import Range
from .one_range import rank_sum_value
from .runout_symmetries import _keeps_ranges, canonical_runouts
from .suits import stabilizer

MAX_PRODUCT = 1 << 16        # combo products listed at most (larger questions: .runouts' chunked kernels)
MAX_GROUPS = 4096            # groups of one grouping at most
KEYS = 4 * 91                # a player's keys at most: rank pair and the ranks held in one suit


@njit(cache=True, nogil=True)
def list_assignments(masks: np.ndarray, offsets: np.ndarray, used: np.uint64, rows: int) -> np.ndarray:
    """(A, P) the combo rows of every assignment with no card shared (nor in ``used``), player by player:
    each partial assignment is extended by the next player's combos that miss its cards."""
    P = offsets.size - 1
    cur = np.empty((rows, P), np.int64)
    nxt = np.empty((rows, P), np.int64)
    cmask = np.empty(rows, np.uint64)
    nmask = np.empty(rows, np.uint64)
    n = 1
    cmask[0] = used
    for q in range(P):
        m = 0
        for a in range(n):
            taken = cmask[a]
            for i in range(offsets[q], offsets[q + 1]):
                if masks[i] & taken:
                    continue
                for z in range(q):
                    nxt[m, z] = cur[a, z]
                nxt[m, q] = i
                nmask[m] = taken | masks[i]
                m += 1
        cur, nxt = nxt, cur
        cmask, nmask = nmask, cmask
        n = m
    return cur[:n]


@njit(cache=True, nogil=True)
def _grouping(assign: np.ndarray, combos: np.ndarray, offsets: np.ndarray, suit: int, suited_only: bool,
              limit: int) -> tuple:
    """The assignments grouped by each player's key: his rank pair and, for ``suit`` >= 0, the ranks he holds
    in that suit (with ``suited_only``, only when he holds two).  Returns ``(G, group (A,), loc (G, P),
    lu (P, KEYS), lbits (P, KEYS), nloc (P,))``: ``G`` groups (0 when more than ``limit``), each assignment's
    group, each group's key of each player (0..nloc[q]-1), each key's rank pair (13 * high + low) and ranks
    held in ``suit`` (a 13-bit mask)."""
    A, P = assign.shape
    N = combos.shape[0]
    key = np.empty(N, np.int64)
    codes = np.full((P, 169 * 4), -1, np.int64)
    nloc = np.zeros(P, np.int64)
    lu = np.empty((P, KEYS), np.int64)
    lbits = np.zeros((P, KEYS), np.int64)
    for q in range(P):
        for i in range(offsets[q], offsets[q + 1]):
            a, b = combos[i, 0], combos[i, 1]
            hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
            bits = 0
            if suit >= 0 and (a & 3) == suit and (b & 3) == suit:
                bits = (1 << hi) | (1 << lo)
            elif suit >= 0 and not suited_only:
                if (a & 3) == suit:
                    bits = 1 << (a >> 2)
                elif (b & 3) == suit:
                    bits = 1 << (b >> 2)
            pat = 0 if bits == 0 else (1 if bits == 1 << hi else (2 if bits == 1 << lo else 3))
            code = 4 * (13 * hi + lo) + pat
            if codes[q, code] < 0:
                codes[q, code] = nloc[q]
                lu[q, nloc[q]] = 13 * hi + lo
                lbits[q, nloc[q]] = bits
                nloc[q] += 1
            key[i] = codes[q, code]
    space = 1
    for q in range(P):
        space *= nloc[q]
        if space > 16 * limit:
            return 0, key[:0], np.empty((0, P), np.int64), lu, lbits, nloc
    gid = np.full(space, -1, np.int64)
    group = np.empty(A, np.int64)
    loc = np.empty((min(space, limit), P), np.int64)
    G = 0
    for a in range(A):
        code = 0
        for q in range(P):
            code = code * nloc[q] + key[assign[a, q]]
        g = gid[code]
        if g < 0:
            if G == limit:
                return 0, group[:0], loc[:0], lu, lbits, nloc
            g = G
            gid[code] = G
            for q in range(P):
                loc[G, q] = key[assign[a, q]]
            G += 1
        group[a] = g
    return G, group, loc[:G], lu, lbits, nloc


@njit(cache=True, nogil=True)
def _group_cards(assign: np.ndarray, combos: np.ndarray, aweight: np.ndarray, group: np.ndarray, G: int,
                 weighted: bool) -> tuple:
    """``(n (G,), w (G,), card (52, G), wcard (52, G) or (0, G))``: each group's assignments and their
    weight, overall and holding each card."""
    A, P = assign.shape
    n = np.zeros(G, np.int64)
    w = np.zeros(G)
    card = np.zeros((52, G), np.int64)
    wcard = np.zeros((52 if weighted else 0, G))
    for a in range(A):
        g = group[a]
        n[g] += 1
        w[g] += aweight[a]
        for q in range(P):
            for c in (combos[assign[a, q], 0], combos[assign[a, q], 1]):
                card[c, g] += 1
                if weighted:
                    wcard[c, g] += aweight[a]
    return n, w, card, wcard


@njit(cache=True, nogil=True, inline="always")
def _tally(cnt: np.ndarray, wcnt: np.ndarray, loc: np.ndarray, val: np.ndarray, m: int, weighted: bool,
           tally: np.ndarray, wtally: np.ndarray) -> None:
    """Every group with assignments left (``cnt``, ``wcnt``) has its players' values ``val[q, loc[g, q]]``:
    its count, ``m`` times, goes to the set of players holding the best value (a bit mask)."""
    G, P = loc.shape
    for g in range(G):
        c = cnt[g]
        if c == 0:
            continue
        best = -1
        winners = 0
        for q in range(P):
            x = val[q, loc[g, q]]
            if x > best:
                best = x
                winners = 1 << q
            elif x == best:
                winners |= 1 << q
        tally[winners] += m * c
        if weighted:
            wtally[winners] += m * wcnt[g]


@njit(cache=True, nogil=True)
def _live(combos: np.ndarray, masks: np.ndarray, weights: np.ndarray, offsets: np.ndarray, used: np.uint64) -> tuple:
    """The players' combos that miss ``used``: ``(combos, masks, weights, offsets, fit)``, ``fit`` False when
    some player has none left or weights that do not add up to a positive number."""
    P = offsets.size - 1
    n = combos.shape[0]
    keep = np.empty(n, np.int64)
    loff = np.zeros(P + 1, np.int64)
    L = 0
    fit = True
    for q in range(P):
        total = 0.0
        for i in range(offsets[q], offsets[q + 1]):
            if masks[i] & used:
                continue
            keep[L] = i
            total += weights[i]
            L += 1
        loff[q + 1] = L
        fit = fit and L > loff[q] and total > 0.0 and total < np.inf
    lc = np.empty((L, 2), np.int64)
    lm = np.empty(L, np.uint64)
    lw = np.empty(L)
    for j in range(L):
        lc[j, 0] = combos[keep[j], 0]
        lc[j, 1] = combos[keep[j], 1]
        lm[j] = masks[keep[j]]
        lw[j] = weights[keep[j]]
    return lc, lm, lw, loff, fit


@njit(cache=True, nogil=True)
def _runouts(held: np.uint64, k: int, perms: np.ndarray) -> tuple:
    """``(runouts (R, k), mult (R,))``: every set of ``k`` cards outside ``held``, or with suit symmetries one
    of each orbit (:func:`.runout_symmetries.canonical_runouts`), with the orbit's size."""
    deck = np.empty(52, np.int64)
    D = 0
    for c in range(52):
        if not (held >> np.uint64(c)) & np.uint64(1):
            deck[D] = c
            D += 1
    if perms.shape[0] > 1:
        return canonical_runouts(deck[:D], k, perms)
    R = D * (D - 1) // 2 if k == 2 else (D if k == 1 else 1)
    runouts = np.empty((R, k), np.int64)
    r = 0
    if k == 2:
        for x in range(D):
            for y in range(x + 1, D):
                runouts[r, 0] = deck[x]
                runouts[r, 1] = deck[y]
                r += 1
    elif k == 1:
        for x in range(D):
            runouts[x, 0] = deck[x]
    return runouts, np.ones(R, np.int64)


@njit(cache=True, nogil=True)
def _groupings(assign: np.ndarray, combos: np.ndarray, offsets: np.ndarray, need: np.ndarray, aweight: np.ndarray,
               weighted: bool) -> tuple:
    """The groupings of the kinds ``need`` (0: flush-free; 1 + 2 * suit + (fewer than two of the suit needed)),
    stacked, row ``gi[kind]``: ``(ok, gi, Gs, group, loc, lu, lbits, nloc, gn, gw, gcard, gwcard)`` — each
    one's groups, :func:`_grouping`'s arrays, and :func:`_group_cards`' counts; ``ok`` False when one would
    have more groups than half the assignments (plus 64) or :data:`MAX_GROUPS`."""
    A, P = assign.shape
    gi = np.full(9, -1, np.int64)
    ny = 0
    for y in range(9):
        if need[y]:
            gi[y] = ny
            ny += 1
    limit = min(MAX_GROUPS, A // 2 + 64)
    Gs = np.zeros(ny, np.int64)
    group = np.empty((ny, A), np.int64)
    loc = np.empty((ny, limit, P), np.int64)
    lu = np.empty((ny, P, KEYS), np.int64)
    lbits = np.empty((ny, P, KEYS), np.int64)
    nloc = np.empty((ny, P), np.int64)
    ok = True
    for y in range(9):
        if need[y] and ok:
            i = gi[y]
            G, grp, lc, u_, b_, nl = _grouping(assign, combos, offsets, (y - 1) >> 1, y > 0 and (y - 1) & 1 == 0,
                                               limit)
            ok = G > 0
            Gs[i] = G
            group[i, :grp.size] = grp
            loc[i, :G] = lc
            lu[i] = u_
            lbits[i] = b_
            nloc[i] = nl
    gmax = max(1, Gs.max())
    gn = np.empty((ny, gmax), np.int64)
    gw = np.empty((ny, gmax))
    gcard = np.empty((ny, 52, gmax), np.int64)
    gwcard = np.empty((ny, 52 if weighted else 0, gmax))
    for i in range(ny if ok else 0):
        G = Gs[i]
        n, w, card, wcard = _group_cards(assign, combos, aweight, group[i], G, weighted)
        gn[i, :G] = n
        gw[i, :G] = w
        gcard[i, :, :G] = card
        if weighted:
            gwcard[i, :, :G] = wcard
    return ok, gi, Gs, group, loc, lu, lbits, nloc, gn, gw, gcard, gwcard


@njit(cache=True, nogil=True)
def _add_pairs(assign: np.ndarray, combos: np.ndarray, held: np.uint64, kind: np.ndarray, gi: np.ndarray,
               group: np.ndarray, cid_of: np.ndarray, fid_of: np.ndarray, aweight: np.ndarray, weighted: bool,
               CNT: np.ndarray, WCNT: np.ndarray, CNTF: np.ndarray, WCNTF: np.ndarray) -> None:
    """Each assignment once more for each pair of its cards that is a runout (both outside ``held``): the
    per-card counts took it out twice there.  A flush-free pair adds to its class of ranks (``cid_of``), which
    sums every runout of the class; a flush pair only to its own listed runout (``fid_of``), if listed: a
    listed runout stands for its orbit (every class has a listed runout: the orbits keep ranks)."""
    A, P = assign.shape
    cards = np.empty(2 * P, np.int64)
    for a in range(A):
        n = 0
        for q in range(P):
            for c in (combos[assign[a, q], 0], combos[assign[a, q], 1]):
                if not (held >> np.uint64(c)) & np.uint64(1):
                    cards[n] = c
                    n += 1
        for i in range(n):
            for j in range(i + 1, n):
                x, z = min(cards[i], cards[j]), max(cards[i], cards[j])
                y = gi[kind[x & 3, z & 3]]
                if y == 0:
                    cid = cid_of[13 * (x >> 2) + (z >> 2)]
                    CNT[cid, group[0, a]] += 1
                    if weighted:
                        WCNT[cid, group[0, a]] += aweight[a]
                else:
                    fi = fid_of[x, z]
                    if fi >= 0:
                        CNTF[fi, group[y, a]] += 1
                        if weighted:
                            WCNTF[fi, group[y, a]] += aweight[a]


@njit(cache=True, nogil=True)
def _by_winners(tally: np.ndarray, wtally: np.ndarray, counts: np.ndarray, wcounts: np.ndarray) -> tuple:
    """Deals by set of winners (``tally``, indexed by the set's bit mask) into counts by number of winners
    (:mod:`.scoring`); returns (deals, their weight)."""
    P = counts.shape[0]
    boards = 0
    wboards = 0.0
    for winners in range(1, 1 << P):
        nb = 0
        for q in range(P):
            nb += (winners >> q) & 1
        for q in range(P):
            if (winners >> q) & 1:
                counts[q, nb - 1] += tally[winners]
                wcounts[q, nb - 1] += wtally[winners]
        boards += tally[winners]
        wboards += wtally[winners]
    return boards, wboards


FIT, TOO_MANY_GROUPS, UNFIT, NO_DEAL = 0, 1, 2, 3     # grouped_kernel's status


@njit(cache=True, nogil=True)
def grouped_kernel(all_combos: np.ndarray, all_masks: np.ndarray, all_weights: np.ndarray, all_offsets: np.ndarray,
                   board: np.ndarray, dead_mask: np.uint64, board_perms: np.ndarray, rows: int,
                   card_keys: np.ndarray, rank_offsets: np.ndarray, rank_values: np.ndarray,
                   flush_values: np.ndarray) -> tuple:
    """Counts by number of winners over every combo assignment (at most ``rows``) and runout of the players'
    combos that miss the board and dead cards; ``board_perms`` the suit permutations fixing the board and dead
    cards (:func:`.suits.stabilizer`), of which those fixing every range are used.

    Returns ``(status, counts (P, P), wcounts (P, P), boards, weighted boards, unit, runouts)``: ``status``
    FIT, or TOO_MANY_GROUPS when grouping would not pay (:mod:`.runouts` then answers), UNFIT when a player
    has no combo left or weights adding up to no positive number, NO_DEAL when no assignment exists; ``unit``
    whether every weight left is 1 (then the weighted sums are the counts)."""
    P = all_offsets.size - 1
    K = card_keys
    counts = np.zeros((P, P), np.int64)
    wcounts = np.zeros((P, P))
    bkey, bsuited, used = board_state(board, dead_mask, K)
    bsuits = np.zeros(4, np.int64)
    for c in board:
        bsuits[c & 3] += 1
    combos, masks, weights, offsets, fit = _live(all_combos, all_masks, all_weights, all_offsets, used)
    if not fit:
        return UNFIT, counts, wcounts, 0, 0.0, True, 0
    unit = True
    for j in range(weights.size):
        unit = unit and weights[j] == 1.0
    weighted = not unit
    perms = board_perms
    if board_perms.shape[0] > 1:
        perms = board_perms[_keeps_ranges(board_perms, combos, weights, offsets)]
    assign = list_assignments(masks, offsets, used, rows)
    A = assign.shape[0]
    if A == 0:
        return NO_DEAL, counts, wcounts, 0, 0.0, unit, 0
    aweight = np.ones(A)
    if weighted:
        for a in range(A):
            for q in range(P):
                aweight[a] *= weights[assign[a, q]]

    held = used                     # and the cards every combo of some player holds: no runout has them
    for q in range(P):
        common = ~np.uint64(0)
        for i in range(offsets[q], offsets[q + 1]):
            common &= masks[i]
        held |= common
    k = 5 - board.size
    runouts, mult = _runouts(held, k, perms)
    R = runouts.shape[0]
    # the grouping of each runout: 0 no flush; 1 + 2 * suit + (fewer than two of the suit needed)
    kind = np.zeros((5, 5), np.int64)        # by the suits of the runout's cards (4: no card)
    for st in range(5):
        for sv in range(5):
            for s in range(4):
                n_s = bsuits[s] + (st == s) + (sv == s)
                if n_s >= 3:
                    kind[st, sv] = 1 + 2 * s + (n_s >= 4)
    rkind = np.empty(R, np.int64)
    need = np.zeros(9, np.bool_)
    need[0] = True
    for r in range(R):
        rkind[r] = kind[runouts[r, 0] & 3 if k >= 1 else 4, runouts[r, 1] & 3 if k == 2 else 4]
        need[rkind[r]] = True

    ok, gi, Gs, group, loc, lu, lbits, nloc, gn, gw, gcard, gwcard = _groupings(assign, combos, offsets, need,
                                                                               aweight, weighted)
    if not ok:
        return TOO_MANY_GROUPS, counts, wcounts, 0, 0.0, unit, R
    ny = Gs.size
    gmax = Gs.max()
    # the rank pairs of every key, slots of the per-class value table
    uslot = np.full(169, -1, np.int64)
    pair_rs = np.empty(169, np.uint64)
    U = 0
    for i in range(ny):
        for q in range(P):
            for e in range(nloc[i, q]):
                u = lu[i, q, e]
                if uslot[u] < 0:
                    uslot[u] = U
                    pair_rs[U] = RANK_KEYS[u // 13] + RANK_KEYS[u % 13]
                    U += 1

    # each runout's counts by group: flush-free runouts into their class of ranks, flush runouts their own
    G0 = Gs[0]
    cid_of = np.full(169, -1, np.int64)
    ccls = np.empty(169, np.int64)
    ncls = 0
    CNT = np.zeros((min(R, 169), G0), np.int64)
    WCNT = np.zeros((min(R, 169) if weighted else 0, G0))
    fid_of = np.full((52, 52), -1, np.int64)
    frun = np.empty(R, np.int64)
    nf = 0
    for r in range(R):
        if rkind[r] > 0:
            frun[nf] = r
            nf += 1
    CNTF = np.empty((nf, gmax), np.int64)
    WCNTF = np.empty((nf if weighted else 0, gmax))
    f = 0
    for r in range(R):
        t = runouts[r, 0] if k >= 1 else 52
        v = runouts[r, 1] if k == 2 else 52
        m = mult[r]
        y = gi[rkind[r]]
        G = Gs[y]
        if y == 0:
            cls = (13 * (t >> 2) + (v >> 2)) if k == 2 else ((t >> 2) if k == 1 else 0)
            cid = cid_of[cls]
            if cid < 0:
                cid = ncls
                cid_of[cls] = ncls
                ccls[ncls] = cls
                ncls += 1
            row = CNT[cid]
            wrow = WCNT[cid] if weighted else gw[0]
            mult_r = m
        else:
            if k == 2:
                fid_of[t, v] = f
            row = CNTF[f]
            wrow = WCNTF[f] if weighted else gw[0]
            row[:G] = 0
            if weighted:
                wrow[:G] = 0.0
            mult_r = 1                            # a flush runout's multiplicity is applied as it is scored
            f += 1
        for g in range(G):
            x = gn[y, g]
            if t < 52:
                x -= gcard[y, t, g]
            if v < 52:
                x -= gcard[y, v, g]
            row[g] += mult_r * x
        if weighted:
            for g in range(G):
                wx = gw[y, g]
                if t < 52:
                    wx -= gwcard[y, t, g]
                if v < 52:
                    wx -= gwcard[y, v, g]
                wrow[g] += mult_r * wx
    if k == 2:                                    # the assignments holding both cards of a runout, added back
        _add_pairs(assign, combos, held, kind, gi, group, cid_of, fid_of, aweight, weighted, CNT, WCNT, CNTF,
                   WCNTF)

    # score: flush runouts one by one, then each class of flush-free runouts
    brs = bkey & RANK_SUM_MASK
    have_v = np.zeros(169, np.bool_)
    V = np.empty((169, max(U, 1)), np.int64)
    val = np.empty((P, KEYS), np.int64)
    tally = np.zeros(1 << P, np.int64)
    wtally = np.zeros(1 << P)
    for f in range(nf):
        r = frun[f]
        s = (rkind[r] - 1) >> 1
        y = gi[rkind[r]]
        suited = bsuited
        rrs = brs
        cls = 0
        for j in range(k):
            suited |= suited_bit(runouts[r, j])
            rrs += RANK_KEYS[runouts[r, j] >> 2]
            cls = 13 * cls + (runouts[r, j] >> 2)
        if not have_v[cls]:
            for u in range(U):
                V[cls, u] = rank_sum_value(rrs + pair_rs[u], rank_offsets, rank_values)
            have_v[cls] = True
        n_s = bsuits[s]
        for j in range(k):
            n_s += (runouts[r, j] & 3) == s
        franks = (suited >> np.uint64(16 * s)) & np.uint64(0x1FFF)
        for q in range(P):
            for e in range(nloc[y, q]):
                bits = lbits[y, q, e]
                held_s = 0
                for z in range(13):
                    held_s += (bits >> z) & 1
                if held_s + n_s >= 5:
                    val[q, e] = flush_values[franks | np.uint64(bits)]
                else:
                    val[q, e] = V[cls, uslot[lu[y, q, e]]]
        _tally(CNTF[f], WCNTF[f] if weighted else gw[0], loc[y, :Gs[y]], val, mult[r], weighted, tally, wtally)
    for cid in range(ncls):
        cls = ccls[cid]
        if not have_v[cls]:
            rrs = brs
            if k == 2:
                rrs += RANK_KEYS[cls // 13] + RANK_KEYS[cls % 13]
            elif k == 1:
                rrs += RANK_KEYS[cls]
            for u in range(U):
                V[cls, u] = rank_sum_value(rrs + pair_rs[u], rank_offsets, rank_values)
            have_v[cls] = True
        for q in range(P):
            for e in range(nloc[0, q]):
                val[q, e] = V[cls, uslot[lu[0, q, e]]]
        _tally(CNT[cid], WCNT[cid] if weighted else gw[0], loc[0, :G0], val, 1, weighted, tally, wtally)
    boards, wboards = _by_winners(tally, wtally, counts, wcounts)
    if not weighted:
        wcounts[:] = counts
        wboards = float(boards)
    return FIT, counts, wcounts, boards, wboards, unit, R


def grouped_counts(ranges: list[Range], board: list[int], dead: list[int],
                   T: Optional[Tables] = None) -> Optional[tuple]:
    """``(counts, wcounts, boards, weighted boards, runouts)`` of an exact postflop question by groups (the
    ranges already without the board and dead cards), or None when it is too large to list or its groups
    would not pay (:mod:`.runouts` answers it then).  ``T``: the evaluator's tables (a deck's; the 52-card
    deck's by default)."""
    rows = math.prod(len(r) for r in ranges)
    if rows > MAX_PRODUCT or not board:
        return None
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]), np.int64)
    masks = np.ascontiguousarray(np.concatenate([r.masks for r in ranges]), np.uint64)
    weights = np.ascontiguousarray(np.concatenate([r.weights for r in ranges]), np.float64)
    offsets = np.cumsum([0] + [len(r) for r in ranges]).astype(np.int64)
    status, counts, wcounts, boards, wboards, _, runouts = grouped_kernel(
        combos, masks, weights, offsets, np.array(board, np.int64), np.uint64(mask_of(dead)),
        np.ascontiguousarray(stabilizer(board, dead), np.int64), rows, *(tables() if T is None else T))
    if status != FIT:
        return None
    return counts, wcounts, boards, wboards, runouts
