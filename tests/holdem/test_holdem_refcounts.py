"""The betting kernel's hand loop compiles without reference counting, callees included.

numba's runtime counts references to every array a function binds with an
atomic add on each side; in the hand loop that was 46% of a heads-up hand's
time (``perf``), so the per-hand functions are compiled with the runtime off
(:mod:`pipeline.holdem.jit`).  The loop is compiled afresh here (the cached
copies carry no LLVM text); its module holds the code of everything it calls,
whose IR is searched.
"""
import numpy as np
import pytest
from numba import njit

from pipeline.evaluator.tables import tables
from pipeline.holdem.engine import N_STATS, Tally
from pipeline.holdem.seating import Table
from pipeline.holdem.simulate import DealSums, deal_work, run_deals
from pipeline.holdem.weights import HandWeights, absent, preflop_table


@pytest.mark.slow
def test_the_hand_loop_holds_no_increfs():
    table = Table.make(["tag", "random", "rlcard-v1", "thesis-preflop"])
    n = table.seats
    sums = DealSums(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(2, np.int64))
    tally = Tally(np.zeros((n, N_STATS), np.int64), np.zeros(table.genes.shape[:2], np.uint8))
    options = {k: v for k, v in run_deals.targetoptions.items() if k not in ("cache", "nopython")}
    fresh = njit(**options)(run_deals.py_func)                    # the kernel's own options, not cached
    assert options["_nrt"] is False
    fresh(1, 0, 3, True, table.arrays(), HandWeights(preflop_table(), absent()), tables(), sums, tally, deal_work(n))
    ir = "".join(fresh.inspect_llvm().values())
    assert "play_hand" in ir and "weight_at" in ir               # the callees' code is in the module searched
    assert ir.count("@NRT_incref(") == 0 and ir.count("@NRT_decref(") == 0
