"""PPOT and NPOT against k random opponents by seeded Monte Carlo (Keith Rule's MultiOddsApp
shows them for 1..9 opponents; Billings et al., "Opponent modeling in poker", AAAI-98, define
them for one).

Against k opponents "ahead" means beating every one of them, "tied" sharing the best hand with
no one better, "behind" anyone better.  A trial deals the k opponent hands and the runout from
the unseen cards (a partial Fisher-Yates shuffle, xoroshiro128++ of :mod:`pipeline.core.rng`,
stream ``(seed, k)``) and adds one to ``HP[now][at the river]``; PPOT and NPOT are the same
ratios of that table as in :mod:`pipeline.strength.hand_strength`.  Each trial lands in one cell, so the standard
error of a ratio ``R = sum x / sum y`` (delta method: ``sqrt(sum (x - R y)^2 / (n (n-1))) / mean y``)
comes from the nine cell counts alone.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
from numba import njit

from ..core.rng import below, chunk_state, deal_card
from ..evaluator.kernels import Tables, board_state, hand_value, suited_bit
from .hand_strength import AHEAD, BEHIND, NO_DEAD, TIED

# per-cell weights of PPOT's numerator and denominator (rows: now, columns: at the river)
_PPOT_X = np.array([[0, 0, 0], [0.5, 0, 0], [1, 0.5, 0]])
_PPOT_Y = np.array([0, 0.5, 1.0])
_NPOT_X = np.array([[0, 0.5, 1], [0, 0, 0.5], [0, 0, 0]])
_NPOT_Y = np.array([1.0, 0.5, 0])


@njit(cache=True, nogil=True)
def _versus(hero: int, best_other: int) -> int:
    return AHEAD if hero > best_other else (TIED if hero == best_other else BEHIND)


@njit(cache=True, nogil=True)
def potential_trials(heroes: np.ndarray, board: np.ndarray, k: int, trials: int, seed: int, hp: np.ndarray,
                     T: Tables, dead: np.uint64 = NO_DEAD) -> None:
    """Add ``trials`` deals to ``hp`` (3, 3): a hero combo drawn uniformly from ``heroes`` (m, 2),
    ``k`` opponent hands and the runout from the cards left (none of the ``dead`` mask)."""
    s0, s1 = chunk_state(seed, k)
    bkey, bsuited, bused = board_state(board, dead, T.card_keys)
    need = 2 * k + 5 - board.shape[0]
    deck = np.empty(52, np.int64)
    for _ in range(trials):
        s0, s1, h = below(s0, s1, heroes.shape[0])
        h0, h1 = heroes[h, 0], heroes[h, 1]
        used = bused | (np.uint64(1) << np.uint64(h0)) | (np.uint64(1) << np.uint64(h1))
        n = 0
        for c in range(52):
            if not (used >> np.uint64(c)) & np.uint64(1):
                deck[n] = c
                n += 1
        for i in range(need):                       # partial Fisher-Yates: deck[:need] is the deal
            s0, s1, _, _ = deal_card(s0, s1, deck, i, n)
        rkey = np.uint64(0)
        rsuited = np.uint64(0)
        for i in range(2 * k, need):
            rkey += T.card_keys[deck[i]]
            rsuited |= suited_bit(deck[i])
        hkey = bkey + T.card_keys[h0] + T.card_keys[h1]
        hsuited = bsuited | suited_bit(h0) | suited_bit(h1)
        hero_now = hand_value(hkey, hsuited, T)
        hero_end = hand_value(hkey + rkey, hsuited | rsuited, T)
        best_now = -1
        best_end = -1
        for o in range(k):
            a, b = deck[2 * o], deck[2 * o + 1]
            okey = bkey + T.card_keys[a] + T.card_keys[b]
            osuited = bsuited | suited_bit(a) | suited_bit(b)
            best_now = max(best_now, hand_value(okey, osuited, T))
            best_end = max(best_end, hand_value(okey + rkey, osuited | rsuited, T))
        hp[_versus(hero_now, best_now), _versus(hero_end, best_end)] += 1


def ratio_with_stderr(hp: np.ndarray, wx: np.ndarray, wy: np.ndarray) -> tuple[float, Optional[float]]:
    """``R = sum x / sum y`` over trials whose ``(x, y)`` depend only on the trial's cell, and its
    standard error.  When no sampled trial counts in the denominator (never behind, for PPOT) the
    ratio is 0 by the exact tables' convention and its standard error is None: there is no estimate
    to be sure of, which a 0 would wrongly claim."""
    n = int(hp.sum())
    y_cell = np.broadcast_to(wy[:, None], (3, 3))
    sx, sy = float((hp * wx).sum()), float((hp * y_cell).sum())
    if sy == 0 or n < 2:
        return 0.0, None
    r = sx / sy
    resid = float((hp * (wx - r * y_cell) ** 2).sum())
    return r, math.sqrt(resid / (n * (n - 1))) / (sy / n)


def potentials_mc(heroes: np.ndarray, board: list[int], k: int, trials: int, seed: int, dead: int = 0,
                  T: Optional[Tables] = None) -> dict:
    """``{"ppot", "ppot_stderr", "npot", "npot_stderr", "potential"}`` against ``k`` random opponents;
    ``dead`` a mask of cards out of the deck (a short deck's missing ranks among them), ``T`` the tables of
    the deck (the 52-card deck's by default)."""
    from ..evaluator.tables import tables

    hp = np.zeros((3, 3), np.int64)
    potential_trials(np.asarray(heroes, np.int64), np.array(board, np.int64), k, trials, seed, hp,
                     tables() if T is None else T, np.uint64(dead))
    ppot, ppot_se = ratio_with_stderr(hp, _PPOT_X, _PPOT_Y)
    npot, npot_se = ratio_with_stderr(hp, _NPOT_X, _NPOT_Y)
    return {"ppot": ppot, "ppot_stderr": ppot_se, "npot": npot, "npot_stderr": npot_se, "potential": hp.tolist()}
