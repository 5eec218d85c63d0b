"""``--game shortdeck`` on the command line (issue 44): ``equity`` and ``odds`` in a fresh process."""
import json
import subprocess
import sys

import pytest


def run(*args):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_equity_and_odds_on_the_short_deck():
    p = run("equity", "AhKh", "QsQd", "--game", "shortdeck", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["exact"] and out["boards"] == 201_376           # C(32, 5): the cards left of 36
    assert [(q["wins"], q["ties"]) for q in out["players"]] == [(108_298, 2_007), (91_071, 2_007)]
    p = run("odds", "AhKh", "--game", "shortdeck-trips", "--board", "Th9c6h", "--max-opponents", "2", "-n", "5000",
            "--json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["opponents"]
    assert rows[0]["exact"] and not rows[1]["exact"] and 0.3 < rows[1]["equity"] < rows[0]["equity"] < 0.7


@pytest.mark.parametrize("args, words", [
    (["equity", "AhKh", "5s5d", "--game", "shortdeck"], "player 2: 5s is not a card of the short deck (6 to A)"),
    (["equity", "AhKh", "QQ", "--game", "shortdeck", "--board", "Ts9s2c"], "board: 2c is not a card of the short"),
    (["equity", "AhKh", "QQ", "--game", "shortdek"],
     "unknown game 'shortdek' (did you mean shortdeck?); choose holdem, shortdeck, shortdeck-trips"),
    (["odds", "AhKh", "--game", "omaha"], "unknown game 'omaha'; choose holdem, shortdeck or shortdeck-trips"),
])
def test_cards_and_games_outside_the_deck_are_one_line(args, words):
    p = run(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    (line,) = p.stderr.strip().splitlines()
    assert words in line and "Traceback" not in p.stderr
