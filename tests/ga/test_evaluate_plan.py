"""An ``evaluate`` run's options, checked by the library (pipeline.ga.assessment.plan): one line each, as the
command line prints it."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.core.budget import TooMuchWork
from pipeline.ga.assessment.plan import EvaluateError, EvaluatePlan
from pipeline.holdem.player import Layout, Player

TWO = ("random", "tag")


@pytest.mark.parametrize("change, message", [
    ({"against": ("random", "shark")}, "unknown yardstick 'shark' (choose from random, station, maniac, tag, "
                                       "thesis-preflop, fold, rlcard-v1, trainers, rlcard-rule, rlcard-random)"),
    ({"against": ()}, "--against names no yardstick"),
    ({"hands": 0}, "--hands and --rlcard-hands must be positive"),
    ({"rlcard_hands": -1}, "--hands and --rlcard-hands must be positive"),
    ({"seats": 12}, "--seats must be 2 to 10, got 12"),
    ({"seats": 1}, "--seats must be 2 to 10, got 1"),
    ({"samples": 0}, "--samples must be 1 to 100000, got 0"),
    ({"samples": 100_001}, "--samples must be 1 to 100000, got 100001"),
    ({"hands": 2.5}, "--hands must be an integer, got 2.5"),
    ({"seats": True}, "--seats must be an integer, got True"),
    ({"player": "cfr:runs/x", "against": ("tag", "trainers")},
     "cfr:DIR plays the engine's yardsticks heads-up (random, station, maniac, tag, thesis-preflop, fold, "
     "rlcard-v1), not 'trainers'"),
])
def test_each_bad_option_is_one_line_naming_it(change: dict, message: str) -> None:
    fields = {"player": "p.json", "against": TWO, "hands": 1_000, **change}
    with pytest.raises(EvaluateError) as e:
        EvaluatePlan(**fields)
    assert str(e.value) == message


def test_rlcard_yardsticks_need_rlcard(monkeypatch) -> None:
    import pipeline.ga.assessment.report as report

    monkeypatch.setattr(report, "rlcard_available", lambda: False)
    with pytest.raises(EvaluateError, match=r"^the rlcard yardsticks need rlcard: pip install -e '\.\[rlcard\]'$"):
        EvaluatePlan("p.json", ("random", "rlcard-rule"))
    EvaluatePlan("p.json", TWO)                                  # none asked for: no need
    EvaluatePlan("p.json", ("rlcard-v1",))                       # rlcard's rule agent ported into the engine
    EvaluatePlan("cfr:runs/x", TWO)


def test_hands_per_yardstick_and_where_they_are_played() -> None:
    plan = EvaluatePlan("p.json", ("tag", "rlcard-random"), hands=500_000, rlcard_hands=1_000)
    assert [plan.hands_against(n) for n in plan.against] == [500_000, 1_000]
    assert [plan.spread(n) for n in plan.against] == [True, False]         # rlcard: its own environment
    assert not EvaluatePlan("p.json", ("tag",), hands=1_000).spread("tag")   # too few to start a cluster
    solved = EvaluatePlan("cfr:runs/x", ("tag", "rlcard-v1"), hands=500_000, rlcard_hands=10)
    assert [solved.hands_against(n) for n in solved.against] == [500_000, 500_000]
    assert solved.spread("rlcard-v1")
    port = EvaluatePlan("p.json", ("rlcard-v1", "rlcard-rule"), hands=500_000, rlcard_hands=10)
    assert [port.hands_against(n) for n in port.against] == [500_000, 10]     # an engine yardstick: --hands
    assert [port.spread(n) for n in port.against] == [True, False]
    assert not EvaluatePlan("p.json", ("rlcard-v1",)).rlcard


def test_work_beyond_a_day_is_refused_before_anything_starts() -> None:
    EvaluatePlan("p.json", TWO, hands=10**6).refuse_work()
    with pytest.raises(TooMuchWork, match=r"^evaluate of 1,000,000,000,000,000 hands per yardstick on 4 worker\(s\) "
                                          r"would take about .*; ask for fewer --hands or --rlcard-hands$"):
        EvaluatePlan("p.json", TWO, hands=10**15).refuse_work(4)
    with pytest.raises(TooMuchWork, match=r"^evaluate of 1,000 hands per yardstick \(10,000,000,000 per rlcard one\) "
                                          r"on 1 worker\(s\) would take"):
        EvaluatePlan("p.json", ("tag", "rlcard-rule"), hands=1_000, rlcard_hands=10**10).refuse_work()
    with pytest.raises(TooMuchWork, match=r"^evaluate of 1,000,000,000,000,000 hands per yardstick would take .*"
                                          r"; ask for fewer --hands$"):
        EvaluatePlan("cfr:runs/x", TWO, hands=10**15).refuse_work()


def test_the_player_gives_the_table_size_unless_seats_do() -> None:
    """10^11 hands against tag: heads-up that can be under a day (2.5 µs a hand measured here with hand
    weights sampled, a few times less with the weight tables), at ten seats days (5.5 µs measured); refused
    at the ten seats the player was evolved at, unless ``--seats 2`` says otherwise."""
    layout = Layout()
    ten = Player(layout, np.zeros((layout.genes, 2), np.int8), {"seats": 10})
    hands = 10**11
    EvaluatePlan("p.json", ("tag",), hands=hands).refuse_work(1, None)             # no player: heads-up
    with pytest.raises(TooMuchWork):
        EvaluatePlan("p.json", ("tag",), hands=hands).refuse_work(1, ten)
    EvaluatePlan("p.json", ("tag",), hands=hands, seats=2).refuse_work(1, ten)      # --seats 2 rules
