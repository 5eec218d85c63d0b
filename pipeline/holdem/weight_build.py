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

from ..evaluator.kernels import KEY_BASE, Tables, board_state, hand_value, live_cards, suited_bit
from ..isomorphism.situations import block_table, situation_index_nb, street_size
from ..strength.runouts import runout_key, runout_positions
from ..strength.street import add_runout, dense_values, pair_numbering, scratch, street_counts
from .weights import MULTI, OPPONENT_HANDS, SCALE, multiway_share

STREETS = {"flop": 3, "turn": 4, "river": 5}
BOARDS_PER_TASK = {3: 25, 4: 400, 5: 4000}


@njit(cache=True, nogil=True)
def runout_weights(boards: np.ndarray, blocks: np.ndarray, dense: np.ndarray, work: tuple[np.ndarray, ...],
                   T: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every live hole of each flop or turn board (rows of 3 or 4 ids): situation index, ``2·ahead + tied``
    over all (runout, opponent hand) cases, and the mean :func:`multiway_share` over runouts for 2..9."""
    nb, m = boards.shape
    n = 52 - m
    npairs = n * (n - 1) // 2
    rows = nb * npairs
    out_idx = np.empty(rows, np.int64)
    out_win2 = np.empty(rows, np.int64)
    out_multi = np.empty((rows, MULTI), np.float64)
    pid, pair_a, pair_b = pair_numbering(n)
    first, second = runout_positions(n, 5 - m)
    live = np.empty(n, np.int64)
    now = np.empty(npairs, np.int64)
    hp = np.empty((npairs, 9), np.int64)
    multi = np.empty((npairs, MULTI), np.float64)
    board = np.zeros(5, np.int64)
    q_pair, cells = work[1], work[7]
    row = 0
    for bi in range(nb):
        board[:m] = boards[bi]
        bkey, bsuited, used = board_state(boards[bi], np.uint64(0), T.card_keys)
        live_cards(used, live)
        for p in range(npairs):
            ca, cb = live[pair_a[p]], live[pair_b[p]]
            now[p] = hand_value(bkey + T.card_keys[ca] + T.card_keys[cb], bsuited | suited_bit(ca) | suited_bit(cb),
                                T)
        order = np.argsort(now)
        hp[:] = 0
        multi[:] = 0.0
        for r in range(first.size):
            ri, rj = first[r], second[r]
            rkey, rsuited = runout_key(bkey, bsuited, live, ri, rj, T)
            add_runout(rkey, rsuited, ri, rj, live, pid, now, order, hp, dense, work, T)
            nq = (n - 1 - (rj >= 0)) * (n - 2 - (rj >= 0)) // 2
            for q in range(nq):              # the runout's cells, per hole: final ahead / tied columns
                a = (cells[q, 0] + cells[q, 3] + cells[q, 6]) / OPPONENT_HANDS
                t = (cells[q, 1] + cells[q, 4] + cells[q, 7]) / OPPONENT_HANDS
                ak = a                       # a^k and (a+t)^(k+1), from k = 1 on
                pt = (a + t) * (a + t)
                for k in range(2, MULTI + 2):
                    ak *= a
                    pt *= a + t
                    multi[q_pair[q], k - 2] += (pt - ak * a) / ((k + 1) * t) if t > 0.0 else ak
        runouts = (n - 2) * (n - 3) // 2 if m == 3 else n - 2     # of each hole: 1,081 or 46
        for p in range(npairs):
            out_idx[row] = situation_index_nb(live[pair_b[p]], live[pair_a[p]], board, m, blocks)
            out_win2[row] = 2 * (hp[p, 0] + hp[p, 3] + hp[p, 6]) + hp[p, 1] + hp[p, 4] + hp[p, 7]
            for k in range(MULTI):
                out_multi[row, k] = multi[p, k] / runouts
            row += 1
    return out_idx, out_win2, out_multi


def street_weights(boards: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows of :func:`runout_weights` (flop, turn) or ``(index, ahead, tied)`` (river) for ``boards``."""
    from ..evaluator.tables import tables

    boards = np.ascontiguousarray(boards, np.uint8)
    m = boards.shape[1]
    dense = dense_values()
    work = scratch(52 - m, int(dense.max()))
    if m == 5:
        idx, _hole, _which, now, _hp = street_counts(boards, block_table(5), dense, work, tables())
        return idx, now[:, 0].astype(np.uint16), now[:, 1].astype(np.uint16)
    idx, win2, multi = runout_weights(boards, block_table(m), dense, work, tables())
    return idx, win2.astype(np.uint32), np.round(multi * SCALE).astype(np.uint16)


def dense_street(street: str, parts: Iterable[tuple[np.ndarray, ...]]) -> dict[str, np.ndarray]:
    """One street's arrays at full size from the rows of :func:`street_weights` (situations not among them
    stay 0): flop/turn ``win2`` (uint32) and ``multi`` (uint16, 2..9 opponents × 65,535); river ``counts``
    (uint16 ahead, tied of 990)."""
    m = STREETS[street]
    n = street_size(m)
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
