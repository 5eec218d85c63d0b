"""Monte Carlo equity: the sampler's law against exact enumeration, reproducibility, stopping rules."""
import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from numba import njit

from pipeline import CardError, parse_cards
from pipeline.core.cards import mask_of
from pipeline.core.rng import below, below16, below_pair, chunk_state
from pipeline.equity import equity
from pipeline.equity.plan import alias_table, plan_deal
from pipeline.ranges.query import parse_query


def assert_within(mc, ex, k=4.0):
    for p, q in zip(mc.players, ex.players):
        if p.stderr == 0:       # a drawing-dead hand: no variance, no error
            assert p.equity == q.equity
            continue
        assert abs(p.equity - q.equity) < k * p.stderr, (p.range, p.equity, q.equity, p.stderr)


def test_overlapping_ranges_converge_to_exact():
    """Every pair of these ranges shares cards, so the sampler redraws blocked players and
    weighs trials (importance weights); 10**7 trials land within 4 standard errors."""
    hands = ["AK,AQ", "AK,KQ", "AQ,KQ"]
    ex = equity(hands, exact=True)
    mc = equity(hands, trials=10_000_000, seed=11)
    assert ex.exact and not mc.exact and mc.trials == 10_000_000
    assert max(p.stderr for p in mc.players) < 2.5e-4
    assert_within(mc, ex)
    assert math.isclose(sum(p.equity for p in mc.players), 1.0)


def test_weighted_overlapping_ranges_on_a_flop():
    hands = ["AK:0.3,AQ", "AK,KQ:0.5", "AQ,KQ,JJ:0.2"]
    ex = equity(hands, board="2c7d9h", exact=True)
    mc = equity(hands, board="2c7d9h", trials=1_000_000, seed=4)
    assert_within(mc, ex)


def test_ten_players_on_a_turn_match_exact_enumeration():
    hands = ["AhKd", "QcTc", "8s8h", "6d5d", "3s3c", "TdTh", "4c4d", "QQ+,AK", "AK,KQ,JJ", "random"]
    ex = equity(hands, board="2c7d9hJs", exact=True)
    mc = equity(hands, board="2c7d9hJs", trials=1_000_000, seed=2)
    assert len(mc.players) == 10
    assert_within(mc, ex)


@pytest.mark.parametrize("hands, board, pct", [
    (["AA", "random"], "", 85.2037),       # /work/shared/README.md: vs one random hand
    (["72o", "random"], "", 34.5836),
    (["AA", "KK"], "", 81.9461),
    (["JTs", "AKo"], "", 40.5139),
])
def test_published_equities(hands, board, pct):
    r = equity(hands, board=board, trials=1_000_000, seed=9)
    assert abs(100 * r.players[0].equity - pct) < 4 * 100 * r.players[0].stderr


def test_same_result_whatever_the_threads_or_executor():
    for hands in (["AhKh", "random", "random"], ["AK,AQ", "AK,KQ", "AQ,KQ"]):
        a = equity(hands, trials=300_000, seed=5, threads=1)
        b = equity(hands, trials=300_000, seed=5, threads=2)
        with ThreadPoolExecutor(3) as pool:
            c = equity(hands, trials=300_000, seed=5, executor=pool, threads=3)
        assert a == b == c
        assert equity(hands, trials=300_000, seed=6, threads=1) != a


def test_one_trial_has_no_standard_error():
    """A sample of one trial has no spread to tell its error: NaN, where the library gave 0.0 (an error of
    nothing, which a caller's stopping rule or interval would believe); two trials give a number."""
    from pipeline.omaha.equity import omaha_equity

    for weighted in (False, True):
        hands = ["22+,A2+,K2+,Q2+"] * 3 if weighted else ["AhKh", "QsQd"]        # importance weights, or none
        one = equity(hands, trials=1, seed=3, threads=1)
        assert one.trials == 1 and math.isnan(one.stderr) and all(math.isnan(p.stderr) for p in one.players)
        assert sum(p.equity for p in one.players) == pytest.approx(1.0)      # the trial itself still counts
    two = equity(["AhKh", "QsQd"], trials=2, seed=3, threads=1)
    assert two.trials == 2 and math.isfinite(two.stderr)
    om = omaha_equity(["AsKsQdJd", "random"], trials=1, seed=3, threads=1)
    assert om.trials == 1 and math.isnan(om.stderr) and all(math.isnan(p.stderr) for p in om.players)


def test_stderr_target_stops_reproducibly():
    a = equity(["AKs", "QQ"], stderr=0.002, seed=1, threads=1)
    b = equity(["AKs", "QQ"], stderr=0.002, seed=1, threads=2)
    assert a == b and a.stopped == "stderr"
    assert a.stderr <= 0.002 and a.trials < 1_000_000
    assert abs(a.players[0].equity - 0.460485) < 4 * a.players[0].stderr


def test_time_budget_stops():
    t = time.monotonic()
    r = equity(["AhKh", "random", "random", "random"], seconds=0.3, seed=1)
    assert r.stopped == "time" and r.trials > 0
    assert time.monotonic() - t < 5


def test_trials_cap_the_adaptive_run():
    r = equity(["AhKh", "QsQd"], trials=70_000, stderr=1e-6, seed=1)
    assert r.trials == 70_000 and r.stopped == "trials"


@pytest.mark.parametrize("kwargs, words", [
    ({"stderr": 0.0}, "stderr target"),
    ({"stderr": -1.0}, "stderr target"),
    ({"seconds": -1.0}, "time budget"),
    ({"seconds": float("inf")}, "time budget"),
    ({"seed": -1}, "seed"),
    ({"trials": 10**16}, "beyond reason"),
    ({"stderr": 0.01, "exact": True}, "not both"),
])
def test_bad_budgets(kwargs, words):
    with pytest.raises(CardError, match=words):
        equity(["AhKh", "QsQd"], **kwargs)


def test_impossible_deal_is_refused_in_every_mode():
    dead = "2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9sTcTdThTsJcJdJhJsQcQhKcKd"
    for kwargs in ({}, {"trials": 1}, {"exact": True}, {"stderr": 0.01}):
        with pytest.raises(CardError, match="impossible deal"):
            equity(["AhKh", "QsQd"], dead=dead, **kwargs)


def test_deal_plan_groups_players():
    ranges = [parse_query(t) for t in ("AhKh", "QQ", "random", "AK,KJ")]
    ranges = [r.without(0) for r in ranges]
    plan = plan_deal(ranges, [], 0)
    assert plan.dplayers.tolist() == [2] and plan.rplayers.tolist() == [1, 3]
    assert plan.weighted is False      # QQ and AK,KJ never share a card once AhKh is out
    assert plan.deck.size == 50
    assert plan.bits and plan.rows.shape[0] == 0 and plan.alone.tolist() == [0, 1]   # each from his own table
    plan = plan_deal([parse_query(t) for t in ("AK", "KQ")], [], 0)   # colliding ranges: drawn jointly
    assert plan.weighted is False and len(plan.rows) == 16 * 16 - 16 * 4 and plan.row_prob.size == 0
    big = "22+,A2+,K2+,Q2+"                 # 3 x 570 combos: too many assignments to list, importance weights
    plan = plan_deal([parse_query(big), parse_query(big), parse_query(big)], [], 0)
    assert plan.weighted is True and not plan.bits and len(plan.rows) == 0


def test_joint_draws_follow_the_weights():
    """AA:0.5,KK vs KK,QQ:0.3: drawn as one assignment by its weight product; the frequencies of the
    first player's classes match the exact weighted counts of the assignments."""
    from pipeline.equity.plan import alias_arrays

    plan = plan_deal([parse_query("AA:0.5,KK"), parse_query("KK,QQ:0.3")], [], 0)
    assert len(plan.rows) and plan.row_prob.size == len(plan.rows)
    w = np.prod(plan.rweights[plan.rows], axis=1)
    prob, alias = alias_arrays(w)
    p = prob.copy()                         # each row's chance under the alias table, times n
    for j, a in enumerate(alias):
        p[a] += 1.0 - prob[j]
    assert np.allclose(p / len(w), w / w.sum())


def test_alias_table_reproduces_the_weights():
    w = np.array([0.5, 1.0, 0.25, 0.0, 2.25])
    prob, alias = alias_table(w)
    # probability of each outcome: (prob[i] + sum of (1 - prob[j]) over j aliased to i) / n
    p = prob.copy()
    for j, a in enumerate(alias):
        p[a] += 1.0 - prob[j]
    assert np.allclose(p / len(w), w / w.sum())


@njit
def _histogram(n, draws):
    s0, s1 = chunk_state(3, 0)
    h = np.zeros(n, np.int64)
    for _ in range(draws):
        s0, s1, k = below(s0, s1, n)
        h[k] += 1
    return h


def test_bounded_draws_are_uniform():
    h = _histogram(48, 480_000)
    expected = 10_000
    chi2 = float(((h - expected) ** 2 / expected).sum())
    assert chi2 < 100      # 47 degrees of freedom: p < 1e-5 above 100


def test_win_odds_takes_an_executor_and_refuses_negative_seeds():
    from pipeline.strength.win_odds import win_odds
    a = win_odds("AdQc", "", max_opponents=3, trials=70_000, seed=3)
    with ThreadPoolExecutor(2) as pool:
        b = win_odds("AdQc", "", max_opponents=3, trials=70_000, seed=3, executor=pool)
    assert a == b
    assert abs(a["opponents"][0]["equity"] - equity(["AdQc", "random"]).players[0].equity) \
        < 4 * a["opponents"][0]["stderr"]
    with pytest.raises(CardError, match="seed"):
        win_odds("AdQc", "", seed=-1)


def test_memory_stays_flat_whatever_the_trial_count():
    """Issue 10: no per-trial or per-chunk arrays kept; ten times the trials, the same peak."""
    import tracemalloc

    def peak(trials):
        tracemalloc.start()
        equity(["AhKh", "random", "random"], trials=trials, seed=1, threads=2)
        got = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return got

    peak(70_000)
    small, large = peak(400_000), peak(4_000_000)
    assert large < 2 * small + 200_000, (small, large)


def test_vs_random_rows_are_a_pure_function_of_each_hand():
    """Same rows however the hands are split into partitions (and so whatever --workers)."""
    import pyarrow as pa

    from pipeline.datasets.recipes.vs_random import vs_random_mc_rows
    whole = vs_random_mc_rows(3, [0, 1, 2, 3], 20_000, 7)
    parts = pa.concat_tables([vs_random_mc_rows(3, [0, 1], 20_000, 7), vs_random_mc_rows(3, [2, 3], 20_000, 7)])
    assert whole.equals(parts)
    aa = whole.to_pandas().set_index("hand").loc["AA"]
    assert abs(aa.equity - 0.6387) < 4 * aa.stderr     # AA vs 3 random hands: the reference test below


def _reference_vs_random(hero, k, n, seed):
    """Plain numpy Monte Carlo: shuffle the deck per trial, evaluate every 7-card hand with the
    batch evaluator, split ties: an independent check of the kernel's deal and showdown."""
    from pipeline.evaluator import evaluate
    rng = np.random.default_rng(seed)
    deck = np.array([c for c in range(52) if c not in hero], np.int64)
    cards = deck[np.argsort(rng.random((n, len(deck))), axis=1)[:, :5 + 2 * k]]
    board = cards[:, :5]
    v = np.stack([evaluate(np.concatenate([board, np.tile(hero, (n, 1))], axis=1), check=False)]
                 + [evaluate(np.concatenate([board, cards[:, 5 + 2 * j:7 + 2 * j]], axis=1), check=False)
                    for j in range(k)], axis=1)
    best = v.max(axis=1)
    x = np.where(v[:, 0] == best, 1.0 / (v == best[:, None]).sum(axis=1), 0.0)
    return x.mean(), x.std() / np.sqrt(n)


@pytest.mark.parametrize("k", [3, 6])
def test_deck_players_match_a_plain_numpy_reference(k):
    """AsAh, and AA (one suit class preflop: dealt as a fixed hand, its flushes read from its suited mask)."""
    mean, se = _reference_vs_random([51, 50], k, 300_000, seed=k)      # AsAh
    for hero in ("AsAh", "AA"):
        r = equity([hero] + ["random"] * k, trials=1_000_000, seed=k).players[0]
        assert abs(r.equity - mean) < 4 * math.hypot(se, r.stderr), (hero, r.equity, mean)


@pytest.mark.parametrize("players, board", [
    (["AhKh", "random", "random"], ""),                            # hands and random: dealt as bits
    (["AhKh", "random"], "Qh7h2c"),
    (["AK,AQ", "AK,KQ", "AQ,KQ"], ""),                            # ranges drawn from a list
    (["QQ+,AK", "TT+,AQ+", "77+,AT+,KQ", "random", "random", "random"], ""),   # listed, chained, random
    (["AA,KK:0.5", "QQ", "JJ", "random"], "9h8h2h"),              # weighted, flushes on the board
])
def test_every_simd_path_deals_and_scores_the_same_trials(players, board, monkeypatch):
    """A seeded run gives the same counts on every path this machine runs (the hands' values are the same on
    each, and the deal does not depend on the path): a result depends on the seed alone."""
    from pipeline.core.cpu import runnable_paths

    got = {}
    for path in runnable_paths():
        monkeypatch.setenv("POKERPIPE_SIMD", path)
        r = equity(players, board=board, trials=20_000, seed=7, threads=1)
        got[path] = [(p.shares, p.equity) for p in r.players]
    assert all(g == got["scalar"] for g in got.values()), got


def test_a_lone_range_is_dealt_one_combo_per_suit_class():
    """AA against random hands preflop is one suit class: dealt as the fixed hand AsAh, weight 6;
    beside a fixed AsKh the four classes of AA keep their sizes as weights."""
    from pipeline.equity.plan import lone_range_classes, symmetries
    plan = plan_deal([parse_query("AA"), parse_query("random"), parse_query("random")], [], 0)
    assert plan.rplayers.size == 0 and plan.dplayers.tolist() == [1, 2] and plan.hole_keys[0] != 0
    classes = lone_range_classes(parse_query("AA"), symmetries([], 0, [parse_query("AsKh")]))
    assert sorted(classes.weights.tolist()) == [1.0, 1.0, 2.0, 2.0]


def test_a_weighted_lone_range_by_suit_classes_matches_exact():
    hands = ["QQ+,AKs:0.5", "random"]
    ex = equity(hands, board="2c7c9c", exact=True)
    mc = equity(hands, board="2c7c9c", trials=300_000, seed=8)
    assert_within(mc, ex)


@pytest.mark.parametrize("ranges, mode", [
    (["AK,AQ", "AK,KQ", "AQ,KQ"], "list"),            # 10,368 assignments: drawn from the list
    (["TT+,AQ+", "99+,AJ+", "88+,AT+"], "chain"),     # ~130,000: the first two listed (3,912), the third alone
    (["TT+,AQ+", "99+,AJ+", "88+:0.5,AT+"], "chain"),  # the third weighted: redrawn on a clash, not chosen
    (["TT+,AQ+", "99+,AJ+", "88+,AT+"], "reject"),    # the same, made to redraw all three on a clash
])
def test_colliding_ranges_without_importance_weights_converge_to_exact(ranges, mode, monkeypatch):
    from pipeline.equity import plan as plans
    if mode == "reject":
        monkeypatch.setattr(plans, "MAX_TRIES", 0.0)
    board = "2c5d9h"
    b = parse_cards(board)
    plan = plan_deal([parse_query(r).without(mask_of(b)) for r in ranges], b, mask_of(b))
    assert plan.bits and not plan.weighted and plan.reject == (mode == "reject")
    assert (plan.listed.size, plan.alone.size) == {"list": (3, 0), "chain": (2, 1), "reject": (0, 3)}[mode]
    assert (plan.choice_count.size > 0) == (mode == "chain" and ":" not in ranges[2])
    exact = equity(ranges, board=board, exact=True)
    mc = equity(ranges, board=board, trials=200_000, seed=5)
    assert all(isinstance(x, int) for p in mc.players for x in p.shares)
    for e, m in zip(exact.players, mc.players):
        assert abs(e.equity - m.equity) < 4 * m.stderr


def test_a_chained_draw_weighs_each_row_by_the_last_ranges_choices():
    """The six-way of issue 24: QQ+,AK and TT+,AQ+ are listed, each row weighing the combos of 77+,AT+,KQ that
    share no card with it (counted here by brute force over the combos), and 77+,AT+,KQ is drawn after it."""
    ranges = [parse_query(t) for t in ("QQ+,AK", "TT+,AQ+", "77+,AT+,KQ", "random", "random", "random")]
    plan = plan_deal(ranges, [], 0)
    assert plan.bits and plan.listed.tolist() == [0, 1] and plan.alone.tolist() == [2]
    assert plan.dplayers.tolist() == [3, 4, 5]
    third = ranges[2].masks.tolist()
    held = [int(np.bitwise_or.reduce(plan.rmasks[row])) for row in plan.rows]
    w = np.array([sum(1 for m in third if not m & h) for h in held], np.float64)
    assert len(plan.rows) == sum(1 for a in ranges[0].masks.tolist() for b in ranges[1].masks.tolist()
                                 if not a & b and any(not (a | b) & m for m in third))
    # the rows' weights are counts: an integer alias table, each row's share exactly its count's
    assert plan.row_prob.size == 0 and plan.row_total == int(w.sum())
    units = plan.row_cut.copy()                 # each row's units in the table: its own column's cut ...
    np.add.at(units, plan.row_alias, plan.row_total - plan.row_cut)      # ... and what other columns send it
    assert units.tolist() == (w.astype(np.int64) * len(w)).tolist()
    assert plan.choice_count.tolist() == w.astype(int).tolist()      # his combos beside each row, listed
    for a in range(0, len(plan.rows), 101):
        chosen = plan.choices[a, :plan.choice_count[a]].astype(np.int64)
        assert not (plan.rmasks[chosen] & held[a]).any() and len(set(chosen.tolist())) == len(chosen)


def test_integer_alias_tables_are_exact():
    from pipeline.equity.plan import alias_integers
    rng = np.random.default_rng(4)
    for n in (1, 2, 7, 500):
        w = rng.integers(0, 1000, n).astype(np.int64)
        w[0] = max(w[0], 1)
        cut, alias = alias_integers(w)
        assert ((0 <= cut) & (cut <= w.sum())).all()
        units = cut.copy()
        np.add.at(units, alias, w.sum() - cut)
        assert units.tolist() == (w * n).tolist()


@njit
def _pairs(n, n2, draws):
    s0, s1 = chunk_state(5, 0)
    h = np.zeros((n, n2), np.int64)
    for _ in range(draws):
        s0, s1, k, k2 = below_pair(s0, s1, n, n2)
        h[k, k2] += 1
    return h


def test_two_draws_from_one_output_are_uniform_and_independent():
    h = _pairs(7, 11, 77 * 2000).ravel()
    chi2 = float(((h - 2000) ** 2 / 2000).sum())
    assert chi2 < 76 + 6 * math.sqrt(2 * 76)


@njit
def _histogram16(n, draws):
    s0, s1 = chunk_state(3, 0)
    word, left = np.uint64(0), 0
    h = np.zeros(n, np.int64)
    for _ in range(draws):
        s0, s1, word, left, k = below16(s0, s1, word, left, n)
        h[k] += 1
    return h


@pytest.mark.parametrize("n", [52, 46, 1326])
def test_four_draws_a_word_are_uniform(n):
    draws = 100 * n * 10
    h = _histogram16(n, draws)
    chi2 = float(((h - draws / n) ** 2 / (draws / n)).sum())
    assert chi2 < (n - 1) + 6 * math.sqrt(2 * (n - 1))     # six standard deviations of chi-square
