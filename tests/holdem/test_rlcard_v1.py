"""``rlcard-v1`` answers exactly as rlcard's own ``LimitholdemRuleAgentV1`` (the peer is the oracle).

Every one of the 1,326 holdings is asked on random boards of every street and
in every betting state that matters to the agent (facing a bet or not, allowed
to raise or not); rlcard's answer, a string under rlcard's legal actions, is
read as pokerpipe's (``check`` and ``call`` are both pokerpipe's ``CALL``).
"""
import numpy as np
import pytest

from pipeline.holdem.policies import CALL, FOLD, KINDS, RAISE
from pipeline.holdem.rlcard_v1 import rlcard_v1
from pipeline.holdem.simulate import simulate

rule_models = pytest.importorskip("rlcard.models.limitholdem_rule_models")

RANKS = "23456789TJQKA"
SUITS = "CDHS"                   # rlcard's suit letters, in pokerpipe's suit order c, d, h, s
OURS = {"fold": FOLD, "check": CALL, "call": CALL, "raise": RAISE}


def rlcard_text(card: int) -> str:
    return SUITS[card & 3] + RANKS[card >> 2]


def rlcard_legal(facing: bool, can_raise: bool) -> list[str]:
    """rlcard's limit hold'em legal actions (``LimitHoldemRound.get_legal_actions``): fold is always legal."""
    return (["raise"] if can_raise else []) + (["call"] if facing else ["check"]) + ["fold"]


def test_every_holding_on_random_boards_answers_as_rlcards_agent():
    agent = rule_models.LimitholdemRuleAgentV1()
    rng = np.random.default_rng(20261202)
    asked = 0
    differ = []
    for m in (0, 3, 4, 5):
        for _ in range(12 if m else 1):
            board = rng.choice(52, 5, replace=False).astype(np.int64)
            board_text = [rlcard_text(int(c)) for c in board[:m]]
            for h1 in range(52):
                for h0 in range(h1):
                    if h0 in board[:m] or h1 in board[:m]:
                        continue
                    hand = [rlcard_text(h1), rlcard_text(h0)] if (h0 + h1) % 2 else [rlcard_text(h0), rlcard_text(h1)]
                    for facing in (False, True):
                        for can_raise in (False, True):
                            state = {"raw_legal_actions": rlcard_legal(facing, can_raise),
                                     "raw_obs": {"hand": hand, "public_cards": board_text}}
                            want = OURS[agent.step(state)]
                            got = rlcard_v1(h0, h1, board, m, facing, can_raise)
                            asked += 1
                            if got != want:
                                differ.append((hand, board_text, facing, can_raise, want, got))
    assert asked > 150_000 and not differ, differ[:5]


def test_the_low_board_rule_and_the_free_fold():
    """Hand-picked answers read off rlcard's source: KQ checks a flop of fives and lower and folds the turn;
    a call with nothing to call bets; a weak hand folds preflop even where checking is free (the kernels then
    check, as for every policy)."""
    c = {f"{r}{s}": 4 * RANKS.index(r) + "cdhs".index(s) for r in RANKS for s in "cdhs"}
    low = np.array([c["5c"], c["3d"], c["2h"], c["4s"], c["Ah"]], np.int64)
    assert rlcard_v1(c["Kd"], c["Qh"], low, 3, False, True) == CALL       # 'check'
    assert rlcard_v1(c["Kd"], c["Qh"], low, 3, True, True) == FOLD        # 'check' facing a bet: fold
    assert rlcard_v1(c["Kd"], c["Qh"], low, 4, False, True) == FOLD       # 'fold' on the turn
    assert rlcard_v1(c["7d"], c["2c"], low, 5, False, True) == RAISE      # the ace came: 'call', nothing to call
    assert rlcard_v1(c["7d"], c["2c"], low, 0, False, True) == FOLD       # preflop fold, even when free


def test_the_kind_plays_at_a_table_against_fold():
    """Against ``fold`` the agent wins the big blind's half in the big blind, and on the button raises its
    270 raising holdings (78 pairs, 64 A-T+, 32 suited A9-A2, 96 of KQ, KJ, KT, QJ, QT, JT: counted off rlcard's
    source) for +1 and folds the rest for -0.5: 100 * (0.5 * 0.5 + 0.5 * (p - 0.5 * (1 - p))) = 75 p BB/100."""
    assert "rlcard-v1" in KINDS
    r = simulate(["rlcard-v1", "fold"], hands=40_000, seed=3)
    agent = r.seats[0]
    assert agent.policy == "rlcard-v1"
    assert abs(agent.bb_per_100 - 75 * 270 / 1326) < 4 * agent.stderr + 1e-9, agent
