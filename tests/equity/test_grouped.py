"""Exact postflop equity of listed combo assignments by groups (:mod:`pipeline.equity.grouped`): the integer
counts against the plain brute force of ``tests/oracles/shares.py``, weighted ranges against the
combo-by-combo enumeration of :mod:`pipeline.equity.exact`, and the fallbacks."""
import numpy as np
import pytest
from oracles.shares import brute_shares

import pipeline.equity.calculator as calculator
import pipeline.equity.exact_runs as exact_runs
import pipeline.equity.fast_postflop as fast_postflop
from pipeline import parse_cards
from pipeline.core.cards import mask_of
from pipeline.equity import equity
from pipeline.equity.assignment_groups import list_assignments
from pipeline.equity.grouped import FIT, TOO_MANY_GROUPS, grouped_kernel
from pipeline.equity.suits import stabilizer
from pipeline.evaluator.tables import tables
from pipeline.ranges.query import parse_query


def _combos(text: str) -> list[tuple[int, int]]:
    return [tuple(c) for c in parse_query(text).combos.tolist()]


def _spy(monkeypatch, name: str) -> list:
    answered: list = []
    real = getattr(fast_postflop, name)

    def spy(*a, **k):
        r = real(*a, **k)
        answered.append(r is not None)
        return r

    monkeypatch.setattr(fast_postflop, name, spy)
    return answered


@pytest.mark.slow
@pytest.mark.parametrize("players, board, dead", [
    (["AKs,AQs", "QQ+", "JTs,T9s"], "Jh8c2d", ""),          # the benchmark's question: rainbow flop
    (["AKs,AQs", "QQ+", "JTs,T9s"], "Jh8h2d", ""),          # two-tone: one more heart makes a flush
    (["AKs,AQs", "QQ+", "JTs,T9s"], "Jh8h2h", ""),          # monotone: suited ranks and five-heart boards
    (["AKs,AQs", "QQ+", "JTs,T9s"], "Jh8h2h5h", ""),        # a turn with four hearts
    (["AKs,AQs", "QQ+", "JTs,T9s"], "Jh8c2d5h9h", ""),      # a river
    (["AA,KK", "QQ,JJ"], "2c3c4c", ""),                     # heads-up, suit symmetries (canonical runouts)
    (["AA", "KK", "QQ"], "2c3c4c", "5d"),                   # symmetries broken by a dead card
    (["AhKh", "QQ+", "JTs,T9s,22"], "Qs7h2c", ""),           # a hand and two ranges, blocked combos
    (["AK,AQ", "AK,KQ", "AQ,KQ"], "Jh8c2d", ""),            # colliding ranges: many card clashes
    (["T9s,98s,87s", "JTs,T9s", "99,88", "8h7h"], "Th9c8d", ""),   # four players sharing ranks, runouts of both
])
def test_counts_equal_the_brute_force(monkeypatch, players, board, dead):
    grouped = _spy(monkeypatch, "_grouped")
    r = equity(players, board=board, dead=dead, exact=True, threads=1)
    assert grouped == [True]
    counts, boards = brute_shares([_combos(x) for x in players], parse_cards(board),
                                  parse_cards(dead) if dead else [])
    assert r.boards == boards
    assert [q.shares for q in r.players] == counts.tolist()


@pytest.mark.parametrize("players, board", [
    (["AA:0.5,KK,QQ:0.25", "AK,KQ:0.3"], "Kh7h2c"),
    (["AA:0.5,KK,QQ:0.25,AKs:0.7", "AK,KQ:0.3,JTs", "TT:0.9,99"], "Kh7h2h"),
    (["AA:0.5,KK,QQ:0.25", "AK,KQ:0.3"], "Kh7h2c5d"),
    (["AhKh:0.5", "AA:0.5,KK,QQ:0.25", "JTs"], "Ks7h2c5d9h"),
])
def test_weighted_ranges_equal_the_combo_enumeration(monkeypatch, players, board):
    grouped = _spy(monkeypatch, "_grouped")
    new = equity(players, board=board, exact=True, threads=1)
    assert grouped == [True]
    with monkeypatch.context() as m:
        m.setattr(calculator, "_exact_fast", lambda *a, **k: None)
        m.setattr(calculator, "_exact_by_runouts", lambda *a, **k: None)
        old = equity(players, board=board, exact=True, threads=1)
    assert new.boards == old.boards
    for a, b in zip(new.players, old.players):
        assert a.equity == pytest.approx(b.equity, rel=1e-12)
        assert a.shares == pytest.approx(b.shares, rel=1e-12)


@pytest.mark.slow
def test_the_general_path_groups_too(monkeypatch):
    """Tiny weights are rescaled by the general path, which then groups the assignments itself."""
    players, board = ["AA:1e-200,KK:1e-200", "QQ,JJ:1e-200"], "2c7d9h"
    r = equity(players, board=board, exact=True, threads=1)
    with monkeypatch.context() as m:
        m.setattr(exact_runs, "grouped_counts", lambda *a, **k: None)
        old = equity(players, board=board, exact=True, threads=1)
    assert r.boards == old.boards
    for a, b in zip(r.players, old.players):
        assert a.equity == pytest.approx(b.equity, rel=1e-12)


def test_list_assignments_lists_every_disjoint_assignment():
    players = [parse_query(x) for x in ("AK,AQ", "AK,KQ", "AQ,KQ")]
    masks = np.concatenate([p.masks for p in players])
    offsets = np.cumsum([0] + [len(p) for p in players]).astype(np.int64)
    used = mask_of(parse_cards("Ah"))
    got = list_assignments(masks, offsets, np.uint64(used), 32 ** 3)
    expected = [(a, b, c) for a in range(32) for b in range(32, 64) for c in range(64, 96)
                if not (masks[a] & masks[b] or masks[a] & masks[c] or masks[b] & masks[c]
                        or (masks[a] | masks[b] | masks[c]) & used)]
    assert sorted(map(tuple, got.tolist())) == expected


@pytest.mark.slow
def test_too_many_groups_is_told():
    """Suited ranges on a monotone flop: nearly every assignment is a group of its own on the flush runouts, so
    grouping does not pay; on a river where no flush is possible the rank pairs group them well."""
    players = [parse_query(x) for x in ("A2s+", "K2s+", "Q2s+")]

    def status(board: str) -> int:
        b = parse_cards(board)
        return grouped_kernel(np.concatenate([p.combos for p in players]).astype(np.int64),
                              np.concatenate([p.masks for p in players]),
                              np.concatenate([p.weights for p in players]),
                              np.cumsum([0] + [len(p) for p in players]).astype(np.int64), np.array(b, np.int64),
                              np.uint64(0), stabilizer(b, []).astype(np.int64),
                              int(np.prod([len(p) for p in players])), *tables())[0]

    assert status("2h7h9h") == TOO_MANY_GROUPS
    assert status("2h7c9dJs4d") == FIT
