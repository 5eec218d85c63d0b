"""The evaluator against published counts, a plain-Python reference and eval7."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from oracles.reference import best_hand, rank5

from pipeline import CardError, category, describe, evaluate, parse_cards
from pipeline.evaluator.kernels import RANK_MULTIPLIERS

FIVE_CARD_CATEGORIES = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
SEVEN_CARD_CATEGORIES = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584]


@njit(cache=True)
def _hands_from(first: int, k: int) -> np.ndarray:
    """All k-card hands whose lowest card is ``first``, as rows of ascending ids."""
    rest = 51 - first
    n = 1
    for i in range(k - 1):
        n = n * (rest - i) // (i + 1)
    out = np.empty((n, k), np.uint8)
    idx = np.arange(k - 1) + first + 1
    for row in range(n):
        out[row, 0] = first
        for j in range(k - 1):
            out[row, j + 1] = idx[j]
        i = k - 2
        while i >= 0 and idx[i] == 52 - (k - 1) + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, k - 1):
            idx[j] = idx[j - 1] + 1
    return out


def _census(k: int):
    cats = np.zeros(9, np.int64)
    distinct = set()
    total = 0
    for first in range(52 - k + 1):
        v = evaluate(_hands_from(first, k), check=False)
        cats += np.bincount(category(v), minlength=9)
        distinct.update(np.unique(v).tolist())
        total += len(v)
    return total, cats.tolist(), len(distinct)


def test_rank_multipliers_give_unique_sums():
    sums = {0: {0}}
    for m in RANK_MULTIPLIERS:   # every multiset of <= 7 ranks, <= 4 of each
        nxt = {}
        for t, ss in sums.items():
            for c in range(min(4, 7 - t) + 1):
                nxt.setdefault(t + c, set()).update(s + c * m for s in ss)
        sums = nxt
    flat = [s for ss in sums.values() for s in ss]
    assert len(flat) == len(set(flat))
    assert sum(len(ss) for t, ss in sums.items() if t == 7) == 49205


def test_all_five_card_hands():
    total, cats, distinct = _census(5)
    assert total == 2598960
    assert cats == FIVE_CARD_CATEGORIES
    assert distinct == 7462


@pytest.mark.slow
def test_all_seven_card_hands():
    total, cats, distinct = _census(7)
    assert total == 133784560
    assert cats == SEVEN_CARD_CATEGORIES
    assert distinct == 4824


def _random_hands(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int64)


@pytest.mark.slow
def test_ordering_matches_eval7_on_100000_pairs():
    eval7 = pytest.importorskip("eval7")
    deck = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    a, b = _random_hands(100_000, 7, 1), _random_hands(100_000, 7, 2)
    ours = np.sign(evaluate(a).astype(np.int64) - evaluate(b))
    theirs = np.array([np.sign(eval7.evaluate([deck[c] for c in x]) - eval7.evaluate([deck[c] for c in y]))
                       for x, y in zip(a.tolist(), b.tolist(), strict=True)])
    assert (ours == theirs).all()
    assert (ours == 0).sum() > 0 and (ours == 1).sum() > 40_000   # ties and both orders occur


@pytest.mark.parametrize("k", [5, 6, 7])
def test_ordering_matches_reference(k):
    a, b = _random_hands(3000, k, 10 + k), _random_hands(3000, k, 20 + k)
    va, vb = evaluate(a), evaluate(b)
    for x, y, u, v in zip(a.tolist(), b.tolist(), va, vb, strict=True):
        ra, rb = best_hand(x), best_hand(y)
        assert np.sign(int(u) - int(v)) == (ra > rb) - (ra < rb), (x, y)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_category_matches_reference(cards):
    assert category(evaluate(np.array([cards])))[0] == best_hand(cards)[0]


def test_six_cards_is_best_five_subset():
    hands = _random_hands(2000, 6, 5)
    six = evaluate(hands)
    subsets = np.array([[h[i] for i in range(6) if i != drop] for h in hands.tolist() for drop in range(6)])
    best = evaluate(subsets).reshape(-1, 6).max(axis=1)
    assert (six == best).all()


@pytest.mark.parametrize("hand, words", [
    ("9s9h8c8dAs2c3d", "two pair, Nines and Eights"),
    ("AhKhQhJhTh2c3c", "a Royal Flush"),
    ("5h4h3h2hAh9c9d", "a straight flush, Ace to Five"),
    ("9c8c7c6c5c", "a straight flush, Five to Nine"),
    ("AcAdAhAsKc2d3d", "four of a kind, Aces"),
    ("KcKdKhQsQc2d4d", "a full house, Kings full of Queens"),
    ("Ah9h7h4h2hKcKd", "a flush, Ace high"),
    ("Ac2d3h4s5c9d9c", "a straight, Ace to Five"),
    ("7c7d7hAsKd", "three of a kind, Sevens"),
    ("QcQdAsKd2h", "a pair of Queens"),
    ("2c3d4h5s7c9dJc", "high card Jack"),
])
def test_describe(hand, words):
    assert describe(evaluate(np.array([parse_cards(hand)]))[0]) == words


def test_category_values_are_ordered_by_class():
    hands = ["2c3d4h5s7c", "2c2d4h5s7c", "2c2d4h4s7c", "2c2d2h4s7c", "Ac2d3h4s5c", "2c4c6c8cTc",
             "2c2d2h3s3c", "2c2d2h2s3c", "Ac2c3c4c5c"]
    values = evaluate(np.array([parse_cards(h) for h in hands]))
    assert category(values).tolist() == list(range(9))
    assert [rank5(parse_cards(h))[0] for h in hands] == list(range(9))


@pytest.mark.parametrize("bad", [[[0, 1, 2, 3]], [[0, 1, 2, 3, 52]], [[0, 0, 1, 2, 3]], [[-1, 1, 2, 3, 4]]])
def test_bad_batches(bad):
    with pytest.raises(CardError):
        evaluate(np.array(bad))


@pytest.mark.slow
def test_dtypes_agree():
    hands = _random_hands(1000, 7, 3)
    ref = evaluate(hands)
    for dt in (np.uint8, np.int16, np.int32, np.uint64):
        assert (evaluate(hands.astype(dt)) == ref).all()
    assert evaluate(hands).dtype == np.int32
