"""The EHS tables: every canonical (hole, board) situation of a street, computed by sharing work.

For each suit-canonical board (1,755 flops, 16,432 turns, 134,459 rivers) every
pair of live cards is evaluated once on it.

**Hand strength.**  A hole ``{a, b}`` of value ``v`` is ahead of the opponent
pairs below ``v`` that hold neither ``a`` nor ``b``: with sorted values of all
pairs and of the pairs holding each card,

    ahead = below(all) - below(a) - below(b)      (no pair below v holds both)
    tied  = equal(all) - equal(a) - equal(b) + 1  (the hole itself holds both)

**Potential.**  Each runout (turn and river on the flop, the river on the turn)
leaves 47 cards whose 1,081 pairs are evaluated once on the complete board.
Every pair is then a point (value now, value at the river), and a hole's
potential table counts the other pairs by (now: above / level / below it,
final: above / level / below) — a two-dimensional dominance count, done for all
pairs at once: pairs enter a Fenwick tree over final values in order of their
value now, a group of equal value now at a time; each pair queries the tree
before its group enters (the opponents it is ahead of now), its own group, kept
sorted, gives the tied-now row, and a histogram of final values the columns.
Opponents that share a card with the hole are removed as above: the 46 pairs
holding a card are compared with each other directly (a vectorized all-pairs
count), and the hole itself once.
Summed over runouts this is the AAAI-98 table ``HP[now][final]`` of
:mod:`pipeline.strength.hand_strength`, whose per-situation enumeration checks it in the tests.

Holes that a board's own suit symmetry maps onto each other give the same
situation; each situation comes once, from its board's canonical representative.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ..core.cards import format_card_rows
from ..evaluator.kernels import Tables, board_state, hand_value, live_cards, suited_bit
from ..isomorphism.situations import situation_index_nb
from .runouts import runout_key, runout_positions

if TYPE_CHECKING:
    import pyarrow as pa

RUNOUT_CARDS = 47              # cards left after a complete board and no hole
RUNOUT_PAIRS = 47 * 46 // 2


@lru_cache(maxsize=1)
def dense_values() -> np.ndarray:
    """Map each hand value to its order 1..7,462 among all values (0 where none), for the Fenwick tree."""
    from ..evaluator.tables import tables

    T = tables()
    values = np.unique(np.concatenate([T.rank_values, T.flush_values]).astype(np.int64))
    dense = np.zeros(values[-1] + 1, np.int64)
    dense[values] = np.arange(1, len(values) + 1)
    return dense


@njit(cache=True, nogil=True)
def pair_numbering(n: int) -> tuple:
    """``(pid, pair_a, pair_b)``: pair ``p`` of ``n`` live cards is ``(pair_a[p], pair_b[p])``, ``a < b``,
    and ``pid[a, b] = pid[b, a] = p`` (pairs in lexicographic order)."""
    npairs = n * (n - 1) // 2
    pid = np.empty((n, n), np.int64)
    pair_a = np.empty(npairs, np.int64)
    pair_b = np.empty(npairs, np.int64)
    p = 0
    for i in range(n):
        for j in range(i + 1, n):
            pid[i, j] = pid[j, i] = p
            pair_a[p], pair_b[p] = i, j
            p += 1
    return pid, pair_a, pair_b


@njit(cache=True, nogil=True)
def ahead_tied(dv: np.ndarray, order: np.ndarray, pa: np.ndarray, pb: np.ndarray, n: int, ahead: np.ndarray,
               tied: np.ndarray, below: np.ndarray, level: np.ndarray) -> None:
    """Each pair's opponents ahead of and tied with it among the pairs disjoint from it: ``ahead[p]`` and
    ``tied[p]`` (``dv`` the pairs' dense values, ``order`` the pairs by value; ``below``/``level``: per-card
    work arrays of ``n``).  A hole ``{a, b}`` of value ``v`` is ahead of the pairs below ``v`` holding neither
    card (``below(all) - below(a) - below(b)``) and tied with those of its value holding neither
    (``equal(all) - equal(a) - equal(b) + 1``: itself holds both)."""
    count = pa.shape[0]
    below[:n] = 0
    level[:n] = 0
    done = 0
    start = 0
    while start < count:
        v = dv[order[start]]
        end = start
        while end < count and dv[order[end]] == v:
            q = order[end]
            level[pa[q]] += 1
            level[pb[q]] += 1
            end += 1
        g = end - start
        for i in range(start, end):
            q = order[i]
            a, b = pa[q], pb[q]
            ahead[q] = done - below[a] - below[b]
            tied[q] = g - level[a] - level[b] + 1
        for i in range(start, end):
            q = order[i]
            a, b = pa[q], pb[q]
            below[a] += 1
            below[b] += 1
            level[a] = 0
            level[b] = 0
        done += g
        start = end


@njit(cache=True, nogil=True)
def _tree_add(tree: np.ndarray, i: int) -> None:
    while i < tree.shape[0]:
        tree[i] += 1
        i += i & -i


@njit(cache=True, nogil=True)
def _tree_below(tree: np.ndarray, i: int) -> int:
    """How many entries are at positions < ``i``."""
    i -= 1
    s = 0
    while i > 0:
        s += tree[i]
        i &= i - 1
    return s



def scratch(n_live: int, n_dense: int) -> tuple[np.ndarray, ...]:
    """Work arrays of :func:`add_runout`, allocated once per kernel call."""
    q = RUNOUT_PAIRS
    return (np.empty(RUNOUT_CARDS, np.int64), np.empty(q, np.int64), np.empty(q, np.int64), np.empty(q, np.int64),
            np.empty(n_live * (n_live - 1) // 2, np.int64), np.empty((RUNOUT_CARDS, RUNOUT_CARDS - 1), np.int64),
            np.empty(RUNOUT_CARDS, np.int64), np.empty((q, 9), np.int64), np.zeros(n_dense + 1, np.int64),
            np.zeros(n_dense + 2, np.int64), np.empty(q, np.int64), np.empty(q, np.int64),
            np.empty(RUNOUT_CARDS, np.int32), np.empty(RUNOUT_CARDS, np.int32))


@njit(cache=True, nogil=True)
def add_runout(rkey: np.uint64, rsuited: np.uint64, ri: int, rj: int, live: np.ndarray, pid: np.ndarray,
                now: np.ndarray, order: np.ndarray, hp: np.ndarray, dense: np.ndarray,
                work: tuple[np.ndarray, ...], T: Tables) -> None:
    """Add one runout's (opponent pair, now, final) cases to the table ``hp`` (live pairs, 9) of every
    hole it leaves live; ``ri``/``rj`` are the runout's positions in ``live`` (``rj`` -1 for one card)."""
    rest, q_pair, q_now, q_fin, q_of, holding, held, cells, tree, hist, ordered, gfin, g_now, g_fin = work
    n = live.shape[0]
    nr = 0
    for u in range(n):
        if u != ri and u != rj:
            rest[nr] = u
            held[nr] = 0
            nr += 1
    q_of[:] = -1
    nq = 0
    for x in range(nr):
        for y in range(x + 1, nr):
            u, w = rest[x], rest[y]
            p = pid[u, w]
            cu, cw = live[u], live[w]
            q_pair[nq], q_now[nq] = p, now[p]
            q_of[p] = nq
            q_fin[nq] = hand_value(rkey + T.card_keys[cu] + T.card_keys[cw], rsuited | suited_bit(cu) | suited_bit(cw),
                                   T)
            holding[x, held[x]] = nq
            held[x] += 1
            holding[y, held[y]] = nq
            held[y] += 1
            nq += 1
    t = 0
    for i in range(order.shape[0]):            # the runout's pairs by value now
        q = q_of[order[i]]
        if q >= 0:
            ordered[t] = q
            t += 1
    tree[:] = 0
    hist[:] = 0
    below_now = 0
    start = 0
    while start < nq:                           # groups of equal value now, low to high
        v = q_now[ordered[start]]
        end = start
        while end < nq and q_now[ordered[end]] == v:
            f = q_fin[ordered[end]]
            k = end - start                     # insertion sort of the group's final values
            while k > 0 and gfin[k - 1] > f:
                gfin[k] = gfin[k - 1]
                k -= 1
            gfin[k] = f
            end += 1
        g = end - start
        for i in range(start, end):
            q = ordered[i]
            f = q_fin[q]
            d = dense[f]
            lo = _tree_below(tree, d)
            eq = _tree_below(tree, d + 1) - lo
            cells[q, 0], cells[q, 1], cells[q, 2] = lo, eq, below_now - lo - eq
            lo = np.searchsorted(gfin[:g], f, side="left")
            eq = np.searchsorted(gfin[:g], f, side="right") - lo
            cells[q, 3], cells[q, 4], cells[q, 5] = lo, eq, g - lo - eq
        for i in range(start, end):
            d = dense[q_fin[ordered[i]]]
            _tree_add(tree, d)
            hist[d + 1] += 1
        below_now += g
        start = end
    for d in range(1, hist.shape[0]):           # hist[d] becomes the count of final values below order d
        hist[d] += hist[d - 1]
    for q in range(nq):
        d = dense[q_fin[q]]
        cells[q, 6] = hist[d] - cells[q, 0] - cells[q, 3]
        cells[q, 7] = hist[d + 1] - hist[d] - cells[q, 1] - cells[q, 4]
        cells[q, 8] = nq - (cells[q, 0] + cells[q, 1] + cells[q, 2] + cells[q, 3] + cells[q, 4] + cells[q, 5]
                            + cells[q, 6] + cells[q, 7])
        cells[q, 4] -= 1                        # the hole itself
    for x in range(nr):                         # opponents sharing a card with the hole
        m = held[x]
        for i in range(m):
            q = holding[x, i]
            g_now[i] = q_now[q]
            g_fin[i] = q_fin[q]
        for i in range(m):                      # each pair holding x against all of them (itself too):
            ni = g_now[i]                       # eight branch-free sums the compiler vectorizes
            fi = g_fin[i]
            # annotations only (no bytecode): the sums start as ints and take int32 terms
            c: int | np.int32
            ln: int | np.int32
            en: int | np.int32
            lf: int | np.int32
            ef: int | np.int32
            ll: int | np.int32
            le: int | np.int32
            el: int | np.int32
            ee: int | np.int32
            ln = en = lf = ef = ll = le = el = ee = 0
            for j in range(m):
                a = np.int32(g_now[j] < ni)
                b = np.int32(g_now[j] == ni)
                c = np.int32(g_fin[j] < fi)
                d = np.int32(g_fin[j] == fi)
                ln += a
                en += b
                lf += c
                ef += d
                ll += a & c
                le += a & d
                el += b & c
                ee += b & d
            en -= 1                             # not itself
            ef -= 1
            ee -= 1
            q = holding[x, i]
            cells[q, 0] -= ll
            cells[q, 1] -= le
            cells[q, 2] -= ln - ll - le
            cells[q, 3] -= el
            cells[q, 4] -= ee
            cells[q, 5] -= en - el - ee
            cells[q, 6] -= lf - ll - el
            cells[q, 7] -= ef - le - ee
            cells[q, 8] -= (m - 1) - (ln + en + lf + ef - ll - le - el - ee)
    for q in range(nq):
        p = q_pair[q]
        for c in range(9):
            hp[p, c] += cells[q, c]


@njit(cache=True, nogil=True)
def street_counts(boards: np.ndarray, blocks: np.ndarray, dense: np.ndarray, work: tuple[np.ndarray, ...],
                  T: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every live hole of each board (rows of 3, 4 or 5 card ids): situation index, hole, board row,
    ahead/tied/behind now, and the potential table (9 counts; no rows on the river)."""
    nb, m = boards.shape
    n = 52 - m
    npairs = n * (n - 1) // 2
    look = 5 - m
    rows = nb * npairs
    out_idx = np.empty(rows, np.int64)
    out_hole = np.empty((rows, 2), np.uint8)
    out_board = np.empty(rows, np.int64)
    out_now = np.empty((rows, 3), np.int64)
    out_hp = np.zeros((rows if look > 0 else 0, 9), np.int64)
    pid, pair_a, pair_b = pair_numbering(n)
    first, second = runout_positions(n, look)
    live = np.empty(n, np.int64)
    now = np.empty(npairs, np.int64)
    allv = np.empty(npairs, np.int64)
    per_card = np.empty((n, n - 1), np.int64)
    fill = np.empty(n, np.int64)
    hp = np.empty((npairs, 9), np.int64)
    board = np.zeros(5, np.int64)
    row = 0
    for bi in range(nb):
        board[:m] = boards[bi]
        bkey, bsuited, used = board_state(boards[bi], np.uint64(0), T.card_keys)
        live_cards(used, live)
        fill[:] = 0
        for p in range(npairs):
            a, b = pair_a[p], pair_b[p]
            ca, cb = live[a], live[b]
            v = hand_value(bkey + T.card_keys[ca] + T.card_keys[cb], bsuited | suited_bit(ca) | suited_bit(cb),
                           T)
            now[p] = allv[p] = v
            per_card[a, fill[a]] = v
            fill[a] += 1
            per_card[b, fill[b]] = v
            fill[b] += 1
        allv.sort()
        for i in range(n):
            per_card[i].sort()
        if look > 0:
            hp[:] = 0
            order = np.argsort(now)
            for r in range(first.size):
                rkey, rsuited = runout_key(bkey, bsuited, live, first[r], second[r], T)
                add_runout(rkey, rsuited, first[r], second[r], live, pid, now, order, hp, dense, work, T)
        opponents = (n - 2) * (n - 3) // 2
        for p in range(npairs):
            a, b = pair_a[p], pair_b[p]
            v = now[p]
            below = np.searchsorted(allv, v, side="left")
            equal = np.searchsorted(allv, v, side="right") - below
            ba = np.searchsorted(per_card[a], v, side="left")
            ea = np.searchsorted(per_card[a], v, side="right") - ba
            bb = np.searchsorted(per_card[b], v, side="left")
            eb = np.searchsorted(per_card[b], v, side="right") - bb
            ahead = below - ba - bb
            tied = equal - ea - eb + 1
            out_idx[row] = situation_index_nb(live[b], live[a], board, m, blocks)
            out_hole[row, 0], out_hole[row, 1] = live[b], live[a]
            out_board[row] = bi
            out_now[row, 0], out_now[row, 1], out_now[row, 2] = ahead, tied, opponents - ahead - tied
            if look > 0:
                out_hp[row] = hp[p]
            row += 1
    return out_idx, out_hole, out_board, out_now, out_hp


def _text(cards: np.ndarray) -> pa.Array:
    """Arrow string array of rows of card ids (``AsKd``...)."""
    from ..core.arrow import text

    return text(format_card_rows(cards))


def load_kernels(cards: int) -> None:
    """Load (or compile, the first time) what :func:`street_rows` runs on boards of ``cards`` cards (3, 4 or 5),
    its kernel and the tables it reads, computing no situation: a worker's preparation (a flop's rows cost
    0.16 s more, and building their table imported pandas, :mod:`pipeline.core.arrow`)."""
    from ..evaluator.tables import tables
    from ..isomorphism.situations import block_table

    dense = dense_values()
    street_counts(np.zeros((0, cards), np.uint8), block_table(cards), dense, scratch(52 - cards, int(dense.max())),
                  tables())


POTENTIAL_COLUMNS = ("hp_aa", "hp_at", "hp_ab", "hp_ta", "hp_tt", "hp_tb", "hp_ba", "hp_bt", "hp_bb")


def street_rows(boards: np.ndarray) -> pa.Table:
    """Arrow table of the situations reached from canonical ``boards`` (rows of 3, 4 or 5 ids), one row each.

    Columns: ``index``, ``hole``, ``board``, ``ahead``, ``tied``, ``behind``, ``hs``, ``ppot``, ``npot``,
    ``ehs``; on the flop and turn also the potential table's counts ``hp_<now><final>`` (a/t/b for
    ahead/tied/behind, e.g. ``hp_ba``: behind now, ahead at the river)."""
    import pyarrow as pa

    from ..core.arrow import column
    from ..evaluator.tables import tables
    from ..isomorphism.situations import block_table
    from .hand_strength import effective_strength, hand_strengths, potentials

    boards = np.ascontiguousarray(boards, np.uint8)
    m = boards.shape[1]
    dense = dense_values()
    idx, hole, which, now, hp = street_counts(boards, block_table(m), dense, scratch(52 - m, int(dense.max())),
                                              tables())
    idx, first = np.unique(idx, return_index=True)
    hole, which, now = hole[first], which[first], now[first]
    hs = hand_strengths(now)
    if m < 5:
        hp = hp[first]
        ppot, npot = potentials(hp.reshape(-1, 3, 3))
    else:
        ppot = npot = np.zeros(len(idx))                # nothing left to come on the river
    columns = {
        "index": column(idx, pa.int64()),
        "hole": _text(hole),
        "board": _text(boards[which][:, ::-1]),
        "ahead": column(now[:, 0], pa.int64()),
        "tied": column(now[:, 1], pa.int64()),
        "behind": column(now[:, 2], pa.int64()),
        "hs": column(hs, pa.float64()),
        "ppot": column(ppot, pa.float64()),
        "npot": column(npot, pa.float64()),
        "ehs": column(effective_strength(hs, ppot, npot), pa.float64()),
    }
    if m < 5:
        columns.update({name: column(hp[:, i], pa.int64()) for i, name in enumerate(POTENTIAL_COLUMNS)})
    return pa.table(columns)
