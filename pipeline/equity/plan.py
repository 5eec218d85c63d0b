"""How a Monte Carlo trial deals the players: the :class:`DealPlan` that :func:`.montecarlo.monte_carlo_chunk` reads.

Players fall into three groups (see :mod:`.montecarlo` for why each is exact):
*fixed* (one combo left beside the board and dead cards), *range* players
(drawn from their weighted combos by Walker's alias method), and *deck*
players (``random``, or any range holding every combo of the live deck at one
weight), dealt straight from the deck with the board.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

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
                              if p in range_players], np.bool_), card_weight, pair_weight)
