"""The one equity formula, against exact rationals from published counts (shared/README.md)."""
from fractions import Fraction

import numpy as np

from pipeline.equity.scoring import SHARE_UNIT, equity_fraction


def test_heads_up_and_share_unit_forms_agree_with_the_rational():
    wins, ties, losses = 787_966, 6_732, 917_606          # AhKh vs QsQd over all 1,712,304 boards
    boards = wins + ties + losses
    exact = float(Fraction(2 * wins + ties, 2 * boards))
    assert equity_fraction(wins, ties, boards, unit=2) == exact
    assert equity_fraction(wins, ties * (SHARE_UNIT // 2), boards) == exact
    assert round(100 * exact, 4) == 46.2145


def test_three_way_split_in_share_units():
    # one win and one three-way tie in 2 boards: equity (1 + 1/3) / 2 = 2/3
    assert equity_fraction(1, SHARE_UNIT // 3, 2) == float(Fraction(2, 3))


def test_arrays_match_elementwise_rationals():
    rng = np.random.default_rng(3)
    w = rng.integers(0, 10**9, 1000)
    t = rng.integers(0, 10**9, 1000)
    n = w + t + rng.integers(1, 10**9, 1000)
    got = equity_fraction(w, t, n, unit=2)
    assert got.tolist() == [float(Fraction(2 * a + b, 2 * c)) for a, b, c in zip(w.tolist(), t.tolist(), n.tolist())]
