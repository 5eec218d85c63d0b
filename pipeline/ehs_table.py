"""The river EHS table: every canonical (hole, board) river situation, ranked by sharing work.

For each of the 134,459 suit-canonical five-card boards every one of the 1,081
hole pairs is evaluated once.  A hole ``{a, b}`` of value ``v`` is then ahead of
the opponent pairs below ``v`` that hold neither ``a`` nor ``b``: with sorted
values of all pairs and of the 46 pairs holding each card,

    ahead = below(all) - below(a) - below(b)      (no pair below v holds both)
    tied  = equal(all) - equal(a) - equal(b) + 1  (the hole itself holds both)

and behind is the rest of the C(45, 2) = 990 opponent hands.  Every situation
class is reached from its board's canonical representative; holes that a
board's own suit symmetry maps onto each other give the same row once.
On the river PPOT = NPOT = 0 and EHS = HS.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .equity.showdown import hand_value
from .evaluator.kernels import KEY_BASE, suited_bit
from .isomorphism import situation_index_nb

OPPONENT_HANDS_RIVER = 990


@njit(cache=True, nogil=True)
def river_counts(boards, blocks, card_keys, rank_offsets, rank_values, flush_values):
    """(rows, 1081 per board): situation index, hole cards, ahead, tied, behind."""
    nb = boards.shape[0]
    out_idx = np.empty(nb * 1081, np.int64)
    out_hole = np.empty((nb * 1081, 2), np.uint8)
    out_board = np.empty(nb * 1081, np.int64)
    out_atb = np.empty((nb * 1081, 3), np.int64)
    live = np.empty(47, np.int64)
    value = np.empty((47, 47), np.int64)
    per_card = np.empty((47, 46), np.int64)
    allv = np.empty(1081, np.int64)
    hole = np.empty(2, np.int64)
    board = np.empty(5, np.int64)
    row = 0
    for bi in range(nb):
        bkey = KEY_BASE
        bsuited = np.uint64(0)
        used = np.uint64(0)
        for j in range(5):
            c = boards[bi, j]
            board[j] = c
            bkey += card_keys[c]
            bsuited |= suited_bit(c)
            used |= np.uint64(1) << np.uint64(c)
        n = 0
        for c in range(52):
            if not (used >> np.uint64(c)) & np.uint64(1):
                live[n] = c
                n += 1
        k = 0
        fill = np.zeros(47, np.int64)
        for i in range(47):
            for j in range(i + 1, 47):
                ci, cj = live[i], live[j]
                v = hand_value(bkey + card_keys[ci] + card_keys[cj], bsuited | suited_bit(ci) | suited_bit(cj),
                               rank_offsets, rank_values, flush_values)
                value[i, j] = v
                allv[k] = v
                k += 1
                per_card[i, fill[i]] = v
                fill[i] += 1
                per_card[j, fill[j]] = v
                fill[j] += 1
        allv.sort()
        for i in range(47):
            per_card[i].sort()
        for i in range(47):
            for j in range(i + 1, 47):
                v = value[i, j]
                below = np.searchsorted(allv, v, side="left")
                equal = np.searchsorted(allv, v, side="right") - below
                bi_ = np.searchsorted(per_card[i], v, side="left")
                ei = np.searchsorted(per_card[i], v, side="right") - bi_
                bj = np.searchsorted(per_card[j], v, side="left")
                ej = np.searchsorted(per_card[j], v, side="right") - bj
                ahead = below - bi_ - bj
                tied = equal - ei - ej + 1
                hole[0], hole[1] = live[j], live[i]
                out_idx[row] = situation_index_nb(hole, board, 5, blocks)
                out_hole[row, 0], out_hole[row, 1] = live[j], live[i]
                out_board[row] = bi
                out_atb[row, 0] = ahead
                out_atb[row, 1] = tied
                out_atb[row, 2] = 990 - ahead - tied
                row += 1
    return out_idx, out_hole, out_board, out_atb


_CARD_TEXT = np.array([list((r + s).encode()) for r in "23456789TJQKA" for s in "cdhs"], np.uint8)


def _text(cards: np.ndarray):
    """Arrow string array of rows of card ids (``AsKd``...)."""
    import pyarrow as pa

    chars = _CARD_TEXT[cards].reshape(len(cards), -1)
    return pa.array(chars.view(f"S{chars.shape[1]}").ravel(), pa.binary()).cast(pa.string())


def river_rows(boards: np.ndarray):
    """Arrow table of the river situations reached from ``boards`` (canonical), one row each."""
    import pyarrow as pa

    from .evaluator.tables import tables
    from .isomorphism import block_table

    boards = np.ascontiguousarray(boards, np.uint8)
    idx, hole, which, atb = river_counts(boards, block_table(5), *tables())
    idx, first = np.unique(idx, return_index=True)
    hole, which, atb = hole[first], which[first], atb[first]
    hs = (atb[:, 0] + atb[:, 1] / 2) / OPPONENT_HANDS_RIVER
    zero = np.zeros(len(idx))
    return pa.table({
        "index": pa.array(idx, pa.int64()),
        "hole": _text(hole),
        "board": _text(boards[which][:, ::-1]),
        "ahead": pa.array(atb[:, 0], pa.int64()),
        "tied": pa.array(atb[:, 1], pa.int64()),
        "behind": pa.array(atb[:, 2], pa.int64()),
        "hs": pa.array(hs, pa.float64()),
        "ppot": pa.array(zero, pa.float64()),
        "npot": pa.array(zero, pa.float64()),
        "ehs": pa.array(hs, pa.float64()),
    })
