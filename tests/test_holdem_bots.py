"""The built-in bots behave as named; the rule bot beats random, station and maniac; runs are reproducible."""
import numpy as np
import pytest

from pipeline.holdem import Table, simulate
from pipeline.holdem.engine import A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE
from pipeline.holdem.record import record


@pytest.fixture(scope="module")
def table_hands():
    t = Table.make(["random", "station", "maniac", "tag", "thesis-preflop", "random"])
    return t, record(t, seed=9, first=0, count=3000)


def test_station_never_folds_and_never_bets(table_hands):
    _, recs = table_hands
    acts = np.concatenate([r.actions[(r.actions[:, 1] == 1) & (r.actions[:, 2] >= A_FOLD)] for r in recs])
    assert set(acts[:, 2].tolist()) <= {A_CHECK, A_CALL}


def test_maniac_raises_whenever_it_may(table_hands):
    _, recs = table_hands
    for r in recs:
        for i, (st, seat, act, _x, _level) in enumerate(r.actions):
            if seat == 2 and act >= A_FOLD:
                assert act in (A_BET, A_RAISE, A_CALL)
                if act == A_CALL:   # only when capped: four bets already in this street
                    bets = sum(1 for a in r.actions[:i] if a[0] == st and a[2] in (A_BET, A_RAISE))
                    assert bets + (1 if st == 0 else 0) == 4


def test_random_uses_every_answer(table_hands):
    _, recs = table_hands
    acts = np.concatenate([r.actions[r.actions[:, 1] == 0] for r in recs])
    assert {A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE} <= set(acts[:, 2].tolist())


@pytest.mark.parametrize("villain", ["random", "station", "maniac"])
def test_tag_beats_the_simple_bots_at_95_percent(villain):
    r = simulate(["tag", villain], hands=20_000, seed=3)
    assert r.seats[0].ci95[0] > 0 and r.seats[1].ci95[1] < 0


def test_statistics_as_named():
    r = simulate(["station", "maniac"], hands=4_000, seed=4)
    st, ma = r.policies["station"], r.policies["maniac"]
    assert st["pfr"] == 0 and st["af"] == 0 and st["wtsd"] == 1.0
    assert ma["vpip"] == ma["pfr"] > 0.99 and ma["af"] > 5


def test_deterministic_and_independent_of_partitions():
    a = simulate(["tag", "random", "maniac"], hands=3_000, seed=8)
    b = simulate(["tag", "random", "maniac"], hands=3_000, seed=8, partition_deals=97)
    c = simulate(["tag", "random", "maniac"], hands=3_000, seed=9)
    assert a.units_won.tolist() == b.units_won.tolist() and a.policies == b.policies
    assert a.units_won.tolist() != c.units_won.tolist()
    assert int(a.units_won.sum()) == 0                       # no rake: what one seat wins another loses


def test_duplicate_gives_each_position_the_same_cards():
    recs = record(Table.make(["station"] * 3), seed=2, first=0, count=3)
    for k in range(3):                                       # the p-th seat left of the button keeps its cards
        for p in range(3):
            assert (recs[k].holes[(recs[k].button + p) % 3] == recs[0].holes[(recs[0].button + p) % 3]).all()
    assert (recs[1].board == recs[0].board).all()


def test_same_result_on_two_dask_workers():
    from pipeline.runner import Session
    local = simulate(["tag", "maniac", "random"], hands=6_000, seed=21)
    with Session(2, None, quiet=True) as session:
        spread = simulate(["tag", "maniac", "random"], hands=6_000, seed=21, session=session, partition_deals=300)
    assert spread.units_won.tolist() == local.units_won.tolist() and spread.policies == local.policies
    assert [s.stderr for s in spread.seats] == [s.stderr for s in local.seats]
