"""Bot-vs-bot simulation: duplicate deals, BB/100 per seat with a standard error, per-policy statistics.

Duplicate deals (as in the ACPC and the thesis's evaluation, §3.3.4): each deal
is replayed once per seat with the button moved one seat on, so the same hole
cards go to the same position relative to the button while the policies — who
keep their seats — take turns in every position; card luck largely cancels.
The standard error is taken over deals (the sum of a deal's replays is one
sample), so it is honest about the correlation duplicate play creates.

Every hand's cards and random choices come from streams keyed by
``(seed, hand number)`` (:mod:`.rng`), and the results are integer sums, so
splitting the deals among workers (``session``) gives exactly the same numbers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np
from numba import njit

from ..core.rng import ACTION_STREAM, seed_stream
from ..evaluator.kernels import Tables
from ..evaluator.tables import tables
from .engine import (
    MAX_LOG,
    MAX_SEATS,
    N_STATS,
    S_AGGR,
    S_CALLS,
    S_FLOP,
    S_HANDS,
    S_PFR,
    S_VPIP,
    S_WSD,
    S_WTSD,
    WS_ROWS,
    deal_hand,
    play_hand,
)
from .seating import Table
from .weight_build import kernel_tables, weight_mode
from .weights import preflop_table

PARTITION_DEALS = 200_000
PARTS_PER_WORKER = 8       # partitions per Dask worker at least, so the last ones balance the load


@njit(cache=True, nogil=True)
def run_deals(seed: int, first: int, count: int, n: int, duplicate: bool, stacks: np.ndarray, kinds: np.ndarray,
              params: np.ndarray, needs_w: np.ndarray, genes: np.ndarray, used: np.ndarray, layout: np.ndarray,
              group_tab: np.ndarray, pre_weight: np.ndarray, wt: tuple, rake_bp: int, rake_cap: int, T: Tables, totals: np.ndarray, sumsq: np.ndarray,
              stats: np.ndarray, audit: np.ndarray) -> None:
    """Play deals ``first .. first+count-1``; add per-seat result sums, block squares and statistics.

    ``audit`` gets the rake taken and the number of hands whose chips did not
    balance (results plus rake not zero, or a stack below zero).
    """
    cards = np.empty(2 * n + 5, np.int64)
    holes = np.empty((n, 2), np.int64)
    board = np.empty(5, np.int64)
    deal_rng = np.zeros(1, np.uint64)
    act_rng = np.zeros(1, np.uint64)
    net = np.zeros(n, np.int64)
    won = np.zeros(n, np.int64)
    returned = np.zeros(n, np.int64)
    values = np.zeros(n, np.int64)
    pots = np.zeros(n, np.int64)
    pot_share = np.zeros((n, n), np.int64)
    log = np.zeros((MAX_LOG, 5), np.int64)
    block = np.zeros(n, np.int64)
    ws = np.zeros((WS_ROWS, 52), np.int64)
    fws = np.zeros((n + 1, 16), np.float64)
    dcache = np.empty((n, 4, MAX_SEATS), np.float64)
    per = n if duplicate else 1
    for h in range(first * per, (first + count) * per):
        if h % per == 0:
            dcache[:] = -1.0
        button = deal_hand(seed, h, n, duplicate, cards, holes, board, deal_rng, ws[WS_ROWS - 1])
        seed_stream(act_rng, seed, h, ACTION_STREAM)
        rake = play_hand(n, button, holes, board, stacks, kinds, params, needs_w, genes, used, layout, group_tab,
                         pre_weight, wt, dcache, act_rng, rake_bp, rake_cap, T, net, won, returned, values,
                         pots, pot_share, stats, log, ws, fws)[1]
        audit[0] += rake
        balance = rake
        for k in range(n):
            block[k] += net[k]
            balance += net[k]
            if stacks[k] + net[k] < 0:
                balance = 1 << 40
        if balance != 0:              # chips created or lost, or a stack below zero: must never happen
            audit[1] += 1
        if (h + 1) % per == 0:
            for k in range(n):
                totals[k] += block[k]
                sumsq[k] += block[k] * block[k]
                block[k] = 0


def play_deals(table: Table, seed: int, first: int, count: int, duplicate: bool,
               pre_weight: np.ndarray, weights: str = "auto") -> tuple[np.ndarray, ...]:
    """Sums over deals ``first .. first+count-1``: ``(totals, sumsq, stats, audit, used)``.

    ``totals``/``sumsq`` are each seat's units won and the squares of its
    per-deal sums, ``stats`` the counters of :mod:`.engine`, ``audit`` (rake,
    unbalanced hands), ``used`` the gene marks of ``evolved`` seats.  Run on a
    worker, the preflop weights travel with the task, so no worker builds them;
    the weight tables after the flop (``weights``, :func:`.weight_table.weight_mode`)
    are mapped from the disk cache by each process.
    """
    n = table.seats
    used = np.zeros(table.genes.shape[:2], np.uint8)
    totals = np.zeros(n, np.int64)
    sumsq = np.zeros(n, np.int64)
    stats = np.zeros((n, N_STATS), np.int64)
    audit = np.zeros(2, np.int64)
    T = tables()
    wt = kernel_tables(weight_mode(weights))
    run_deals(seed, first, count, n, duplicate, table.stacks, table.kinds, table.params, table.needs_weight,
              table.genes, used, table.layout, table.group_tab, pre_weight, wt, table.rake_bp, table.rake_cap,
              T, totals, sumsq, stats, audit)
    return totals, sumsq, stats, audit, used


@dataclass
class SeatResult:
    """One seat's result: big blinds won per 100 hands with its standard error and 95% interval."""

    seat: int
    policy: str
    bb_per_100: float
    stderr: float
    ci95: tuple[float, float]
    stats: dict[str, float] = field(default_factory=dict)


@dataclass
class SimResult:
    """What :func:`simulate` returns: hands played, per-seat results, per-policy statistics."""

    hands: int
    deals: int
    seats: list[SeatResult]
    policies: dict[str, dict[str, float]]
    units_won: np.ndarray
    rake: int = 0                 # units taken by the house
    unbalanced_hands: int = 0     # hands whose chips did not add up (always 0; checked in the kernel)


def rates(s: np.ndarray) -> dict[str, float]:
    """VPIP, PFR, aggression factor, went-to-showdown and won-at-showdown from summed counters."""
    def ratio(a: float, b: float) -> float:
        return a / b if b else (math.inf if a else 0.0)
    return {"vpip": ratio(s[S_VPIP], s[S_HANDS]), "pfr": ratio(s[S_PFR], s[S_HANDS]),
            "af": ratio(s[S_AGGR], s[S_CALLS]), "wtsd": ratio(s[S_WTSD], s[S_FLOP]),
            "wsd": ratio(s[S_WSD], s[S_WTSD])}


def simulate(policies: Sequence[Any], hands: int, seed: int = 0, duplicate: bool = True, *,
             stack_bb: float | Sequence[float] = 200.0, rake_percent: float = 0.0, rake_cap_bb: float = 0.0,
             samples: int = 48, session: Optional[Any] = None,
             partition_deals: int = PARTITION_DEALS, weights: str = "auto") -> SimResult:
    """Play ``hands`` hands among ``policies`` (one per seat, 2..10) and score every seat.

    A policy is a built-in name, an evolved player or a player file (:meth:`.Table.make`).

    With ``duplicate`` the hand count is rounded up to whole deals of one replay
    per seat.  ``session`` (a :class:`pipeline.batch.session.Session`) spreads the
    deals over its Dask workers in partitions of at most ``partition_deals``
    (smaller when needed to give each worker :data:`PARTS_PER_WORKER`).
    ``weights`` picks the hand weight after the flop: ``tables`` (the built
    tables of :mod:`.weight_table`), ``sampled`` (Monte Carlo in the kernel) or
    ``auto`` (tables when built); it is resolved once here, so every worker
    plays the same way.
    """
    table = Table.make(policies, stack_bb=stack_bb, rake_percent=rake_percent, rake_cap_bb=rake_cap_bb,
                       samples=samples)
    if hands < 1:
        raise ValueError(f"hands must be positive, got {hands}")
    n = table.seats
    per = n if duplicate else 1
    deals = -(-hands // per)
    mode = weight_mode(weights)
    pre = preflop_table()
    client = None if session is None else session.client()
    if client is not None:      # enough partitions that every worker stays busy to the end
        workers = max(1, sum(client.nthreads().values()))
        partition_deals = max(1, min(partition_deals, -(-deals // (PARTS_PER_WORKER * workers))))
    parts = [(f, min(partition_deals, deals - f)) for f in range(0, deals, partition_deals)]
    if client is None:
        results = [play_deals(table, seed, f, c, duplicate, pre, mode) for f, c in parts]
    else:
        futures = client.map(play_deals, [table] * len(parts), [seed] * len(parts), [f for f, _ in parts],
                             [c for _, c in parts], [duplicate] * len(parts), [pre] * len(parts),
                             [mode] * len(parts), pure=False)
        results = client.gather(futures)
    totals = np.sum([r[0] for r in results], axis=0)
    sumsq = np.sum([r[1] for r in results], axis=0)
    stats = np.sum([r[2] for r in results], axis=0)
    audit = np.sum([r[3] for r in results], axis=0)
    played = deals * per
    seats = []
    for k in range(n):
        mean_block = totals[k] / deals
        var = max(float(sumsq[k]) / deals - mean_block ** 2, 0.0) * deals / max(deals - 1, 1)
        se = math.sqrt(var / deals) / per if deals > 1 else math.nan   # units per hand = BB/100 (1 BB = 100 units)
        bb100 = float(totals[k]) / played
        seats.append(SeatResult(k + 1, table.names[k], bb100, se, (bb100 - 1.96 * se, bb100 + 1.96 * se),
                                rates(stats[k])))
    by_policy: dict[str, np.ndarray] = {}
    for k in range(n):
        by_policy[table.names[k]] = by_policy.get(table.names[k], 0) + stats[k]
    return SimResult(played, deals, seats, {p: rates(s) for p, s in by_policy.items()}, totals, int(audit[0]),
                     int(audit[1]))
