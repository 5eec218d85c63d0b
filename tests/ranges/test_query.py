"""The pocket query language, counted against plain Python definitions."""
import json
import subprocess
import sys

import pytest

from pipeline import CardError
from pipeline.core.hand_classes import hand_class
from pipeline.equity import equity
from pipeline.ranges.query import parse_query

ALL = [(a, b) for a in range(52) for b in range(a)]


def classes(q):
    return {hand_class(a, b) for a, b in parse_query(q).combos}


def test_group1_is_28_combos():
    assert len(parse_query("Group1")) == 28
    assert classes("group1") == {"AA", "KK", "QQ", "JJ", "AKs"}


def test_words_match_definitions():
    suited = [c for c in ALL if c[0] % 4 == c[1] % 4]
    pairs = [c for c in ALL if c[0] // 4 == c[1] // 4]
    assert len(parse_query("Suited")) == len(suited) == 312
    assert len(parse_query("Pair")) == len(pairs) == 78
    assert len(parse_query("Offsuit")) == 1326 - 312 - 78
    conn = [c for c in ALL if abs(c[0] // 4 - c[1] // 4) == 1 or {c[0] // 4, c[1] // 4} == {12, 0}]
    assert len(parse_query("Connected")) == len(conn)
    assert len(parse_query("Kx")) == 1326 - 48 * 47 // 2
    assert classes("Gap1 And Suited And Ax") == {"A3s", "AQs"}


def test_operators_and_precedence():
    assert len(parse_query("Not Pair")) == 1248
    assert len(parse_query("Pair Or Suited")) == 78 + 312
    assert len(parse_query("Not Pair And Suited")) == 312      # Not binds tighter than And
    assert len(parse_query("Not (Pair Or Suited)")) == 1326 - 390
    assert len(parse_query("Group2 To Group3")) == len(parse_query("Group2")) + len(parse_query("Group3"))
    assert len(parse_query("group3 to group2")) == len(parse_query("Group2 To Group3"))
    assert len(parse_query("QQ+, AKs And Suited")) == 18 + 4     # comma is a union, lowest


@pytest.mark.parametrize("q, column", [("Group2 To Foo", "column 11"), ("Pair And", "at the end"),
                                       ("(Pair", "at the end"), ("Pair )", "column 6"), ("Pair Or Or", "column 9"),
                                       ("NotPairs", "column 4"), ("Group2ToFoo", "column 7"),
                                       ("Zz Or Pair", "column 1")])
def test_errors_point_at_the_token(q, column):
    with pytest.raises(CardError, match=column):
        parse_query(q)


def test_equity_takes_a_query():
    r = equity(["Group1", "Suited And Connected"], trials=20000, seed=1)
    assert len(r.players) == 2 and 0.7 < r.players[0].equity < 0.8


def test_range_command():
    p = subprocess.run([sys.executable, "-m", "jobs", "range", "Group1", "--json"], capture_output=True, text=True,
                       timeout=300)
    doc = json.loads(p.stdout)
    assert doc["combos"] == 28 and "AsKs" in doc["hands"]
    p = subprocess.run([sys.executable, "-m", "jobs", "range", "Pair And"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


# --- Seed 003's own query strings (Keith Rule, "More Texas Holdem Analysis in C#"), each counted
# against a plain definition written here: ranks and suits of the two cards, nothing from the parser.

def _rank(c):
    return c // 4


def _suited(c):
    return c[0] % 4 == c[1] % 4


def _pair(c):
    return _rank(c[0]) == _rank(c[1])


def _offsuit(c):
    return not _suited(c) and not _pair(c)


def _between(c):
    """Ranks strictly between the two cards, the ace also playing low (A2 connected)."""
    a, b = sorted((_rank(c[0]), _rank(c[1])))
    if a == b:
        return -1
    return min(b - a - 1, a if b == 12 else 99)


_CLS = {1: {"AA", "KK", "QQ", "JJ", "AKs"}, 2: {"TT", "AQs", "AJs", "KQs", "AKo"},
        3: {"99", "JTs", "QJs", "KJs", "ATs", "AQo"}, 4: {"T9s", "KQo", "88", "QTs", "98s", "J9s", "AJo", "KTs"},
        5: {"77", "87s", "Q9s", "T8s", "KJo", "QJo", "JTo", "76s", "97s", "65s"} | {f"A{r}s" for r in "23456789"}}


def _group(g):
    return lambda c: hand_class(*c) in _CLS[g]


def _holds(r):
    return lambda c: "23456789TJQKA"[_rank(c[0])] == r or "23456789TJQKA"[_rank(c[1])] == r


def _classes(*names):
    return lambda c: hand_class(*c) in names or hand_class(*c)[:2] in names


SEED_QUERIES = {
    "Ac Kd": lambda c: set(c) == {4 * 12 + 0, 4 * 11 + 1},
    "AK,78s": _classes("AK", "87s"),
    "AKs, 78s": _classes("AKs", "87s"),
    "QJ, T8": _classes("QJ", "T8"),
    "Kx,Ax": lambda c: _holds("K")(c) or _holds("A")(c),
    "Kx, Ax": lambda c: _holds("K")(c) or _holds("A")(c),
    "Group1": _group(1),
    "Suited": _suited,
    "Offsuit": _offsuit,
    "Connected": lambda c: _between(c) == 0,
    "Gap1": lambda c: _between(c) == 1,
    "Gap2": lambda c: _between(c) == 2,
    "Gap3": lambda c: _between(c) == 3,
    "Group2ToGroup5": lambda c: any(_group(g)(c) for g in (2, 3, 4, 5)),
    "Group3AndOffset": lambda c: _group(3)(c) and _offsuit(c),
    "Group3AndOffsuit": lambda c: _group(3)(c) and _offsuit(c),
    "Group1OrGroup3": lambda c: _group(1)(c) or _group(3)(c),
    "NotOffset": lambda c: not _offsuit(c),
    "NotOffsuit": lambda c: not _offsuit(c),
    "Connected Suited": lambda c: _between(c) == 0 and _suited(c),
    "Connected Offsuit": lambda c: _between(c) == 0 and _offsuit(c),
    "Group1 Suited Not Pair": lambda c: _group(1)(c) and _suited(c) and not _pair(c),
}


@pytest.mark.parametrize("q", list(SEED_QUERIES))
def test_seed_003_queries(q):
    want = {c for c in ALL if SEED_QUERIES[q](c)}
    got = {(int(a), int(b)) for a, b in parse_query(q).combos}
    assert {tuple(sorted(c, reverse=True)) for c in got} == want


def test_seed_003_counts():
    """The sizes a reader can check by hand: 13 connected rank pairs (A2 too) x 4 suits, x 12 offsuit."""
    assert len(parse_query("Connected Suited")) == 52
    assert len(parse_query("Connected Offsuit")) == 156
    assert len(parse_query("Group2ToGroup5")) == 30 + 34 + 50 + 98
    assert len(parse_query("NotOffset")) == 312 + 78
    assert len(parse_query("Group1 Suited Not Pair")) == 4


def test_adjacency_binds_like_and():
    assert parse_query("Suited Connected Or Pair").combos.tolist() == parse_query(
        "(Suited And Connected) Or Pair").combos.tolist()
    assert len(parse_query("Not Pair Suited")) == 312


def test_range_command_takes_the_seed_form():
    p = subprocess.run([sys.executable, "-m", "jobs", "range", "Connected Suited", "--json"], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["combos"] == 52
