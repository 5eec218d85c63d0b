"""Hand strength against an opponent range: the random opponent as a range, one-combo ranges
against exact equity, and weights against a plain weighted count."""
import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from oracles.reference import best_hand

from pipeline.core.cards import CardError, parse_cards
from pipeline.equity import equity
from pipeline.ranges.syntax import Range
from pipeline.strength.hand_strength import hand_strength
from pipeline.strength.vs_range import hand_strength_vs

ALL = np.array([(a, b) for a in range(52) for b in range(a)], np.int64)
SPOTS = [("AdQc", "3h4cJh"), ("9h8h", "7h6c2h5d"), ("KsKd", "Ah7c2d9s3h")]


@pytest.mark.parametrize("hole, board", SPOTS)
def test_every_combo_weight_one_is_the_random_opponent(hole, board):
    """All 1326 combos with weight 1 (those touching the cards drop out) give today's counts and
    ratios to the last digit."""
    want = hand_strength(hole, board)
    got = hand_strength_vs(hole, board, Range("all", ALL, np.ones(len(ALL))))
    assert (got.ahead, got.tied, got.behind) == (want.ahead, want.tied, want.behind)
    assert got.potential == want.potential
    assert (got.hs, got.ppot, got.npot, got.ehs) == (want.hs, want.ppot, want.npot, want.ehs)
    half = hand_strength_vs(hole, board, Range("all", ALL, np.full(len(ALL), 0.5)))
    assert half.ahead == Fraction(want.ahead, 2) and half.potential[2][0] == Fraction(want.potential[2][0], 2)
    assert half.ehs == pytest.approx(want.ehs, abs=1e-15)


@pytest.mark.parametrize("hole, board, combo", [("AdQc", "3h4cJh", "KsKh"), ("9h8h", "7h6c2h5d", "AhAs"),
                                                ("KsKd", "Ah7c2d9s3h", "Ac2c")])
def test_one_combo_range_is_equity(hole, board, combo):
    """Against one known hand the potential table's column sums are the runouts won, tied and lost:
    the same integers as ``pokerpipe equity HOLE COMBO --board`` (exact)."""
    r = hand_strength_vs(hole, board, combo)
    e = equity([hole, combo], board=board, exact=True).players[0]
    won, tied, lost = (sum(row[k] for row in r.potential) for k in range(3))
    if len(parse_cards(board)) == 5:
        won, tied, lost = r.ahead, r.tied, r.behind
    assert (won, tied, lost) == (e.wins, e.ties, e.losses)
    assert float(Fraction(2 * won + tied, 2 * (won + tied + lost))) == pytest.approx(e.equity, abs=1e-12)


def test_weighted_river_against_a_plain_count():
    """On the river, HS against ``QQ+,AK:0.5`` is a weighted count: every combo of the range written out
    here, scored with the plain evaluator of tests/reference.py."""
    hole, board = parse_cards("AdQc"), parse_cards("Ah7c2d9s3h")
    mine = best_hand(hole + board)
    ranks = "23456789TJQKA"
    combos = [(a, b, 1) for r in "QKA" for a in range(52) for b in range(a) if a // 4 == b // 4 == ranks.index(r)]
    combos += [(a, b, Fraction(1, 2)) for a in range(52) for b in range(52)
               if a // 4 == 12 and b // 4 == 11]
    want = [Fraction(0)] * 3
    for a, b, w in combos:
        if {a, b} & set(hole + board):
            continue
        theirs = best_hand([a, b] + board)
        want[0 if mine > theirs else 1 if mine == theirs else 2] += w
    r = hand_strength_vs("AdQc", "Ah7c2d9s3h", "QQ+,AK:0.5")
    assert [r.ahead, r.tied, r.behind] == want
    assert r.hs == float((want[0] + want[1] / 2) / sum(want))


def test_no_combo_left_and_bad_query():
    with pytest.raises(CardError, match="no combo"):
        hand_strength_vs("AdAh", "AcAs2d", "AA")
    with pytest.raises(CardError, match="column"):
        hand_strength_vs("AdQc", "3h4cJh", "Pair Or Or")


@pytest.mark.slow
def test_cli_vs_json_and_errors():
    run = [sys.executable, "-m", "jobs", "ehs", "AdQc", "--board", "3h4cJh"]
    p = subprocess.run(run + ["--vs", "QQ+,AK:0.3", "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert "exact" in doc and "/" in doc["exact"]["behind"]
    for bad in ("AdAh", "Pair And", "Group9"):
        p = subprocess.run(run + ["--vs", bad], capture_output=True, text=True, timeout=300)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, (bad, p.stderr)
