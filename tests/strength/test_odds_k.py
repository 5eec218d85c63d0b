"""``odds`` against k opponents: HS^k, PPOT/NPOT by Monte Carlo against the exact enumeration
(k = 1) and a plain-Python simulation (k = 2), the plot."""
import json
import random
import subprocess
import sys

import numpy as np
import pytest
from oracles.reference import best_hand

from pipeline.core.cards import parse_cards
from pipeline.strength.hand_strength import hand_strength
from pipeline.strength.multiway import potentials_mc
from pipeline.strength.win_odds import win_odds


def test_one_opponent_monte_carlo_meets_the_enumeration():
    exact = hand_strength("AdQc", "3h4cJh")
    mc = potentials_mc(np.array([parse_cards("AdQc")]), parse_cards("3h4cJh"), 1, 200_000, 5)
    assert abs(mc["ppot"] - exact.ppot) < 4 * mc["ppot_stderr"] and mc["ppot_stderr"] < 0.002
    assert abs(mc["npot"] - exact.npot) < 4 * mc["npot_stderr"]
    assert sum(map(sum, mc["potential"])) == 200_000


def _plain_ppot_npot(hole, board, k, trials, seed):
    """PPOT and NPOT against k opponents by a plain simulation: shuffle, deal, score with the
    reference evaluator (tests/reference.py); ahead = better than every opponent."""
    rnd = random.Random(seed)
    hp = [[0] * 3 for _ in range(3)]
    rest = [c for c in range(52) if c not in hole + board]

    def outcome(mine, theirs):
        best = max(theirs)
        return 0 if mine > best else 1 if mine == best else 2

    for _ in range(trials):
        deal = rnd.sample(rest, 2 * k + 5 - len(board))
        opps = [deal[2 * i:2 * i + 2] for i in range(k)]
        final = board + deal[2 * k:]
        now = outcome(best_hand(hole + board), [best_hand(o + board) for o in opps])
        end = outcome(best_hand(hole + final), [best_hand(o + final) for o in opps])
        hp[now][end] += 1
    t = [sum(r) for r in hp]
    ppot = (hp[2][0] + hp[2][1] / 2 + hp[1][0] / 2) / (t[2] + t[1] / 2)
    npot = (hp[0][2] + hp[1][2] / 2 + hp[0][1] / 2) / (t[0] + t[1] / 2)
    # binomial standard errors over the trials each ratio is taken over (ties are rare here)
    return ppot, (ppot * (1 - ppot) / (t[2] + t[1] / 2)) ** 0.5, npot, (npot * (1 - npot) / (t[0] + t[1] / 2)) ** 0.5


@pytest.mark.slow
def test_two_opponents_against_a_plain_simulation():
    hole, board = parse_cards("9h8h"), parse_cards("AhKc2h5d")     # a turn, a flush draw: mostly behind
    mc = potentials_mc(np.array([hole]), board, 2, 100_000, 3)
    ppot, ppot_se, npot, npot_se = _plain_ppot_npot(hole, board, 2, 4000, 11)
    assert abs(mc["ppot"] - ppot) < 4 * (mc["ppot_stderr"] ** 2 + ppot_se ** 2) ** 0.5
    assert abs(mc["npot"] - npot) < 4 * (mc["npot_stderr"] ** 2 + npot_se ** 2) ** 0.5
    assert mc["ppot_stderr"] < 0.005 and ppot_se < 0.01


def test_rows_carry_hs_k_and_are_seeded():
    r = win_odds("AdQc", "3h4cJh", 3, 5000, 7)
    hs = hand_strength("AdQc", "3h4cJh")
    assert [row["hs_k"] for row in r["opponents"]] == [hs.hs, hs.hs ** 2, hs.hs ** 3]
    assert r["opponents"][0]["ppot"] == hs.ppot and r["opponents"][0]["ppot_stderr"] == 0.0
    assert all(row["ppot_stderr"] > 0 for row in r["opponents"][1:])
    assert win_odds("AdQc", "3h4cJh", 3, 5000, 7) == r
    pre = win_odds("AKs", "", 2, 500, 1)
    assert all(row["hs_k"] is None and row["ppot"] is None for row in pre["opponents"])


@pytest.mark.slow
def test_cli_plot_and_json(tmp_path):
    png = tmp_path / "odds.png"
    p = subprocess.run([sys.executable, "-m", "jobs", "odds", "AdQc", "--board", "3h4cJh", "--max-opponents", "3",
                        "--trials", "2000", "--plot", str(png), "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    doc = json.loads(p.stdout)
    assert {"hs_k", "ppot", "npot", "ppot_stderr", "npot_stderr"} <= set(doc["opponents"][1])
    p = subprocess.run([sys.executable, "-m", "jobs", "odds", "AdQc", "--board", "3h4cJh", "--max-opponents", "2",
                        "--trials", "100", "--plot", str(tmp_path / "no" / "x.png")], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("k", [2, 9])
def test_stderr_shrinks_with_trials(k):
    hole, board = np.array([parse_cards("AdQc")]), parse_cards("3h4cJh")
    small = potentials_mc(hole, board, k, 10_000, 1)
    big = potentials_mc(hole, board, k, 160_000, 1)
    assert big["ppot_stderr"] < small["ppot_stderr"] / 3


def test_dead_cards_leave_the_deck():
    """On the river the one-opponent row with dead cards is a plain count over the opponent hands
    the dead cards leave, scored with the reference evaluator."""
    hole, board, dead = "AdQc", "3h4cJh9s2d", "Jc Js Qs"
    r = win_odds(hole, board, 1, 100, 0, dead=dead)
    mine = best_hand(parse_cards(hole) + parse_cards(board))
    gone = set(parse_cards(hole + board + dead.replace(" ", "")))
    outcomes = [0, 0, 0]
    for a in range(52):
        for b in range(a):
            if a in gone or b in gone:
                continue
            theirs = best_hand([a, b] + parse_cards(board))
            outcomes[0 if mine > theirs else 1 if mine == theirs else 2] += 1
    row = r["opponents"][0]
    assert row["win"] == outcomes[0] / sum(outcomes) and row["tie"] == outcomes[1] / sum(outcomes)
    assert win_odds(hole, board, 1, 100, 0)["opponents"][0]["win"] != row["win"]
