"""Monte Carlo equity: seeded trials in chunks until the count, the standard-error target or the time says stop.

Each chunk of :data:`~.limits.CHUNK_TRIALS` trials has its own random stream (:func:`.montecarlo.monte_carlo_chunk`),
so the sums do not depend on the threads; the chunks are merged in order (:mod:`.chunks`), and the stopping
rules look at the merged totals: a ``stderr`` target stops at the same chunk however many threads run, a
time budget does not.  A target beyond a day's work is refused after its pilot
(:class:`~pipeline.core.budget.TargetWatch`).
"""
from __future__ import annotations

import time
from concurrent.futures import Executor
from typing import Optional

import numpy as np

from ..core.budget import TargetWatch
from ..evaluator.decks import Deck
from ..evaluator.simd import lookup_values, offsets32
from ..evaluator.tables import tables
from ..ranges.syntax import Range
from .chunks import Progress, run_chunks
from .exact_result import _no_assignment
from .limits import CHUNK_TRIALS, MAX_TRIALS
from .montecarlo import MonteCarloTotals, deal_lanes, monte_carlo_chunk
from .plan import plan_deal
from .result import EquityResult, PlayerEquity


def _monte_carlo(ranges: list[Range], board_cards: list[int], base_mask: int, trials: Optional[int], seed: int,
                 stderr_target: Optional[float], time_limit: Optional[float], executor: Optional[Executor],
                 workers: int, progress: Optional[Progress], deck: Deck) -> EquityResult:
    """Monte Carlo trials of ``deck`` (its cards absent from it already dead in ``base_mask``), valued by its
    tables (:func:`~pipeline.evaluator.simd.lookup_values`, the deck's flush and rank tables end to end)."""
    P = len(ranges)
    plan = plan_deal(ranges, board_cards, base_mask)
    t = tables(deck)
    lookup, offsets = lookup_values(deck), offsets32(deck)
    lanes = deal_lanes(plan)
    acc = MonteCarloTotals(P, plan.weighted)
    start = time.monotonic()
    size = CHUNK_TRIALS
    count = None if trials is None else -(-trials // size)

    def task(i: int) -> tuple:
        n = size if trials is None else min(size, trials - i * size)
        counts = np.zeros((P, P), np.int64)
        wsums = np.zeros((P, P + 2), np.float64)
        wtot = np.zeros(2, np.float64)
        monte_carlo_chunk(n, seed, i, plan.for_chunk(), counts, wsums, wtot, t, lookup, offsets, lanes)
        return n, counts, wsums, wtot

    stopped = ["trials"]
    watch = TargetWatch(stderr_target) if stderr_target is not None and time_limit is None and trials is None \
        else None

    def merge(i: int, got: tuple) -> bool:
        acc.add(*got)
        elapsed = time.monotonic() - start
        if progress is not None:
            progress(acc.trials, trials, elapsed, "trials")
        if stderr_target is not None and acc.max_stderr() <= stderr_target:
            stopped[0] = "stderr"
            return True
        if watch is not None:                  # a target beyond a day's work: refused after its pilot
            watch.check(acc.trials, acc.max_stderr(), elapsed)
        if time_limit is not None and elapsed >= time_limit:
            stopped[0] = "time"
            return True
        if acc.trials >= MAX_TRIALS:
            return True
        return False

    run_chunks(task, merge, count, executor, workers)
    if plan.weighted and acc.wtot[0] <= 0.0:
        raise _no_assignment(ranges)
    players = [PlayerEquity(r.text, *acc.player(p)) for p, r in enumerate(ranges)]
    return EquityResult(False, acc.trials, players, trials=acc.trials,
                        stderr=max(p.stderr for p in players), stopped=stopped[0])
