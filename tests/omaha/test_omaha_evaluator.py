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


@pytest.mark.slow
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


@pytest.mark.parametrize("evaluate", [evaluate_omaha, evaluate_omaha_low])
def test_the_error_names_the_first_bad_row(evaluate):
    holes = [[51, 50, 49, 48], [47, 46, 45, 44], [43, 42, 41, 40]]
    boards = [[0, 1, 2, 3, 4], [0, 1, 2, 3, 46], [0, 1, 2, 3, -1]]
    with pytest.raises(CardError, match="row 1:"):
        evaluate(holes, boards)


def test_the_batch_layout_holds_the_pair_tables_entry_for_entry():
    from pipeline.omaha.tables import BOARD_MULTIPLIERS, OFFSUIT, PAIR_COLUMNS, omaha_tables, pair_column

    OT = omaha_tables()
    r1, r2 = np.divmod(np.arange(169), 13)
    col = np.array([pair_column(a, b) for a, b in zip(r1, r2)])
    assert (OT.high_pairs.reshape(-1, PAIR_COLUMNS)[:, col] == OT.pair_high).all()
    flush = OT.flush_pairs.reshape(-1, PAIR_COLUMNS)
    assert (flush[0] == 0).all() and (flush[1:, col] == OT.flush_pair).all()
    assert OT.high_pairs.ctypes.data % 64 == 0 and OT.flush_pairs.ctypes.data % 64 == 0   # a row: three lines
    keys = np.array(BOARD_MULTIPLIERS)[OT.board_ranks].sum(axis=1)
    assert (OT.board_row[keys] == np.arange(len(keys))).all()
    has = OT.flush_index >= 0
    assert (OT.flush_row[has] == OT.flush_index[has] + 1).all() and (OT.flush_row[~has] == 0).all()
    a, b = np.divmod(np.arange(52 * 52), 52)
    code = OT.pair_code[64 * a + b].astype(np.int64)
    assert (code & 127 == col[13 * (a >> 2) + (b >> 2)]).all()
    assert (code >> 7 == np.where(a & 3 == b & 3, a & 3, OFFSUIT)).all()
