"""Hands kept whole for hand histories: the record kernel and :class:`HandRecord`.

:func:`record` replays hands ``first .. first+count-1`` of a run exactly as
:func:`~.simulate.simulate` plays them (same deals, same random streams) and
keeps every hand's cards, actions, pots and results for the history writers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core.rng import ACTION_STREAM, seed_stream
from ..evaluator.kernels import Tables
from ..evaluator.tables import tables
from .engine import A_BET, A_RAISE, MAX_LOG, MAX_SEATS, N_STATS, WS_ROWS, deal_hand, play_hand
from .seating import Table
from .weight_build import absent, kernel_tables, weight_mode
from .weights import preflop_table


@njit(cache=True, nogil=True)
def _record(seed: int, first: int, count: int, n: int, duplicate: bool, stacks: np.ndarray, kinds: np.ndarray,
            params: np.ndarray, needs_w: np.ndarray, genes: np.ndarray, used: np.ndarray, layout: np.ndarray,
            group_tab: np.ndarray, pre_weight: np.ndarray, wt: tuple, rake_bp: int,
            rake_cap: int, T: Tables, o_button: np.ndarray,
            o_holes: np.ndarray, o_board: np.ndarray, o_log: np.ndarray, o_nlog: np.ndarray, o_net: np.ndarray,
            o_won: np.ndarray, o_returned: np.ndarray, o_values: np.ndarray, o_pots: np.ndarray,
            o_share: np.ndarray, o_misc: np.ndarray) -> None:
    cards = np.empty(2 * n + 5, np.int64)
    deal_rng = np.zeros(1, np.uint64)
    act_rng = np.zeros(1, np.uint64)
    stats = np.zeros((n, N_STATS), np.int64)
    ws = np.zeros((WS_ROWS, 52), np.int64)
    fws = np.zeros((n + 1, 16), np.float64)
    dcache = np.full((n, 4, MAX_SEATS), -1.0)
    per = n if duplicate else 1
    for i in range(count):
        h = first + i
        if h % per == 0 or i == 0:
            dcache[:] = -1.0
        button = deal_hand(seed, h, n, duplicate, cards, o_holes[i], o_board[i], deal_rng, ws[WS_ROWS - 1])
        seed_stream(act_rng, seed, h, ACTION_STREAM)
        n_log, rake, last, n_pots, showdown = play_hand(
            n, button, o_holes[i], o_board[i], stacks, kinds, params, needs_w, genes, used, layout, group_tab,
            pre_weight, wt, dcache, act_rng, rake_bp, rake_cap, T, o_net[i], o_won[i], o_returned[i],
            o_values[i], o_pots[i], o_share[i], stats, o_log[i], ws, fws)
        o_button[i] = button
        o_nlog[i] = n_log
        o_misc[i, 0] = rake
        o_misc[i, 1] = last
        o_misc[i, 2] = n_pots
        o_misc[i, 3] = showdown


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
           weights: str = "auto") -> list[HandRecord]:
    """Hands ``first .. first+count-1`` of the run ``(table, seed, duplicate, weights)``, kept whole."""
    n = table.seats
    o_button = np.zeros(count, np.int64)
    o_holes = np.zeros((count, n, 2), np.int64)
    o_board = np.zeros((count, 5), np.int64)
    o_log = np.zeros((count, MAX_LOG, 5), np.int64)
    o_nlog = np.zeros(count, np.int64)
    per_seat = [np.zeros((count, n), np.int64) for _ in range(5)]
    o_share = np.zeros((count, n, n), np.int64)
    o_misc = np.zeros((count, 4), np.int64)
    T = tables()
    o_net, o_won, o_returned, o_values, o_pots = per_seat
    used = np.zeros(table.genes.shape[:2], np.uint8)
    _record(seed, first, count, n, duplicate, table.stacks, table.kinds, table.params, table.needs_weight,
            table.genes, used, table.layout, table.group_tab, preflop_table(), kernel_tables(weight_mode(weights)),
            table.rake_bp, table.rake_cap,
            T, o_button, o_holes, o_board, o_log, o_nlog, o_net, o_won, o_returned,
            o_values, o_pots, o_share, o_misc)
    out = []
    for i in range(count):
        n_pots = int(o_misc[i, 2])
        out.append(HandRecord(first + i, seed, table.names, int(o_button[i]), table.stacks.copy(), o_holes[i],
                              o_board[i], o_log[i, :o_nlog[i]], o_net[i], o_won[i], o_returned[i], o_values[i],
                              o_pots[i, :n_pots], o_share[i, :, :n_pots], int(o_misc[i, 0]), int(o_misc[i, 1]),
                              bool(o_misc[i, 3])))
    return out


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
    o_holes = np.asarray(holes, np.int64).reshape(1, n, 2).copy()
    o_board = np.asarray(board, np.int64).reshape(1, 5).copy()
    o_log = np.zeros((1, MAX_LOG, 5), np.int64)
    o_nlog = np.zeros(1, np.int64)
    per_seat = [np.zeros((1, n), np.int64) for _ in range(5)]
    o_share = np.zeros((1, n, n), np.int64)
    o_misc = np.zeros((1, 4), np.int64)
    stats = np.zeros((n, N_STATS), np.int64)
    rng = np.zeros(1, np.uint64)
    T = tables()
    n_log, rake, last, n_pots, showdown = play_hand(
        n, button, o_holes[0], o_board[0], table.stacks, table.kinds, table.params, table.needs_weight,
        table.genes, np.zeros(table.genes.shape[:2], np.uint8), table.layout, table.group_tab, preflop_table(),
        absent(), np.full((n, 4, MAX_SEATS), -1.0), rng,
        table.rake_bp, table.rake_cap, T, per_seat[0][0],
        per_seat[1][0], per_seat[2][0], per_seat[3][0], per_seat[4][0], o_share[0], stats, o_log[0],
        np.zeros((WS_ROWS, 52), np.int64), np.zeros((n + 1, 16), np.float64))
    del o_nlog, o_misc
    return HandRecord(0, 0, table.names, button, st.copy(), o_holes[0], o_board[0], o_log[0, :n_log].copy(),
                      per_seat[0][0], per_seat[1][0], per_seat[2][0], per_seat[3][0], per_seat[4][0, :n_pots],
                      o_share[0, :, :n_pots], int(rake), int(last), bool(showdown))
