"""Exact equity of one range against specific hands after the flop (:mod:`pipeline.equity.one_range`): the
integer counts against the plain brute force of ``tests/oracles/shares.py``, weighted ranges against the
combo-by-combo enumeration of :mod:`pipeline.equity.exact`, and the front's fallbacks."""
from types import ModuleType

import numpy as np
import pytest
from oracles.shares import brute_shares

import pipeline.equity.calculator as calculator
import pipeline.equity.fast_postflop as fast_postflop
from pipeline import parse_cards
from pipeline.core.cards import CardError
from pipeline.equity import equity
from pipeline.ranges.query import parse_query


def _combos(text: str) -> list[tuple[int, int]]:
    return [tuple(c) for c in parse_query(text).combos.tolist()]


def _spy(monkeypatch, name: str = "_one_range", module: ModuleType = fast_postflop) -> list:
    """Calls of the one-range kernel's path (or ``name``'s, as ``module`` calls it): whether each answered."""
    answered: list = []
    real = getattr(module, name)

    def spy(*a, **k):
        r = real(*a, **k)
        answered.append(r is not None)
        return r

    monkeypatch.setattr(module, name, spy)
    return answered


@pytest.mark.parametrize("players, board, dead", [
    (["AhKh", "22+"], "Qh7h2c", ""),                      # two-tone flop: the benchmark's question
    (["22+,AJs+,KQo,T9s", "AhKh"], "Qh7h2h", ""),         # monotone: suited combos make the flush; range first
    (["AhKd", "JTs,98s,76s,55,A5s"], "9c8c2d", ""),       # suited connectors on a two-tone flop
    (["7s6s", "AA,KK,AKs,AKo,QQ"], "Ks8d2c", ""),         # rainbow; blocked combos (a king on the board)
    (["AhKh", "22+,ATs+,KJo+"], "Qh7h2c5h", ""),          # a turn with four hearts: one heart makes the flush
    (["AsQc", "JTs,TT,77,A2s-A5s"], "Kh9h4h3h", "2s"),    # four of a suit on the turn, a dead card
    (["AhKh", "22+,A2s+"], "2h5h9h", ""),                 # monotone flop: runouts with five hearts
    (["2c2d", "random"], "7h8h9c", "Ah"),                 # the whole deck against a pair, a dead card
    (["AhKh", "QsQd", "JTs,T9s,22+"], "Qh7h2c", ""),      # two specific hands and a range
    (["9h9d", "KK+,AQs", "5c4c"], "Ac7c3d", ""),          # ties between the specific hands
    (["AhKh", "22+,AJs+,KQo"], "Qh7h2c5h9h", ""),         # a river
    (["AhKh", "77,22,QQ"], "Qh7h2c", ""),                 # sets: full houses against a flush
])
def test_counts_equal_the_brute_force(monkeypatch, players, board, dead):
    answered = _spy(monkeypatch)
    r = equity(players, board=board, dead=dead, exact=True, threads=1)
    assert answered == [True]
    counts, boards = brute_shares([_combos(x) for x in players], parse_cards(board),
                                  parse_cards(dead) if dead else [])
    assert r.boards == boards
    assert [q.shares for q in r.players] == counts.tolist()
    assert r.board == board and r.dead == dead


@pytest.mark.parametrize("players, board", [
    (["AhKh", "AA:0.5,KK,QQ:0.25,JTs:0.75,22"], "Ks7h2c"),
    (["AhKh", "AA:0.5,KK,QQ:0.25,JTs:0.75,T9s,22"], "Kd7d2d"),
    (["AA:0.5,KK,QQ:0.25,AK:0.3", "QsJs", "7d7c"], "Ks8s2c5s"),
    (["AhKh", "AA:0.5,KK,QQ:0.25"], "Ks7h2c5d9h"),
])
def test_weighted_ranges_equal_the_combo_enumeration(monkeypatch, players, board):
    answered = _spy(monkeypatch)
    new = equity(players, board=board, exact=True, threads=1)
    with monkeypatch.context() as m:
        m.setattr(calculator, "_exact_fast", lambda *a, **k: None)
        m.setattr(calculator, "_exact_by_runouts", lambda *a, **k: None)
        old = equity(players, board=board, exact=True, threads=1)
    assert answered == [True]
    assert new.boards == old.boards
    for a, b in zip(new.players, old.players):
        assert a.wins is None and b.wins is None
        assert a.equity == pytest.approx(b.equity, rel=1e-12)
        assert a.shares == pytest.approx(b.shares, rel=1e-12)


def test_blocked_weights_leave_integers(monkeypatch):
    """A weighted range whose weighted combos are all blocked counts in integers, as the general path does."""
    players, board = ["AdAs", "AA:0.5,KK,QQ"], "Ac7d2c"      # every AA combo blocked: unit weights left
    new = equity(players, board=board, exact=True, threads=1)
    with monkeypatch.context() as m:
        m.setattr(calculator, "_exact_fast", lambda *a, **k: None)
        old = equity(players, board=board, exact=True, threads=1)
    assert new.players[0].wins is not None
    assert [p.shares for p in new.players] == [p.shares for p in old.players]


@pytest.mark.parametrize("players, board, dead, message", [
    (["AhKh", "22+"], "Qh7h2c", "Qh", "duplicate card Qh"),
    (["AhQh", "22+"], "Qh7h2c", "", "duplicate card Qh"),
    (["AhKh", "AhKh,AhQh"], "Qh7h2c", "", "no combo left"),
    (["AhKh", "22+:0"], "Qh7h2c", "", "malformed|no combo|weights"),
    (["AhKh", "22+"], "Qh7h", "", "has 2 cards"),
])
def test_bad_questions_keep_the_general_paths_messages(players, board, dead, message):
    import re

    with pytest.raises(CardError, match=message if "|" not in message else None) as e:
        equity(players, board=board, dead=dead, exact=True, threads=1)
    assert re.search(message, str(e.value))


def test_other_questions_go_elsewhere(monkeypatch):
    one = _spy(monkeypatch)
    grouped = _spy(monkeypatch, "_grouped")
    fast = _spy(monkeypatch, "_exact_fast", calculator)
    equity(["AhKh", "22+", "AK"], "Qh7h2c", exact=True, threads=1)          # two ranges: grouped
    equity(["AhKh:0.5", "22+"], "Qh7h2c", exact=True, threads=1)            # a weighted hand: grouped
    equity(["AhKh", "QsQd"], "Qh7h2c", exact=True, threads=1)               # two hands: the general path
    assert one == [] and grouped == [True, True] and fast == [True, True, False]
    r = equity(["AhKh", "22+"], "Qh7h2c", trials=1000, threads=1)           # Monte Carlo: not asked
    assert not r.exact and fast == [True, True, False]


def test_progress_is_told_once():
    calls: list = []
    r = equity(["AhKh", "22+"], "Qh7h2c", exact=True, threads=1,
               progress=lambda done, total, s, unit: calls.append((done, total, unit)))
    assert r.exact and calls == [(1081, 1081, "runouts")]


def test_the_kernel_leaves_no_live_combo_out():
    """On a river every live combo meets the one board: the deals are the live combos."""
    r = equity(["AhKh", "22+"], "Qh7h2c5d9s", exact=True, threads=1)
    assert r.boards == 78 - 3 * 7      # QQ, 77, 22, 55, 99 (board), AA, KK (the hand) lose three combos each
    assert np.isclose(sum(p.equity for p in r.players), 1.0)
