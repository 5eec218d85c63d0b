"""Hand weight: the chance to win at showdown against the active opponents (ties shared).

This is the thesis's "simulation" value (García Pérez's thesis on a genetic fixed-limit player, §4.2): fix the
visible cards, deal the opponents' hands and the rest of the board at random,
count how often the hand wins, a tie counting ``1/(tied players)``.

* **Preflop** it is read from a table of the 169 hand classes × 1..9 opponents,
  built once by :func:`preflop_table` (Monte Carlo, :data:`PREFLOP_TRIALS` deals
  per cell, standard error <= 0.0035) and cached on disk.
* **After the flop** the betting kernel reads the weight tables of
  :mod:`.weight_table` when they are built (exact against one opponent, an
  approximation measured against simulation for more).  Without them
  :func:`sampled_weight` runs a small Monte Carlo inside the betting kernel
  with a fixed number of samples (a policy parameter, default
  :data:`DEFAULT_SAMPLES`).  Its error against 100,000-trial simulation is
  measured by ``benchmarks/bench_holdem.py --weights sampled --errors`` (mean
  absolute error 0.012-0.050 by street and opponent count, bias within
  +-0.006; README); the tests check the sampler against exact river enumeration.

Every evaluation uses the project's evaluator kernels (card keys add up).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.cache import cache_dir, load_or_build
from ..core.hand_classes import CLASS_COUNT, class_of
from ..core.rng import seed_stream, stream_deal
from ..evaluator.kernels import KEY_BASE, Tables, hand_value, suited_bit
from ..evaluator.tables import tables

PREFLOP_TRIALS = 20_000
DEFAULT_SAMPLES = 48
MAX_OPPONENTS = 9
_VERSION = 1


@njit(cache=True, nogil=True)
def sampled_weight(h0: int, h1: int, board: np.ndarray, n_board: int, opponents: int, samples: int,
                   rng: np.ndarray, deck: np.ndarray, T: Tables) -> float:
    """Win share of hole cards ``h0 h1`` on ``board[:n_board]`` against ``opponents`` random hands.

    Each of ``samples`` trials deals the opponents' hole cards and the missing
    board cards from the unseen deck (a partial shuffle) and scores the hand
    1 for a win, ``1/k`` for a ``k``-way tie, 0 for a loss.  ``deck`` is scratch (52 ints).
    """
    used = (np.uint64(1) << np.uint64(h0)) | (np.uint64(1) << np.uint64(h1))
    key0 = KEY_BASE
    suited0 = np.uint64(0)
    for i in range(n_board):
        c = board[i]
        used |= np.uint64(1) << np.uint64(c)
        key0 += T.card_keys[c]
        suited0 |= suited_bit(c)
    n = 0
    for c in range(52):
        if not (used >> np.uint64(c)) & np.uint64(1):
            deck[n] = c
            n += 1
    need = 5 - n_board + 2 * opponents
    score = 0.0
    mine = -1
    for _ in range(samples):
        for i in range(need):                # a partial shuffle: deck[:need] is the deal
            stream_deal(rng, deck, i, n)
        key = key0
        suited = suited0
        for i in range(5 - n_board):
            key += T.card_keys[deck[i]]
            suited |= suited_bit(deck[i])
        if n_board < 5 or mine < 0:       # on the river the hand's own value is the same every sample
            mine = hand_value(key + T.card_keys[h0] + T.card_keys[h1], suited | suited_bit(h0) | suited_bit(h1),
                              T)
        ties = 1
        lost = False
        k = 5 - n_board
        for _o in range(opponents):
            a, b = deck[k], deck[k + 1]
            k += 2
            v = hand_value(key + T.card_keys[a] + T.card_keys[b], suited | suited_bit(a) | suited_bit(b),
                           T)
            if v > mine:
                lost = True
                break
            if v == mine:
                ties += 1
        if not lost:
            score += 1.0 / ties
    return score / samples


@njit(cache=True, nogil=True)
def _build_preflop(trials: int, seed: int, T: Tables) -> np.ndarray:
    out = np.zeros((CLASS_COUNT, MAX_OPPONENTS + 1), np.float64)
    rng = np.zeros(1, np.uint64)
    board = np.zeros(5, np.int64)
    deck = np.zeros(52, np.int64)
    done = np.zeros(CLASS_COUNT, np.bool_)
    for a in range(52):
        for b in range(a):
            cls = class_of(a, b)
            if done[cls]:
                continue
            done[cls] = True
            for k in range(1, MAX_OPPONENTS + 1):
                seed_stream(rng, seed, cls * 16 + k, 7)
                out[cls, k] = sampled_weight(a, b, board, 0, k, trials, rng, deck, T)
    return out


def preflop_table(trials: int = PREFLOP_TRIALS) -> np.ndarray:
    """Hand weight of each of the 169 classes (grid order) against column ``k`` = 1..9 opponents.

    Column 0 is unused (1.0).  Built once (about a minute of one core) and cached.
    """
    path = cache_dir() / f"holdem_preflop_weight_v{_VERSION}_{trials}.npz"

    def build() -> dict[str, np.ndarray]:
        t = _build_preflop(trials, 20260101, tables())
        t[:, 0] = 1.0
        return {"weight": t}

    return load_or_build(path, build, {"weight"})["weight"]
