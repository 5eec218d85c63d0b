"""Building the hand-weight tables: the win share of every canonical situation against 1..9 opponents.

One opponent — exact, as the EHS tables count it (:mod:`pipeline.strength.street`):

* **flop, turn**: over all runouts and opponent hands, the potential table
  ``HP[now][final]``'s final-ahead column plus half its final-tied column,
  divided by all cases; stored as the integer ``2·ahead + tied`` (a flop has
  1,081 runouts × 990 opponent hands = 1,070,190 cases, a turn 46 × 990);
* **river**: HS, from the exact counts of opponent hands ahead and tied (of 990).

``k`` opponents — an approximation that keeps the board's correlation exact:
on each complete board (each runout) the hero wins against each opponent with
the exact shares ``a`` (ahead) and ``t`` (tied) of that runout, and the ``k``
opponents are taken as independent draws from those 990 hands (their card
removal among each other is ignored): :func:`~.weights.multiway_share`,
averaged over the runouts.  Its error against 100,000-trial simulation is
measured by ``benchmarks/bench_holdem.py --weights`` (docs).  Flop and turn
store it for ``k`` = 2..9 to 1/65,535; the river computes it from ``a`` and
``t`` at lookup.

The tables are indexed by :func:`pipeline.isomorphism.situations.situation_index`.
They are the ``holdem-weights/flop|turn|river`` datasets
(:mod:`pipeline.datasets.recipes.holdem_weights`): :func:`street_weights` is a
partition's work, :func:`dense_street` turns the rows into the arrays the
engine maps (side outputs of the datasets, verified on every read).
"""
from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import Executor
from typing import Optional

import numpy as np
from numba import njit

from ..core.sorting import DIGITS, radix_order
from ..evaluator.kernels import (
    KEY_BASE,
    RANK_KEYS,
    SUIT_SHIFT,
    Tables,
    board_state,
    hand_value,
    live_cards,
    rank_value,
    suited_bit,
)
from ..isomorphism.situations import block_table, situation_index_nb
from ..strength.runouts import runout_key, runout_positions
from ..strength.street import RUNOUT_CARDS, RUNOUT_PAIRS, ahead_tied, dense_values, pair_numbering
from .weights import MULTI, OPPONENT_HANDS, SCALE, SITUATIONS, multiway_share

STREETS = {"flop": 3, "turn": 4, "river": 5}
BOARDS_PER_TASK = {3: 25, 4: 400, 5: 4000}


@njit(cache=True, nogil=True)
def pair_values(rkey: np.uint64, rsuited: np.uint64, cards: np.ndarray, pa: np.ndarray, pb: np.ndarray,
                dense: np.ndarray, dv: np.ndarray, by_ranks: np.ndarray, T: Tables) -> None:
    """Dense value of every pair ``(cards[pa[p]], cards[pb[p]])`` on the complete board ``(rkey, rsuited)``
    (``cards`` ascending).  A pair that cannot make a flush has its ranks' value, looked up once per rank pair
    (``by_ranks``: 169 scratch); only the pairs that can (enough cards of the board's suit of three or more)
    are evaluated whole."""
    flush_suit = -1
    need = 3
    for s in range(4):
        count = int((rkey >> np.uint64(SUIT_SHIFT + 4 * s)) & np.uint64(15)) - 3
        if count >= 3:
            flush_suit, need = s, 5 - count
    by_ranks[:] = -1
    for p in range(pa.shape[0]):
        ca, cb = cards[pa[p]], cards[pb[p]]
        if flush_suit >= 0 and ((ca & 3) == flush_suit) + ((cb & 3) == flush_suit) >= need:
            dv[p] = dense[hand_value(rkey + T.card_keys[ca] + T.card_keys[cb],
                                     rsuited | suited_bit(ca) | suited_bit(cb), T)]
            continue
        i = (ca >> 2) * 13 + (cb >> 2)
        v = by_ranks[i]
        if v < 0:
            v = dense[rank_value(rkey + RANK_KEYS[ca >> 2] + RANK_KEYS[cb >> 2], T)]
            by_ranks[i] = v
        dv[p] = v


@njit(cache=True, nogil=True, error_model="numpy")
def shares(ahead: np.ndarray, tied: np.ndarray, ak: np.ndarray, pt: np.ndarray, fk: np.ndarray) -> None:
    """``fk[k - 2, q]``: :func:`multiway_share` of pair ``q`` against ``k`` = 2..9 opponents from its counts of
    990 ahead and tied, as ``((a + t)^(k+1) - a^(k+1)) / ((k + 1) t)`` with the powers built by repeated
    products (``a^k`` when ``t`` is 0).  Each opponent count is a pass over all pairs, which the compiler
    vectorises (numpy's error model: no zero-division branch in the loop, the quotient of a ``t`` of 0 being
    discarded); the operations are those of one pair at a time, so the doubles are the same.
    ``ak``/``pt``: scratch."""
    count = ahead.shape[0]
    for q in range(count):
        a = ahead[q] / OPPONENT_HANDS
        t = tied[q] / OPPONENT_HANDS
        ak[q] = a                                  # a^k and (a+t)^(k+1), from k = 1 on
        pt[q] = (a + t) * (a + t)
    for k in range(2, MULTI + 2):
        row = fk[k - 2]
        for q in range(count):
            a = ahead[q] / OPPONENT_HANDS
            t = tied[q] / OPPONENT_HANDS
            x = ak[q] * a
            y = pt[q] * (a + t)
            ak[q] = x
            pt[q] = y
            row[q] = (y - x * a) / ((k + 1) * t) if t > 0.0 else x


@njit(cache=True, nogil=True)
def board_weights(boards: np.ndarray, blocks: np.ndarray, dense: np.ndarray, T: Tables
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every live hole of each board (rows of 3, 4 or 5 ids): situation index, and over all (runout, opponent
    hand) cases ``2·ahead + tied``, the mean :func:`multiway_share` over runouts for 2..9 opponents (flop and
    turn; no rows on the river) and on the river the counts ``(ahead, tied)`` of 990.

    Each runout (none on the river) leaves 47 cards: their 1,081 pairs are evaluated once on the complete
    board, put in order by a radix sort of their dense values and counted in one pass (:func:`ahead_tied`),
    every hole's opponents at once.  A hole's multiway share is added runout by runout in the order the
    runouts are listed, each term the same expression as before, so the sums are the same doubles."""
    nb, m = boards.shape
    n = 52 - m
    npairs = n * (n - 1) // 2
    rows = nb * npairs
    river = m == 5
    out_idx = np.empty(rows, np.int64)
    out_win2 = np.empty(rows, np.int64)
    out_multi = np.empty((0 if river else rows, MULTI), np.float64)
    out_counts = np.empty((rows if river else 0, 2), np.int64)
    pid, pair_a, pair_b = pair_numbering(n)
    _, rpa, rpb = pair_numbering(RUNOUT_CARDS)
    first, second = runout_positions(n, 5 - m)
    if river:                                  # one "runout" of no card
        first, second = np.full(1, -1, np.int64), np.full(1, -1, np.int64)
    live = np.empty(52, np.int64)
    rest = np.empty(RUNOUT_CARDS, np.int64)
    cards = np.empty(RUNOUT_CARDS, np.int64)
    dv = np.empty(RUNOUT_PAIRS, np.int64)
    order = np.empty(RUNOUT_PAIRS, np.int64)
    tmp = np.empty(RUNOUT_PAIRS, np.int64)
    hist = np.empty(DIGITS, np.int64)
    by_ranks = np.empty(169, np.int64)
    fk = np.empty((MULTI, RUNOUT_PAIRS), np.float64)
    ak = np.empty(RUNOUT_PAIRS, np.float64)
    pt = np.empty(RUNOUT_PAIRS, np.float64)
    ahead = np.empty(RUNOUT_PAIRS, np.int64)
    tied = np.empty(RUNOUT_PAIRS, np.int64)
    below = np.empty(RUNOUT_CARDS, np.int64)
    level = np.empty(RUNOUT_CARDS, np.int64)
    win2 = np.empty(npairs, np.int64)
    multi = np.empty((npairs, MULTI), np.float64)
    board = np.zeros(5, np.int64)
    row = 0
    for bi in range(nb):
        board[:m] = boards[bi]
        bkey, bsuited, used = board_state(boards[bi], np.uint64(0), T.card_keys)
        live_cards(used, live)
        win2[:] = 0
        multi[:] = 0.0
        for r in range(first.size):
            ri, rj = first[r], second[r]
            rkey, rsuited = (bkey, bsuited) if river else runout_key(bkey, bsuited, live, ri, rj, T)
            k = 0
            for u in range(n):
                if u != ri and u != rj:
                    rest[k] = u
                    cards[k] = live[u]
                    k += 1
            pair_values(rkey, rsuited, cards, rpa, rpb, dense, dv, by_ranks, T)
            radix_order(dv, RUNOUT_PAIRS, order, tmp, hist)
            ahead_tied(dv, order, rpa, rpb, RUNOUT_CARDS, ahead, tied, below, level)
            if river:
                for q in range(RUNOUT_PAIRS):
                    h = row + pid[rest[rpa[q]], rest[rpb[q]]]
                    win2[h - row] = 2 * ahead[q] + tied[q]
                    out_counts[h, 0] = ahead[q]
                    out_counts[h, 1] = tied[q]
                continue
            shares(ahead, tied, ak, pt, fk)
            for q in range(RUNOUT_PAIRS):
                h = pid[rest[rpa[q]], rest[rpb[q]]]
                win2[h] += 2 * ahead[q] + tied[q]
                for k in range(MULTI):
                    multi[h, k] += fk[k, q]
        runouts = (n - 2) * (n - 3) // 2 if m == 3 else n - 2     # of each hole: 1,081 or 46
        for p in range(npairs):
            out_idx[row] = situation_index_nb(live[pair_b[p]], live[pair_a[p]], board, m, blocks)
            out_win2[row] = win2[p]
            if not river:
                for k in range(MULTI):
                    out_multi[row, k] = multi[p, k] / runouts
            row += 1
    return out_idx, out_win2, out_multi, out_counts


def street_weights(boards: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows of :func:`board_weights` (flop, turn) or ``(index, ahead, tied)`` (river) for ``boards``."""
    from ..evaluator.tables import tables

    boards = np.ascontiguousarray(boards, np.uint8)
    m = boards.shape[1]
    idx, win2, multi, counts = board_weights(boards, block_table(m), dense_values(), tables())
    if m == 5:
        return idx, counts[:, 0].astype(np.uint16), counts[:, 1].astype(np.uint16)
    return idx, win2.astype(np.uint32), np.round(multi * SCALE).astype(np.uint16)


def dense_street(street: str, parts: Iterable[tuple[np.ndarray, ...]]) -> dict[str, np.ndarray]:
    """One street's arrays at full size from the rows of :func:`street_weights` (situations not among them
    stay 0): flop/turn ``win2`` (uint32) and ``multi`` (uint16, 2..9 opponents × 65,535); river ``counts``
    (uint16 ahead, tied of 990)."""
    m = STREETS[street]
    n = SITUATIONS[m]
    if m == 5:
        counts = np.zeros((n, 2), np.uint16)
        for idx, ahead, tied in parts:
            counts[idx, 0], counts[idx, 1] = ahead, tied
        return {"counts": counts}
    win2 = np.zeros(n, np.uint32)
    multi = np.zeros((n, MULTI), np.uint16)
    for idx, w2, mu in parts:
        win2[idx] = w2
        multi[idx] = mu
    return {"win2": win2, "multi": multi}


def board_chunks(street: str, limit: Optional[int] = None) -> list[np.ndarray]:
    """The canonical boards of ``street`` (the first ``limit`` only) in chunks of a few seconds' work."""
    from ..isomorphism.boards import canonical_boards

    m = STREETS[street]
    boards = canonical_boards(m)[:limit]
    size = BOARDS_PER_TASK[m]
    return [boards[i:i + size] for i in range(0, len(boards), size)]


def build_street(street: str, limit: Optional[int] = None, executor: Optional[Executor] = None
                 ) -> dict[str, np.ndarray]:
    """One street's arrays (:func:`dense_street`) computed here, or on ``executor``'s workers: the situations
    of the first ``limit`` canonical boards (all by default).  The datasets build the same rows resumably."""
    chunks = board_chunks(street, limit)
    parts = (executor.map if executor is not None else map)(street_weights, chunks)
    return dense_street(street, parts)


@njit(cache=True, nogil=True)
def enumerated_weights(h0: int, h1: int, board: np.ndarray, n_board: int, T: Tables) -> np.ndarray:
    """The tables' values for one situation by plain enumeration (10-20 ms on the flop): element ``k`` (1..9)
    is the mean over runouts of :func:`multiway_share` of that runout's exact ahead/tied shares."""
    used = (1 << h0) | (1 << h1)
    for i in range(n_board):
        used |= 1 << board[i]
    live = np.empty(52, np.int64)
    n = 0
    for c in range(52):
        if not (used >> c) & 1:
            live[n] = c
            n += 1
    out = np.zeros(MULTI + 2, np.float64)
    full = np.empty(7, np.int64)
    full[0], full[1] = h0, h1
    full[2:2 + n_board] = board[:n_board]
    runouts = 0
    for i in range(n if n_board < 5 else 1):
        for j in range(i + 1, n) if n_board == 3 else range(-1, 0):
            gone = 0
            if n_board < 5:
                full[2 + n_board] = live[i]
                gone |= 1 << live[i]
            if j >= 0:
                full[6] = live[j]
                gone |= 1 << live[j]
            key = KEY_BASE
            suited = np.uint64(0)
            for x in range(2, 7):
                key += T.card_keys[full[x]]
                suited |= suited_bit(full[x])
            mine = hand_value(key + T.card_keys[h0] + T.card_keys[h1], suited | suited_bit(h0) | suited_bit(h1),
                              T)
            ahead = 0
            tied = 0
            total = 0
            for x in range(n):
                a = live[x]
                if (gone >> a) & 1:
                    continue
                for y in range(x + 1, n):
                    b = live[y]
                    if (gone >> b) & 1:
                        continue
                    v = hand_value(key + T.card_keys[a] + T.card_keys[b], suited | suited_bit(a) | suited_bit(b),
                                   T)
                    total += 1
                    ahead += v < mine
                    tied += v == mine
            for k in range(1, MULTI + 2):
                out[k] += multiway_share(ahead / total, tied / total, k)
            runouts += 1
    return out / runouts
