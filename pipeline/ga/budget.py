"""What an evolution costs: the hands it plays at most, the least time that takes, the refusal beyond a day.

:func:`planned_hands` counts the hands of every evaluation (parents and
children of every generation, against the table or each trainer) and of the
yardstick matches; :func:`fastest` turns them into the least time the kernel
can take (:func:`.fitness.fastest_seconds`, from rates above any measured), on
which :func:`refuse_too_long` refuses a run that cannot end within a day
before anything is written; :func:`refuse_report` does the same for the
report that follows the run.  :func:`hand_rate` measures the rate here, and
:func:`estimate` the time the user is told to expect.
"""
from __future__ import annotations

import time
from typing import NamedTuple, Optional

import numpy as np

from ..core.budget import refuse_beyond
from ..holdem.weights import WeightSource
from .config import Config, ConfigError
from .fitness import fastest_seconds, play_match
from .operators import random_genes


def planned_hands(cfg: Config) -> int:
    """Hands an evolution plays at most: parents and children of every generation, and the yardstick matches."""
    evaluations = cfg.generations * cfg.population * (1 + cfg.crossover_percent / 100)
    return int(evaluations * cfg.hands_per_match * (1 if cfg.format == "table" else cfg.trainers)
               + cfg.generations * cfg.hands_per_match)


def fastest(cfg: Config, workers: int = 1) -> float:
    """The least time the evolution ``cfg`` can take on ``workers`` processes (:func:`.fitness.fastest_seconds`):
    what a refusal of too much work rests on."""
    evaluations = cfg.generations * cfg.population * (1 + cfg.crossover_percent / 100)
    matches = evaluations * (1 if cfg.format == "table" else cfg.trainers)
    return fastest_seconds(planned_hands(cfg), cfg.seats, matches, workers, cfg.weights)


def refuse_too_long(cfg: Config, workers: int = 1, more_seconds: float = 0.0) -> None:
    """Refuse (:class:`~pipeline.core.budget.TooMuchWork`) an evolution that cannot end within a day on
    ``workers`` processes, even at the fastest the kernel plays (plus ``more_seconds`` of other work, the
    report's); the message gives the estimate."""
    refuse_beyond(fastest(cfg, workers) + more_seconds,
                  f"evolve of {planned_hands(cfg):,} hands on {workers} worker(s)",
                  "fewer --generations, --population or --hands-per-match")


def hand_rate(cfg: Config, hands: int = 2_000, weights: Optional[WeightSource] = None) -> float:
    """Hands per second of one evaluation on this machine (one process), measured on a random individual."""
    from ..holdem.weights import preflop_table

    rng = np.random.default_rng(0)
    genes = random_genes(cfg.layout, rng)
    trainers = np.stack([random_genes(cfg.layout, rng) for _ in range(cfg.trainers if cfg.format == "table" else 1)])
    pre = preflop_table()
    play_match(genes, trainers, cfg.layout, cfg.format, 20, 1, cfg.samples, pre, weights)   # compile / load
    t = time.perf_counter()
    m = play_match(genes, trainers, cfg.layout, cfg.format, hands, 1, cfg.samples, pre, weights)
    return m.hands / max(time.perf_counter() - t, 1e-9)


def refuse_report(cfg: Config, report_hands: int, rlcard_hands: int, lbr_hands: int = 0) -> float:
    """The least seconds the evolution's report takes on one process
    (:func:`.assessment.report.report_seconds`, which the report applies itself too), after its hand counts
    are checked (:class:`~.config.ConfigError`) and a report beyond a day is refused
    (:class:`~pipeline.core.budget.TooMuchWork`)."""
    from .assessment.report import report_seconds

    if report_hands < 0 or rlcard_hands < 0 or lbr_hands < 0:
        raise ConfigError("--report-hands, --rlcard-hands and --lbr-hands must be 0 or more")
    seconds = report_seconds(cfg.seats, cfg.yardstick, report_hands, rlcard_hands, lbr_hands,
                             tables=cfg.weights == "tables", sampled=cfg.weights == "sampled")
    refuse_beyond(seconds, f"the report (--report-hands {report_hands:,}, --rlcard-hands {rlcard_hands:,}, "
                  f"--lbr-hands {lbr_hands:,})", "fewer --report-hands, --rlcard-hands or --lbr-hands")
    return seconds


RLCARD_RATE = 1_500      # rlcard hands per second here (measured 1,000-2,200: rlcard plays in Python)


class Estimate(NamedTuple):
    """What an evolution and its report play at most, and how long that takes at the rates measured here."""

    hands: int               # the evolution's (:func:`planned_hands`)
    workers: int             # the processes it plays on
    seconds: float
    report_hands: int        # the report's engine and rlcard matches, on one process
    report_seconds: float


def estimate(cfg: Config, workers: int, weights: Optional[WeightSource] = None, report_hands: int = 0,
             rlcard_hands: int = 0) -> Estimate:
    """The :class:`Estimate` of the evolution ``cfg`` on ``workers`` processes at the rate :func:`hand_rate`
    measures now, and of its report (``report_hands`` per engine opponent at that rate, one process;
    ``rlcard_hands`` per rlcard opponent at :data:`RLCARD_RATE`)."""
    from .assessment.report import report_opponents
    from .assessment.yardsticks import RLCARD

    hands = planned_hands(cfg)
    rate = hand_rate(cfg, weights=weights)
    engine = rlcard = 0
    if report_hands:
        opponents = report_opponents(cfg.yardstick, rlcard_hands)
        engine = sum(o not in RLCARD for o in opponents) * report_hands
        rlcard = sum(o in RLCARD for o in opponents) * rlcard_hands
    return Estimate(hands, workers, hands / rate / workers, engine + rlcard, engine / rate + rlcard / RLCARD_RATE)

