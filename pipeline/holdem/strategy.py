"""A solved strategy as a policy kind (``cfr``): the average strategy of ``pokerpipe solve hulhe``, played.

The engine follows each heads-up hand down the betting tree
(:mod:`.tree`), so a ``cfr`` seat knows its information set: the street, its
bucket there (preflop the hand class; after the flop the bucket of the card
abstraction the strategy was solved on, read from its bucket array by the
situation index) and the betting.  It plays each answer with the strategy's
probability, drawn from the hand's action stream.

The arrays come from a :class:`StrategySource`, a small picklable object each
process asks to map them (verified) from where the solve wrote them, as the
hand-weight tables come from a :class:`.weights.WeightSource`.
"""
from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np

from ..core.hand_classes import class_of
from ..core.rng import stream_uniform
from ..isomorphism.situations import situation_index_nb
from .jit import hand_kernel
from .policies import CALL, FOLD, RAISE

BOARD_SEEN = (0, 3, 4, 5)


class StrategyArrays(NamedTuple):
    """What the kernels read of a solved strategy."""

    probs: np.ndarray      # (rows, 3) float32: fold, call, raise of each information set
    row_base: np.ndarray   # (tree nodes,) int64: the first row of each decision (:mod:`.tree`'s order)
    flop: np.ndarray       # (1,286,792,) uint16: the abstraction's bucket of each situation index
    turn: np.ndarray       # (13,960,050,) uint16
    river: np.ndarray      # (123,156,254,) uint16
    blocks3: np.ndarray    # the situation index's block tables
    blocks4: np.ndarray
    blocks5: np.ndarray


class StrategySource(Protocol):
    """Where a solved strategy comes from; picklable, so that each worker maps its own copy."""

    name: str

    def load(self) -> StrategyArrays:
        """The arrays, verified and mapped read-only (the same object on every call in a process)."""
        ...


def absent() -> StrategyArrays:
    """The value when no seat plays a solved strategy."""
    return StrategyArrays(np.zeros((0, 3), np.float32), np.zeros(0, np.int64), np.zeros(0, np.uint16),
                          np.zeros(0, np.uint16), np.zeros(0, np.uint16), np.zeros(0, np.int64),
                          np.zeros(0, np.int64), np.zeros(0, np.int64))


@hand_kernel
def strategy_row(S: StrategyArrays, node: int, street: int, h0: int, h1: int, board: np.ndarray) -> int:
    """The information set (row) of holding ``h0 h1`` at decision ``node`` of ``street`` on ``board``."""
    if street == 0:
        b = class_of(h0, h1)
    elif street == 1:
        b = S.flop[situation_index_nb(h0, h1, board, 3, S.blocks3)]
    elif street == 2:
        b = S.turn[situation_index_nb(h0, h1, board, 4, S.blocks4)]
    else:
        b = S.river[situation_index_nb(h0, h1, board, 5, S.blocks5)]
    return S.row_base[node] + b


@hand_kernel
def strategy_decision(S: StrategyArrays, node: int, street: int, h0: int, h1: int, board: np.ndarray,
                      rng: np.ndarray) -> int:
    """The strategy's answer at ``node``, drawn with its probabilities from the action stream ``rng``."""
    row = strategy_row(S, node, street, h0, h1, board)
    u = stream_uniform(rng)
    p_fold = S.probs[row, 0]
    if u < p_fold:
        return FOLD
    if u < p_fold + S.probs[row, 1] or S.probs[row, 2] <= 0.0:
        return CALL
    return RAISE


__all__ = ["StrategyArrays", "StrategySource", "absent", "strategy_decision", "strategy_row"]
