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

This module holds the kernel that runs the method (:func:`grouped_kernel`) and its front
(:func:`grouped_counts`); its steps (the assignments listed and grouped, their counts by
card, the runouts, the showdowns' tallies) are in :mod:`.assignment_groups`.
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
from .assignment_groups import KEYS, _add_pairs, _by_winners, _groupings, _live, _runouts, _tally, list_assignments
from .one_range import rank_sum_value
from .runout_symmetries import _keeps_ranges
from .suits import stabilizer

MAX_PRODUCT = 1 << 16        # combo products listed at most (larger questions: .runouts' chunked kernels)

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
