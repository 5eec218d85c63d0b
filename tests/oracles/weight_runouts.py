"""The hand-weight tables' flop and turn values as the first builder computed them: per runout, the EHS
potential table's dominance count (a Fenwick tree over final values, :func:`pipeline.strength.street.add_runout`)
of every hole's final ahead and tied opponents.  The builder now counts them by a radix sort per runout
(:func:`pipeline.holdem.weight_build.board_weights`); this kernel, another method, checks that its integers
and its rounded multiway shares are unchanged."""
from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.evaluator.kernels import Tables, board_state, hand_value, live_cards, suited_bit
from pipeline.holdem.weights import MULTI, OPPONENT_HANDS
from pipeline.isomorphism.situations import situation_index_nb
from pipeline.strength.runouts import runout_key, runout_positions
from pipeline.strength.street import add_runout, pair_numbering


@njit(cache=True, nogil=True)
def fenwick_weights(boards: np.ndarray, blocks: np.ndarray, dense: np.ndarray, work: tuple, T: Tables) -> tuple:
    """Every live hole of each flop or turn board: situation index, ``2·ahead + tied`` over all (runout,
    opponent hand) cases, and the mean multiway share over runouts for 2..9 opponents."""
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
                ak = a
                pt = (a + t) * (a + t)
                for k in range(2, MULTI + 2):
                    ak *= a
                    pt *= a + t
                    multi[q_pair[q], k - 2] += (pt - ak * a) / ((k + 1) * t) if t > 0.0 else ak
        runouts = (n - 2) * (n - 3) // 2 if m == 3 else n - 2
        for p in range(npairs):
            out_idx[row] = situation_index_nb(live[pair_b[p]], live[pair_a[p]], board, m, blocks)
            out_win2[row] = 2 * (hp[p, 0] + hp[p, 3] + hp[p, 6]) + hp[p, 1] + hp[p, 4] + hp[p, 7]
            for k in range(MULTI):
                out_multi[row, k] = multi[p, k] / runouts
            row += 1
    return out_idx, out_win2, out_multi
