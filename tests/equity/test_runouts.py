"""Exact postflop equity by runouts (:mod:`pipeline.equity.runouts`): each path against the brute force of
``tests/oracles/shares.py`` and, with weights, against the combo-by-combo enumeration of :mod:`.exact`."""
import math

import numpy as np
import pytest
from oracles.shares import brute_shares

import pipeline.equity.calculator as calculator
import pipeline.equity.exact_runs as exact_runs
from pipeline import parse_cards
from pipeline.core.cards import mask_of
from pipeline.equity import equity
from pipeline.equity.runouts import canonical_runouts, plan, range_symmetries
from pipeline.ranges.query import parse_query


def _combos(text: str) -> list[tuple[int, int]]:
    return [tuple(c) for c in parse_query(text).combos.tolist()]


def _plan(players: list[str], board: str):
    b = parse_cards(board)
    ranges = [parse_query(p).without(mask_of(b)) for p in players]
    return plan(ranges, b, [], mask_of(b))


@pytest.mark.parametrize("players, board, path", [
    (["AhKh", "22+"], "Qh7h2c", "groups"),             # a hand against a range: villain's rank pairs grouped
    (["AKs,AQs", "QQ+", "JTs,T9s"], "Jh8c2d", "groups"),
    (["99+,AJs+,KQo", "TT+,AQ+,KJs+"], "Kh9h4c2d", "sweep"),   # two ranges: sorted, per-card totals
    (["77+,A9s+", "88+,AT+"], "Th9h8c7d2s", "sweep"),  # a river
    (["AsKs", "QhQd", "JhTh"], "9s8s2h", "list"),        # one assignment: listed, no groups
])
def test_every_path_equals_the_brute_force(monkeypatch, players, board, path):
    """(The one-range and grouped kernels answer these first; here :mod:`.runouts`' own paths answer.)"""
    monkeypatch.setattr(calculator, "_exact_fast", lambda *a, **k: None)
    monkeypatch.setattr(exact_runs, "grouped_counts", lambda *a, **k: None)
    p = _plan(players, board)
    assert {"sweep": len(p.assign) == 0, "groups": len(p.group_rp) > 0,
            "list": len(p.assign) > 0 and len(p.group_rp) == 0}[path]
    counts, boards = brute_shares([_combos(x) for x in players], parse_cards(board))
    r = equity(players, board=board, exact=True, threads=1)
    assert r.boards == boards
    assert [q.shares for q in r.players] == counts.tolist()


def test_weighted_ranges_equal_the_combo_enumeration(monkeypatch):
    monkeypatch.setattr(calculator, "_exact_fast", lambda *a, **k: None)
    monkeypatch.setattr(exact_runs, "grouped_counts", lambda *a, **k: None)
    players = ["AA:0.5,KK,QQ:0.25", "AK,KQ:0.3,JJ"]
    for board in ("Kh7h2c", "Kh7h2c5d", "Kh7h2c5d9h"):
        new = equity(players, board=board, exact=True, threads=1)
        with monkeypatch.context() as m:
            m.setattr(calculator, "_exact_by_runouts", lambda *a, **k: None)
            old = equity(players, board=board, exact=True, threads=1)
        assert new.boards == old.boards
        for a, b in zip(new.players, old.players):
            assert a.equity == pytest.approx(b.equity, rel=1e-12)
            assert a.shares == pytest.approx(b.shares, rel=1e-12)


def test_runout_orbits_cover_every_runout_once():
    for players, board in ((["AhKh", "22+"], "Qh7h2c"), (["random", "AA"], "2c3c4c"), (["KK", "QQ"], "2c3d")):
        b = parse_cards(board)
        ranges = [parse_query(p).without(mask_of(b)) for p in players]
        perms = range_symmetries(ranges, b, [])
        held = mask_of(b) | int(np.bitwise_or.reduce([np.bitwise_and.reduce(r.masks) for r in ranges]))
        live = np.array([c for c in range(52) if not held >> c & 1], np.int64)
        runouts, mult = canonical_runouts(live, 5 - len(b), perms)
        assert int(mult.sum()) == math.comb(len(live), 5 - len(b))
        assert len(runouts) < math.comb(len(live), 5 - len(b)) or len(perms) == 1
    # AhKh vs 22+ on Qh7h2c: diamonds and spades trade places, nothing else
    b = parse_cards("Qh7h2c")
    assert len(range_symmetries([parse_query("AhKh"), parse_query("22+").without(mask_of(b))], b, [])) == 2


def test_threads_executor_and_progress_give_the_same_answer(monkeypatch):
    """The runouts are cut into chunks that do not depend on the threads, so even the weighted sums are
    the same floats on one thread, two, or an executor; progress counts the runouts up to all of them."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(exact_runs, "RUNOUT_CHUNK_WORK", 20_000)      # many small chunks

    players, board = ["22+,A2+:0.5,K2+,Q2+", "22+,A2s+:0.3"], "Kh7h2c"     # too many to list (.grouped): swept
    calls: list = []
    one = equity(players, board=board, exact=True, threads=1,
                 progress=lambda done, total, s, unit: calls.append((done, total, unit)))
    two = equity(players, board=board, exact=True, threads=2)
    with ThreadPoolExecutor(3) as pool:
        pooled = equity(players, board=board, exact=True, executor=pool)
    for r in (two, pooled):
        assert r.boards == one.boards
        assert [p.shares for p in r.players] == [p.shares for p in one.players]
        assert [p.equity for p in r.players] == [p.equity for p in one.players]
    assert len(calls) > 10 and all(u == "runouts" for _, _, u in calls)
    assert [d for d, _, _ in calls] == sorted(d for d, _, _ in calls) and calls[-1][0] == calls[-1][1]
