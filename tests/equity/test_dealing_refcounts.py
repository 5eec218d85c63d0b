"""The Monte Carlo dealing loops compile without reference counting inside them.

An inlined numba helper that takes arrays and branches makes numba keep an
``NRT_incref``/``NRT_decref`` pair per call in the loop that calls it: an atomic
add each, which halved the trials a second of AA vs KK vs QQ vs three random hands
once (``equity.dealing.alias_step`` takes no arrays for that reason).  Each loop is
compiled afresh here (the cached copies carry no LLVM text) and its IR searched.
"""
import numpy as np
from numba import njit

from pipeline.equity import dealing
from pipeline.equity.plan import plan_deal
from pipeline.evaluator.tables import tables
from pipeline.ranges.query import parse_query


def _fresh(kernel):
    return njit(nogil=True)(kernel.py_func)


def _increfs(compiled) -> int:
    return sum(ir.count("@NRT_incref(") for ir in compiled.inspect_llvm().values())


def _buffers(P: int) -> tuple:
    B = 8
    return (np.zeros(B, np.uint64), np.zeros((B, 5), np.uint8), np.zeros((P, B), np.uint64),
            np.zeros((P, B, 2), np.uint8), B)


def test_range_dealing_loops_hold_no_increfs():
    card_keys = tables().card_keys
    drawn = plan_deal([parse_query(t) for t in ("AA", "KK", "QQ", "random")], [], 0)
    joint = plan_deal([parse_query(t) for t in ("AK:0.5,AQ", "AK,KQ", "AQ,KQ")], [], 0)
    assert len(drawn.rplayers) == 3 and not drawn.weighted and drawn.joint.shape[0] == 0
    assert joint.joint.shape[0] > 0 and joint.joint_prob.size > 0       # a weighted list: the alias step runs
    s0, s1 = np.uint64(1), np.uint64(2)

    f = _fresh(dealing.deal_drawn_block)
    bkeys, bcards, keys, hole, B = _buffers(4)
    f(B, s0, s1, drawn.rplayers, drawn.roffsets, drawn.rcombos, drawn.rmasks, drawn.alias_prob, drawn.alias_idx,
      drawn.requal, drawn.base_used, drawn.deck.copy(), 5, drawn.dplayers, np.uint64(0), bkeys, bcards, keys, hole,
      np.zeros(3, np.int64), card_keys)
    assert _increfs(f) == 0

    g = _fresh(dealing.deal_joint_block)
    bkeys, bcards, keys, hole, B = _buffers(3)
    g(B, s0, s1, joint.joint, joint.joint_mask, joint.joint_prob, joint.joint_alias, joint.rplayers, joint.rcombos,
      joint.base_used, joint.deck.copy(), 5, joint.dplayers, np.uint64(0), bkeys, bcards, keys, hole, card_keys)
    assert _increfs(g) == 0

