"""Fitness: an individual's winnings against the trainer set over the same duplicate deals.

García Pérez's thesis (§3.3.4) scores an individual by playing it against the
set of trainers.  Two readings are supported:

``table``     the individual and all trainers at one table (nine trainers and
              the individual fill the thesis's ten seats); the deals are
              duplicate, so every seat plays every deal from every position.
``heads-up``  one duplicate heads-up match against each trainer; the fitness
              is the mean over the matches.

Fitness is in big blinds per 100 hands with the standard error over deals.
Every individual of a generation plays the same deals (common random numbers:
the comparison between individuals is not blurred by card luck), and every
match is a pure function of its inputs, so a generation gives the same numbers
on any number of workers.
"""
from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from typing import Optional

import numpy as np

from ..holdem.player import Layout, Player
from ..holdem.seating import Table
from ..holdem.simulate import play_deals
from ..holdem.weights import WeightSource
from .config import FORMATS, Config

# The kernel's speed, one process: with the weight tables, 10 seats 225-560k hands/s (tag, stations: up to 5.6M
# seat-hands a second; issue 24's engine, a loaded 2-core x86), heads-up 1.2-2.5M hands/s; with hand weights
# sampled (the default where no tables are built), measured 2026-12-07 on a loaded 2-core Intel Xeon with
# budget.hand_rate on a random individual, 20,000 hands: 80-94k hands/s at the 10-seat table (0.80-0.94M
# seat-hands/s), 245-443k heads-up (0.49-0.89M).  The bounds a refusal of too much work rests on are about
# twice the fastest of these, so that an estimate from them is never more than the truth on a quicker machine
# (until 2026-12-07 one bound, 25M, stood for both: sampled runs 20-30 times longer than their estimate, days
# long, started):
SEAT_HANDS_PER_SECOND = {"tables": 10_000_000, "sampled": 2_000_000}   # seat-hands per second per process at most
EVALUATION_SECONDS = 1e-3           # an evaluation's own cost besides its hands (measured 8 ms), at least


def fastest_seconds(hands: float, seats: int, evaluations: float = 0.0, workers: int = 1,
                    weights: str = "tables") -> float:
    """The least time ``hands`` hands at ``seats``-seat tables (in ``evaluations`` matches) can take on
    ``workers`` processes, the hands weighed by ``weights`` (``tables`` or ``sampled``): the estimate a refusal
    of too much work rests on (never more than the truth)."""
    rate = SEAT_HANDS_PER_SECOND[weights]
    return (hands * seats / rate + evaluations * EVALUATION_SECONDS) / max(workers, 1)


@dataclass
class Match:
    """What one individual's evaluation returns (all sums are integers, in chip units)."""

    units: int                    # the individual's winnings over all its hands (100 units = 1 BB)
    hands: int                    # hands the individual played
    deals: int                    # duplicate deals (the samples of the standard error)
    sumsq: int                    # sum over deals of the square of the individual's per-deal winnings
    used: np.ndarray              # packed bits (np.packbits) of the genes the individual consulted
    trainer_units: np.ndarray     # each trainer's winnings in these hands (int64, one per trainer)
    trainer_hands: np.ndarray     # hands each trainer played

    @property
    def bb_per_100(self) -> float:
        return self.units / self.hands        # units per hand = BB per 100 hands

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`bb_per_100`, from the per-deal sums."""
        if self.deals < 2:
            return math.nan
        per = self.hands / self.deals
        mean = self.units / self.deals
        var = max(self.sumsq / self.deals - mean * mean, 0.0) * self.deals / (self.deals - 1)
        return math.sqrt(var / self.deals) / per


def play_match(genes: np.ndarray, trainers: np.ndarray, layout: Layout, fmt: str, hands: int, seed: int,
               samples: int, pre_weight: np.ndarray, weights: Optional[WeightSource] = None) -> Match:
    """Evaluate one gene table against ``trainers`` (``(T, genes, 2)``) over ``hands`` hands.

    ``hands`` is per match: the whole table session, or each heads-up match;
    ``weights`` where the hand-weight tables come from (None: sampled; :mod:`pipeline.holdem.weights`).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    me = Player(layout, genes, {"name": "individual"})
    others = [Player(layout, t, {"name": f"trainer-{i}"}) for i, t in enumerate(trainers)]
    line_ups = [[me, *others]] if fmt == "table" else [[me, o] for o in others]
    units = hands_played = deals_played = sumsq = 0
    used = np.zeros(layout.genes, np.uint8)
    t_units = np.zeros(len(others), np.int64)
    t_hands = np.zeros(len(others), np.int64)
    for m, seats in enumerate(line_ups):
        table = Table.make(seats, samples=samples)
        n = table.seats
        deals = -(-hands // n)
        totals, sq, _stats, _audit, u = play_deals(table, seed, 0, deals, True, pre_weight, weights)
        units += int(totals[0])
        sumsq += int(sq[0])
        hands_played += deals * n
        deals_played += deals
        used |= u[0]
        if fmt == "table":
            t_units += totals[1:]
            t_hands += deals * n
        else:
            t_units[m] += totals[1]
            t_hands[m] += deals * n
    return Match(units, hands_played, deals_played, sumsq, np.packbits(used), t_units, t_hands)


def unpack_used(packed: np.ndarray, genes: int) -> np.ndarray:
    """The used marks (bool per gene) from :attr:`Match.used`."""
    return np.unpackbits(packed, count=genes).astype(np.bool_)


def _seed_of(*key: int) -> int:
    return int(np.random.default_rng(list(key)).integers(0, 1 << 62))


def evaluate(cfg: Config, trainers: np.ndarray, genes: list[np.ndarray], seed: int,
             executor: Optional[Executor], weights: Optional[WeightSource]) -> list[Match]:
    """Play every gene table against ``trainers`` on the deals of ``seed`` (on ``executor``'s workers if any):
    every individual of a generation plays the same deals."""
    from ..holdem.weights import preflop_table

    play = partial(play_match, trainers=trainers, layout=cfg.layout, fmt=cfg.format, hands=cfg.hands_per_match,
                   seed=seed, samples=cfg.samples, pre_weight=preflop_table(), weights=weights)
    return list((executor.map if executor is not None else map)(play, genes))


def yardstick(cfg: Config, genes: np.ndarray, weights: Optional[WeightSource]) -> tuple[float, float]:
    """The player's BB/100 and standard error against the yardstick, on deals fixed for the run.

    At the format's table: the player and ``trainers`` copies of the
    yardstick bot (``table``), or heads-up (``heads-up``).
    """
    from ..holdem.simulate import simulate

    others = cfg.trainers if cfg.format == "table" else 1
    r = simulate([Player(cfg.layout, genes, {"name": "best"})] + [cfg.yardstick] * others, cfg.hands_per_match,
                 seed=_seed_of(cfg.seed, 2 << 40), samples=cfg.samples, weights=weights)
    return r.seats[0].bb_per_100, r.seats[0].stderr
