"""The one-pass checked evaluation and the prebuilt-hand path against the plain kernel and the reference."""

import numpy as np
import pytest
from oracles.reference import best_hand

from pipeline import CardError, evaluate, parse_cards
from pipeline.evaluator.hands import add_cards, evaluate_keys, hand_keys
from pipeline.evaluator.kernels import evaluate_checked, evaluate_into
from pipeline.evaluator.tables import tables


def _random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int64)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_checked_equals_the_kernel(k):
    hands = _random_hands(20_000, k, k)
    plain = np.empty(len(hands), np.int32)
    evaluate_into(hands, plain, tables())
    checked = np.empty(len(hands), np.int32)
    assert evaluate_checked(hands, checked, tables()) == -1
    assert (checked == plain).all()


@pytest.mark.parametrize("row", [[0, 1, 2, 3, 4, 5, 5], [0, 1, 2, 3, 4, 5, 52], [-1, 1, 2, 3, 4, 5, 6],
                                 [0, 1, 2, 3, 4, 5, 255], [51, 51, 2, 3, 4], [0, 1, 2, 3, 63, 7]])
def test_the_first_bad_row_is_named(row):
    good = [[8, 9, 10, 11, 12, 13, 14][:len(row)]] * 3
    cards = np.array(good + [row] + good, np.int64)
    assert evaluate_checked(cards, np.empty(len(cards), np.int32), tables()) == 3
    with pytest.raises(CardError, match="row 3 "):
        evaluate(cards)


def test_prebuilt_hands_equal_evaluate_and_the_reference():
    hands = _random_hands(5000, 7, 11)
    keys, suited = hand_keys(hands)
    assert (evaluate_keys(keys, suited) == evaluate(hands)).all()
    board = hands[:, :5]                        # a board shared, the holes added afterwards
    bk, bs = hand_keys(board)
    keys2, suited2 = add_cards(bk, bs, hands[:, 5:])
    assert (evaluate_keys(keys2, suited2) == evaluate(hands)).all()
    # order against the plain-Python reference on a sample
    sample = [list(map(int, h)) for h in hands[:300]]
    ref = [best_hand(h) for h in sample]
    ours = evaluate_keys(keys[:300], suited[:300]).tolist()
    for i in range(299):
        assert (ref[i] < ref[i + 1]) == (ours[i] < ours[i + 1])
        assert (ref[i] == ref[i + 1]) == (ours[i] == ours[i + 1])


def test_prebuilt_hands_refuse_bad_cards():
    with pytest.raises(CardError):
        hand_keys(np.array([parse_cards("AsAs")]))
    with pytest.raises(CardError):
        hand_keys(np.zeros((2, 8), np.int64))
    keys, suited = hand_keys(np.array([parse_cards("AsKs")]))
    with pytest.raises(CardError):
        add_cards(keys, suited, np.array([parse_cards("2c3c"), parse_cards("4c5c")]))


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
def test_values_into_a_given_array(dtype):
    hands = _random_hands(3_000, 7, 9).astype(dtype)
    fresh = evaluate(hands)
    into = np.full(len(hands), -7, np.int32)
    assert evaluate(hands, out=into) is into
    assert (into == fresh).all()
    keys, suited = hand_keys(hands)
    again = np.zeros(len(hands), np.int32)
    assert evaluate_keys(keys, suited, again) is again and (again == fresh).all()
    for bad in (np.empty(len(hands), np.int64), np.empty(len(hands) - 1, np.int32), np.empty((len(hands), 2),
                                                                                            np.int32)[:, 0]):
        with pytest.raises(CardError, match="out must be"):
            evaluate(hands, out=bad)
        with pytest.raises(CardError, match="out must be"):
            evaluate_keys(keys, suited, bad)
