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
