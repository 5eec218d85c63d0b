"""The abstraction's exact features against a plain brute force: every runout and every opponent hand — the
river by the reference evaluator of tests/oracles, the turn and flop (a thousand times the evaluations) by
eval7, a peer."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import eval7
import numpy as np
import pytest
from oracles.reference import best_hand

from pipeline.abstraction import features as F
from pipeline.abstraction.lookup import default_clusters, situation
from pipeline.core.cards import format_card
from pipeline.core.hand_classes import class_of
from pipeline.isomorphism.boards import canonical_boards
from pipeline.isomorphism.situations import situation_cards, situation_index

RNG = np.random.default_rng(21)


def _value(cards: list[int]) -> int:
    return eval7.evaluate([eval7.Card(format_card(c)) for c in cards])


def brute_river(hole: list[int], board: list[int], clusters: np.ndarray,
                value: Callable[[list[int]], Any] = _value) -> tuple[int, list[int], list[int]]:
    """``2·wins + ties`` against every opponent hand, and per opponent cluster the same and its live hands."""
    dead = set(hole) | set(board)
    live = [c for c in range(52) if c not in dead]
    me = value(hole + board)
    total, per, count = 0, [0] * 8, [0] * 8
    for a, b in itertools.combinations(live, 2):
        them = value([a, b] + board)
        score = 2 if me > them else (1 if me == them else 0)
        j = int(clusters[class_of(a, b)])
        total += score
        per[j] += score
        count[j] += 1
    return total, per, count


def brute_runouts(hole: list[int], board: list[int], bins: int) -> tuple[int, list[int]]:
    """Sum and histogram of the river counts over every runout of a flop or turn."""
    dead = set(hole) | set(board)
    live = [c for c in range(52) if c not in dead]
    hist, total = [0] * bins, 0
    for runout in itertools.combinations(live, 5 - len(board)):
        full = board + list(runout)
        w2 = brute_river(hole, full, np.zeros(169, np.int64))[0]
        total += w2
        hist[min(bins - 1, w2 * bins // 1980)] += 1
    return total, hist


@pytest.mark.slow
def test_river_features_equal_the_brute_force() -> None:
    clusters = default_clusters()
    boards = canonical_boards(5)[RNG.choice(134459, 40, replace=False)]
    rf = F.river_features(boards, clusters)
    ochs = rf.ochs
    for row in RNG.choice(len(rf.index), 3, replace=False):
        hole, board = situation_cards(int(rf.index[row]), 5)
        total, per, count = brute_river(hole, board, clusters, best_hand)
        assert rf.win2[row] == total
        assert rf.cluster_win2[row].tolist() == per
        assert rf.cluster_live[row].tolist() == count
        for j in range(8):
            want = per[j] / (2 * count[j]) if count[j] else total / 1980
            assert ochs[row, j] == pytest.approx(want, abs=1e-6)


@pytest.mark.slow
def test_turn_histograms_equal_the_brute_force() -> None:
    boards = canonical_boards(4)[RNG.choice(16432, 5, replace=False)]
    tf = F.runout_features(boards, 50)
    assert (tf.histogram.sum(axis=1) == 46).all()
    for row in RNG.choice(len(tf.index), 2, replace=False):
        hole, board = situation_cards(int(tf.index[row]), 4)
        total, hist = brute_runouts(hole, board, 50)
        assert tf.win2[row] == total
        assert tf.histogram[row].tolist() == hist


@pytest.mark.slow
def test_flop_histogram_and_its_turns_equal_the_brute_force_and_the_turn_kernel() -> None:
    board = canonical_boards(3)[int(RNG.integers(1755))]
    ff = F.runout_features(board[None, :], 20, turns=True)
    assert (ff.histogram.sum(axis=1) == 1081).all()
    row = int(RNG.integers(len(ff.index)))
    hole, canon = situation_cards(int(ff.index[row]), 3)
    total, hist = brute_runouts(hole, canon, 20)
    assert ff.win2[row] == total
    assert ff.histogram[row].tolist() == hist
    # each of its 47 turn cards' histograms is the turn situation's (the turn kernel, on the turn board)
    assert ff.turns is not None
    row_board = [int(c) for c in board]
    live = [c for c in range(52) if c not in row_board]
    hole_row, _ = _hole_on(board, int(ff.index[row]))
    turn_cards = [c for c in live if c not in hole_row]
    assert len(turn_cards) == 47
    for t in (0, 23, 46):
        tb = np.array([sorted(row_board + [turn_cards[t]])], np.int64)
        tf = F.runout_features(tb, 20)
        at = int(np.searchsorted(tf.index, situation_index(hole_row, tb[0].tolist())))
        assert ff.turns[row, t].tolist() == tf.histogram[at].tolist()


def _hole_on(board: np.ndarray, index: int) -> tuple[list[int], list[int]]:
    """A hole on this very board (not the canonical one) with situation ``index``."""
    b = [int(c) for c in board]
    for hole in itertools.combinations([c for c in range(52) if c not in b], 2):
        if situation_index(list(hole), b) == index:
            return list(hole), b
    raise AssertionError("no hole")


@pytest.mark.slow
def test_weights_count_the_deck() -> None:
    """The situations of one canonical board stand for its orbit times every hole on it."""
    for m in (3, 4, 5):
        boards = canonical_boards(m)[:25]
        if m == 5:
            f = F.river_features(boards, np.zeros(169, np.int64))
        else:
            f = F.runout_features(boards, 10)
        n = 52 - m
        want = sum(F.board_orbit(b) for b in boards) * n * (n - 1) // 2
        assert int(f.weight.sum()) == want
    # a board with no suit symmetry stands for 24 boards; a rainbow-free monotone flop for 4
    assert F.board_orbit([0, 5, 10]) == 24 and F.board_orbit([0, 4, 8]) == 4


@pytest.mark.slow
def test_features_do_not_depend_on_suits_or_card_order() -> None:
    a = situation("AhKh", "Qh7h2c")
    b = situation("KsAs", "2d7sQs")
    assert (a.index, a.equity, a.histogram) == (b.index, b.equity, b.histogram)
    r1 = situation("AhKd", "Qh7h2cTd3s")
    r2 = situation("KcAs", "3h2dTcQs7s")
    assert (r1.index, r1.equity, r1.ochs) == (r2.index, r2.equity, r2.ochs)
