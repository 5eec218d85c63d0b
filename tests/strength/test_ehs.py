"""Hand strength and potential against the published example and an independent enumeration."""
import json
import subprocess
import sys
from importlib.metadata import version
from itertools import combinations

import numpy as np
import pytest
from oracles.reference import best_hand

from pipeline import CardError, evaluate, format_cards, parse_cards
from pipeline.equity import equity
from pipeline.strength.hand_strength import hand_strength


def test_published_flop_example():
    r = hand_strength("AdQc", "3h4cJh", opponents=5)
    assert (r.ahead, r.tied, r.behind) == (628, 9, 444)
    assert round(r.hs, 3) == 0.585 and round(r.hs_n, 3) == 0.069
    assert r.potential == [[449005, 3211, 169504], [0, 8370, 540], [91981, 1036, 346543]]
    assert sum(map(sum, r.potential)) == 1070190
    assert round(r.ppot, 3) == 0.208 and round(r.npot, 3) == 0.274
    assert round(r.ehs, 4) == 0.5114
    assert round(r.ppot1, 4) == 0.1083 and round(r.npot1, 4) == 0.1454
    assert round(hand_strength("AdQc", "3h4cJh").ehs_optimistic, 4) == 0.6715


def test_river_hs_matches_plain_reference():
    hero, board = parse_cards("9s8s"), parse_cards("Ts7d2c3hKs")
    rest = [c for c in range(52) if c not in hero + board]
    mine = best_hand(hero + board)
    counts = [0, 0, 0]
    for opp in combinations(rest, 2):
        theirs = best_hand(list(opp) + board)
        counts[0 if mine > theirs else 1 if mine == theirs else 2] += 1
    r = hand_strength("9s8s", "Ts7d2c3hKs")
    assert [r.ahead, r.tied, r.behind] == counts
    assert r.ppot == r.npot == 0 and r.ehs == r.hs


def test_turn_potential_matches_equity_enumeration():
    hole, board = "QhJh", "Th9c2h3d"
    hero, brd = parse_cards(hole), parse_cards(board)
    rest = [c for c in range(52) if c not in hero + brd]
    hp = np.zeros((3, 3), np.int64)
    mine = evaluate(np.array([hero + brd]))[0]
    for opp in combinations(rest, 2):
        now = evaluate(np.array([list(opp) + brd]))[0]
        row = 0 if mine > now else 1 if mine == now else 2
        p = equity([hole, format_cards(opp)], board=board, threads=1).players[0]
        hp[row] += [p.wins, p.ties, p.losses]
    assert hand_strength(hole, board).potential == hp.tolist()


@pytest.mark.parametrize("hole, board, words", [
    ("AdQc", "3h", "1 card"), ("AdQc", "3h4c", "2 cards"), ("Ad", "3h4cJh", "2"),
    ("AdQc", "3hAd4c", "duplicate card Ad"), ("AdQx", "3h4cJh", "unknown card"),
])
def test_bad_input(hole, board, words):
    with pytest.raises(CardError, match=words):
        hand_strength(hole, board)


@pytest.mark.slow
def test_cli_json():
    p = subprocess.run([sys.executable, "-m", "jobs", "ehs", "AdQc", "--board", "3h4cJh", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc.pop("pokerpipe") == version("pokerpipe")      # every --json answer's head
    assert set(doc) == {"ahead", "tied", "behind", "hs", "hs_n", "potential", "ppot", "npot", "ppot1", "npot1",
                        "ehs", "ehs_optimistic"}
    assert doc["potential"][2] == [91981, 1036, 346543]
    bad = subprocess.run([sys.executable, "-m", "jobs", "ehs", "AdQc", "--board", "3h"], capture_output=True,
                         text=True, timeout=300)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_win_odds_one_opponent_is_exact_equity():
    from pipeline.strength.win_odds import win_odds
    r = win_odds("AdQc", "3h4cJh", max_opponents=3, trials=20000, seed=3)
    one = r["opponents"][0]
    e = equity(["AdQc", "random"], board="3h4cJh").players[0]
    assert one["exact"] and one["win"] == e.win and one["tie"] == e.tie
    assert round(r["hs"], 3) == 0.585 and round(r["ppot"], 3) == 0.208
    wins = [row["win"] for row in r["opponents"]]
    assert wins == sorted(wins, reverse=True) and not r["opponents"][1]["exact"]
    assert r == win_odds("AdQc", "3h4cJh", max_opponents=3, trials=20000, seed=3)   # seeded
    q = win_odds("Group1", "3h4cJh", max_opponents=1)
    assert q["combos"] == 25 and q["opponents"][0]["exact"]    # JJ loses the three combos with Jh
