"""A ``solve`` run's options, checked by the library (pipeline.datasets.solve_plan): one line each, as the command
line prints it, before anything starts."""
from __future__ import annotations

import re

import pytest

from pipeline.core.budget import TooMuchWork
from pipeline.datasets.solve import SolveError
from pipeline.datasets.solve_plan import SolveOptionError, SolvePlan, parameters

CLUSTER = ("solve shares its tables between the threads of one process: it runs on this machine's cores "
           "(--workers), not on a Dask cluster")


@pytest.mark.parametrize("fields, message", [
    ({"game": "chess", "iterations": 1}, "unknown game 'chess' (choose from leduc, hulhe)"),
    ({}, "give --iterations N or --hours H (one of them)"),
    ({"iterations": 10, "hours": 1.0}, "give --iterations N or --hours H (one of them)"),
    ({"iterations": 0}, "--iterations must be between 1 and 1,000,000,000,000, got 0"),
    ({"iterations": 2.5}, "--iterations must be an integer, got 2.5"),
    ({"hours": 0.0}, "--hours must be positive, got 0.0"),
    ({"hours": float("nan")}, "--hours must be positive, got nan"),
    ({"hours": "1"}, "--hours must be a number, got '1'"),
    ({"iterations": 10, "scheduler": "tcp://host:8786"}, CLUSTER),
    ({"iterations": 10, "workers": 0}, "--workers must be 1 to 256, got 0"),
    ({"iterations": 10, "workers": 257}, "--workers must be 1 to 256, got 257"),
    ({"iterations": 10, "param": ("seed",)}, "-p 'seed': expected KEY=VALUE with KEY one of checkpoint_seconds, seed"),
    ({"iterations": 10, "param": ("k=8",)}, "-p 'k=8': expected KEY=VALUE with KEY one of checkpoint_seconds, seed"),
    ({"iterations": 10, "param": ("seed=-1",)}, "-p seed must be between 0 and 9,223,372,036,854,775,807, got -1"),
    ({"iterations": 10, "param": ("checkpoint-seconds=1e6",)},
     "-p checkpoint_seconds must be between 0.0 and 86,400.0, got 1,000,000.0"),
    ({"game": "hulhe", "iterations": 10, "param": ("k=0",)}, "-p k must be between 1 and 50,000, got 0"),
])
def test_each_bad_option_is_one_line_naming_it(fields: dict, message: str) -> None:
    with pytest.raises(SolveOptionError) as e:
        SolvePlan(**{"game": "leduc", **fields})
    assert str(e.value) == message and isinstance(e.value, SolveError)


def test_parameters_over_the_game_defaults() -> None:
    assert parameters("leduc") == {"seed": 0, "checkpoint_seconds": 300.0}
    assert parameters("hulhe", ["k=64", "abstraction=modulo", "seed=3"]) == {
        "seed": 3, "checkpoint_seconds": 300.0, "k": 64, "abstraction": "modulo"}
    plan = SolvePlan("hulhe", hours=2.0, param=("k=64", "checkpoint_seconds=10"))
    assert plan.recorded == {"seed": 0, "k": 64, "abstraction": "outputs"}       # checkpoint_seconds: no byte


def test_work_beyond_a_day_is_refused_before_anything_starts() -> None:
    SolvePlan("leduc", iterations=10**6).refuse_work()
    with pytest.raises(TooMuchWork, match=r"^solve leduc --iterations 1,000,000,000,000 would take about .*; "
                                          r"ask for fewer --iterations or --hours$"):
        SolvePlan("leduc", iterations=10**12).refuse_work()
    with pytest.raises(TooMuchWork, match=r"^solve hulhe --hours 30 would take about 30 hours"):
        SolvePlan("hulhe", hours=30.0).refuse_work()


def test_an_abstraction_not_built_says_how_to_build_it(tmp_path) -> None:
    plan = SolvePlan("hulhe", iterations=1, param=(f"abstraction={tmp_path}", "k=8"))
    with pytest.raises(SolveOptionError, match=r"\(hold'em needs the card abstraction: pokerpipe tables abstraction "
                                               rf"-p abstraction/flop.k=8 \.\.\. --out {re.escape(str(tmp_path))}\)$"):
        plan.make_game()
    assert SolvePlan("hulhe", iterations=1, param=("abstraction=modulo", "k=8")).make_game().k == 8
