"""The evolve command's options checked where they live: the report's budget, --layout, --weights auto."""
from __future__ import annotations

import pytest

from pipeline.batch.storage import Storage
from pipeline.core.budget import TooMuchWork
from pipeline.ga.budget import planned_hands, refuse_report
from pipeline.ga.checkpoint import saved_weights
from pipeline.ga.config import Config, ConfigError, read_layout
from pipeline.holdem.player import Layout, LayoutError


def test_the_report_budget_checks_its_hand_counts_and_refuses_beyond_a_day() -> None:
    cfg = Config(population=4, generations=2, hands_per_match=100, trainers=2, weights="sampled")
    with pytest.raises(ConfigError, match="^--report-hands, --rlcard-hands and --lbr-hands must be 0 or more$"):
        refuse_report(cfg, 0, -1)
    assert refuse_report(cfg, 0, 0, 0) == 0.0
    assert 0 < refuse_report(cfg, 1_000, 0) < 60
    with pytest.raises(TooMuchWork, match=r"^the report \(--report-hands 1,000,000,000,000,000, .* would take"):
        refuse_report(cfg, 10**15, 0)


def test_seats_and_planned_hands() -> None:
    """Table format: the individual and its 2 trainers at one table; each of 2 generations plays its 4 parents
    and at most 0.8 x 4 crossed children (7.2 evaluations of 100 hands) and one 100-hand yardstick match:
    2 x 720 + 2 x 100 = 1,640 hands."""
    cfg = Config(population=4, generations=2, hands_per_match=100, trainers=2)
    assert cfg.seats == 3 and Config(format="heads-up", trainers=5).seats == 2
    assert planned_hands(cfg) == 1_640


def test_layout_option_and_a_run_without_checkpoint(tmp_path) -> None:
    assert read_layout(None) == Layout()
    with pytest.raises(LayoutError, match=r"^--layout: "):
        read_layout(str(tmp_path / "missing.json"))
    assert saved_weights(Storage.open(str(tmp_path))) is None      # no checkpoint: --weights auto decides


def test_an_evolution_days_long_with_sampled_weights_is_refused() -> None:
    """10 seats, 1,000 generations of 100 (180,000 evaluations of 300,000 hands) and 1,000 yardstick matches:
    54,300,000,000 hands, 5.43e11 seat-hands.  Sampled weights play 0.80-0.94M seat-hands a second at ten seats
    (measured, fitness.py): about 6.7 days on one process, refused (the bound, 2M a second, says 75 hours; the
    former single bound, 25M, said 6 hours and let it start).  With the weight tables (5.6M a second at most
    measured: 27 hours) the bound, 10M, says 15 hours: not refused."""
    from pipeline.ga.budget import refuse_too_long

    sampled = Config(population=100, generations=1_000, hands_per_match=300_000, trainers=9, weights="sampled")
    assert sampled.seats == 10 and planned_hands(sampled) == 54_300_000_000
    with pytest.raises(TooMuchWork, match=r"^evolve of 54,300,000,000 hands on 1 worker\(s\) would take about 3 days"):
        refuse_too_long(sampled)
    refuse_too_long(Config(population=100, generations=1_000, hands_per_match=300_000, trainers=9, weights="tables"))
