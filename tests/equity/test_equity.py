"""Equity against published exact counts and brute-force enumeration."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.reference import showdown_counts

from pipeline import CardError, parse_cards
from pipeline.equity import equity
from pipeline.ranges.syntax import parse_range


def _pct(r, i=0):
    return round(100 * r.players[i].equity, 4)


@pytest.mark.parametrize("hero, villain, counts", [
    ("AhKh", "QsQd", (787966, 6732, 917606)),
    ("AsAc", "KdKh", (1388072, 6538, 317694)),
])
def test_heads_up_preflop_counts(hero, villain, counts):
    r = equity([hero, villain])
    assert r.exact and r.boards == 1712304
    p = r.players[0]
    assert (p.wins, p.ties, p.losses) == counts
    assert (r.players[1].wins, r.players[1].losses) == (counts[2], counts[0])


def test_ahkh_vs_qsqd_equity():
    assert _pct(equity(["AhKh", "QsQd"])) == 46.2145


@pytest.mark.parametrize("a, b, pct", [
    ("AA", "KK", 81.9461), ("AKs", "QQ", 46.0485), ("72o", "AA", 11.8004), ("JTs", "AKo", 40.5139),
])
def test_class_matchups(a, b, pct):
    r = equity([a, b])
    assert r.exact
    assert _pct(r) == pct
    assert math.isclose(r.players[0].equity + r.players[1].equity, 1.0)


def test_class_counts_sum_over_combos():
    r = equity(["AA", "KK"])
    assert r.boards == 36 * 1712304
    p = r.players[0]
    assert p.wins + p.ties + p.losses == r.boards


@pytest.mark.slow
@pytest.mark.parametrize("hands, board, dead", [
    (["AhKh", "QsQd", "7c6c"], "2h3h9c", ""),
    (["AhKh", "QsQd", "7c6c", "2d2s"], "Th3hJc", "4h"),
    (["Ac2c", "Kd3d"], "5c6c7d", "8c"),
    (["9s8s", "AdKc", "Qh5h"], "Ts7s2h4h", ""),
    (["As4s", "Ad4d"], "Kh7c2s3d", ""),
])
def test_multiway_matches_brute_force(hands, board, dead):
    r = equity(hands, board=board, dead=dead)
    ref = showdown_counts([parse_cards(h) for h in hands], parse_cards(board), parse_cards(dead) if dead else [])
    n = r.boards
    for p, (wins, ties, share) in zip(r.players, ref):
        assert (p.wins, p.ties) == (wins, ties)
        assert math.isclose(p.equity, share / n, rel_tol=1e-12)


def test_river_is_one_showdown():
    r = equity(["AhKh", "QsQd"], board="2h3h4c5d6d")
    assert r.boards == 1 and r.players[0].ties == 1 and r.players[0].equity == 0.5


def test_three_way_preflop_against_known_total():
    r = equity(["AhKh", "QsQd", "7c6c"])
    assert r.boards == math.comb(46, 5)
    assert sum(p.wins for p in r.players) + max(p.ties for p in r.players) <= r.boards
    total_equity = sum(p.equity for p in r.players)
    assert math.isclose(total_equity, 1.0)


def test_weighted_range_is_weighted_mix():
    full = equity(["AKs:0.5, QQ", "JJ"])
    qq, aks = equity(["QQ", "JJ"]), equity(["AKs", "JJ"])
    # every QQ/AKs combo meets all 6 JJ combos with the same board count
    w_qq, w_aks = 6 * 1.0, 4 * 0.5
    expect = (w_qq * qq.players[0].equity + w_aks * aks.players[0].equity) / (w_qq + w_aks)
    assert math.isclose(full.players[0].equity, expect, rel_tol=1e-12)
    assert full.players[0].wins is None


def test_card_removal_between_ranges():
    # AK vs AA: each AA combo blocks some AK combos; exact total boards count the legal pairs only
    r = equity(["AK", "AA"])
    ak, aa = parse_range("AK"), parse_range("AA")
    legal = sum(1 for x in ak.combos for y in aa.combos if not set(x) & set(y))
    assert legal == 16 * 3  # each AK combo holds one ace, leaving 3 AA combos
    assert r.boards == legal * 1712304


def test_monte_carlo_is_seeded_and_close():
    exact = equity(["AKs", "QQ"]).players[0].equity
    a = equity(["AKs", "QQ"], trials=200_000, seed=7)
    b = equity(["AKs", "QQ"], trials=200_000, seed=7, threads=1)
    c = equity(["AKs", "QQ"], trials=200_000, seed=8)
    assert not a.exact and a.boards == 200_000
    assert a.players[0].equity == b.players[0].equity     # thread count does not matter
    assert a.players[0].equity != c.players[0].equity
    p = a.players[0]
    assert 0.0005 < p.stderr < 0.002
    assert abs(p.equity - exact) < 4 * p.stderr


def test_monte_carlo_vs_random_matches_published():
    r = equity(["AA", "random"], trials=400_000, seed=1)
    p = r.players[0]
    assert abs(p.equity - 0.852037) < 4 * p.stderr


def test_auto_mode_falls_back_to_monte_carlo():
    assert not equity(["random", "random"], table=False).exact
    assert not equity(["random", "random"], board="2c3d4h").exact
    assert equity(["AA", "KK"]).exact
    r = equity(["random", "random"])          # preflop heads-up: summed from the matchups table
    assert r.exact and r.source == "table" and r.players[0].equity == 0.5


@pytest.mark.slow
@pytest.mark.parametrize("players, kw, match", [
    (["AhKh"], {}, "2 to 10"),
    (["AA"] * 11, {}, "2 to 10"),
    (["AhKh", "AhQd"], {}, "duplicate card Ah"),
    (["AhKh", "QsQd"], {"board": "2h"}, "1 card"),
    (["AhKh", "QsQd"], {"board": "2h3h4h5h6h7h"}, "6 cards"),
    (["AhKh", "QsQd"], {"board": "AhKd3c"}, "duplicate card Ah"),
    (["AhKh", "QsQd"], {"dead": "Qs"}, "duplicate card Qs"),
    (["AhKh", "QsQd"], {"board": "2c3c4c", "dead": "3c"}, "duplicate card 3c"),
    (["AhKh", "Xx9"], {}, "player 2"),
    (["AhKh", ""], {}, "empty range"),
    (["AA", "AA", "AA"], {}, "no deal is possible"),
    (["AA", "KK"], {"board": "AcAdAh", "dead": "As"}, "no combo left"),
    (["AA", "KK"], {"trials": 10, "exact": True}, "not both"),
    # not text, on the exact path after the flop (whose caches take text) as on the others
    (["AA", "KK"], {"board": [0, 1, 2]}, "board must be text, got list"),
    (["AA", "KK"], {"board": "2c2d2h", "dead": [5]}, "dead cards must be text, got list"),
    ([["Ah", "Kh"], "KK"], {"board": "2c2d2h"}, "player 1: a range must be text or a Range, got list"),
    (["AA", 5], {}, "player 2: a range must be text or a Range, got int"),
])
def test_bad_input(players, kw, match):
    with pytest.raises(CardError, match=match):
        equity(players, **kw)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.permutations(range(52)), st.integers(2, 4), st.sampled_from([0, 3, 4, 5]), st.integers(0, 3))
def test_rank_multiset_enumeration_equals_card_enumeration(deck, players, board_len, dead_len):
    """The two exact kernels (by card combination, by rank multiset) give the same integers."""
    from oracles.card_by_card import enumerate_boards

    from pipeline.equity.ranksets import enumerate_by_ranks
    from pipeline.evaluator.kernels import KEY_BASE, suited_bit
    from pipeline.evaluator.tables import tables

    t = tables()
    hands = [deck[2 * i:2 * i + 2] for i in range(players)]
    board = deck[2 * players:2 * players + board_len]
    used = set(deck[:2 * players + board_len + dead_len])
    keys = np.array([KEY_BASE + sum(t.card_keys[c] for c in h + board) for h in hands], np.uint64)
    suited = np.array([np.bitwise_or.reduce([suited_bit(c) for c in h + board]) for h in hands], np.uint64)
    live = np.array([c for c in range(52) if c not in used], np.uint8)
    if board_len == 0 and players > 2:
        live = live[:30]   # keep the card-by-card side quick
    a, b = np.zeros((players, players), np.int64), np.zeros((players, players), np.int64)
    na = enumerate_boards(keys, suited, live, 5 - board_len, a, t)
    nb = enumerate_by_ranks(keys, suited, live, 5 - board_len, b, t)
    assert na == nb
    assert (a == b).all()


@pytest.mark.slow
def test_river_range_vs_range_streams_every_assignment():
    """random vs random on a river: 1,070,190 combo pairs, each its own suit class (only the
    identity maps this board onto itself), streamed one showdown each; the counts against a
    plain comparison of every disjoint pair's values by the batch evaluator."""
    from pipeline.evaluator import evaluate
    board = parse_cards("AcKd7h3s2d")
    live = [c for c in range(52) if c not in board]
    combos = np.array([(a, b) for i, a in enumerate(live) for b in live[i + 1:]])
    values = evaluate(np.concatenate([np.tile(board, (len(combos), 1)), combos], axis=1)).astype(np.int64)
    bits = (np.int64(1) << combos[:, 0]) | (np.int64(1) << combos[:, 1])
    disjoint = (bits[:, None] & bits[None, :]) == 0
    wins = int(((values[:, None] > values[None, :]) & disjoint).sum())
    ties = int(((values[:, None] == values[None, :]) & disjoint).sum())
    r = equity(["random", "random"], board="AcKd7h3s2d", exact=True, threads=1)
    assert r.boards == int(disjoint.sum()) == 1081 * 990
    assert (r.players[0].wins, r.players[0].ties, r.players[1].wins) == (wins, ties, wins)


def test_hopeless_exact_enumeration_is_refused_with_an_estimate():
    with pytest.raises(CardError, match=r"too large .* about [\d,]+ (years|days|hours)"):
        equity(["random"] * 4, exact=True, threads=1)


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (3, 3), (4, 4), (6, 5)])
def test_preflop_kernel_equals_card_enumeration_on_the_whole_deck(players, seed):
    """Preflop (five missing cards) the rank-multiset kernel counts distinct-rank flush boards without
    looking them up (:func:`pipeline.equity.ranksets._preflop_by_ranks`): the card-by-card kernel
    over every board of the whole deck agrees, suited hands included."""
    from oracles.card_by_card import enumerate_boards

    from pipeline.equity.ranksets import enumerate_by_ranks
    from pipeline.evaluator.kernels import KEY_BASE, suited_bit
    from pipeline.evaluator.tables import tables

    t = tables()
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52).tolist()
    hands = [deck[2 * i:2 * i + 2] for i in range(players)]
    hands[0] = [hands[0][0], 4 * (hands[0][1] >> 2) + (hands[0][0] & 3)] if (hands[0][1] >> 2) != (hands[0][0] >> 2) \
        else hands[0]                                   # player 1 suited, when the ranks allow
    if len({c for h in hands for c in h}) < 2 * players:
        hands[0] = deck[:2]
    keys = np.array([KEY_BASE + sum(t.card_keys[c] for c in h) for h in hands], np.uint64)
    suited = np.array([np.bitwise_or.reduce([suited_bit(c) for c in h]) for h in hands], np.uint64)
    live = np.array([c for c in range(52) if all(c not in h for h in hands)], np.uint8)
    a, b = np.zeros((players, players), np.int64), np.zeros((players, players), np.int64)
    assert enumerate_boards(keys, suited, live, 5, a, t) == enumerate_by_ranks(keys, suited, live, 5, b, t)
    assert (a == b).all()
