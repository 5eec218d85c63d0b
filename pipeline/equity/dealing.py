"""Numba kernels that deal one block of Monte Carlo trials (see :mod:`.montecarlo` for the law).

Each writes, for trials ``0 .. nb-1`` of the block, the board's key and the
cards dealt to it (``bkeys``, ``bcards[b, first:5]``) and the dealt players'
two-card keys and cards (``keys[p, b]``, ``hole[p, b]``), and returns the
generator state.  Cards are kept beside the keys for the rare flush, whose
value needs the flush suit's ranks.
They are functions of their own, called once a block, rather than loops in
the chunk kernel: a loop that sees only the arrays it needs keeps its
generator state and indexes in registers (11% more heads-up trials a second
than the same loop inside the kernel).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.rng import below, deal_card, uniform
from .plan import DealPlan


@njit(cache=True, nogil=True, inline="always")
def next_live_card(s0: np.uint64, s1: np.uint64, deck: np.ndarray, pos: int, L: int, taken: np.uint64) -> tuple:
    """One step of a partial Fisher-Yates shuffle of ``deck[pos:L]`` that skips cards in ``taken``.

    Returns ``(s0, s1, card, pos)``: the generator state, the next card not in
    ``taken`` and the new position.  Inlined into the dealing loops (numba IR
    inlining), so their generator state stays in registers.
    """
    one = np.uint64(1)
    while True:
        s0, s1, c, pos = deal_card(s0, s1, deck, pos, L)
        if not (taken >> np.uint64(c)) & one:
            return s0, s1, c, pos


@njit(cache=True, nogil=True, inline="always")
def alias_step(s0: np.uint64, s1: np.uint64, i: int, keep: float, other: int) -> tuple:
    """``(s0, s1, i)``: the second step of a Walker alias draw (Walker, ACM TOMS 3(3), 1977): keep the
    uniformly drawn row ``i`` with probability ``keep`` (its ``prob``), else take ``other`` (its ``alias``).

    The dealing loops draw ``i`` with :func:`~pipeline.core.rng.below` and read ``prob``/``alias`` at ``i``
    themselves, so this helper takes no arrays: an inlined helper that takes arrays and branches makes numba
    keep a reference-count increment and decrement per call in the loop (measured: 23 ns a draw against 1 ns,
    which halved the trials a second of AA vs KK vs QQ vs three random hands)."""
    s0, s1, u = uniform(s0, s1)
    return s0, s1, (other if u >= keep else i)


@njit(cache=True, nogil=True, inline="always")
def seat(keys: np.ndarray, hole: np.ndarray, p: int, b: int, c1: int, c2: int, card_keys: np.ndarray) -> None:
    """Give player ``p`` the cards ``c1``, ``c2`` in trial ``b``: their key and the cards themselves."""
    keys[p, b] = card_keys[c1] + card_keys[c2]
    hole[p, b, 0] = c1
    hole[p, b, 1] = c2


@njit(cache=True, nogil=True, inline="always")
def deal_the_rest(s0: np.uint64, s1: np.uint64, b: int, deck: np.ndarray, taken: np.uint64, missing: int,
                  dplayers: np.ndarray, bkey0: np.uint64, bkeys: np.ndarray, bcards: np.ndarray, keys: np.ndarray,
                  hole: np.ndarray, card_keys: np.ndarray) -> tuple:
    """Trial ``b``'s missing board cards, then two cards for each deck player, from ``deck`` skipping the
    cards in ``taken`` (the range players'); returns the generator state.  Inlined into the dealing loops."""
    L = deck.size
    pos = 0
    bkey = bkey0
    for _d in range(missing):
        s0, s1, c, pos = next_live_card(s0, s1, deck, pos, L, taken)
        bkey += card_keys[c]
        bcards[b, 5 - missing + _d] = c
    bkeys[b] = bkey
    for q in range(dplayers.size):
        s0, s1, c, pos = next_live_card(s0, s1, deck, pos, L, taken)
        s0, s1, c2, pos = next_live_card(s0, s1, deck, pos, L, taken)
        seat(keys, hole, dplayers[q], b, c, c2, card_keys)
    return s0, s1


@njit(cache=True, nogil=True)
def deal_deck_block(nb: int, s0: np.uint64, s1: np.uint64, deck: np.ndarray, missing: int,
                    dplayers: np.ndarray, bkey0: np.uint64, bkeys: np.ndarray, bcards: np.ndarray,
                    keys: np.ndarray, hole: np.ndarray, card_keys: np.ndarray) -> tuple:
    """Plans without range players: the ``missing`` board cards, then two cards for each deck
    player, by a partial Fisher-Yates shuffle of ``deck``."""
    L = deck.size
    D = dplayers.size
    for b in range(nb):
        pos = 0
        bkey = bkey0
        for _d in range(missing):
            s0, s1, c, pos = deal_card(s0, s1, deck, pos, L)
            bkey += card_keys[c]
            bcards[b, 5 - missing + _d] = c
        bkeys[b] = bkey
        for q in range(D):
            s0, s1, c, pos = deal_card(s0, s1, deck, pos, L)
            s0, s1, c2, pos = deal_card(s0, s1, deck, pos, L)
            p = dplayers[q]
            keys[p, b] = card_keys[c] + card_keys[c2]
            hole[p, b, 0] = c
            hole[p, b, 1] = c2
    return s0, s1


@njit(cache=True, nogil=True)
def deal_joint_block(nb: int, s0: np.uint64, s1: np.uint64, joint: np.ndarray, joint_mask: np.ndarray,
                     joint_prob: np.ndarray, joint_alias: np.ndarray, rplayers: np.ndarray, rcombos: np.ndarray,
                     base_used: np.uint64, deck: np.ndarray, missing: int, dplayers: np.ndarray, bkey0: np.uint64,
                     bkeys: np.ndarray, bcards: np.ndarray, keys: np.ndarray, hole: np.ndarray,
                     card_keys: np.ndarray) -> tuple:
    """Plans whose range players are drawn as one assignment (:func:`.plan._joint`): the assignment (Walker's
    alias method over the list, or uniform), then the board and the deck players from the rest of the deck.
    A loop of its own, like :func:`deal_deck_block`, so its state stays in registers."""
    A = joint.shape[0]
    R = joint.shape[1]
    weighted = joint_prob.size > 0
    for b in range(nb):
        s0, s1, a = below(s0, s1, A)
        if weighted:
            s0, s1, a = alias_step(s0, s1, a, joint_prob[a], joint_alias[a])
        taken = base_used | joint_mask[a]
        for k in range(R):
            seat(keys, hole, rplayers[k], b, rcombos[joint[a, k], 0], rcombos[joint[a, k], 1], card_keys)
        s0, s1 = deal_the_rest(s0, s1, b, deck, taken, missing, dplayers, bkey0, bkeys, bcards, keys, hole,
                               card_keys)
    return s0, s1


@njit(cache=True, nogil=True)
def deal_drawn_block(nb: int, s0: np.uint64, s1: np.uint64, rplayers: np.ndarray, roffsets: np.ndarray,
                     rcombos: np.ndarray, rmasks: np.ndarray, alias_prob: np.ndarray, alias_idx: np.ndarray,
                     requal: np.ndarray, base_used: np.uint64, deck: np.ndarray, missing: int, dplayers: np.ndarray,
                     bkey0: np.uint64, bkeys: np.ndarray, bcards: np.ndarray, keys: np.ndarray, hole: np.ndarray,
                     chosen: np.ndarray, card_keys: np.ndarray) -> tuple:
    """Plans whose range players draw without importance weights: each from his own range by Walker's alias
    method, all of them again when two clash (never, when their ranges share no card; whole-draw rejection,
    :func:`.plan._joint`, when they can), then the board and the deck players from the rest of the deck.
    A loop of its own, like :func:`deal_deck_block` (AA vs KK vs QQ vs three random hands: 12.6 -> 14.0 M
    trials a second against the general :func:`deal_ranges_block`).  Where the ranges cannot clash it draws
    exactly what that function drew, so seeded results are unchanged.  Measured costs per trial on that deal:
    the three range draws 23 ns, the board 20 ns, the three random hands 24 ns (cards skipped when held)."""
    R = rplayers.size
    for b in range(nb):
        while True:
            taken = base_used
            clash = False
            for k in range(R):
                lo = roffsets[k]
                s0, s1, i = below(s0, s1, roffsets[k + 1] - lo)
                if not requal[k]:
                    s0, s1, i = alias_step(s0, s1, i, alias_prob[lo + i], alias_idx[lo + i])
                i += lo
                if rmasks[i] & taken:
                    clash = True
                    break
                taken |= rmasks[i]
                chosen[k] = i
            if not clash:
                break
        for k in range(R):
            seat(keys, hole, rplayers[k], b, rcombos[chosen[k], 0], rcombos[chosen[k], 1], card_keys)
        s0, s1 = deal_the_rest(s0, s1, b, deck, taken, missing, dplayers, bkey0, bkeys, bcards, keys, hole,
                               card_keys)
    return s0, s1


@njit(cache=True, nogil=True)
def deal_ranges_block(nb: int, s0: np.uint64, s1: np.uint64, plan: DealPlan, bkey0: np.uint64, bkeys: np.ndarray,
                      bcards: np.ndarray, keys: np.ndarray, hole: np.ndarray, omegas: np.ndarray,
                      scratch: np.ndarray, card_keys: np.ndarray) -> tuple:
    """Plans with range players: each range player's combo (Walker's alias method, redrawn
    while it shares a card with one drawn before it in the trial; in random order with the
    importance weight ``omegas[b]`` when ranges can collide), then the board and the deck
    players from the rest of the deck, skipping the range players' cards."""
    base_used, deck, missing = plan.base_used, plan.deck, 5 - plan.board.size
    rplayers, roffsets, rcombos, rmasks, rweights = plan.rplayers, plan.roffsets, plan.rcombos, plan.rmasks, \
        plan.rweights
    rtotal, alias_prob, alias_idx, requal = plan.rtotal, plan.alias_prob, plan.alias_idx, plan.requal
    weighted, dplayers, card_weight, pair_weight = plan.weighted, plan.dplayers, plan.card_weight, plan.pair_weight
    R = rplayers.size
    order = scratch[:R]             # the order the range players draw in (kept from block to block)
    held = scratch[R:3 * R]         # cards of the range players drawn so far in a trial
    for b in range(nb):
        taken = base_used
        omega = 1.0
        # 2. range players, in random order when their draws can collide
        if weighted:
            for k in range(R - 1, 0, -1):
                s0, s1, j = below(s0, s1, k + 1)
                order[k], order[j] = order[j], order[k]
        for q in range(R):
            k = order[q]
            lo, hi = roffsets[k], roffsets[k + 1]
            avail = rtotal[k]
            if weighted and q > 0:
                # weight still available: inclusion-exclusion over the cards held so far,
                # recounted combo by combo when cancellation leaves too little to trust
                for a in range(2 * q):
                    avail -= card_weight[k, held[a]]
                    for b2 in range(a):
                        avail += pair_weight[k, held[a], held[b2]]
                if avail < 1e-9 * rtotal[k]:
                    avail = 0.0
                    for i in range(lo, hi):
                        if not rmasks[i] & taken:
                            avail += rweights[i]
                if avail <= 0.0:
                    omega = 0.0
                    break
                omega *= avail / rtotal[k]
            n = hi - lo
            got = -1
            for _try in range(64):
                s0, s1, i = below(s0, s1, n)
                if not requal[k]:
                    s0, s1, i = alias_step(s0, s1, i, alias_prob[lo + i], alias_idx[lo + i])
                i += lo
                if not rmasks[i] & taken:
                    got = i
                    break
            if got < 0:       # heavily blocked: draw from the available combos by a scan
                s0, s1, u = uniform(s0, s1)
                u *= avail
                for i in range(lo, hi):
                    if not rmasks[i] & taken:
                        got = i
                        u -= rweights[i]
                        if u < 0.0:
                            break
            taken |= rmasks[got]
            c1, c2 = rcombos[got, 0], rcombos[got, 1]
            held[2 * q] = c1
            held[2 * q + 1] = c2
            p = rplayers[k]
            keys[p, b] = card_keys[c1] + card_keys[c2]
            hole[p, b, 0] = c1
            hole[p, b, 1] = c2
        omegas[b] = omega
        if omega == 0.0:      # no combo left for a range player: a trial of weight zero
            bkeys[b] = bkey0
            continue
        # 3. the board, then the deck players, from what is left of the deck
        s0, s1 = deal_the_rest(s0, s1, b, deck, taken, missing, dplayers, bkey0, bkeys, bcards, keys, hole,
                               card_keys)
    return s0, s1
