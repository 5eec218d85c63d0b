"""How a Monte Carlo trial deals the players: the :class:`DealPlan` that :func:`.montecarlo.monte_carlo_chunk` reads.

Players fall into three groups (see :mod:`.montecarlo` for why each is exact):
*fixed* (one combo left beside the board and dead cards), *range* players
(drawn from their weighted combos by Walker's alias method), and *deck*
players (``random``, or any range holding every combo of the live deck at one
weight), dealt straight from the deck with the board.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from ..evaluator.kernels import SUITED_BITS
from ..ranges.syntax import Range
from .suits import stabilizer


class DealPlan(NamedTuple):
    """The arrays of one Monte Carlo deal, one value for the kernels (numba passes a named tuple as a struct)."""

    hole_keys: np.ndarray        # (P,) uint64: fixed players' two card keys, 0 for the others
    hole_cards: np.ndarray       # (P, 2) uint8: their cards
    base_used: np.uint64         # board, dead and fixed cards
    board: np.ndarray            # known board cards
    deck: np.ndarray             # (L,) uint8: cards not in base_used
    rplayers: np.ndarray         # (R,) player index of each range player
    roffsets: np.ndarray         # (R+1,) into the combo arrays below
    rcombos: np.ndarray          # (N, 2) card ids
    rmasks: np.ndarray           # (N,) uint64 card masks
    rweights: np.ndarray         # (N,) float64
    rtotal: np.ndarray           # (R,) each range's total weight
    alias_prob: np.ndarray       # (N,) Walker alias tables, per range
    alias_idx: np.ndarray        # (N,) int64, offsets within the range
    weighted: bool               # can two range players collide (importance weights needed)?
    dplayers: np.ndarray         # (D,) player index of each deck player
    requal: np.ndarray           # (R,) bool: the range's combos all weigh the same (no alias draw)
    card_weight: np.ndarray      # (R, 52): weight of each range's combos holding a card
    pair_weight: np.ndarray      # (R, 52, 52): weight of each range's combo of two cards
    bits: bool                   # dealt from the mask of live cards (:func:`.dealing.deal_bits_block`) ...
    hole_suited: np.ndarray      # (P,) uint64: fixed players' cards in the suited layout (bit 16*suit + rank)
    live: np.uint64              # the cards not in base_used, in the suited layout
    ckeys: np.ndarray            # (N,) uint64: each range combo's two-card key ...
    csuited: np.ndarray          # (N,) uint64  ... and its cards in the suited layout
    listed: np.ndarray           # (L,) int64: range slots drawn together as one row of ``rows`` ...
    rows: np.ndarray             # (A, L) int64: every assignment of their combos with no card shared (into rcombos)
    row_mask: np.ndarray         # (A,) uint64: its cards, suited layout
    row_prob: np.ndarray         # (A,) float64: Walker alias table over the rows' weights ...
    row_alias: np.ndarray        # (A,) int64   ... (empty when every row weighs the same: a uniform draw)
    row_cut: np.ndarray          # (A,) int64: when the rows' weights are integers, the alias table in integers:
    row_total: int               #   keep row a when a draw below row_total falls under row_cut[a] (exact)
    alone: np.ndarray            # (R-L,) int64: the other range slots, each drawn from his own table after the
    #                              rows, redrawn while he clashes with them (the rows' weights count his choices)
    reject: bool                 # a clash of the ``alone`` players redraws all of them (whole-draw rejection)
    choices: np.ndarray          # (A, C) uint16: when the first ``alone`` player is chained to the rows and his
    #                              combos weigh the same, the combos he may hold beside each row (into rcombos) ...
    choice_count: np.ndarray     # (A,) int64   ... and how many: drawn uniformly, no redraw ((0, 0) and (0,) if not)

    def for_chunk(self) -> DealPlan:
        """The plan with its own copy of the deck, which a chunk shuffles in place (chunks run in threads)."""
        return self._replace(deck=self.deck.copy())


def alias_table(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias table by Vose's method (Vose, IEEE TSE 17(9), 1991).

    Drawing ``i`` uniformly, then keeping it with probability ``prob[i]`` or
    else taking ``alias[i]``, picks ``i`` with probability proportional to ``weights[i]``.
    """
    n = len(weights)
    scaled = np.asarray(weights, np.float64) * (n / float(np.sum(weights)))
    prob = np.ones(n, np.float64)
    alias = np.arange(n, dtype=np.int64)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        prob[s], alias[s] = scaled[s], g
        scaled[g] -= 1.0 - scaled[s]
        (small if scaled[g] < 1.0 else large).append(g)
    return prob, alias


def _holds_whole_deck(r: Range, live: int) -> bool:
    return len(r) == live * (live - 1) // 2 and bool(np.all(r.weights == r.weights[0]))


def symmetries(board: list[int], base_mask: int, fixed: list[Range]) -> np.ndarray:
    """(g, 4) the suit permutations that map the board, the dead cards and each fixed hand
    onto itself."""
    dead = [c for c in range(52) if base_mask >> c & 1 and c not in board]
    perms = stabilizer(board, dead)
    keep = [g for g in perms if all({4 * (c >> 2) + int(g[c & 3]) for c in r.combos[0]} == set(r.combos[0].tolist())
                                    for r in fixed)]
    return np.array(keep, np.int64)


def lone_range_classes(r: Range, perms: np.ndarray) -> Range:
    """``r`` with one combo per suit class under ``perms``, weighing its class's total.

    When only one player holds a proper range, the others fixed hands or
    random, a suit permutation that fixes the board, the dead cards and the
    fixed hands carries each combo of a class onto another with the same law
    of showdowns (the deck maps onto itself), so drawing the class by its
    weight and dealing its first combo is the same Monte Carlo law as drawing
    the combo.  ``AA`` or ``AKo`` against random hands preflop is one class: a
    fixed hand, dealt as fast as ``AsAh``.
    """
    c = r.combos.astype(np.int64)
    img = 4 * (c[None, :, :] >> 2) + perms[:, c & 3]                # (g, n, 2)
    code = (52 * img.max(axis=2) + img.min(axis=2)).min(axis=0)     # smallest image of each combo
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    weights = np.bincount(inverse.ravel(), weights=r.weights.astype(np.float64), minlength=len(first))
    order = np.argsort(first)                                        # classes in the range's order
    return Range(r.text, r.combos[first[order]], weights[order])


MAX_JOINT = 1 << 20      # assignments of the range players listed at most for joint draws (~40 MB)
CACHED_JOINT = 1 << 14   # a list this short stays in the CPU's caches: always drawn from
MAX_TRIES = 3.0          # a range drawn alone after a list: at most this many draws a trial on average
MAX_CHAIN = 1 << 24      # ... and the list's rows times his combos at most this (the plan's cost: ~10 ms)
MAX_CHOICES = 1 << 21    # his combos beside each row listed when they weigh the same, up to this many (4 MB)
MIN_ACCEPTANCE = 0.25    # longer lists: whole-draw rejection instead when at least this share of draws is kept


def suited_bits(cards: np.ndarray) -> np.ndarray:
    """Each card's bit in the suited layout (bit ``16*suit + rank``, the evaluator's suited mask), as uint64;
    for an (n, 2) array of combos, the OR of each row's two."""
    b = SUITED_BITS[np.asarray(cards, np.int64)]
    return b if b.ndim == 1 else np.bitwise_or.reduce(b, axis=1)


class Lists(NamedTuple):
    """How the range players of a plan are drawn (:func:`_lists`)."""

    listed: list[int]         # range slots drawn as one row of ``rows``
    rows: np.ndarray          # (A, L) int64: rows into the plan's combo arrays
    weights: np.ndarray       # (A,) float64: each row's weight
    alone: list[int]          # the other range slots, each drawn from his own table, redrawn on a clash
    bits: bool                # the law without importance weights: dealt by :func:`.dealing.deal_bits_block` ...
    reject: bool              # ... a clash redrawing every range player (whole-draw rejection)
    weighted: bool            # else importance weights (:func:`.dealing.deal_ranges_block`)
    chained: bool = False     # the first of ``alone`` collides with the rows, which weigh his choices


@njit(cache=True, nogil=True)
def _choices(held: np.ndarray, masks: np.ndarray, first: int) -> tuple:
    """``(choices, count)``: for each row's cards ``held[a]``, the combos among ``masks`` that share none, in
    their order, as indexes from ``first`` (uint16, ``(rows, most)``, the rest of a row zero), and how many.
    (A stable argsort of the clash matrix did the same in 1.4 of the six-way plan's 2.2 ms.)"""
    A, n = held.size, masks.size
    count = np.zeros(A, np.int64)
    for a in range(A):
        for j in range(n):
            count[a] += (held[a] & masks[j]) == 0
    out = np.zeros((A, count.max() if A else 0), np.uint16)
    for a in range(A):
        k = 0
        for j in range(n):
            if (held[a] & masks[j]) == 0:
                out[a, k] = first + j
                k += 1
    return out, count


@njit(cache=True, nogil=True)
def _available(row_masks: np.ndarray, masks: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weight of the combos (``masks``, ``weights``) that share no card with each row's cards."""
    out = np.zeros(row_masks.size, np.float64)
    for a in range(row_masks.size):
        m = row_masks[a]
        total = 0.0
        for i in range(masks.size):
            if not masks[i] & m:
                total += weights[i]
        out[a] = total
    return out


def _walk_rows(rest: dict, range_players: list[int], slots: list[int], offsets: list[int], used: int) -> np.ndarray:
    """Every assignment of the combos of ``slots`` with no card shared: rows into the plan's combo arrays."""
    from .exact import _walk

    masks = np.ascontiguousarray(np.concatenate([rest[range_players[k]].masks for k in slots]).astype(np.uint64))
    sub = np.cumsum([0] + [len(rest[range_players[k]]) for k in slots]).astype(np.int64)
    rows = np.empty((math.prod(len(rest[range_players[k]]) for k in slots), len(slots)), np.int64)
    n = _walk(masks, sub, np.uint64(used), rows, True, -1)
    return rows[:n] - sub[:-1] + np.array([offsets[k] for k in slots], np.int64)


def _lists(rest: dict, range_players: list[int], offsets: list[int], masks: np.ndarray, weights: np.ndarray,
           used: int) -> Lists:
    """How the range players are drawn without importance weights, whenever a list short enough allows it.

    Ranges that share no card with any other are drawn each from his own table.  The others (they collide):

    * while the assignments of their combos with no card shared are at most :data:`CACHED_JOINT`, one is
      drawn from that list by its weight product: exactly the law the enumeration weighs (OMPEval draws from
      combined ranges the same way);
    * else all but the largest of them are listed, each row weighing its weight product times the weight the
      largest range keeps beside its cards, and the largest is drawn after the row from his own table,
      redrawn while he clashes with it: a row and his combo come with probability proportional to the
      product of all their weights, again the enumeration's law.  This is used while the list's rows times
      the largest range's combos are at most :data:`MAX_CHAIN` and the redraws average at most
      :data:`MAX_TRIES` a trial (the six-way QQ+,AK vs TT+,AQ+ vs 77+,AT+,KQ vs three random hands: 1,554
      rows and 1.6 draws of the third range a trial, instead of 124,000 rows or whole-draw rejection that
      keeps 46% of its draws);
    * else the whole list while it is at most :data:`MAX_JOINT` (whole-draw rejection, each range from his
      table and all again on a clash, when it keeps at least :data:`MIN_ACCEPTANCE` of its draws), and beyond
      that the sequential importance sampling of :func:`.dealing.deal_ranges_block`.
    """
    R = len(range_players)
    unions = [int(np.bitwise_or.reduce(rest[p].masks)) for p in range_players]
    collide = [k for k in range(R) if any(unions[k] & unions[j] for j in range(R) if j != k)]
    free = [k for k in range(R) if k not in collide]
    sizes = {k: len(rest[range_players[k]]) for k in range(R)}

    none = np.zeros((0, 0), np.int64)

    def drawn(slots: list[int], rows: np.ndarray, w: np.ndarray, alone: list[int]) -> Lists:
        return Lists(slots, np.ascontiguousarray(rows), np.ascontiguousarray(w, np.float64), alone, True, False,
                     False)

    if not collide:
        return drawn([], none, np.zeros(0), free)
    full = math.prod(sizes[k] for k in collide)
    if full <= 4 * CACHED_JOINT:
        rows = _walk_rows(rest, range_players, collide, offsets, used)
        if len(rows) <= CACHED_JOINT:
            return drawn(collide, rows, np.prod(weights[rows], axis=1), free)
    big = max(collide, key=lambda k: (sizes[k], -k))
    pre = [k for k in collide if k != big]
    if full <= MAX_CHAIN:
        rows = _walk_rows(rest, range_players, pre, offsets, used)
        lo, hi = offsets[big], offsets[big + 1]
        avail = _available(np.bitwise_or.reduce(masks[rows], axis=1).astype(np.uint64) if len(rows) else
                           np.zeros(0, np.uint64), masks[lo:hi], weights[lo:hi])
        keep = avail > 0
        rows, avail = rows[keep], avail[keep]
        w = np.prod(weights[rows], axis=1)
        z = float(np.sum(w * avail))
        if len(rows) and float(np.sum(weights[lo:hi])) * float(np.sum(w)) <= MAX_TRIES * z:
            return drawn(pre, rows, w * avail, [big] + free)._replace(chained=True)
    if full > MAX_JOINT:
        return Lists([], none, np.zeros(0), list(range(R)), False, False, True)
    rows = _walk_rows(rest, range_players, collide, offsets, used)
    w = np.prod(weights[rows], axis=1)
    kept = float(w.sum()) / math.prod(float(np.sum(weights[offsets[k]:offsets[k + 1]])) for k in collide)
    if kept >= MIN_ACCEPTANCE:
        return Lists([], none, np.zeros(0), list(range(R)), True, True, False)
    return drawn(collide, rows, w, free)


@njit(cache=True, nogil=True)
def _vose(scaled: np.ndarray, unit: float, cut: np.ndarray, alias: np.ndarray) -> None:
    """Vose's pairing, in place: ``scaled`` holds each column's share in units of ``unit`` (a column holds
    ``unit`` in all); a column short of ``unit`` keeps ``cut`` of its own and takes the rest from ``alias``.  Two
    stacks of indices, as :func:`alias_table` keeps them, so that every form gives the same table."""
    n = scaled.size
    small = np.empty(n, np.int64)
    large = np.empty(n, np.int64)
    ns = nl = 0
    for i in range(n):
        if scaled[i] < unit:
            small[ns] = i
            ns += 1
        else:
            large[nl] = i
            nl += 1
    while ns > 0 and nl > 0:
        ns -= 1
        nl -= 1
        s, g = small[ns], large[nl]
        cut[s], alias[s] = scaled[s], g
        scaled[g] -= unit - scaled[s]
        if scaled[g] < unit:
            small[ns] = g
            ns += 1
        else:
            large[nl] = g
            nl += 1


@njit(cache=True, nogil=True)
def alias_arrays(weights: np.ndarray) -> tuple:
    """:func:`alias_table` in numba, for long lists (Vose's method, the same stacks)."""
    n = weights.size
    prob = np.ones(n, np.float64)
    alias = np.arange(n)
    _vose(weights * (n / weights.sum()), 1.0, prob, alias)
    return prob, alias


@njit(cache=True, nogil=True)
def alias_integers(weights: np.ndarray) -> tuple:
    """Walker's alias table of integer weights in integers (Vose's method, as :func:`alias_arrays`):
    ``(cut, alias)`` such that drawing ``a`` uniformly below ``n`` and ``u`` below ``sum(weights)``, then keeping
    ``a`` when ``u < cut[a]`` and else taking ``alias[a]``, picks ``a`` with probability exactly
    ``weights[a] / sum(weights)``: each column holds ``sum(weights)`` units, ``cut[a]`` of its own."""
    n = weights.size
    total = weights.sum()
    cut = np.full(n, total, np.int64)
    alias = np.arange(n)
    _vose(weights * n, total, cut, alias)
    return cut, alias


def plan_deal(ranges: list[Range], board: list[int], base_mask: int) -> DealPlan:
    """Group the players and build the arrays; ``ranges`` already exclude ``base_mask`` (board
    and dead cards) and the fixed players' cards are disjoint (the caller checks both)."""
    P = len(ranges)
    hole_keys = np.zeros(P, np.uint64)
    hole_cards = np.zeros((P, 2), np.uint8)
    from ..evaluator.tables import tables
    card_keys = tables().card_keys
    used = int(base_mask)
    fixed = [p for p, r in enumerate(ranges) if len(r) == 1]
    for p in fixed:
        c1, c2 = (int(c) for c in ranges[p].combos[0])
        hole_keys[p] = card_keys[c1] + card_keys[c2]
        hole_cards[p] = c1, c2
        used |= (1 << c1) | (1 << c2)
    live = 52 - bin(used).count("1")
    rest = {p: ranges[p].without(used) for p in range(P) if p not in fixed}
    deck_players = [p for p, r in rest.items() if _holds_whole_deck(r, live)]
    range_players = [p for p in rest if p not in deck_players]
    if len(range_players) == 1:     # a lone range: one combo per suit class, the class's weight
        p = range_players[0]
        rest[p] = lone_range_classes(rest[p], symmetries(board, base_mask, [ranges[q] for q in fixed]))
        if len(rest[p]) == 1:       # one class (AA, AKo vs random hands): a fixed hand
            c1, c2 = (int(c) for c in rest[p].combos[0])
            hole_keys[p] = card_keys[c1] + card_keys[c2]
            hole_cards[p] = c1, c2
            used |= (1 << c1) | (1 << c2)
            range_players = []
    combos, masks, weights, offsets, probs, aliases, totals = [], [], [], [0], [], [], []
    for p in range_players:
        r = rest[p]
        combos.append(r.combos.astype(np.int64))
        masks.append(r.masks)
        weights.append(r.weights.astype(np.float64))
        offsets.append(offsets[-1] + len(r))
        prob, alias = alias_table(r.weights)
        probs.append(prob)
        aliases.append(alias)
        totals.append(float(np.sum(r.weights)))

    def cat(parts: list, dtype: type, shape: tuple = (0,)) -> np.ndarray:
        return np.ascontiguousarray(np.concatenate(parts).astype(dtype)) if parts else np.zeros(shape, dtype)

    rcombos, rmasks, rweights = cat(combos, np.int64, (0, 2)), cat(masks, np.uint64), cat(weights, np.float64)
    how = _lists(rest, range_players, offsets, rmasks, rweights, used)
    weighted = how.weighted
    R = len(range_players)
    card_weight = np.zeros((R, 52), np.float64)
    pair_weight = np.zeros((R, 52, 52) if weighted else (R, 0, 0), np.float64)
    for k, p in enumerate(range_players):
        c, w = rest[p].combos, rest[p].weights.astype(np.float64)
        np.add.at(card_weight[k], c[:, 0], w)
        np.add.at(card_weight[k], c[:, 1], w)
        if weighted:
            pair_weight[k, c[:, 0], c[:, 1]] = w
            pair_weight[k, c[:, 1], c[:, 0]] = w
    csuited = suited_bits(rcombos) if len(rcombos) else np.zeros(0, np.uint64)
    ckeys = (card_keys[rcombos[:, 0]] + card_keys[rcombos[:, 1]]) if len(rcombos) else np.zeros(0, np.uint64)
    rows = how.rows
    row_mask = np.bitwise_or.reduce(csuited[rows], axis=1).astype(np.uint64) if rows.size else np.zeros(0, np.uint64)
    w = how.weights
    row_cut, row_total = np.zeros(0, np.int64), 0
    if len(w) == 0 or np.all(w == w[0]):
        row_prob, row_alias = np.zeros(0, np.float64), np.zeros(0, np.int64)
    elif np.all(w == np.round(w)) and 0 < float(np.sum(w)) < 2.0**32:    # counts (ranges at one weight each)
        row_prob = np.zeros(0, np.float64)
        row_cut, row_alias = alias_integers(w.astype(np.int64))
        row_total = int(np.sum(w.astype(np.int64)))
    else:
        row_prob, row_alias = alias_arrays(w)
    choices, choice_count = np.zeros((0, 0), np.uint16), np.zeros(0, np.int64)
    if how.chained:
        big = how.alone[0]
        lo, hi = offsets[big], offsets[big + 1]
        if np.all(rweights[lo:hi] == rweights[lo]) and len(rows) * (hi - lo) <= MAX_CHOICES:
            held = np.bitwise_or.reduce(rmasks[rows], axis=1).astype(np.uint64)
            choices, choice_count = _choices(held, rmasks[lo:hi], lo)
    held = [p for p in range(P) if hole_keys[p]]        # the fixed players and a lone range of one class
    hole_suited = np.array([np.bitwise_or.reduce(suited_bits(hole_cards[p])) if p in held else 0 for p in range(P)],
                           np.uint64)
    deck = np.array([c for c in range(52) if not used >> c & 1], np.uint8)
    live = np.bitwise_or.reduce(suited_bits(deck))
    return DealPlan(hole_keys, hole_cards, np.uint64(used), np.asarray(board, np.int64), deck,
                    np.array(range_players, np.int64), np.array(offsets, np.int64), rcombos, rmasks, rweights,
                    np.array(totals, np.float64), cat(probs, np.float64), cat(aliases, np.int64),
                    weighted, np.array(deck_players, np.int64),
                    np.array([bool(np.all(rest[p].weights == rest[p].weights[0])) for p in range(P)
                              if p in range_players], np.bool_), card_weight, pair_weight,
                    how.bits, hole_suited, np.uint64(live), ckeys.astype(np.uint64), csuited,
                    np.array(how.listed, np.int64), rows.astype(np.int64), row_mask, row_prob, row_alias, row_cut,
                    row_total,
                    np.array(how.alone, np.int64), how.reject, choices, choice_count)
