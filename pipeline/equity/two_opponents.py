"""Exact counts of each preflop class against two random hands, board first.

A deal is a hero hand, a complete board and an unordered pair of opponent
hands, all disjoint.  Per specific hero hand there are C(50, 5) = 2,118,760
boards and C(45, 2) x C(43, 2) / 2 = 446,985 opponent pairs on each, so a class
of ``m`` combos has ``m`` x 947,053,938,600 deals; every one is counted as a
sole win, a two-way tie, a three-way tie or a loss of the hero.

Board by board (the 134,459 canonical rivers, each counted by its orbit under
the 24 suit permutations — a hand's class does not change with its suits) the
1,081 hands of the 47 live cards are evaluated once and put in order of value.
Walking the groups of equal value upwards, with ``B`` the hands below the
group and ``E`` the group, a hero ``h = {a, b}`` of the group counts

* sole wins: unordered disjoint pairs inside ``B_h`` (``B`` without the hands
  holding ``a`` or ``b``),
* three-way ties: disjoint pairs inside ``E_h``,
* two-way ties: disjoint pairs of one hand of ``E_h`` and one of ``B_h``,
* losses: the rest of the 446,985.

Two distinct hands share at most one card, so with ``n_c`` the hands of a set
``S`` that hold card ``c``, the unordered disjoint pairs of ``S`` are
``(|S|² − Σ n_c² + |S|) / 2`` and those of ``S × T`` (``S``, ``T`` disjoint)
are ``|S||T| − Σ s_c t_c``.  The per-card counts of ``B`` are running sums
over the groups; those of ``B_h`` and ``E_h`` differ from ``B``'s and ``E``'s
only by the hands ``{c, a}`` and ``{c, b}``, so each hero costs one pass over
the 47 live cards: O(1,081 x 47) per board after an O(n log n) sort.

A deck without the low ranks (:mod:`pipeline.evaluator.decks`) is a parameter: its missing cards are dead
on every board (``absent``), so the short deck's 31 live cards make 465 hands, with C(29, 2) x C(27, 2) / 2
= 71,253 opponent pairs per hero on each of its C(34, 5) = 278,256 boards (:func:`deals_per_combo`).
"""
from __future__ import annotations

from concurrent.futures import Executor
from math import comb

import numpy as np
from numba import njit

from ..core.hand_classes import class_of
from ..evaluator.decks import Deck
from ..evaluator.kernels import Tables, board_state, hand_value, live_cards, suited_bit

LIVE = 47                            # live cards on a complete board
HANDS = LIVE * (LIVE - 1) // 2       # 1,081 hands of them
PAIRS_PER_HERO = 45 * 44 // 2 * (43 * 42 // 2) // 2   # 446,985 unordered disjoint opponent pairs
BOARDS_PER_HERO = 2_118_760          # C(50, 5)
DEALS_PER_COMBO = BOARDS_PER_HERO * PAIRS_PER_HERO
SOLE, TWO_WAY, THREE_WAY, LOSS = 0, 1, 2, 3
DEFAULT_CHUNKS = 32


@njit(cache=True, nogil=True)
def _pairs(n: int) -> tuple:
    """``(pid, pa, pb)``: hand ``p`` of ``n`` live positions is ``(pa[p], pb[p])``, ``pa < pb``; ``pid`` both ways,
    and ``pid[i, i]`` one past the last hand (a sentinel whose group is above every other)."""
    pid = np.full((n, n), n * (n - 1) // 2, np.int64)   # the diagonal: one past the last hand
    pa = np.empty(n * (n - 1) // 2, np.int64)
    pb = np.empty(n * (n - 1) // 2, np.int64)
    p = 0
    for i in range(n):
        for j in range(i + 1, n):
            pid[i, j] = pid[j, i] = p
            pa[p], pb[p] = i, j
            p += 1
    return pid, pa, pb


@njit(cache=True, nogil=True)
def _order_of(vals: np.ndarray) -> np.ndarray:
    """The indices of ``vals`` (hand values, 0 .. 2**16 - 1) in ascending order of value: a stable radix sort,
    a byte a pass.  Faster than ``np.argsort`` on a board's 1,081 values, and safe to cache: numba names the
    sort helpers it compiles for ``np.argsort`` by a per-process counter, so two cached kernels compiled in
    different processes can hold different helpers under one symbol, and the one loaded first then serves
    both (after ``strength.street.street_counts`` had run, the short deck's ``_count_board`` sorted with
    another kernel's helper and counted nonsense)."""
    n = vals.size
    order = np.arange(n)
    other = np.empty(n, np.int64)
    count = np.empty(257, np.int64)
    for shift in (0, 8):
        count[:] = 0
        for i in range(n):
            count[((vals[i] >> shift) & 255) + 1] += 1
        for b in range(256):
            count[b + 1] += count[b]
        for i in range(n):
            j = order[i]
            d = (vals[j] >> shift) & 255
            other[count[d]] = j
            count[d] += 1
        order, other = other, order
    return order


def deals_per_combo(absent: int = 0) -> int:
    """Deals (board, unordered disjoint pair of opponent hands) of one hero hand: :data:`DEALS_PER_COMBO` on
    52 cards, 278,256 x 71,253 on the short deck (``absent``: the mask of the cards the deck lacks)."""
    n = 50 - bin(absent).count("1")
    return comb(n, 5) * (comb(n - 5, 2) * comb(n - 7, 2) // 2)


@njit(cache=True, nogil=True)
def _count_board(board: np.ndarray, T: Tables, pid: np.ndarray, pa: np.ndarray, pb: np.ndarray,
                 live: np.ndarray, out: np.ndarray, absent: int = 0) -> None:
    """``out[p]`` (1,081, 4): sole wins, two-way ties, three-way ties and losses of hand ``p`` of the live
    cards ``live`` (written, ascending ids) over every unordered disjoint pair of opponent hands on ``board``
    (the cards of the ``absent`` mask in no hand: 465 hands of 31 live cards on the short deck)."""
    key, suited, used = board_state(board, np.uint64(absent), T.card_keys)
    n_live = live_cards(used, live)
    hands = pa.size
    pairs_per_hero = (n_live - 2) * (n_live - 3) // 2 * ((n_live - 4) * (n_live - 5) // 2) // 2
    vals = np.empty(hands, np.int64)
    for p in range(hands):
        ca, cb = live[pa[p]], live[pb[p]]
        vals[p] = hand_value(key + T.card_keys[ca] + T.card_keys[cb], suited | suited_bit(ca) | suited_bit(cb), T)
    order = _order_of(vals)
    grp = np.empty(hands + 1, np.int64)
    grp[hands] = hands                     # the sentinel hand pid[c, c]: above every group
    g = -1
    prev = -1
    for i in range(hands):
        p = order[i]
        if vals[p] != prev:
            g += 1
            prev = vals[p]
        grp[p] = g
    nb = np.zeros(n_live, np.int64)          # hands below the group holding each card
    ne = np.zeros(n_live, np.int64)          # hands of the group holding each card
    size_b = 0
    i = 0
    while i < hands:
        g = grp[order[i]]
        j = i
        while j < hands and grp[order[j]] == g:
            q = order[j]
            ne[pa[q]] += 1
            ne[pb[q]] += 1
            j += 1
        size_e = j - i
        for t in range(i, j):
            q = order[t]
            a, b = pa[q], pb[q]
            bh = size_b - nb[a] - nb[b]                  # no hand below holds both a and b
            eh = size_e - ne[a] - ne[b] + 1              # the hero holds both
            sb = se = sx = 0
            ra, rb = pid[a], pid[b]
            for c in range(n_live):                        # c = a, b included: pid[c, c] is the sentinel
                ga, gb = grp[ra[c]], grp[rb[c]]
                xb = nb[c] - (ga < g) - (gb < g)
                xe = ne[c] - (ga == g) - (gb == g)
                sb += xb * xb
                se += xe * xe
                sx += xb * xe
            # c = a and c = b were counted with the hero itself as {a, b} in the group: take them out
            xa, xb_ = ne[a] - 1, ne[b] - 1
            sb -= nb[a] * nb[a] + nb[b] * nb[b]
            se -= xa * xa + xb_ * xb_
            sx -= nb[a] * xa + nb[b] * xb_
            sole = (bh * bh - sb + bh) // 2
            three = (eh * eh - se + eh) // 2
            two = eh * bh - sx
            out[q, SOLE] = sole
            out[q, TWO_WAY] = two
            out[q, THREE_WAY] = three
            out[q, LOSS] = pairs_per_hero - sole - two - three
        for t in range(i, j):
            q = order[t]
            nb[pa[q]] += 1
            nb[pb[q]] += 1
            ne[pa[q]] = 0
            ne[pb[q]] = 0
        size_b += size_e
        i = j


@njit(cache=True, nogil=True)
def _class_kernel(boards: np.ndarray, orbits: np.ndarray, T: Tables, absent: int = 0) -> np.ndarray:
    """(169, 4) outcome counts of every hero hand of each class over ``boards``, each ``orbits`` times (the
    ``absent`` mask's cards in no hand; their classes' rows stay 0)."""
    n = LIVE
    for c in range(52):
        n -= (absent >> c) & 1
    pid, pa, pb = _pairs(n)
    live = np.empty(52, np.int64)
    out = np.empty((pa.size, 4), np.int64)
    counts = np.zeros((169, 4), np.int64)
    board = np.empty(5, np.int64)
    for bi in range(boards.shape[0]):
        board[:] = boards[bi]
        _count_board(board, T, pid, pa, pb, live, out, absent)
        w = orbits[bi]
        for p in range(pa.size):
            c = class_of(live[pa[p]], live[pb[p]])
            for k in range(4):
                counts[c, k] += w * out[p, k]
    return counts


@njit(cache=True, nogil=True)
def board_orbits(boards: np.ndarray) -> np.ndarray:
    """How many boards the 24 suit permutations map each row of ``boards`` onto: 24 over its stabiliser
    (the permutations of suits holding the same rank mask)."""
    out = np.empty(boards.shape[0], np.int64)
    masks = np.zeros(4, np.int64)
    for i in range(boards.shape[0]):
        masks[:] = 0
        for c in boards[i]:
            masks[c & 3] |= 1 << (c >> 2)
        stab = 1
        seen = np.zeros(4, np.bool_)
        for s in range(4):
            if seen[s]:
                continue
            m = 0
            for t in range(s, 4):
                if masks[t] == masks[s]:
                    seen[t] = True
                    m += 1
            for f in range(2, m + 1):
                stab *= f
        out[i] = 24 // stab
    return out


def _tables(deck: Deck | None = None) -> Tables:
    from ..evaluator.tables import tables

    return tables() if deck is None else tables(deck)


def board_outcomes(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(hands, counts)`` on one complete ``board`` (5 card ids): the 1,081 live hands (rows of two ascending
    ids) and each one's (sole wins, two-way ties, three-way ties, losses) over the 446,985 opponent pairs."""
    board = np.ascontiguousarray(board, np.int64)
    pid, pa, pb = _pairs(LIVE)
    live = np.empty(52, np.int64)
    out = np.empty((HANDS, 4), np.int64)
    _count_board(board, _tables(), pid, pa, pb, live, out)
    return np.stack([live[pa], live[pb]], axis=1), out


def class_counts_of_boards(boards: np.ndarray, orbits: np.ndarray | None = None,
                           deck: Deck | None = None) -> np.ndarray:
    """(169, 4) int64: sole wins, two-way ties, three-way ties and losses of each class (grid order) against
    two random hands over ``boards`` (rows of 5 ids), each counted ``orbits`` times (default once); with a
    ``deck`` lacking the low ranks, from its cards only, valued by its tables."""
    boards = np.ascontiguousarray(boards, np.int64)
    orbits = np.ones(len(boards), np.int64) if orbits is None else np.ascontiguousarray(orbits, np.int64)
    if deck is None or not deck.absent_mask:
        return _class_kernel(boards, orbits, _tables() if deck is None else _tables(deck))
    return _class_kernel(boards, orbits, _tables(deck), deck.absent_mask)


def board_chunks(chunks: int = DEFAULT_CHUNKS) -> list[tuple[int, int]]:
    """``chunks`` contiguous ranges ``[start, stop)`` of the 134,459 canonical boards (the unit of work)."""
    n = 134_459
    edges = [n * i // chunks for i in range(chunks + 1)]
    return list(zip(edges[:-1], edges[1:]))


def chunk_counts(start: int, stop: int) -> np.ndarray:
    """(169, 4) counts over canonical boards ``start:stop``, each weighted by its orbit."""
    from ..isomorphism.boards import canonical_boards

    boards = canonical_boards(5)[start:stop].astype(np.int64)
    return class_counts_of_boards(boards, board_orbits(boards))


def two_opponent_counts(executor: Executor | None = None, chunks: int = DEFAULT_CHUNKS) -> np.ndarray:
    """(169, 4) int64 exact counts of every class against two random hands over every deal of the deck:
    sole wins, two-way ties, three-way ties, losses.  Each row sums to combos x :data:`DEALS_PER_COMBO`.

    The work is split into ``chunks`` board ranges, run on ``executor`` when given (the kernel releases the
    GIL, so threads work); the sum of integers is the same whatever the split or the workers."""
    ranges = board_chunks(chunks)
    if executor is None:
        parts = [chunk_counts(a, b) for a, b in ranges]
    else:
        parts = list(executor.map(chunk_counts, *zip(*ranges)))
    return np.stack(parts).sum(axis=0, dtype=np.int64)


def class_combo_counts() -> np.ndarray:
    """(169,) specific hands of each class in grid order: 6 for a pair, 4 suited, 12 offsuit."""
    out = np.zeros(169, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            out[class_of(a, b)] += 1
    return out


def outcome_fractions(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(win, tie, equity, deals)`` from (n, 4) outcome counts: sole wins over deals, two- and three-way ties
    over deals, and equity ``(sole + two/2 + three/3) / deals`` as one division of exact integers (units of a
    sixth of a pot: a two-way tie is 3, a three-way tie 2)."""
    from .scoring import equity_fraction

    counts = np.asarray(counts, np.int64)
    deals = counts.sum(axis=1)
    shares = 3 * counts[:, TWO_WAY] + 2 * counts[:, THREE_WAY]
    return (counts[:, SOLE] / deals, (counts[:, TWO_WAY] + counts[:, THREE_WAY]) / deals,
            equity_fraction(counts[:, SOLE], shares, deals, unit=6), deals)
