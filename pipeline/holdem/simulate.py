"""Bot-vs-bot simulation: duplicate deals, BB/100 per seat with a standard error, per-policy statistics.

Duplicate deals (as in the ACPC and the thesis's evaluation, §3.3.4): each deal
is replayed once per seat with the button moved one seat on, so the same hole
cards go to the same position relative to the button while the policies — who
keep their seats — take turns in every position; card luck largely cancels.
The standard error is taken over deals (the sum of a deal's replays is one
sample), so it is honest about the correlation duplicate play creates.

Every hand's cards and random choices come from streams keyed by
``(seed, hand number)`` (:mod:`pipeline.core.rng`), and the results are integer
sums, so splitting the deals among workers (``executor``) gives exactly the same numbers.
"""
from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from ..core.inputs import integer
from ..core.rng import ACTION_STREAM, seed_stream
from ..evaluator.kernels import Tables
from ..evaluator.tables import tables
from .engine import (
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
    Outcome,
    Tally,
    Work,
    deal_hand,
    new_deal,
    new_outcome,
    new_work,
    play_hand,
)
from .jit import hand_kernel
from .policies import DEFAULT_SAMPLES
from .seating import DEFAULT_STACK_BB, Seats, Table, TableError
from .weights import HandWeights, WeightSource, absent, preflop_table
from .work import MAX_HANDS, refuse_play, workers_of

PARTITION_DEALS = 200_000
# hands per kernel call: at most about a second of the slowest table (ten tag bots with sampled weights play
# about 6,000 hands a second on one core), so that Ctrl-C is seen between calls
CHUNK_HANDS = 2_000
PARTS_PER_WORKER = 8       # partitions per Dask worker at least, so the last ones balance the load


class DealSums(NamedTuple):
    """What :func:`run_deals` adds up, per seat, besides the :class:`~.engine.Tally`."""

    totals: np.ndarray   # (n,) int64: units won
    sumsq: np.ndarray    # (n,) int64: squares of each deal's sum (the standard error is over deals)
    audit: np.ndarray    # (2,) int64: rake taken, hands whose chips did not balance (always 0)


class DealWork(NamedTuple):
    """The scratch arrays of :func:`run_deals`, allocated once per run (:func:`deal_work`): the kernel
    allocates nothing, so it runs without numba's reference counting (:mod:`.jit`)."""

    cards: np.ndarray    # (2n + 5,) int64: the deal's cards in dealing order
    holes: np.ndarray    # (n, 2) int64
    board: np.ndarray    # (5,) int64
    deal_rng: np.ndarray  # (1,) uint64: the deal's card stream
    block: np.ndarray    # (n,) int64: each seat's sum over the deal's replays
    work: Work
    out: Outcome


def deal_work(n: int) -> DealWork:
    """Scratch space of :func:`run_deals` for a table of ``n`` seats."""
    return DealWork(np.empty(2 * n + 5, np.int64), np.empty((n, 2), np.int64), np.empty(5, np.int64),
                    np.zeros(1, np.uint64), np.zeros(n, np.int64), new_work(n), new_outcome(n))


@hand_kernel
def run_deals(seed: int, first: int, count: int, duplicate: bool, seats: Seats, weights: HandWeights, T: Tables,
              sums: DealSums, tally: Tally, dw: DealWork) -> None:
    """Play deals ``first .. first+count-1``; add per-seat result sums, block squares and statistics.

    ``sums.audit`` gets the rake taken and the number of hands whose chips did
    not balance (results plus rake not zero, or a stack below zero).  ``dw`` is
    scratch (:func:`deal_work`).
    """
    n = seats.kinds.size
    totals, sumsq, audit = sums
    cards, holes, board, deal_rng, block, work, out = dw
    stacks, net, rng = seats.stacks, out.net, work.rng
    deck = work.ws[WS_ROWS - 1]
    block[:] = 0
    per = n if duplicate else 1
    for h in range(first * per, (first + count) * per):
        if h % per == 0:
            new_deal(work)
        button = deal_hand(seed, h, n, duplicate, cards, holes, board, deal_rng, deck)
        seed_stream(rng, seed, h, ACTION_STREAM)
        rake = play_hand(button, holes, board, seats, weights, T, work, tally, out)[1]
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


def play_deals(table: Table, seed: int, first: int, count: int, duplicate: bool, preflop: np.ndarray,
               weights: Optional[WeightSource] = None) -> tuple[np.ndarray, ...]:
    """Sums over deals ``first .. first+count-1``: ``(totals, sumsq, stats, audit, used)``.

    ``totals``/``sumsq`` are each seat's units won and the squares of its
    per-deal sums, ``stats`` the counters of :mod:`.engine`, ``audit`` (rake,
    unbalanced hands), ``used`` the gene marks of ``evolved`` seats.  Run on a
    worker, the preflop weights travel with the task, so no worker builds them;
    the weight tables after the flop are mapped by each process from
    ``weights`` (None: sampled).  The kernel runs :data:`CHUNK_HANDS` hands at a
    time, so that an interrupt (Ctrl-C) is seen within about a second; every
    deal's cards and choices are keyed by ``(seed, hand)`` and the sums are
    integers, so the chunks give exactly the numbers of one call.
    """
    n = table.seats
    sums = DealSums(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(2, np.int64))
    tally = Tally(np.zeros((n, N_STATS), np.int64), np.zeros(table.genes.shape[:2], np.uint8))
    hw = HandWeights(preflop, absent() if weights is None else weights.load())
    seats, T, dw = table.arrays(), tables(), deal_work(n)
    step = max(1, CHUNK_HANDS // (n if duplicate else 1))     # whole deals: the sums do not depend on the step
    for f in range(first, first + count, step):
        run_deals(seed, f, min(step, first + count - f), duplicate, seats, hw, T, sums, tally, dw)
    return sums.totals, sums.sumsq, tally.stats, sums.audit, tally.used


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
             stack_bb: float | Sequence[float] = DEFAULT_STACK_BB, rake_percent: float = 0.0,
             rake_cap_bb: float = 0.0, samples: int = DEFAULT_SAMPLES, executor: Optional[Executor] = None,
             partition_deals: int = PARTITION_DEALS, weights: Optional[WeightSource] = None) -> SimResult:
    """Play ``hands`` hands among ``policies`` (one per seat, 2..10) and score every seat.

    A policy is a built-in name, an evolved player or a player file (:meth:`.Table.make`).

    With ``duplicate`` the hand count is rounded up to whole deals of one replay
    per seat.  ``executor`` (a ``concurrent.futures.Executor``: a local pool,
    or a Dask cluster's from :meth:`pipeline.batch.session.Session.executor`)
    plays the deals in partitions of at most ``partition_deals`` (smaller when
    needed to give each of its workers :data:`PARTS_PER_WORKER`).  ``weights``
    is where the hand-weight tables after the flop come from
    (:class:`.weights.WeightSource`); None: the in-kernel sampler.  Results are
    integer sums over deals keyed by ``(seed, deal)``, the same on any executor.
    """
    table = Table.make(policies, stack_bb=stack_bb, rake_percent=rake_percent, rake_cap_bb=rake_cap_bb,
                       samples=samples)
    hands = integer(hands, "hands", 1, MAX_HANDS, error=TableError, strict=True)
    seed = integer(seed, "seed", -(1 << 63), (1 << 63) - 1, error=TableError, strict=True)
    partition_deals = integer(partition_deals, "partition_deals", 1, MAX_HANDS, error=TableError, strict=True)
    refuse_play(table.names, hands, workers_of(executor), sampled=weights is None)   # beyond a day: refused first
    n = table.seats
    per = n if duplicate else 1
    deals = -(-hands // per)
    pre = preflop_table()
    if executor is not None:      # enough partitions that every worker stays busy to the end
        partition_deals = max(1, min(partition_deals, -(-deals // (PARTS_PER_WORKER * workers_of(executor)))))
    parts = [(f, min(partition_deals, deals - f)) for f in range(0, deals, partition_deals)]
    play = partial(play_deals, table, seed, duplicate=duplicate, preflop=pre, weights=weights)
    results = list((executor.map if executor is not None else map)(play, *zip(*parts)))
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
