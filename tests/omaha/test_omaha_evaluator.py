"""The Omaha evaluator against pokerkit's Omaha hands and a plain brute force of every two-plus-three choice."""
from itertools import combinations

import numpy as np
import pytest
from oracles.omaha import best_high, best_low

from pipeline import CardError
from pipeline.core.cards import format_cards
from pipeline.omaha import NO_LOW, evaluate_omaha, evaluate_omaha_low, low_ranks


def _deals(k, n, seed):
    rng = np.random.default_rng([k, seed])
    cards = np.array([rng.permutation(52)[:2 * k + 5] for _ in range(n)])
    return cards[:, :k], cards[:, k:2 * k], cards[:, 2 * k:]


def _sign(x):
    return (x > 0) - (x < 0)


def _brute_high(hole, board):
    return best_high(tuple(hole), tuple(board))


def _brute_low(hole, board):
    return best_low(tuple(hole), tuple(board))


@pytest.mark.parametrize("k", [4, 5, 6])
def test_orders_hands_as_pokerkit_does(k):
    from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

    a, b, board = _deals(k, 100, 1)
    ha, hb = evaluate_omaha(a, board), evaluate_omaha(b, board)
    la, lb = evaluate_omaha_low(a, board), evaluate_omaha_low(b, board)
    for i in range(len(board)):
        bd = format_cards(board[i].tolist(), sep="")
        pa = OmahaHoldemHand.from_game(format_cards(a[i].tolist(), sep=""), bd)
        pb = OmahaHoldemHand.from_game(format_cards(b[i].tolist(), sep=""), bd)
        assert _sign(int(ha[i]) - int(hb[i])) == (pa > pb) - (pa < pb), (a[i], b[i], board[i])
        qa = OmahaEightOrBetterLowHand.from_game_or_none(format_cards(a[i].tolist(), sep=""), bd)
        qb = OmahaEightOrBetterLowHand.from_game_or_none(format_cards(b[i].tolist(), sep=""), bd)
        assert (la[i] == NO_LOW) == (qa is None) and (lb[i] == NO_LOW) == (qb is None)
        if qa is not None and qb is not None:
            assert _sign(int(la[i]) - int(lb[i])) == (qa > qb) - (qa < qb)


@pytest.mark.parametrize("k", [4, 6])
def test_equals_a_plain_brute_force(k):
    a, b, board = _deals(k, 80, 2)
    ha, hb = evaluate_omaha(a, board), evaluate_omaha(b, board)
    la = evaluate_omaha_low(a, board)
    for i in range(len(board)):
        ra, rb = _brute_high(a[i].tolist(), board[i].tolist()), _brute_high(b[i].tolist(), board[i].tolist())
        assert _sign(int(ha[i]) - int(hb[i])) == (ra > rb) - (ra < rb)
        low = _brute_low(a[i].tolist(), board[i].tolist())
        assert low_ranks(int(la[i])) == ("-" if low is None else "-".join("A" if r == 1 else str(r) for r in low))


def test_high_values_are_holdem_values():
    from pipeline.evaluator import evaluate

    a, _, board = _deals(4, 200, 3)
    got = evaluate_omaha(a, board)
    for i in range(len(board)):     # the best of the sixty five-card hands, by the hold'em evaluator
        five = [list(p) + list(t) for p in combinations(a[i].tolist(), 2) for t in combinations(board[i].tolist(), 3)]
        assert got[i] == evaluate(np.array(five)).max()


@pytest.mark.parametrize("holes, boards, match", [
    ([[51, 50, 49, 48]], [[51, 0, 1, 2, 3]], "not distinct"),
    ([[51, 50, 49]], [[0, 1, 2, 3, 4]], "4|5|6"),
    ([[51, 50, 49, 48]], [[0, 1, 2, 3]], "4|5|6"),
    ([[52, 50, 49, 48]], [[0, 1, 2, 3, 4]], "not distinct"),
    ([[1.0, 2.0, 3.0, 4.0]], [[5, 6, 7, 8, 9]], "integer"),
])
def test_bad_input(holes, boards, match):
    with pytest.raises(CardError, match=match):
        evaluate_omaha(holes, boards)
