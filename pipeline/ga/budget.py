"""What an evolution costs: the hands it plays at most, the least time that takes, the refusal beyond a day.

:func:`planned_hands` counts the hands of every evaluation (parents and
children of every generation, against the table or each trainer) and of the
yardstick matches; :func:`fastest` turns them into the least time the kernel
can take (:func:`.fitness.fastest_seconds`, from rates above any measured), on
which :func:`refuse_too_long` refuses a run that cannot end within a day
before anything is written.  :func:`hand_rate` measures the rate here, for an
estimate the user reads.
"""
from __future__ import annotations

import time
from typing import Optional

import numpy as np

from ..core.budget import refuse_beyond
from ..holdem.weights import WeightSource
from .config import Config
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
    return fastest_seconds(planned_hands(cfg), cfg.seats, matches, workers)


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
