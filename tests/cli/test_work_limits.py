"""Every open-ended count or precision target is refused beyond a day's work before anything starts (issue 39).

The options are found, not listed: every command's options that take a count (``parser=COUNT``, or a count
written as text, ``metavar="N"``) or a precision target (``--stderr TARGET``, ``--time SECONDS``), from the
Typer app itself.  Each command with one needs a minimal valid invocation below, so a new command cannot skip
the rule.  Each option given a count of 10^15 (a target of 10^-12, a budget of 10^9 seconds) must end in exit
code 2 and one line — the estimate of :mod:`pipeline.core.budget`, or the option's range — with nothing
written to ``--out``.  Every parameter of every registered dataset (``--param``; ``seed`` aside, where 10^15 is
a seed like any other) is walked the same way through ``pipeline.datasets``, the entry point ``--param``,
the per-dataset commands and ``datasets.build`` share.  The library entry points behind the commands are
refused alike: tests/test_library_arguments.py gives each count argument 10^15.
"""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest
from support.bounded import Slow, bounded

from jobs.app import app
from jobs.counts import COUNT
from jobs.main import command_modules, main
from pipeline.core.errors import InputError

PRECISION = {"TARGET": "1e-12", "SECONDS": "1e9"}     # metavar -> a target no day reaches


def _minimal(tmp) -> dict[str, list[str]]:
    """A valid invocation of each command that has a count or precision option ({out}: a fresh folder)."""
    return {
        "bucket": ["AhKh", "--board", "Qh7h2c", "--out", "{out}"],
        "ehs-table": ["--street", "flop", "--out", "{out}", "--workers", "1"],
        "equity": ["AhKh", "QsQd"],
        "evaluate": [str(tmp / "player.json"), "--workers", "1"],
        "evolve": ["--out", "{out}", "--workers", "1"],
        "exploit": ["tag", "--workers", "1"],
        "holdem-weights": ["--out", "{out}", "--workers", "1"],
        "matchups": ["--out", "{out}", "--workers", "1"],
        "odds": ["AhKh"],
        "play": ["-s", "2", "-p", "tag,station", "--workers", "1"],
        "solve": ["leduc", "--out", "{out}"],
        "vs-random": ["--out", "{out}", "--workers", "1"],
    }


def target_options() -> list[tuple[str, str, str]]:
    """``(command, option, value)`` for every count and precision option of every command."""
    for module in command_modules().values():
        importlib.import_module(module)
    found = []
    for info in app.registered_commands:
        name = info.name or info.callback.__name__.replace("_", "-")
        for p in inspect.signature(info.callback).parameters.values():
            opt = p.default
            decls = [d for d in (getattr(opt, "param_decls", None) or ()) if d.startswith("--")]
            if not decls:
                continue
            if getattr(opt, "parser", None) is COUNT or getattr(opt, "metavar", None) == "N":
                found.append((name, decls[0], "1e15"))
            elif getattr(opt, "metavar", None) in PRECISION:
                found.append((name, decls[0], PRECISION[opt.metavar]))
    return sorted(found)


@pytest.fixture(scope="module")
def player(tmp_path_factory):
    from pipeline.holdem.player import Layout, Player

    tmp = tmp_path_factory.mktemp("player")
    layout = Layout()
    Player(layout, np.zeros((layout.genes, 2), np.int8), {"seats": 2}).save(tmp / "player.json")
    return tmp


def _bounded(call, seconds=300):
    return bounded(call, seconds)


def test_the_options_are_found():
    found = {(c, o) for c, o, _ in target_options()}
    assert {("equity", "--trials"), ("equity", "--stderr"), ("equity", "--time"), ("play", "--hands"),
            ("exploit", "--hands"), ("evolve", "--lbr-hands"), ("evolve", "--report-hands"),
            ("evaluate", "--hands"), ("odds", "--trials"), ("vs-random", "--trials")} <= found


@pytest.mark.parametrize("command, option, value", target_options())
def test_every_target_beyond_a_day_is_one_line(player, tmp_path, capsys, command, option, value):
    minimal = _minimal(player)
    assert command in minimal, f"give {command} a minimal invocation here: it has a count option {option}"
    out = tmp_path / "out"
    args = [a.replace("{out}", str(out)) for a in minimal[command]]
    try:
        code = _bounded(lambda: main([command, *args, option, value]))
    except Slow:
        pytest.fail(f"{command} {option} {value} started work")
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("pokerpipe: error: "), (code, err)
    assert not out.exists() or not any(out.rglob("*")), f"{command} {option} {value} wrote {list(out.rglob('*'))}"


def _dataset_cases() -> list[tuple[str, str]]:
    from pipeline.datasets import names, parameters

    return [(n, p) for n in names() for p in parameters(n) if p != "seed"]


@pytest.mark.parametrize("name, param", _dataset_cases())
def test_every_dataset_parameter_beyond_a_day_is_one_line(tmp_path, name, param):
    """``--param NAME.PARAM=1e15``: refused by the recipe's range, or by the build's estimate before it starts."""
    from pipeline.batch.session import Session
    from pipeline.datasets import build_many, dataset

    try:
        ds = dataset(name, **{param: 10**15})
    except InputError as e:
        assert "\n" not in str(e) and param in str(e), str(e)
        return
    session = Session(1, None, True)
    try:
        with pytest.raises(InputError, match="would take about") as e:
            _bounded(lambda: build_many([ds], tmp_path, session))
    finally:
        session.close()
    assert "\n" not in str(e.value) and not any(tmp_path.iterdir())


@pytest.fixture(scope="module")
def ten_seat_player(tmp_path_factory):
    from pipeline.holdem.player import Layout, Player

    layout = Layout()
    path = tmp_path_factory.mktemp("ten") / "player.json"
    Player(layout, np.zeros((layout.genes, 2), np.int8), {"seats": 10}).save(path)
    return path


@pytest.mark.parametrize("args, words", [
    # 2.2-3.2 µs a hand measured here (sampled weights): 12-18 days on two processes
    (["play", "-p", "tag,random", "--hands", "1e12", "--workers", "2", "--weights", "sampled"],
     "--hands 1,000,000,000,000 on 2 processes with the hand weights sampled would take about"),
    # eight workers on two cores play no faster than two
    (["play", "-p", "tag,random", "--hands", "1e12", "--workers", "8", "--weights", "sampled"],
     "--hands 1,000,000,000,000 on 2 processes with the hand weights sampled would take about"),
    # a ten-seat player against nine random bots, 4.3 µs a hand measured here: 2.5 days on two
    (["evaluate", "{player}", "--against", "random", "--hands", "1e11", "--workers", "2"],
     "evaluate of 100,000,000,000 hands per yardstick on 2 worker(s) would take about"),
])
def test_work_measured_beyond_a_day_on_two_cores_is_one_line(ten_seat_player, monkeypatch, capsys, args, words):
    """Runs measured at days on this 2-core machine are refused, however many workers share its cores."""
    import pipeline.batch.session as session

    monkeypatch.setattr(session, "available_cores", lambda: 2)
    try:
        code = _bounded(lambda: main([a.replace("{player}", str(ten_seat_player)) for a in args]), 60)
    except Slow:
        pytest.fail(f"{' '.join(args)} started work")
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("pokerpipe: error: ") and words in err, (code, err)
