"""A ``play`` run's options, checked by the library (pipeline.holdem.plan, the histories' limits): one line each."""
from __future__ import annotations

import pytest

from pipeline.batch.storage import Storage
from pipeline.core.budget import TooMuchWork
from pipeline.holdem import Table
from pipeline.holdem.histories import write_histories
from pipeline.holdem.plan import PlayError, PlayPlan

TWO = ("tag", "station")


HERO_ALONE = "--hero goes with --history pokerstars (the text that shows one seat's hole cards)"


@pytest.mark.parametrize("change, message", [
    ({"seats": 1, "policies": ("tag",)}, "--seats must be 2 to 10, got 1"),
    ({"seats": 0, "policies": ()}, "--policies names no policy: give one a seat, e.g. -p tag,random"),
    ({"seats": 3, "policies": ()}, "--policies names no policy: give one a seat, e.g. -p tag,random"),
    ({"seats": 3}, "--policies names 2 policies for 3 seats"),
    ({"policies": ("tag", "station", "maniac")}, "--policies names 3 policies for only 2 seats"),
    ({"hands": 0}, "--hands must be positive, got 0"),
    ({"seed": 1 << 63}, f"--seed must fit in 64 bits, got {1 << 63}"),
    ({"history": "pdf"}, "--history must be one of pokerstars, phh, ohh, got 'pdf'"),
    ({"hero": 3}, "--hero must be a seat 1 to 2, got 3"),
    ({"hero": 1}, HERO_ALONE),
    ({"hero": 1, "history": "phh"}, HERO_ALONE),
    ({"rake": float("nan")}, "--stack, --rake and --rake-cap must be finite numbers"),
])
def test_each_bad_option_is_one_line_naming_it(change: dict, message: str) -> None:
    fields = {"seats": 2, "policies": TWO, "hands": 100, **change}
    with pytest.raises(PlayError) as e:
        PlayPlan(**fields)
    assert str(e.value) == message


def test_work_and_histories_beyond_their_limits_are_refused_before_anything_starts(tmp_path) -> None:
    PlayPlan(2, TWO, 10**6, history="phh").refuse_work()                       # a million PHH files: allowed
    with pytest.raises(TooMuchWork, match=r"--hands 1,000,001 --history phh would write 1,000,001 files"):
        PlayPlan(2, TWO, 10**6 + 1, history="phh").refuse_work()
    # 10^8 hands at 10 seats: at least 150 bytes a seat and hand of PokerStars text, 150 GB
    with pytest.raises(TooMuchWork, match=r"would write at least 150 GB of hand histories, more than the 10 GB"):
        PlayPlan(10, TWO * 5, 10**8, history="pokerstars").refuse_work()
    with pytest.raises(TooMuchWork, match=r"--hands 1,000,000,000,000 on 1 process would take about"):
        PlayPlan(2, TWO, 10**12).refuse_work()
    # the writer applies the limit itself, before it touches the folder
    with pytest.raises(TooMuchWork, match="files, more than the 1,000,000"):
        write_histories(Table.make(list(TWO)), 0, 10**7, "phh", Storage.open(str(tmp_path / "h")))
    assert not (tmp_path / "h").exists()


# Runs timed on the loaded 2-core Xeon this estimate was set on (one process, CPU time, hand weights sampled;
# see pipeline/holdem/work.py): (line-up, hands, processes, what that measured, whether it is refused).
# Beyond a day by days is refused; under a day even on this machine is not.
MEASURED = [
    (("tag", "random"), 10**12, 2, "2.2-3.2 µs a hand: 12-18 days on two", True),
    (("tag", "station"), 10**12, 1, "4.2 µs a hand: 49 days", True),
    (("player.json",) + ("random",) * 9, 10**11, 2, "4.3 µs a hand (evaluate's ten-seat table): 2.5 days", True),
    (("tag", "random"), 10**10, 2, "2.2-3.2 µs a hand: 3-4.5 hours on two", False),
    (("player.json",) + ("random",) * 9, 10**10, 1, "4.3 µs a hand: 12 hours", False),
    (("random", "maniac"), 10**11, 1, "0.58 µs a hand (0.42 quiet, docs/holdem.md): 12-16 hours", False),
    (("random",) * 10, 10**10, 1, "4.2-4.4 µs a hand: 12 hours", False),
]


@pytest.mark.parametrize("names, hands, processes, measured, refused", MEASURED)
def test_runs_measured_beyond_a_day_are_refused_and_those_under_are_not(names, hands, processes, measured,
                                                                         refused) -> None:
    from pipeline.holdem.work import refuse_play

    if refused:
        with pytest.raises(TooMuchWork, match=f"on {processes} process"):
            refuse_play(names, hands, processes)
    else:
        refuse_play(names, hands, processes)


# With the hand weights sampled (no weight tables built, or --weights sampled) tag and the evolved players cost
# several times more: `play -p tag,random --hands 1e11 --workers 1 --weights sampled` was estimated at 8 hours,
# as with the tables (1.39 M hands/s quiet: 20 hours), and started; sampled it takes 2.2-3.2 µs a hand on the
# Xeon, 3.5 on the AMD EPYC Zen 1: 61-96 hours.
SAMPLED = [
    (("tag", "random"), 10**11, 1, "2.2-3.5 µs a hand: 61-96 hours", True),
    (("tag", "random"), 2 * 10**10, 1, "2.2-3.5 µs a hand: 12-19 hours", False),
    (("thesis-preflop", "random"), 10**11, 2, "1.9-2.8 µs a hand: 26-38 hours on two", False),
    (("thesis-preflop",) * 10, 10**11, 2, "12.9 µs a hand on the Zen 1: 7.5 days on two", True),
]


@pytest.mark.parametrize("names, hands, processes, measured, refused", SAMPLED)
def test_sampled_weights_are_judged_at_their_own_rates(names, hands, processes, measured, refused) -> None:
    from pipeline.holdem.work import play_seconds, refuse_play

    assert play_seconds(names, hands, processes, sampled=True) > 2 * play_seconds(names, hands, processes)
    if refused:
        with pytest.raises(TooMuchWork, match="with the hand weights sampled .*or the weight tables"):
            refuse_play(names, hands, processes, sampled=True)
        refuse_play(names, hands, processes)          # the weight tables' rates: no refusal from this bound
    else:
        refuse_play(names, hands, processes, sampled=True)


def test_the_command_line_and_the_library_judge_sampled_weights_so(capsys) -> None:
    from jobs.main import main
    from pipeline.holdem import simulate

    code = main(["play", "-p", "tag,random", "--hands", "1e11", "--workers", "1", "--weights", "sampled"])
    err = capsys.readouterr().err
    assert code == 2 and "with the hand weights sampled would take about" in err, err
    with pytest.raises(TooMuchWork, match="with the hand weights sampled"):
        simulate(["tag", "random"], 10**11)                     # weights=None: the in-kernel sampler
