"""``pokerpipe equity`` as a user runs it: a fresh process, its output and exit codes."""
import json
import subprocess
import sys

import pytest


def run(*args):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=300)


def test_json_output():
    p = run("equity", "AhKh", "QsQd", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["exact"] is True and out["boards"] == 1712304
    hero, villain = out["players"]
    assert set(hero) == {"range", "win", "tie", "equity", "wins", "ties", "losses", "stderr"}
    assert (hero["range"], hero["wins"], hero["ties"], hero["losses"]) == ("AhKh", 787966, 6732, 917606)
    assert round(hero["equity"] * 100, 4) == 46.2145 and hero["stderr"] == 0
    assert villain["wins"] == 917606


def test_table_output():
    p = run("equity", "AA", "KK")
    assert p.returncode == 0, p.stderr
    assert "81.9461%" in p.stdout and "18.0539%" in p.stdout and "61,642,944 boards" in p.stdout


def test_monte_carlo_json_is_reproducible():
    a = run("equity", "QQ+,AKs", "random", "--trials", "50000", "--seed", "5", "--json")
    b = run("equity", "QQ+,AKs", "random", "--trials", "50000", "--seed", "5", "--json", "--threads", "1")
    assert a.returncode == 0, a.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert ja == jb and ja["exact"] is False and ja["boards"] == 50000
    assert ja["players"][0]["stderr"] > 0 and ja["players"][0]["wins"] is None


@pytest.mark.parametrize("args, words", [
    (["AhKh"], "2 to 10"),
    (["AhKh", "QsQd", "--board", "2h"], "1 card"),
    (["AhKh", "QsQd", "--board", "2h3h4h5h6h7h"], "6 cards"),
    (["AhKh", "Qx9"], "player 2"),
    (["AhKh", "AhQd"], "duplicate card Ah"),
    (["AhKh", "QsQd", "--dead", "Qs"], "duplicate card Qs"),
    (["AA", "AA", "AA"], "no deal is possible"),
    (["AhKh", "QsQd", "--trials", "nope"], "trials"),
    (["AhKh", "QsQd", "--bogus"], "--bogus"),
    (["AK,,QQ", "JJ"], "empty part"),
    (["2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d", "TcTd", "JcJd", "QcQd"], "2 to 10"),
])
def test_bad_input_is_one_line_exit_2(args, words):
    p = run("equity", *args)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    assert words in lines[0]
