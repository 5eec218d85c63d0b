"""Exact equity enumerated in chunks, merged in order: by combo pairs, or after the flop by runouts.

The general exact path of :mod:`.calculator`: the first two players' combo pairs cut into chunks of the
combo-by-combo enumeration of :mod:`.exact`, or, on a flop, turn or river, the runouts valued once each
(:mod:`.grouped` when the assignments can be listed, else the chunked kernels of :mod:`.runouts`).  The
chunks run on threads or an executor and are merged in order (:mod:`.chunks`), so memory stays flat.  Also
the timed sample that estimates a long enumeration, so that hours are refused before they start.
"""
from __future__ import annotations

import math
import time
from concurrent.futures import Executor
from typing import Optional

import numpy as np

from ..core.cards import mask_of
from ..evaluator.kernels import Tables
from ..ranges.syntax import Range
from .chunks import Progress, chunked_exact
from .exact import Assignments, exact_chunk, exact_counts, first_assignments
from .exact_result import _exact_result, _no_assignment
from .grouped import grouped_counts
from .result import EquityResult
from .suits import combo_index, stabilizer

CHUNK_WORK = 100_000_000              # hand evaluations in one chunk of an exact enumeration (~0.1 s)
RUNOUT_CHUNK_WORK = 20_000_000     # combo values and assignment tests in one chunk of runouts (~0.05 s)


def _exact_seconds(ranges: list[Range], masks: np.ndarray, offsets: np.ndarray, board: list[int],
                   dead: list[int], used: int, bound: int, t: Tables) -> float:
    """Rough time of an exact run of up to ``bound`` assignments: a timed sample, with the
    suit symmetry's saving."""
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    sample = first_assignments(masks, offsets, used, 4)
    P = len(ranges)
    args = (sample, np.ones(len(sample), np.int64), np.ones(len(sample)), combos, np.array(board, np.int64),
            np.uint64(used), np.zeros((P, P), np.int64), np.zeros((P, P)), t)
    exact_counts(*args)   # compiled and warm
    start = time.perf_counter()
    exact_counts(*args)
    per = (time.perf_counter() - start) / max(len(sample), 1)
    return bound * per / len(stabilizer(board, dead))


def _exact(ranges: list[Range], masks: np.ndarray, offsets: np.ndarray, board: list[int], dead: list[int],
           used: int, executor: Optional[Executor], n_threads: int, progress: Optional[Progress],
           t: Tables) -> EquityResult:
    """Enumerate in chunks of the first two players' combo pairs (:func:`.exact.exact_chunk`),
    merged in order: memory stays flat however many assignments there are."""
    P = len(ranges)
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    weights = np.concatenate([r.weights for r in ranges]).astype(np.float64)
    perms = stabilizer(board, dead)
    assignments = Assignments(masks, offsets, combos, weights, combo_index(combos, offsets), perms)
    pairs = len(ranges[0]) * len(ranges[1])
    # about 0.1 s a chunk (a merge and an interrupt check each), a few chunks a thread
    work = math.prod(len(r) for r in ranges) * math.comb(52 - bin(used).count("1") - 2 * P, 5 - len(board)) \
        * P // len(perms)
    n_chunks = min(pairs, max(n_threads * (1 if work < CHUNK_WORK else 4), min(4096, work // CHUNK_WORK)))
    bounds = np.linspace(0, pairs, n_chunks + 1).astype(np.int64)
    board_a = np.array(board, np.int64)

    def kernel(lo: int, hi: int, c: np.ndarray, w: np.ndarray) -> tuple[int, float]:
        nb, wb, _ = exact_chunk(lo, hi, assignments, board_a, np.uint64(used), np.uint64(used), c, w, t)
        return nb, wb

    counts, wcounts, boards, wboards = chunked_exact(bounds, kernel, (P, P), progress,
                                                     "combo pairs of players 1 and 2", executor, n_threads)
    if boards == 0:
        raise _no_assignment(ranges)
    return _exact_result(ranges, counts, wcounts, boards, wboards)


def _exact_by_runouts(ranges: list[Range], board: list[int], dead: list[int], used: int,
                      executor: Optional[Executor], n_threads: int,
                      progress: Optional[Progress], t: Tables) -> Optional[EquityResult]:
    """Exact equity on a flop, turn or river by :mod:`.runouts`, in chunks of runouts merged in order (the
    chunks do not depend on the thread count, so neither do the sums); None when the assignments are too
    many to list (:func:`.runouts.plan`)."""
    from .runouts import plan, runout_counts

    P = len(ranges)
    start = time.monotonic()
    absent = [c for c in range(52) if used >> c & 1 and c not in board and c not in dead]   # a short deck's
    got = grouped_counts(ranges, board, dead + absent, t)   # few enough assignments to list: by groups, one call
    if got is not None:
        counts, wcounts, boards, wboards, runouts = got
        if progress is not None:
            progress(runouts, runouts, time.monotonic() - start, "runouts")
        if boards == 0:
            raise _no_assignment(ranges)
        return _exact_result(ranges, counts, wcounts, boards, wboards)
    p = plan(ranges, board, dead, used)
    if p is None:
        return None
    R = len(p.runouts)
    per_runout = len(p.combos) + max(len(p.assign), 8 * len(p.combos)) * P
    n_chunks = max(1, min(R, R * per_runout // RUNOUT_CHUNK_WORK))
    bounds = np.linspace(0, R, n_chunks + 1).astype(np.int64)
    dead_mask = np.uint64(mask_of(dead + absent))

    def kernel(lo: int, hi: int, c: np.ndarray, w: np.ndarray) -> tuple:
        return runout_counts(lo, hi, p, dead_mask, c, w, t)

    counts, wcounts, boards, wboards = chunked_exact(bounds, kernel, (P, P), progress, "runouts", executor,
                                                     n_threads)
    if boards == 0:
        raise _no_assignment(ranges)
    return _exact_result(ranges, counts, wcounts, boards, wboards)
