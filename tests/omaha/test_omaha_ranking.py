"""The hand rankings behind ``15%``: the simulation kernel against an independent Monte Carlo, and the shipped
rankings' shape and percentages."""
import math
from math import comb

import numpy as np
import pytest

from pipeline import CardError
from pipeline.core.cards import format_cards
from pipeline.omaha.equity import omaha_equity
from pipeline.omaha.ranking import CHIP, OTHERS, chips_block, class_hands
from pipeline.omaha.tables import omaha_tables
from pipeline.ranges.omaha import parse_omaha_range
from pipeline.ranges.omaha_ranking import class_index, rankings


@pytest.mark.slow
@pytest.mark.parametrize("k, good, hilo", [(4, True, False), (4, False, False), (4, False, True), (5, True, False)])
def test_a_pot_of_the_procedure_is_worth_its_equity(k, good, hilo):
    """Every opponent good: the hand plays a full table, its chips are the pot (one chip a player) times its
    equity against that many random hands; none good: against the blind alone.  The equity comes from
    omaha_equity's Monte Carlo, another kernel."""
    hands, cls = class_hands(k)
    i = len(hands) - 7                          # a strong class: trips of aces
    binom = np.array([[math.comb(n, r) for r in range(k + 1)] for n in range(52)], np.int64)
    units = np.zeros(len(hands), np.int64)
    others = OTHERS[k, False]
    trials = 20_000
    chips_block(hands, i, i + 1, trials, 1, 0, np.full(len(hands), good), cls, binom, others, hilo, omaha_tables(),
                units)
    players = 2 + others if good else 2
    e = units[i] / (CHIP * trials) / players
    game = ("omaha" if k == 4 else "omaha5") + ("-hilo" if hilo else "")
    ref = omaha_equity([format_cards(hands[i].tolist())] + ["random"] * (players - 1), game=game, trials=100_000,
                       seed=9).players[0]
    assert abs(e - ref.equity) < 4 * math.sqrt(e * (1 - e) / trials + ref.stderr ** 2), (e, ref.equity)


@pytest.mark.parametrize("name", sorted(rankings()))
def test_each_shipped_ranking_orders_every_class_once(name):
    k = 5 if name.startswith("omaha5") else 4
    order = rankings()[name]
    assert np.array_equal(np.sort(order), np.arange(len(class_index(k)[0])))


def test_percentages_count_hands():
    n = comb(52, 4)
    top = {p: set(map(int, parse_omaha_range(f"{p}%").masks)) for p in (4, 10, 15, 20)}
    assert 0.15 * n <= len(top[15]) < 0.15 * n + 24               # a class straddling the cut is in
    assert top[4] < top[10] < top[15] < top[20]
    assert set(map(int, parse_omaha_range("5%-10%").masks)) == top[10] - top[4]    # percentiles 5 through 10
    assert len(parse_omaha_range("1%-100%")) == n                 # PPT: "1%-100% - All hands"
    assert set(map(int, parse_omaha_range("1%-10%").masks)) == top[10]
    best = set(map(int, parse_omaha_range("AAKKds").masks))
    assert best <= top[4] and not best & set(map(int, parse_omaha_range("40%-100%").masks))
    assert set(map(int, parse_omaha_range("15%6h").masks)) != top[15]
    assert set(map(int, parse_omaha_range("15%", hilo=True).masks)) != top[15]
    low = set(map(int, parse_omaha_range("AA23ds").masks))
    assert low <= set(map(int, parse_omaha_range("2%", hilo=True).masks))


def test_no_ranking_is_one_line():
    with pytest.raises(CardError, match="no hand ranking for omaha6"):
        parse_omaha_range("15%", 6)
