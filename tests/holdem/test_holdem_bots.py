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


def test_maniac_aggression_factor_is_infinite():
    # maniacs cap every street between them; a call the cap forces on a raiser is not a call the player chose
    r = simulate(["maniac", "maniac", "station"], hands=600, seed=5)
    assert r.policies["maniac"]["af"] == float("inf")


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


@pytest.mark.slow
def test_same_result_on_two_dask_workers():
    from pipeline.batch.session import Session
    local = simulate(["tag", "maniac", "random"], hands=6_000, seed=21)
    with Session(2, None, quiet=True) as session:
        spread = simulate(["tag", "maniac", "random"], hands=6_000, seed=21, executor=session.executor("hands"),
                          partition_deals=300)
    assert spread.units_won.tolist() == local.units_won.tolist() and spread.policies == local.policies
    assert [s.stderr for s in spread.seats] == [s.stderr for s in local.seats]


def _obs(street=0, raises=0, pos_class=0, to_call=1.0, players=6, weight=0.0, pot=1.5, can_raise=1.0):
    from pipeline.holdem import policies as P
    o = np.zeros(len(P.OBS_FIELDS))
    o[P.O_STREET], o[P.O_RAISES], o[P.O_POS_CLASS], o[P.O_TO_CALL] = street, raises, pos_class, to_call
    o[P.O_PLAYERS], o[P.O_WEIGHT], o[P.O_POT], o[P.O_CAN_RAISE] = players, weight, pot, can_raise
    o[P.O_POT_ODDS] = to_call / (pot + to_call)
    return o


@pytest.mark.parametrize("label, pos, raises, to_call, answer", [
    ("AA", "early", 0, 1.0, "raise"), ("AA", "early", 3, 3.0, "raise"),     # group 1 re-raises anything
    ("KQo", "early", 0, 1.0, "call"), ("KQo", "middle", 0, 1.0, "raise"),  # group 4: limps early, raises later
    ("KJo", "early", 0, 1.0, "fold"),                                          # group 5: too weak early
    ("A5s", "late", 0, 1.0, "raise"), ("A5s", "early", 1, 2.0, "fold"),    # group 5
    ("72o", "late", 0, 1.0, "fold"), ("72o", "big blind", 0, 0.0, "call"),  # unlisted: checks his option
    ("JTs", "big blind", 1, 1.0, "call"), ("TT", "small blind", 2, 2.5, "call"),
])
def test_thesis_preflop_table(label, pos, raises, to_call, answer):
    from pipeline.core.hand_classes import CLASS_INDEX
    from pipeline.holdem import policies as P
    groups = P.group_of_class()
    pc = {"early": P.EARLY, "middle": P.MIDDLE, "late": P.LATE, "small blind": P.SMALL_BLIND,
          "big blind": P.BIG_BLIND}[pos]
    got = P.decide(P.THESIS_PREFLOP, P.default_params(P.THESIS_PREFLOP), _obs(0, raises, pc, to_call),
                   groups[CLASS_INDEX[label]], np.zeros(1, np.uint64))
    assert ("fold", "call", "raise")[int(got)] == answer


def test_groups_of_the_query_language():
    from pipeline.core.hand_classes import CLASS_INDEX
    from pipeline.holdem.policies import group_of_class
    g = group_of_class()
    # Sklansky & Malmuth's table as pipeline.ranges.query.GROUPS writes it
    hands = ("AA", "AKs", "AKo", "TT", "A9s", "22", "K9o", "72o")
    assert [g[CLASS_INDEX[x]] for x in hands] == [1, 1, 2, 2, 5, 7, 8, 9]


def test_thesis_preflop_keeps_the_weight_thresholds_after_the_flop():
    """thesis-preflop plays the hand-weight thresholds after the flop (tag's rule before issue 40)."""
    from pipeline.holdem import policies as P
    p = P.default_params(P.THESIS_PREFLOP)
    rng = np.zeros(1, np.uint64)
    # heads-up on the river: s = 2w; raise at s >= 1.7, call at s >= 1.2 or w >= pot odds
    assert P.decide(P.THESIS_PREFLOP, p, _obs(3, 0, 0, 2.0, 2, 0.90, 10.0), 9, rng) == P.RAISE
    assert P.decide(P.THESIS_PREFLOP, p, _obs(3, 0, 0, 2.0, 2, 0.62, 10.0), 9, rng) == P.CALL
    assert P.decide(P.THESIS_PREFLOP, p, _obs(3, 0, 0, 2.0, 2, 0.20, 10.0), 9, rng) == P.CALL    # 0.20 >= 2/12
    assert P.decide(P.THESIS_PREFLOP, p, _obs(3, 0, 0, 2.0, 2, 0.10, 10.0), 9, rng) == P.FOLD
    assert P.decide(P.THESIS_PREFLOP, p, _obs(3, 0, 0, 0.0, 2, 0.10, 10.0), 9, rng) == P.CALL    # checks, never folds


def _tag(obs):
    from pipeline.holdem import policies as P
    obs[P.O_SEATS] = obs[P.O_PLAYERS]
    return ("fold", "call", "raise")[int(P.decide(P.TAG, P.default_params(P.TAG), obs, 9, np.zeros(1, np.uint64)))]


@pytest.mark.parametrize("label, players, pos, raises, to_call, answer", [
    # heads-up (docs/holdem.md): the button opens 66% of hands by raising, the big blind defends 60% of them
    ("K7o", 2, "late", 0, 0.5, "raise"), ("T4o", 2, "late", 0, 0.5, "fold"), ("72o", 2, "late", 0, 0.5, "fold"),
    ("Q8o", 2, "big blind", 1, 1.0, "call"), ("AJs", 2, "big blind", 1, 1.0, "raise"),
    ("85o", 2, "big blind", 1, 1.0, "fold"), ("85o", 2, "big blind", 0, 0.0, "call"),   # checks a limp
    # nine-handed: early opens about the top 11%, late about 30%; neither limps
    ("AJo", 9, "early", 0, 1.0, "raise"), ("KJo", 9, "early", 0, 1.0, "fold"), ("KJo", 9, "late", 0, 1.0, "raise"),
    ("J9o", 9, "late", 0, 1.0, "fold"), ("AA", 9, "early", 2, 3.0, "raise"),
])
def test_tag_preflop_raises_or_folds_by_seat(label, players, pos, raises, to_call, answer):
    from pipeline.core.hand_classes import CLASS_INDEX
    from pipeline.holdem import policies as P
    from pipeline.holdem.weights import preflop_table
    pc = {"early": P.EARLY, "late": P.LATE, "big blind": P.BIG_BLIND}[pos]
    w = preflop_table()[CLASS_INDEX[label], players - 1]
    assert _tag(_obs(0, raises, pc, to_call, players, w)) == answer


def test_tag_after_the_flop_bets_raises_calls_or_folds():
    # heads-up on the river, s = 2w: bets at s >= 1.1, raises a bet at s >= 1.5, calls at s >= 0.9 with the odds
    assert _tag(_obs(3, 0, 0, 0.0, 2, 0.56, 10.0)) == "raise"      # checked to: bets
    assert _tag(_obs(3, 0, 0, 0.0, 2, 0.50, 10.0)) == "call"       # checks
    assert _tag(_obs(3, 1, 0, 2.0, 2, 0.76, 10.0)) == "raise"
    assert _tag(_obs(3, 1, 0, 2.0, 2, 0.62, 10.0)) == "call"
    assert _tag(_obs(3, 1, 0, 2.0, 2, 0.40, 10.0)) == "fold"       # above the pot odds, below the call threshold
    assert _tag(_obs(3, 1, 0, 10.0, 2, 0.46, 2.0)) == "fold"       # above the threshold, below the odds (10/12)


# Tight-aggressive as the poker literature measures it (docs/holdem.md, "tag"): full ring VPIP 10-20%, six-max
# 15-25%, heads-up wider (40-70%: the button opens two hands in three); PFR most of VPIP; AF at least 2.
BANDS = {2: (0.40, 0.70), 6: (0.15, 0.25), 9: (0.10, 0.20)}


@pytest.mark.parametrize("seats", [2, 6, 9])
@pytest.mark.parametrize("others", ["random", "tag"])
def test_tag_plays_tight_aggressive(seats, others):
    r = simulate(["tag"] + [others] * (seats - 1), hands=30_000, seed=5)
    st = r.policies["tag"]
    lo, hi = BANDS[seats]
    assert lo <= st["vpip"] <= hi, st
    assert st["pfr"] >= 0.6 * st["vpip"], st
    assert 2.0 <= st["af"] <= 5.0, st
