"""Hands kept whole for hand histories: the record kernel and :class:`HandRecord`.

:func:`record` replays hands ``first .. first+count-1`` of a run exactly as
:func:`~.simulate.simulate` plays them (same deals, same random streams) and
keeps every hand's cards, actions, pots and results for the history writers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Optional

import numpy as np
from numba import njit

from ..core.rng import ACTION_STREAM, seed_stream
from ..evaluator.kernels import Tables
from ..evaluator.tables import tables
from .engine import (
    A_BET,
    A_RAISE,
    MAX_LOG,
    MAX_SEATS,
    N_STATS,
    WS_ROWS,
    Outcome,
    Tally,
    Work,
    deal_hand,
    new_deal,
    new_work,
    play_hand,
)
from .seating import Seats, Table
from .weights import HandWeights, WeightSource, hand_weights


class Records(NamedTuple):
    """A run of hands as the record kernel writes them, one row per hand."""

    button: np.ndarray     # (count,) int64
    holes: np.ndarray      # (count, n, 2) int64
    board: np.ndarray      # (count, 5) int64
    log: np.ndarray        # (count, MAX_LOG, 5) int64: the actions (.engine.Outcome.log)
    nlog: np.ndarray       # (count,) int64: the actions' count
    net: np.ndarray        # (count, n) int64, and won, returned, values, pots as .engine.Outcome's
    won: np.ndarray
    returned: np.ndarray
    values: np.ndarray
    pots: np.ndarray
    share: np.ndarray      # (count, n, n) int64: pot shares
    misc: np.ndarray       # (count, 4) int64: rake, last street, pots, showdown


def new_records(count: int, n: int) -> Records:
    """Zeroed record arrays for ``count`` hands at a table of ``n`` seats."""
    def seat_rows() -> np.ndarray:
        return np.zeros((count, n), np.int64)

    return Records(np.zeros(count, np.int64), np.zeros((count, n, 2), np.int64), np.zeros((count, 5), np.int64),
                   np.zeros((count, MAX_LOG, 5), np.int64), np.zeros(count, np.int64), seat_rows(), seat_rows(),
                   seat_rows(), seat_rows(), seat_rows(), np.zeros((count, n, n), np.int64),
                   np.zeros((count, 4), np.int64))


@njit(cache=True, nogil=True)
def _record(seed: int, first: int, count: int, duplicate: bool, seats: Seats, weights: HandWeights, T: Tables,
            rec: Records) -> None:
    n = seats.kinds.size
    cards = np.empty(2 * n + 5, np.int64)
    deal_rng = np.zeros(1, np.uint64)
    tally = Tally(np.zeros((n, N_STATS), np.int64), np.zeros(seats.genes.shape[:2], np.uint8))
    work = Work(np.zeros((WS_ROWS, 52), np.int64), np.zeros((n + 1, 16), np.float64),
                np.full((n, 4, MAX_SEATS), -1.0), np.zeros(1, np.uint64), np.full((n, 4), -1, np.int64))
    per = n if duplicate else 1
    for i in range(count):
        h = first + i
        if h % per == 0 or i == 0:
            new_deal(work)
        button = deal_hand(seed, h, n, duplicate, cards, rec.holes[i], rec.board[i], deal_rng, work.ws[WS_ROWS - 1])
        seed_stream(work.rng, seed, h, ACTION_STREAM)
        out = Outcome(rec.net[i], rec.won[i], rec.returned[i], rec.values[i], rec.pots[i], rec.share[i], rec.log[i])
        n_log, rake, last, n_pots, showdown = play_hand(button, rec.holes[i], rec.board[i], seats, weights, T, work,
                                                        tally, out)
        rec.button[i] = button
        rec.nlog[i] = n_log
        rec.misc[i, 0] = rake
        rec.misc[i, 1] = last
        rec.misc[i, 2] = n_pots
        rec.misc[i, 3] = showdown


@dataclass
class HandRecord:
    """One finished hand: everything a hand history says, in units (100 to the big blind).

    ``actions`` rows are ``(street, seat, action, units put in, bet level after)``
    with actions numbered as :data:`.engine.ACTION_NAMES`; ``values`` are the
    showdown hand values (-1 for a hand not shown); ``pot_share[seat, p]`` what
    a seat took from pot ``p`` (0 = main).
    """

    number: int
    seed: int
    names: tuple[str, ...]
    button: int
    stacks: np.ndarray
    holes: np.ndarray
    board: np.ndarray
    actions: np.ndarray
    net: np.ndarray
    won: np.ndarray
    returned: np.ndarray
    values: np.ndarray
    pots: np.ndarray
    pot_share: np.ndarray
    rake: int
    last_street: int
    showdown: bool

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def final_stacks(self) -> np.ndarray:
        return self.stacks + self.net

    def order_from_button(self) -> list[int]:
        """Seats from the one left of the button round to the button."""
        return [(self.button + i) % self.seats for i in range(1, self.seats + 1)]

    def showdown_order(self) -> list[int]:
        """Seats still in, in the order they show: the river's last bettor or raiser first, else left of the
        button (pokerkit's order; PokerStars' too)."""
        order = self.order_from_button()
        a = self.actions
        river = a[(a[:, 0] == 3) & ((a[:, 2] == A_BET) | (a[:, 2] == A_RAISE))]
        start = order.index(int(river[-1, 1])) if len(river) else 0
        return [s for s in order[start:] + order[:start] if self.values[s] >= 0]

    @property
    def board_seen(self) -> np.ndarray:
        """The board cards dealt (none, the flop, turn or river) by the hand's last street."""
        return self.board[:(0, 3, 4, 5)[self.last_street]]


def record(table: Table, seed: int, first: int, count: int, duplicate: bool = True,
           weights: Optional[WeightSource] = None) -> list[HandRecord]:
    """Hands ``first .. first+count-1`` of the run ``(table, seed, duplicate, weights)``, kept whole."""
    rec = new_records(count, table.seats)
    _record(seed, first, count, duplicate, table.arrays(), hand_weights(weights), tables(), rec)
    return [_hand(rec, i, first + i, seed, table) for i in range(count)]


def _hand(rec: Records, i: int, number: int, seed: int, table: Table) -> HandRecord:
    n_pots = int(rec.misc[i, 2])
    return HandRecord(number, seed, table.names, int(rec.button[i]), table.stacks.copy(), rec.holes[i], rec.board[i],
                      rec.log[i, :rec.nlog[i]].copy(), rec.net[i], rec.won[i], rec.returned[i], rec.values[i],
                      rec.pots[i, :n_pots], rec.share[i, :, :n_pots], int(rec.misc[i, 0]), int(rec.misc[i, 1]),
                      bool(rec.misc[i, 3]))


def play_scripted(holes: np.ndarray, board: np.ndarray, button: int, scripts: list[str],
                  stacks: np.ndarray | None = None, rake_bp: int = 0, rake_cap: int = 1 << 62) -> HandRecord:
    """Play one hand with the given cards where seat ``k`` answers ``scripts[k]`` in order.

    A script is a string of ``f`` (fold), ``c`` (check/call), ``r`` (bet/raise);
    past its end a seat checks or calls.  ``stacks`` are in units (default 200
    big blinds each).  Used to work rule cases by hand and to replay histories.
    """
    from .policies import N_PARAMS, P_SCRIPT, SCRIPT
    from .settle import BB

    n = len(scripts)
    params = np.zeros((n, N_PARAMS), np.float64)
    for k, s in enumerate(scripts):
        if len(s) > N_PARAMS - P_SCRIPT:
            raise ValueError(f"a script holds at most {N_PARAMS - P_SCRIPT} answers")
        params[k, P_SCRIPT:P_SCRIPT + len(s)] = ["fcr".index(ch) for ch in s]
        params[k, P_SCRIPT + len(s):] = 1
    st = np.full(n, 200 * BB, np.int64) if stacks is None else np.asarray(stacks, np.int64)
    table = Table(tuple(["script"] * n), np.full(n, SCRIPT, np.int64), params, np.zeros(n, np.bool_),
                  np.full(169, 9, np.int64), st, int(rake_bp), int(rake_cap))
    rec = new_records(1, n)
    rec.holes[0] = np.asarray(holes, np.int64).reshape(n, 2)
    rec.board[0] = np.asarray(board, np.int64).reshape(5)
    out = Outcome(rec.net[0], rec.won[0], rec.returned[0], rec.values[0], rec.pots[0], rec.share[0], rec.log[0])
    tally = Tally(np.zeros((n, N_STATS), np.int64), np.zeros(table.genes.shape[:2], np.uint8))
    rec.nlog[0], rec.misc[0, 0], rec.misc[0, 1], rec.misc[0, 2], rec.misc[0, 3] = play_hand(
        button, rec.holes[0], rec.board[0], table.arrays(), hand_weights(None), tables(), new_work(n), tally, out)
    rec.button[0] = button
    return _hand(rec, 0, 0, 0, table)
