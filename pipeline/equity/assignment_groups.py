"""Combo assignments listed and grouped: the steps of :func:`.grouped.grouped_kernel`, whose method the top
of :mod:`.grouped` tells.

The players' combos that miss the board and dead cards (:func:`_live`) are extended player by player into
every assignment that shares no card (:func:`list_assignments`).  The assignments are grouped by each
player's key: his rank pair, and for a runout that may make a flush of suit ``s`` the ranks he holds in
``s`` (:func:`_grouping`; one grouping for each kind of runout, :func:`_groupings`).  Each group counts its
assignments overall and holding each card (:func:`_group_cards`), and those holding both cards of a runout
are added back (:func:`_add_pairs`: inclusion–exclusion).  The runouts are listed, one of each suit orbit
where there are symmetries (:func:`_runouts`); each group's showdown adds its count to the set of players
holding the best value (:func:`_tally`), and the sets become counts by number of winners
(:func:`_by_winners`, :mod:`.scoring`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluator.kernels import live_cards
from .runout_symmetries import canonical_runouts

__all__ = ["MAX_GROUPS", "KEYS", "list_assignments"]

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
    D = live_cards(held, deck)
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
