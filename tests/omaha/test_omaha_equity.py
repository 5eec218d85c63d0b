"""Omaha equity: exact runs against a plain brute force board by board, Monte Carlo against exact,
ranges against a brute force over their deals, and bad input."""
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from oracles.omaha import brute_equity

from pipeline import CardError
from pipeline.core.cards import format_cards, parse_cards
from pipeline.omaha.equity import omaha_equity
from pipeline.ranges.omaha import parse_omaha_range

CASES = [   # game, hands, board, dead: flops, turns, a river, and preflop with most of the deck dead
    ("omaha", ["AsKsQh9h", "8c8d6h5h"], "Ah7d2c", ""),
    ("omaha-hilo", ["As2h4sKd", "2c3d7hQs", "6h7c8sTd"], "3c5d9h", ""),
    ("omaha5-hilo", ["AsAh2d3c9s", "KdKhQdQh4c"], "5s6h7cJd", ""),
    ("omaha6", ["AsKsQsJs2h3h", "TdTc9d9c8h8s", "7c6c5d4d3s2s"], "AhKdQc7h", ""),
    ("omaha5", ["AsKs2h3h4c", "QdQc7d7c5s", "JhTh9c8c6d", "AdKd2s3s4d"], "9hTd2c7s6c", "Jd"),
    ("omaha-hilo", ["Ac2c3d4d", "AhKhQh5s"], "", "6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9sTcTdThTsJcJdJhJsQcQdQs2h3h"),
]


@pytest.mark.slow
@pytest.mark.parametrize("game, hands, board, dead", CASES)
def test_exact_equals_the_brute_force_board_by_board(game, hands, board, dead):
    r = omaha_equity(hands, game=game, board=board, dead=dead)
    holes = [parse_cards(h) for h in hands]
    want = brute_equity(holes, parse_cards(board) if board else [], parse_cards(dead) if dead else [],
                        game.endswith("hilo"))
    assert r.exact and r.boards == want[0]["boards"]
    for p, w in zip(r.players, want):
        assert p.shares == w["shares"] and p.wins == w["shares"][0]
        assert Fraction(p.equity).limit_denominator(10**9) == w["equity"] or abs(p.equity - w["equity"]) < 1e-12
        if game.endswith("hilo"):
            assert p.low_shares == w["low_shares"]
            assert [p.scoops, p.high_only, p.low_only, p.quartered] == \
                [w["scoops"], w["high_only"], w["low_only"], w["quartered"]]
        else:
            assert p.low_shares is None and p.scoops is None
    if game.endswith("hilo"):
        assert any(p.low_shares[0] for p in r.players)          # a low did qualify somewhere


@pytest.mark.slow
def test_ranges_on_the_river_equal_the_brute_force_over_their_deals():
    """Weighted ranges: every deal of the two ranges sharing no card, weighed by the product of weights."""
    board = "Kc9d4h3s2c"
    a, b = "AsAh**@0.5, AsKsQsJs", "QQJJds, 5s6s7d8d"
    r = omaha_equity([a, b], game="omaha-hilo", board=board)
    assert r.exact
    ra, rb = parse_omaha_range(a), parse_omaha_range(b)
    used = set(parse_cards(board))
    num = [Fraction(0), Fraction(0)]
    den = Fraction(0)
    for (ha, wa), (hb, wb) in product(zip(ra.combos.tolist(), ra.weights), zip(rb.combos.tolist(), rb.weights)):
        if (set(ha) & set(hb)) or (set(ha) | set(hb)) & used:
            continue
        w = Fraction(wa) * Fraction(wb)
        got = brute_equity([ha, hb], parse_cards(board), [], True)
        den += w
        num = [n + w * g["equity"] for n, g in zip(num, got)]
    assert [round(p.equity, 12) for p in r.players] == [round(float(n / den), 12) for n in num]


@pytest.mark.slow
def test_monte_carlo_is_within_four_standard_errors_of_exact():
    for game, hands, board in [("omaha", ["AsAhKsKh", "JdTd9c8c"], ""),
                               ("omaha-hilo", ["As2s3d*", "KsKd**"], "3c8d9h"),
                               ("omaha5", ["AA***", "random", "random"], "Qc7d2h")]:
        mc = omaha_equity(hands, game=game, board=board, trials=200_000, seed=5)
        ex = omaha_equity(hands, game=game, board=board, exact=True) if "random" not in hands else \
            omaha_equity(hands, game=game, board=board, trials=1_000_000, seed=11)
        for m, e in zip(mc.players, ex.players):
            assert m.stderr > 0 and abs(m.equity - e.equity) < 4 * (m.stderr ** 2 + e.stderr ** 2) ** 0.5, (game, m, e)
        assert sum(sum(p.shares[j] / (j + 1) for j in range(len(hands))) for p in mc.players) == \
            pytest.approx(mc.boards) if not game.endswith("hilo") else True


def test_monte_carlo_depends_on_the_seed_not_the_threads():
    args = (["AA", "KsKh", "random"],)
    one = omaha_equity(*args, game="omaha-hilo", trials=150_000, seed=3, threads=1)
    two = omaha_equity(*args, game="omaha-hilo", trials=150_000, seed=3, threads=2)
    other = omaha_equity(*args, game="omaha-hilo", trials=150_000, seed=4, threads=2)
    assert [p.shares for p in one.players] == [p.shares for p in two.players]
    assert [p.low_shares for p in one.players] == [p.low_shares for p in two.players]
    assert [p.shares for p in one.players] != [p.shares for p in other.players]


def test_random_is_the_whole_deck():
    """On the river a random opponent is enumerated: the same as the range of every live hand."""
    board = "AhKd7c4s2h"
    r = omaha_equity(["QsQdJsTd", "random"], board=board)
    live = [c for c in range(52) if c not in parse_cards(board + "QsQdJsTd")]
    assert r.exact and r.boards == len(list(__import__("itertools").combinations(live, 4)))
    mc = omaha_equity(["QsQdJsTd", "random"], board=board, trials=300_000, seed=1)
    assert abs(mc.players[0].equity - r.players[0].equity) < 4 * mc.players[0].stderr


def test_json_keeps_the_holdem_shape():
    hi = omaha_equity(["AsAhKsKh", "JdTd9c8c"], board="2c7d9h").to_json()
    assert hi["game"] == "omaha" and {"equity", "wins", "ties", "shares"} <= set(hi["players"][0])
    assert "scoops" not in hi["players"][0]
    lo = omaha_equity(["As2h4sKd", "2c3d7hQs"], game="omaha-hilo", board="3c5d9h").to_json()
    assert {"low_shares", "scoops", "high_only", "low_only", "quartered"} <= set(lo["players"][0])


@pytest.mark.parametrize("hands, kw, match", [
    (["AsKsQdJdTc", "QdQc"], {}, "has 5 cards; a hand of this game holds 4"),
    (["AA:0.5", "KK"], {}, "':' is ProPokerTools' filter"),
    (["$foo", "KK"], {}, "unknown macro"),
    (["AsKsQsJsTs9s", "TdTc9d9c"], {"game": "omaha5"}, "has 6 cards; a hand of this game holds 5"),
    (["AsKsQsJs", "AsTc9d9c"], {}, "duplicate card As"),
    (["AsKsQsJs", "TdTc9d9c"], {"board": "As2c3d"}, "duplicate card As"),
    (["AAAAds", "KK"], {}, "matches no 4-card hand"),
    (["AsKsQsJs", "TdTc9d9c"], {"game": "omaha7"}, "unknown game 'omaha7'"),
    (["AsKsQsJs"] + ["random"] * 11, {}, "12 players given"),
    (["AsKsQsJs", "random"], {"exact": True}, "too large"),
    (["AsKsQsJs", "KK"], {"trials": 0}, "trials must be positive"),
    (["AsKsQsJs", "AsKs**"], {}, "no hand left|no deal"),
])
def test_bad_input_is_one_clear_error(hands, kw, match):
    with pytest.raises(CardError, match=match):
        omaha_equity(hands, **kw)


def test_cards_of_every_hand_are_its_own():
    """The range parser lists each hand once, ascending, with its weight."""
    r = parse_omaha_range("AsKsQsJs, AsKs**@0.25")
    assert len(r) == len({tuple(c) for c in r.combos.tolist()}) == 1225
    assert all(list(c) == sorted(c) for c in r.combos.tolist())
    assert r.weights[r.combos.tolist().index(sorted(parse_cards("AsKsQsJs")))] == 0.25
    assert format_cards(r.combos[0].tolist()) == "2c2dKsAs"
    assert np.all(r.weights == 0.25)


@pytest.mark.parametrize("k, players, hilo, seed", [(4, 2, True, 1), (5, 3, False, 2), (6, 2, False, 3),
                                                    (4, 3, True, 4)])
def test_preflop_by_rank_class_equals_walking_every_board(k, players, hilo, seed):
    """The preflop shortcut (boards without a flush scored once per rank class) against the plain walk
    over every board, count for count."""
    from pipeline.omaha.exact import _walk, deal_tally
    from pipeline.omaha.kernels import hole_pairs
    from pipeline.omaha.showdown import pot_unit, tally_width
    from pipeline.omaha.tables import omaha_tables

    rng = np.random.default_rng(seed)
    cards = rng.permutation(52)
    holes = np.sort(cards[:k * players].reshape(players, k), axis=1).astype(np.int64)
    dead = cards[k * players:k * players + 3]
    deck = np.array(sorted(set(range(52)) - set(holes.ravel().tolist()) - set(dead.tolist())), np.int64)
    OT, unit = omaha_tables(), pot_unit(players)
    fast = np.zeros((players, tally_width(players)), np.int64)
    nb = deal_tally(holes, np.zeros(0, np.int64), deck, hilo, unit, OT, fast)
    cols, suits, lows = (np.empty((players, 15), np.int64) for _ in range(3))
    for p in range(players):
        hole_pairs(holes[p], p, cols, suits, lows)
    plain = np.zeros_like(fast)
    nw = _walk(cols, suits, lows, k * (k - 1) // 2, np.zeros(0, np.int64), deck, hilo, unit, OT, plain,
               np.zeros((players, 1), np.uint16))
    from math import comb
    assert nb == nw == comb(len(deck), 5)
    assert np.array_equal(fast, plain)
