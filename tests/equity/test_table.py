"""Preflop heads-up range equity summed from the matchups table: identical to enumeration."""
import math
import random
import time

import numpy as np
import pytest

from pipeline.core.hand_classes import CLASS_LABELS
from pipeline.equity import equity
from pipeline.equity.matchup_sums import BOARDS, PACKAGED, packaged_table, table_counts
from pipeline.ranges.query import parse_query

pytestmark = pytest.mark.skipif(not PACKAGED.exists(), reason="no packaged matchups table")


def test_packaged_table_is_whole():
    codes, wtl = packaged_table()
    assert len(codes) == 47008 and (wtl.sum(axis=1) == BOARDS).all()


@pytest.mark.parametrize("a, b, pct", [
    ("AA", "KK", 81.9461), ("AKs", "QQ", 46.0485), ("72o", "AA", 11.8004), ("JTs", "AKo", 40.5139),
    ("AA", "random", 85.2037), ("72o", "random", 34.5836), ("32o", "random", 32.3032),   # shared/README.md
])
def test_published_equities_from_the_table(a, b, pct):
    r = equity([a, b])
    assert r.exact and r.source == "table"
    assert round(100 * r.players[0].equity, 4) == pct


def test_counts_match_the_published_matchups():
    r = equity(["AhKh", "QsQd"])
    assert r.source == "table"
    assert (r.players[0].wins, r.players[0].ties, r.players[0].losses) == (787966, 6732, 917606)
    r = equity(["AA", "KK"])
    assert (r.players[0].wins, r.players[0].ties, r.players[0].losses) == (50371344, 285228, 10986372)


def test_fifty_random_range_pairs_identical_to_enumeration():
    rng = random.Random(11)
    for i in range(50):
        hero = ",".join(rng.sample(CLASS_LABELS, rng.randint(1, 2)))
        villain = ",".join(rng.sample(CLASS_LABELS, rng.randint(1, 2)))
        if i % 5 == 4:       # some weighted ranges: the same sums, weighed in another order
            hero += ":0.5"
        a = equity([hero, villain])
        b = equity([hero, villain], exact=True, table=False)
        assert a.source == "table" and b.source == "" and a.boards == b.boards, (hero, villain)
        if i % 5 == 4:
            for p, q in zip(a.players, b.players):
                assert math.isclose(p.equity, q.equity, rel_tol=1e-12)
        else:
            assert a.players == b.players, (hero, villain)


def test_table_is_fast():
    equity(["QQ+,AKs", "JJ,TT,99,88,AQs"])
    t = time.perf_counter()
    r = equity(["QQ+,AKs", "JJ,TT,99,88,AQs"])
    assert r.source == "table" and time.perf_counter() - t < 0.05


def test_no_table_board_dead_or_three_players_enumerate():
    assert equity(["AA", "KK"], table=False).source == ""
    assert equity(["AA", "KK"], board="2c3d4h").source == ""
    assert equity(["AA", "KK"], dead="2c").source == ""
    assert equity(["AA", "KK", "QQ"]).source == ""
    assert equity(["AA", "KK"], trials=1000).source == ""


def test_table_counts_is_a_pure_function_of_its_arrays():
    codes, wtl = packaged_table()
    fake = np.zeros_like(wtl)
    fake[:, 1] = BOARDS          # a table where everything ties
    counts, _, boards, _ = table_counts(parse_query("AA"), parse_query("KK"), codes, fake)
    assert boards == 36 * BOARDS and counts[0, 0] == 0 and counts[0, 1] == boards


def test_a_table_can_be_passed_and_is_checked():
    codes, wtl = packaged_table()
    r = equity(["AKs", "QQ"], table=(codes, wtl))
    assert r.source == "table" and round(100 * r.players[0].equity, 4) == 46.0485
    with pytest.raises(Exception, match="not whole"):
        equity(["AKs", "QQ"], table=(codes[:10], wtl[:10]))


@pytest.mark.slow
def test_cli_names_a_missing_matchups_dataset(tmp_path):
    import os
    import subprocess
    import sys
    env = dict(os.environ, POKERPIPE_MATCHUPS=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "jobs", "equity", "AA", "KK"], capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 2 and "no finished matchups dataset" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    p = subprocess.run([sys.executable, "-m", "jobs", "equity", "AA", "KK", "--no-table"], capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0 and "from the matchups table" not in p.stdout
