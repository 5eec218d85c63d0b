"""The short deck's own tables (:mod:`pipeline.shortdeck`) and its odds, against brute force (issue 44)."""
from itertools import combinations

import numpy as np
import pytest
from oracles.shortdeck import POKERKIT_ORDER, TRIPS_ORDER, showdown_counts, tiers

from pipeline.core.cards import CardError, parse_cards
from pipeline.equity.matchups import decode
from pipeline.evaluator import SHORT_DECK, SHORT_DECK_TRIPS
from pipeline.shortdeck import equity
from pipeline.shortdeck.classes import CLASS_INDEX, CLASS_LABELS, COMBOS, class_of
from pipeline.shortdeck.preflop import BOARDS, grid, matchup_counts, matchups, vs_random, vs_two
from pipeline.strength.win_odds import win_odds


@pytest.fixture(scope="module")
def counted():
    codes, weights = matchups()
    return codes, weights, matchup_counts(codes)


def test_every_matchup_of_the_deck_falls_in_one_class():
    codes, weights = matchups()
    assert len(codes) == 10_215 and int(weights.sum()) == 36 * 35 // 2 * (34 * 33 // 2) // 2 == 176_715
    assert all(min(decode(int(c))) >= 16 for c in codes)
    assert len(CLASS_LABELS) == 81 and int(COMBOS.sum()) == 630
    assert {class_of(a, b) for a in range(16, 52) for b in range(16, a)} == set(range(81))
    assert [CLASS_LABELS[class_of(a, b)] for a, b in (parse_cards("Ts9s"), parse_cards("6d6c"), parse_cards("Ac7d"))] \
        == ["T9s", "66", "A7o"]


@pytest.mark.slow
def test_matchup_rows_equal_brute_force(counted):
    codes, _, wtl = counted
    assert (wtl.sum(axis=1) == BOARDS).all()
    rng = np.random.default_rng(5)
    for i in rng.choice(len(codes), 12, replace=False):
        h1, h2, v1, v2 = decode(int(codes[i]))
        brute = showdown_counts(np.array([[h1, h2], [v1, v2]]), np.zeros(0, np.int64), tiers(POKERKIT_ORDER))
        assert wtl[i].tolist() == [brute[0, 0], brute[0, 1], brute[1, 0]]
    trips = matchup_counts(codes[:40], SHORT_DECK_TRIPS)
    h1, h2, v1, v2 = decode(int(codes[37]))
    brute = showdown_counts(np.array([[h1, h2], [v1, v2]]), np.zeros(0, np.int64), tiers(TRIPS_ORDER))
    assert trips[37].tolist() == [brute[0, 0], brute[0, 1], brute[1, 0]]


def test_the_grid_sums_every_specific_matchup(counted):
    """A cell is the class-vs-class equity the calculator enumerates (every combo pair, every board); the
    grid's vs-random row is the class against every hand of the deck."""
    codes, _, wtl = counted
    g = grid(codes, wtl)
    assert g.shape == (81, 81, 4) and int(g[:, :, 0].sum()) == 2 * 176_715
    assert (g[:, :, 1:].sum(axis=2) == g[:, :, 0] * BOARDS).all()
    assert (g[:, :, 1] == g[:, :, 3].T).all() and (g[:, :, 2] == g[:, :, 2].T).all()
    for hero, villain in (("AKs", "QQ"), ("T9s", "A6o"), ("77", "66")):
        cell = g[CLASS_INDEX[hero], CLASS_INDEX[villain]]
        r = equity([hero, villain])
        assert r.exact and (r.boards, r.players[0].wins, r.players[0].ties) == (cell[0] * BOARDS, cell[1], cell[2])
    aa = vs_random(g)[CLASS_INDEX["AA"]]
    r = equity(["AA", "random"], exact=True)
    assert (r.players[0].wins, r.players[0].ties, r.players[0].losses) == tuple(aa)


def test_odds_against_one_opponent_equal_brute_force():
    """``win_odds`` with the short deck: one opponent on a turn, every opponent hand and river counted."""
    hole, board = "AhKh", "Th9c6h7s"
    r = win_odds(hole, board, max_opponents=2, trials=20_000, seed=1, deck=SHORT_DECK)
    used = set(parse_cards(hole + board))
    wins = ties = deals = 0
    for opp in combinations([c for c in range(16, 52) if c not in used], 2):
        got = showdown_counts(np.array([parse_cards(hole), list(opp)]), np.array(parse_cards(board)),
                              tiers(POKERKIT_ORDER))
        wins, ties, deals = wins + got[0, 0], ties + got[0, 1], deals + got[0, 0] + got[0, 1] + got[1, 0]
    one, two = r["opponents"]
    assert one["exact"] and one["win"] == pytest.approx(wins / deals, abs=1e-15)
    assert one["tie"] == pytest.approx(ties / deals, abs=1e-15)
    assert not two["exact"] and two["stderr"] > 0 and two["win"] < one["win"]
    with pytest.raises(CardError, match="hole cards: 5h is not a card of the short deck"):
        win_odds("5h5d", board, deck=SHORT_DECK_TRIPS)
    with pytest.raises(CardError, match="no hand left .* in the short deck"):
        win_odds("22-55", board, deck=SHORT_DECK_TRIPS)


def test_two_opponents_board_by_board_equal_brute_force():
    """The board-first counts on the short deck (465 hands of 31 live cards, 71,253 opponent pairs each)
    against every pair of opponent hands scored by the oracle, on a rainbow and a full-house board."""
    from oracles.shortdeck import codes_of
    from oracles.two_opponents_brute import _showdowns

    from pipeline.core.hand_classes import class_of as holdem_class_of
    from pipeline.equity.two_opponents import class_counts_of_boards

    for board in (parse_cards("AsKs9d7h6c"), parse_cards("TcTdThJsJc")):
        live = [c for c in range(16, 52) if c not in board]
        hands = np.array(list(combinations(live, 2)), np.int64)
        codes = codes_of(np.hstack([hands, np.tile(board, (len(hands), 1))]), tiers(POKERKIT_ORDER))
        want = np.zeros((169, 4), np.int64)
        for i, (a, b) in enumerate(hands.tolist()):
            others = (hands != a).all(axis=1) & (hands != b).all(axis=1)
            want[holdem_class_of(a, b)] += _showdowns(int(codes[i]), codes[others], hands[others])
        got = class_counts_of_boards(np.array([board]), deck=SHORT_DECK)
        assert (got == want).all() and (want.sum(axis=1) % 71_253 == 0).all()


@pytest.mark.slow
def test_each_class_against_two_random_hands():
    counts = vs_two()
    assert (counts.sum(axis=1) == COMBOS * 278_256 * 71_253).all()
    aa = counts[CLASS_INDEX["AA"]]
    exact = (aa[0] + aa[1] / 2 + aa[2] / 3) / aa.sum()
    mc = equity(["AA", "random", "random"], trials=400_000, seed=2).players[0]
    assert abs(exact - mc.equity) < 5 * mc.stderr, (exact, mc)
