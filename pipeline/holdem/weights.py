"""Hand weight: the chance to win at showdown against the active opponents (ties shared), as the engine reads it.

This is the thesis's "simulation" value (García Pérez's thesis on a genetic
fixed-limit player, §4.2): fix the visible cards, deal the opponents' hands and
the rest of the board at random, count how often the hand wins, a tie counting
``1/(tied players)``.

* **Preflop** it is read from a table of the 169 hand classes × 1..9 opponents,
  built once by :func:`preflop_table` (Monte Carlo, :data:`PREFLOP_TRIALS` deals
  per cell, standard error <= 0.0035) and cached on disk.
* **After the flop** the betting kernel reads the hand-weight tables
  (:class:`WeightTables`, the ``holdem-weights`` datasets built by
  :mod:`.weight_build`) when it is given them: exact against one opponent,
  an approximation measured against simulation for more (``multiway_share``
  below).  Without them :func:`sampled_weight` runs a small Monte Carlo inside
  the betting kernel with a fixed number of samples (a policy parameter,
  default :data:`~.policies.DEFAULT_SAMPLES`).  Its error against 100,000-trial
  simulation is measured by ``benchmarks/bench_holdem.py --weights sampled
  --errors`` (mean absolute error 0.012-0.050 by street and opponent count,
  bias within +-0.006); the tests check the sampler against exact river
  enumeration.

The engine gets its tables from a :class:`WeightSource`: a small picklable
object (:class:`pipeline.datasets.recipes.holdem_weights.HandWeightTables`)
that each process — a Dask worker too — asks to map the tables, verified, from
where they were built.  ``None`` means sampled weights.
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Protocol

import numpy as np
from numba import njit

from ..core.cache import cache_dir, load_or_build
from ..core.hand_classes import CLASS_COUNT, class_of
from ..core.rng import seed_stream, stream_deal
from ..evaluator.kernels import KEY_BASE, Tables, hand_value, suited_bit
from ..evaluator.tables import tables
from ..isomorphism.situations import block_table, situation_index_nb
from .jit import hand_kernel, hand_kernel_inline, prefetch

PREFLOP_TRIALS = 20_000
MAX_OPPONENTS = 9
OPPONENT_HANDS = 990          # C(45, 2): opponent hands on a complete board
FLOP_RUNOUTS, TURN_RUNOUTS = 1081, 46
MULTI = 8                     # stored columns for 2..9 opponents
SCALE = 65535.0               # the k-opponent shares are stored as uint16 of SCALE
# the tables' rows: the situations of each street (pipeline.isomorphism.situations.street_size), written out
# because computing them takes a second or two of Python, and every process that loads the tables checks
# their shapes against them (tests/holdem check the numbers)
SITUATIONS = {3: 1_286_792, 4: 13_960_050, 5: 123_156_254}
_VERSION = 1


class WeightTables(NamedTuple):
    """The hand-weight tables after the flop, indexed by situation (:func:`pipeline.situation_index`)."""

    flop1: np.ndarray        # (1,286,792,) uint32: 2*ahead + tied over all (runout, opponent hand) cases
    flop_multi: np.ndarray   # (1,286,792, 8) uint16: the share against 2..9 opponents, times SCALE
    turn1: np.ndarray        # (13,960,050,) uint32
    turn_multi: np.ndarray   # (13,960,050, 8) uint16
    river: np.ndarray        # (123,156,254, 2) uint16: opponent hands ahead of / tied with the hand, of 990
    blocks3: np.ndarray      # each street's situation block table (pipeline.isomorphism.situations.block_table)
    blocks4: np.ndarray
    blocks5: np.ndarray


class HandWeights(NamedTuple):
    """Every hand weight the betting kernel reads: the preflop table and the tables after the flop."""

    preflop: np.ndarray      # (169, 10) float64: class x opponents (column 0 unused)
    tables: WeightTables     # absent() when the weights after the flop are sampled


class WeightSource(Protocol):
    """Where the hand-weight tables come from; picklable, so that each worker process maps its own copy."""

    def load(self) -> WeightTables:
        """The tables, verified and mapped read-only (the same object on every call in a process)."""
        ...


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    a.setflags(write=False)
    return a


def pack(flop: dict[str, np.ndarray], turn: dict[str, np.ndarray], river: dict[str, np.ndarray]) -> WeightTables:
    """The tables' value from each street's arrays (flop and turn ``win2``, ``multi``; river ``counts``)."""
    return WeightTables(*(_frozen(a) for a in (flop["win2"], flop["multi"], turn["win2"], turn["multi"],
                                               river["counts"], block_table(3), block_table(4), block_table(5))))


def absent() -> WeightTables:
    """The value when no tables are used: empty arrays of the same types (the kernel then samples)."""
    return WeightTables(*(_frozen(a) for a in (np.zeros(0, np.uint32), np.zeros((0, MULTI), np.uint16),
                                               np.zeros(0, np.uint32), np.zeros((0, MULTI), np.uint16),
                                               np.zeros((0, 2), np.uint16), np.zeros(0, np.int64),
                                               np.zeros(0, np.int64), np.zeros(0, np.int64))))


def hand_weights(source: Optional[WeightSource]) -> HandWeights:
    """What the kernel reads: the preflop table, and the tables of ``source`` (None: sampled after the flop)."""
    return HandWeights(preflop_table(), absent() if source is None else source.load())


def mode_of(source: Optional[WeightSource]) -> str:
    """``"tables"`` or ``"sampled"``: how a run with ``source`` weighs hands after the flop."""
    return "sampled" if source is None else "tables"


@hand_kernel
def multiway_share(a: float, t: float, k: int) -> float:
    """Win share against ``k`` independent opponents, each beaten with chance ``a`` and tied with ``t``.

    A ``j``-way tie shares ``1/(j+1)``, so ``share = sum_j C(k, j) a^(k-j) t^j / (j + 1)
    = ((a + t)^(k+1) - a^(k+1)) / ((k + 1) t)`` (``a^k`` when ``t`` = 0; ``a + t/2`` for ``k`` = 1).
    """
    if t <= 0.0:
        return a ** k
    return ((a + t) ** (k + 1) - a ** (k + 1)) / ((k + 1) * t)


@hand_kernel_inline
def heads_up_weight(n_board: int, ahead: float, tied: float) -> float:
    """Hand weight against one opponent on ``n_board`` (3..5) cards from the exact counts the tables hold:
    on the flop and turn ``ahead`` is ``2·ahead + tied`` over all (runout, opponent hand) cases (``tied``
    unused), on the river the opponent hands ahead of and tied with the hand, of 990."""
    if n_board == 5:
        return multiway_share(ahead / OPPONENT_HANDS, tied / OPPONENT_HANDS, 1)
    runouts = FLOP_RUNOUTS if n_board == 3 else TURN_RUNOUTS
    return ahead / (2.0 * runouts * OPPONENT_HANDS)


@hand_kernel
def table_weight(hole: np.ndarray, board: np.ndarray, n_board: int, opponents: int, wt: WeightTables) -> float:
    """Hand weight of ``hole`` on ``board[:n_board]`` (3..5 cards) against ``opponents`` (1..9), from the tables."""
    return weight_at(situation_at(hole[0], hole[1], board, n_board, wt), n_board, opponents, wt)


@hand_kernel
def situation_at(h0: int, h1: int, board: np.ndarray, n_board: int, wt: WeightTables) -> int:
    """The row of the tables of hole ``h0 h1`` on ``board[:n_board]`` (3..5 cards): its situation index."""
    if n_board == 3:
        return situation_index_nb(h0, h1, board, 3, wt.blocks3)
    if n_board == 4:
        return situation_index_nb(h0, h1, board, 4, wt.blocks4)
    return situation_index_nb(h0, h1, board, 5, wt.blocks5)


@hand_kernel
def weight_at(i: int, n_board: int, opponents: int, wt: WeightTables) -> float:
    """Hand weight at row ``i`` (:func:`situation_at`) of the ``n_board``-card tables against ``opponents``."""
    if n_board == 5:
        return multiway_share(wt.river[i, 0] / OPPONENT_HANDS, wt.river[i, 1] / OPPONENT_HANDS, opponents)
    if n_board == 3:
        if opponents == 1:
            return heads_up_weight(3, wt.flop1[i], 0.0)
        return wt.flop_multi[i, opponents - 2] / SCALE
    if opponents == 1:
        return heads_up_weight(4, wt.turn1[i], 0.0)
    return wt.turn_multi[i, opponents - 2] / SCALE


@hand_kernel
def prefetch_row(i: int, n_board: int, opponents: int, wt: WeightTables) -> None:
    """Start bringing the row :func:`weight_at` will read into the cache (:func:`.jit.prefetch`)."""
    if n_board == 5:
        prefetch(wt.river, i)
    elif n_board == 3:
        if opponents == 1:
            prefetch(wt.flop1, i)
        else:
            prefetch(wt.flop_multi, i)
    elif opponents == 1:
        prefetch(wt.turn1, i)
    else:
        prefetch(wt.turn_multi, i)


@hand_kernel
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
            mine = hand_value(key + T.card_keys[h0] + T.card_keys[h1], suited | suited_bit(h0) | suited_bit(h1), T)
        ties = 1
        lost = False
        k = 5 - n_board
        for _o in range(opponents):
            a, b = deck[k], deck[k + 1]
            k += 2
            v = hand_value(key + T.card_keys[a] + T.card_keys[b], suited | suited_bit(a) | suited_bit(b), T)
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
