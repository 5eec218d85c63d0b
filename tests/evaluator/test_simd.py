"""The eight-hands-a-step path of pipeline.evaluate (uint8 seven-card arrays, AVX-512) against the plain kernel:
the same values, and the first bad row named wherever it falls in a block of eight or in the tail."""
import numpy as np
import pytest

from pipeline import CardError, evaluate
from pipeline.evaluator.kernels import evaluate_into
from pipeline.evaluator.hands import _evaluate_keys, hand_keys
from pipeline.evaluator.simd import FAST_SIMD, evaluate_hands7, evaluate_keys8, lookup_values, padded_values
from pipeline.evaluator.tables import tables


def _hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 20_003])
def test_values_equal_the_kernel(n):
    hands = _hands(n, n)
    plain = np.empty(n, np.int32)
    evaluate_into(hands, plain, tables())
    assert (evaluate(hands) == plain).all() and (evaluate(hands.view(np.int8)) == plain).all()
    if FAST_SIMD:
        out = np.zeros(n, np.int32)
        assert evaluate_hands7(hands, out, tables(), padded_values()) == -1 and (out == plain).all()


def test_flushes_and_straight_flushes_in_every_lane():
    """A block of eight flush hands (each valued in its lane: the suit picked per lane) among ordinary ones."""
    flushes = np.array([[0, 4, 8, 12, 16, 30, 41], [48, 44, 40, 36, 32, 1, 2], [3, 7, 11, 19, 27, 35, 51],
                        [2, 6, 10, 14, 22, 0, 1], [1, 5, 9, 13, 17, 21, 25], [51, 47, 43, 39, 35, 31, 27],
                        [50, 46, 42, 38, 34, 30, 26], [49, 45, 41, 37, 33, 29, 25]], np.uint8)
    hands = np.concatenate([_hands(5, 1), flushes, _hands(11, 2), flushes[::-1]])
    plain = np.empty(len(hands), np.int32)
    evaluate_into(hands, plain, tables())
    assert (evaluate(hands) == plain).all()
    assert (plain[5:13] >> 12 >= 5).all()          # flushes or better


@pytest.mark.parametrize("row", [0, 3, 7, 8, 15, 40, 41])
@pytest.mark.parametrize("fault", ["repeat", "past 51", "negative"])
def test_the_first_bad_row_is_named(row, fault):
    hands = _hands(42, 7)
    i, j = [(0, 6), (2, 3), (5, 1)][row % 3]
    if fault == "repeat":
        hands[row, j] = hands[row, i]
    elif fault == "past 51":
        hands[row, j] = 52 + row
    else:
        hands.view(np.int8)[row, j] = -1
    hands[row + 1:, 0] = hands[row + 1:, 1]        # later rows are bad too: the first one is named
    for cards in (hands, hands.view(np.int8)):
        with pytest.raises(CardError, match=f"row {row} "):
            evaluate(cards)


@pytest.mark.skipif(not FAST_SIMD, reason="the eight-a-step paths need AVX-512 F and BW")
@pytest.mark.parametrize("n", [1, 7, 8, 9, 20_003])
def test_prebuilt_hands_eight_a_step_equal_the_scalar_lookups(n):
    """evaluate_keys8 (flushes valued in their lanes, from the joined table) against the scalar loop, on random
    hands and on blocks made of flushes of every suit, five to seven cards."""
    flushes = np.array([[0, 4, 8, 12, 16, 30, 41], [48, 44, 40, 36, 32, 1, 2], [3, 7, 11, 19, 27, 35, 51],
                        [2, 6, 10, 14, 22, 0, 1], [1, 5, 9, 13, 17, 21, 25], [51, 47, 43, 39, 35, 31, 27],
                        [50, 46, 42, 38, 34, 30, 26], [49, 45, 41, 37, 33, 29, 25]], np.uint8)
    hands = np.concatenate([_hands(n, n + 1), flushes, flushes[::-1]])
    for k in (5, 6, 7):
        keys, suited = hand_keys(hands[:, :k])
        plain = np.empty(len(hands), np.int32)
        _evaluate_keys(keys, suited, plain, tables())
        fast = np.zeros(len(hands), np.int32)
        evaluate_keys8(keys, suited, fast, tables(), lookup_values())
        assert (fast == plain).all()
        assert (evaluate_into(hands[:, :k], plain, tables()) is None) and (fast == plain).all()
        if k == 7:
            assert (plain[n:] >> 12 >= 5).all()          # flushes or better
