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
    joint: np.ndarray            # (A, R) int64: every assignment of the range players' combos with no card shared,
    #                              drawn as one (rows into rcombos); (0, R) when they are drawn one by one
    joint_mask: np.ndarray       # (A,) uint64: its cards
    joint_prob: np.ndarray       # (A,) float64: Walker alias table over the assignments' weight products ...
    joint_alias: np.ndarray      # (A,) int64   ... (empty when every product is the same: a uniform draw)
    reject: bool                 # colliding ranges drawn each from its own table, the whole draw redone on a clash

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
MIN_ACCEPTANCE = 0.25    # longer lists: whole-draw rejection instead when at least this share of draws is kept


def _joint(rest: dict, range_players: list[int], used: int, collide: bool) -> tuple:
    """How colliding range players are drawn without importance weights: ``(rows, masks, alias prob, alias,
    reject)``.  Drawing one row of the list of assignments with no card shared, by its weight product, is
    exactly the law the enumeration weighs (OMPEval draws from combined ranges the same way); so is drawing
    each player from his own range and redrawing all of them when two clash (rejection keeps each
    assignment in proportion to its weight product).  The list is used while it fits the CPU's caches or
    when rejection would throw away most draws; rejection when it keeps at least :data:`MIN_ACCEPTANCE`
    of them (its tables are small, the long list's rows are cache misses); neither (importance weights,
    as before) when the assignments are too many to count."""
    from .exact import _walk

    R = len(range_players)
    empty = (np.zeros((0, R), np.int64), np.zeros(0, np.uint64), np.zeros(0, np.float64), np.zeros(0, np.int64),
             False)
    sizes = [len(rest[p]) for p in range_players]
    if not collide or R < 2 or math.prod(sizes) > MAX_JOINT:
        return empty
    masks = np.ascontiguousarray(np.concatenate([rest[p].masks for p in range_players]).astype(np.uint64))
    weights = np.concatenate([rest[p].weights for p in range_players]).astype(np.float64)
    offsets = np.cumsum([0] + sizes).astype(np.int64)
    rows = np.empty((math.prod(sizes), R), np.int64)
    n = _walk(masks, offsets, np.uint64(used), rows, True, -1)
    if n == 0:
        return empty
    rows = np.ascontiguousarray(rows[:n])
    w = np.prod(weights[rows], axis=1)
    kept = float(w.sum()) / math.prod(float(rest[p].weights.sum()) for p in range_players)
    if n > CACHED_JOINT and kept >= MIN_ACCEPTANCE:
        return (*empty[:4], True)
    mask = np.bitwise_or.reduce(masks[rows], axis=1).astype(np.uint64)
    if np.all(w == w[0]):
        return rows, mask, np.zeros(0, np.float64), np.zeros(0, np.int64), False
    prob, alias = alias_arrays(w)
    return rows, mask, prob, alias, False


@njit(cache=True, nogil=True)
def alias_arrays(weights: np.ndarray) -> tuple:
    """:func:`alias_table` in numba, for long lists (Vose's method, the same stacks)."""
    n = weights.size
    scaled = weights * (n / weights.sum())
    prob = np.ones(n, np.float64)
    alias = np.arange(n)
    small = np.empty(n, np.int64)
    large = np.empty(n, np.int64)
    ns = nl = 0
    for i in range(n):
        if scaled[i] < 1.0:
            small[ns] = i
            ns += 1
        else:
            large[nl] = i
            nl += 1
    while ns > 0 and nl > 0:
        ns -= 1
        nl -= 1
        s, g = small[ns], large[nl]
        prob[s], alias[s] = scaled[s], g
        scaled[g] -= 1.0 - scaled[s]
        if scaled[g] < 1.0:
            small[ns] = g
            ns += 1
        else:
            large[nl] = g
            nl += 1
    return prob, alias


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
    combos, masks, weights, offsets, probs, aliases, totals, unions = [], [], [], [0], [], [], [], []
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
        unions.append(int(np.bitwise_or.reduce(r.masks)))
    weighted = any(unions[i] & unions[j] for i in range(len(unions)) for j in range(i))
    joint, joint_mask, joint_prob, joint_alias, reject = _joint(rest, range_players, used, weighted)
    if len(joint) or reject:     # the exact law without importance weights: counts stay integers
        weighted = False
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

    def cat(parts: list, dtype: type, shape: tuple = (0,)) -> np.ndarray:
        return np.ascontiguousarray(np.concatenate(parts).astype(dtype)) if parts else np.zeros(shape, dtype)

    deck = np.array([c for c in range(52) if not used >> c & 1], np.uint8)
    return DealPlan(hole_keys, hole_cards, np.uint64(used), np.asarray(board, np.int64), deck,
                    np.array(range_players, np.int64), np.array(offsets, np.int64),
                    cat(combos, np.int64, (0, 2)), cat(masks, np.uint64), cat(weights, np.float64),
                    np.array(totals, np.float64), cat(probs, np.float64), cat(aliases, np.int64),
                    weighted, np.array(deck_players, np.int64),
                    np.array([bool(np.all(rest[p].weights == rest[p].weights[0])) for p in range(P)
                              if p in range_players], np.bool_), card_weight, pair_weight,
                    joint, joint_mask, joint_prob, joint_alias, reject)
