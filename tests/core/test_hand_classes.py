"""The 169 hand classes, against a plain-Python definition from the ranks and suits of the text."""
from itertools import combinations

import numpy as np
import pytest
from numba import njit

from pipeline.core.cards import CardError, format_card
from pipeline.core.hand_classes import CLASS_INDEX, CLASS_LABELS, class_combos, class_of, hand_class, label_combos

ORDER = "AKQJT98765432"   # grid rows and columns, ace first


def _label(a: int, b: int) -> str:
    """The class label written from the card text alone: 'AsKs' -> 'AKs'."""
    x, y = sorted((format_card(a), format_card(b)), key=lambda t: ORDER.index(t[0]))
    if x[0] == y[0]:
        return x[0] + y[0]
    return x[0] + y[0] + ("s" if x[1] == y[1] else "o")


ALL_HANDS = list(combinations(range(52), 2))


def test_grid_order_is_the_poker_chart():
    assert len(CLASS_LABELS) == len(set(CLASS_LABELS)) == 169
    grid = np.array(CLASS_LABELS).reshape(13, 13)
    for i, r in enumerate(ORDER):
        assert grid[i, i] == r + r
        for j in range(i + 1, 13):
            assert grid[i, j] == r + ORDER[j] + "s" and grid[j, i] == r + ORDER[j] + "o"
    assert all(CLASS_LABELS[CLASS_INDEX[label]] == label for label in CLASS_LABELS)


def test_label_and_index_of_every_hand_agree_with_the_text():
    for a, b in ALL_HANDS:
        want = _label(a, b)
        assert hand_class(a, b) == hand_class(b, a) == want
        assert class_of(a, b) == CLASS_INDEX[want]


@njit(cache=False)
def _all_indices(hands):
    out = np.empty(len(hands), np.int64)
    for k in range(len(hands)):
        out[k] = class_of(hands[k, 0], hands[k, 1])
    return out


def test_kernel_inside_numba_matches_python():
    hands = np.array(ALL_HANDS, np.int64)
    got = _all_indices(hands)
    assert [CLASS_LABELS[i] for i in got] == [_label(a, b) for a, b in ALL_HANDS]


def test_combos_of_each_class_are_exactly_its_hands():
    by_label: dict[str, set] = {}
    for a, b in ALL_HANDS:
        by_label.setdefault(_label(a, b), set()).add((b, a))   # high id first
    for label in CLASS_LABELS:
        combos = label_combos(label)
        assert len(combos) == len(set(combos)) == {2: 6, 3: 4 if label[2:] == "s" else 12}[len(label)]
        assert set(combos) == by_label[label]
    assert sum(len(label_combos(x)) for x in CLASS_LABELS) == 1326
    assert set(class_combos(12, 11, "")) == by_label["AKs"] | by_label["AKo"]


def test_unknown_label_is_refused():
    with pytest.raises(CardError, match="unknown hand class 'KAs'"):
        label_combos("KAs")
