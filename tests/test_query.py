"""The pocket query language, counted against plain Python definitions."""
import json
import subprocess
import sys

import pytest

from pipeline import CardError
from pipeline.equity import equity
from pipeline.hand_classes import hand_class
from pipeline.query import parse_query

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
                                       ("(Pair", "at the end"), ("Pair Pair", "column 6"), ("Zz Or Pair", "column 1")])
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
