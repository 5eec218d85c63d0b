import numpy as np
import pytest

from pipeline.core.cards import CardError, parse_cards
from pipeline.core.hand_classes import hand_class
from pipeline.ranges.syntax import parse_range


@pytest.mark.parametrize("text, n", [
    ("AKs", 4), ("AKo", 12), ("AK", 16), ("QQ", 6), ("QQ+", 18), ("22-66", 30), ("TT-", 54),
    ("A2s-A5s", 16), ("A5s-A2s", 16), ("KTo+", 36), ("KT+", 48), ("AhKh", 1), ("Ah Kh", 1),
    ("random", 1326), ("any", 1326), ("QQ+, AKs", 22), ("AKs, AK", 16), ("kts", 4),
])
def test_combo_counts(text, n):
    assert len(parse_range(text)) == n


def test_members():
    r = parse_range("KTo+")
    classes = {hand_class(a, b) for a, b in r.combos}
    assert classes == {"KTo", "KJo", "KQo"}
    assert {hand_class(a, b) for a, b in parse_range("A2s-A5s").combos} == {"A2s", "A3s", "A4s", "A5s"}
    assert {hand_class(a, b) for a, b in parse_range("22-44").combos} == {"22", "33", "44"}
    (combo,) = parse_range("KhAh").combos
    assert sorted(combo) == sorted(parse_cards("AhKh"))


def test_weights_last_mention_wins():
    r = parse_range("AK:0.25, AKs")
    w = {hand_class(a, b): wt for (a, b), wt in zip(r.combos, r.weights)}
    assert w == {"AKs": 1.0, "AKo": 0.25}
    assert np.isclose(parse_range("QQ+:0.5").weights, 0.5).all()


@pytest.mark.parametrize("text", ["", " ", "AKx", "AAs", "QQ+,,KK", "AKs:2", "AKs:x", "AhAh", "AhKhQh",
                                  "A2s-K5s", "A2s-A5o", "AK:0"])
def test_malformed(text):
    with pytest.raises(CardError):
        parse_range(text)


def test_without_removes_blocked_combos():
    r = parse_range("AA").without(1 << parse_cards("As")[0])
    assert len(r) == 3
