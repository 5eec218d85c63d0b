"""The Monte Carlo dealing loops compile without reference counting inside them.

An inlined numba helper that takes arrays and branches makes numba keep an
``NRT_incref``/``NRT_decref`` pair per call in the loop that calls it: an atomic
add each, which halved the trials a second of AA vs KK vs QQ vs three random hands
once (``equity.dealing.alias_step`` takes no arrays for that reason).  Each loop is
compiled afresh here (the cached copies carry no LLVM text) and its IR searched.
"""
import numpy as np
import pytest
from numba import njit

from pipeline.equity import dealing
from pipeline.equity.plan import plan_deal
from pipeline.evaluator.tables import tables
from pipeline.ranges.query import parse_query


def _fresh(kernel):
    return njit(nogil=True)(kernel.py_func)


def _increfs(compiled) -> int:
    """Calls of NRT_incref in the module (its definition, which numba may emit unused, is not one)."""
    return sum(ir.count("call void @NRT_incref(") for ir in compiled.inspect_llvm().values())


def _buffers(P: int) -> tuple:
    B = 8
    return np.zeros(B, np.uint64), np.zeros(B, np.uint64), np.zeros((P, B), np.uint64), np.zeros((P, B), np.uint64), B


@pytest.mark.slow
def test_range_dealing_loops_hold_no_increfs():
    bit_keys = tables().card_keys[:1].repeat(64)
    alone = plan_deal([parse_query(t) for t in ("AA,KK:0.5", "QQ", "JJ", "random")], [], 0)
    listed = plan_deal([parse_query(t) for t in ("AK:0.5,AQ", "AK,KQ", "AQ,KQ")], [], 0)
    assert alone.bits and alone.alone.size == 3 and not alone.requal[0]     # a weighted range: the alias step
    assert listed.bits and listed.rows.shape[0] > 0 and listed.row_prob.size > 0
    chained = plan_deal([parse_query(t) for t in ("QQ+,AK", "TT+,AQ+", "77+,AT+,KQ", "random")], [], 0)
    assert chained.choice_count.size > 0                                   # the third chosen beside each row
    s0, s1 = np.uint64(1), np.uint64(2)
    f = _fresh(dealing.deal_bits_block)     # one compilation per signature: the plans differ in values, not types
    for plan, P in ((alone, 4), (listed, 3), (chained, 4)):
        bkeys, bsuited, keys, suited, B = _buffers(P)
        lanes = dealing.card_lanes(int(bin(int(plan.live)).count("1")) - 2 * (P - plan.dplayers.size),
                                   5 + 2 * plan.dplayers.size)
        for given, ranks in ((lanes, None), (None, None), (lanes, dealing.rank_bits(plan.live))):
            # the three compilations: every card's index at once, or card by card; ranked at once
            f(B, s0, s1, plan.rplayers, plan.roffsets, plan.alias_prob, plan.alias_idx, plan.requal, plan.ckeys,
              plan.csuited, plan.listed, plan.rows, plan.row_mask, plan.row_prob, plan.row_alias, plan.row_cut,
              plan.row_total, plan.alone, plan.reject, plan.choices, plan.choice_count, plan.live, 5, plan.dplayers,
              np.uint64(0), np.uint64(0), bkeys, bsuited, keys, suited, bit_keys,
              np.zeros((1 + plan.alone.size, B), np.int64), np.zeros((plan.dplayers.size, B), np.uint64),
              np.zeros((plan.dplayers.size, B), np.uint64), given, np.zeros(dealing.LANES, np.uint32), ranks)
    assert len(f.signatures) == 3 and _increfs(f) == 0
