"""Exact counts against two random hands (:mod:`pipeline.equity.two_opponents`).

The per-board counts are checked against an independent brute force over every
pair of opponent hands (:mod:`oracles.two_opponents_brute`); the suit-orbit
weighting against the orbit's boards themselves; the totals against
combos x C(50,5) x C(45,2) x C(43,2) / 2.  The full 169-class run (about half a
minute) is built by the CLI tests' preflop set (tests/cli/test_cli_jobs.py checks its rows against Monte
Carlo) and timed by ``benchmarks/bench_two_opponents.py``.
"""
from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from oracles.two_opponents_brute import brute_outcomes

from pipeline.core.hand_classes import CLASS_INDEX, class_of
from pipeline.equity.two_opponents import (
    DEALS_PER_COMBO,
    PAIRS_PER_HERO,
    board_chunks,
    board_orbits,
    board_outcomes,
    chunk_counts,
    class_combo_counts,
    class_counts_of_boards,
    outcome_fractions,
)
from pipeline.isomorphism.boards import canonical_boards

BOARDS = [
    [0, 5, 10, 20, 51],        # 2c 3d 4h 7c As: rainbow, a wheel draw
    [48, 49, 50, 44, 40],      # Ac Ad Ah Kc Qc: trips of aces on the board
    [0, 4, 8, 12, 30],         # 2c 3c 4c 5c 9h: four to a straight flush
    [3, 7, 11, 15, 19],        # 2s..6s: a straight flush on the board, three-way ties galore
    [36, 37, 38, 39, 1],       # four tens and a deuce: everyone plays the board or a kicker
]


def test_constants():
    assert PAIRS_PER_HERO == comb(45, 2) * comb(43, 2) // 2 == 446_985
    assert DEALS_PER_COMBO == comb(50, 5) * PAIRS_PER_HERO
    assert class_combo_counts().sum() == comb(52, 2)
    assert class_combo_counts()[CLASS_INDEX["AA"]] == 6 and class_combo_counts()[CLASS_INDEX["AKs"]] == 4


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
def test_board_counts_match_brute_force(board):
    hands, counts = board_outcomes(np.array(board))
    live = sorted(set(range(52)) - set(board))
    assert sorted(map(tuple, hands.tolist())) == list(itertools.combinations(live, 2))
    assert (counts.sum(axis=1) == PAIRS_PER_HERO).all() and (counts >= 0).all()
    for p in range(0, len(hands), 53):                    # 21 heroes of every board, weak and strong
        assert brute_outcomes(board, tuple(hands[p])).tolist() == counts[p].tolist(), hands[p]


def test_orbit_weighting_equals_the_orbit_itself():
    """A canonical board counted ``orbit`` times gives the class counts of all the boards it stands for."""
    perms = list(itertools.permutations(range(4)))
    for board in canonical_boards(5)[[0, 777, 60_000, 134_458]].astype(np.int64):
        orbit = sorted({tuple(sorted(4 * (c >> 2) + p[c & 3] for c in board)) for p in perms})
        assert board_orbits(board[None])[0] == len(orbit)
        every = class_counts_of_boards(np.array(orbit))
        assert (class_counts_of_boards(board[None], board_orbits(board[None])) == every).all()


def test_orbits_cover_the_deck():
    assert board_orbits(canonical_boards(5).astype(np.int64)).sum() == comb(52, 5)


def test_chunk_totals():
    """Over a chunk of boards each class's deals are its combos live on each board x orbit x 446,985."""
    start, stop = board_chunks()[5]
    stop = start + 300
    boards = canonical_boards(5)[start:stop]
    counts = chunk_counts(start, stop)
    expected = np.zeros(169, np.int64)
    for board, w in zip(boards.tolist(), board_orbits(boards.astype(np.int64)).tolist()):
        for a, b in itertools.combinations(sorted(set(range(52)) - set(board)), 2):
            expected[class_of(a, b)] += w * PAIRS_PER_HERO
    assert (counts.sum(axis=1) == expected).all()


def test_chunks_partition_the_boards():
    chunks = board_chunks()
    assert chunks[0][0] == 0 and chunks[-1][1] == len(canonical_boards(5))
    assert all(a[1] == b[0] for a, b in zip(chunks, chunks[1:]))


def test_fractions_from_integers():
    win, tie, eq, deals = outcome_fractions(np.array([[6, 2, 3, 1]]))
    assert deals[0] == 12 and win[0] == 0.5 and tie[0] == 5 / 12
    assert eq[0] == (6 + 2 / 2 + 3 / 3) / 12
