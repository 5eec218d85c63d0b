"""Parameters of an evolution, their defaults (documented choices where the thesis gives none) and their checks.

García Pérez's thesis names the operators and the co-evolution but not its
parameter values; the defaults here are ours:

=====================  =======  ==================================================
population             100      individuals
generations            200      in all, both phases
trainer_generations    half     phase 1 (co-evolving trainers from random play)
hands_per_match        20,000   hands of each evaluation (a table session, or
                                each heads-up match)
trainers               9        the trainer set (9 + the individual = 10 seats)
crossover_percent      80       chance that a selected pair is crossed
mutation_percent       30       chance that a child is mutated
mutation_share         0.1      share of its used genes a mutation moves
variance               0.1      a moved threshold changes by up to ±variance×200
tournament             2        entrants per selection tournament
patience               0        stop a phase after this many generations without
                                progress (0: never stop early)
samples                48       hand-weight samples per decision after the flop
weights                sampled  the hand weight after the flop: ``sampled`` (the
                                in-kernel Monte Carlo of ``samples`` deals) or
                                ``tables`` (:mod:`pipeline.holdem.weight_build`);
                                fixed in the run's parameters, so a resumed run
                                plays as it started
yardstick              tag      the fixed opponent of the per-generation curve
=====================  =======  ==================================================
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Optional

from ..core.errors import InputError
from ..holdem.player import Layout, LayoutError, load_layout
from ..holdem.policies import KINDS

FORMATS = ("table", "heads-up")     # how fitness is played (pipeline.ga.fitness)


class ConfigError(InputError):
    """A parameter out of range; the message names it."""


def read_layout(path: Optional[str]) -> Layout:
    """The chromosome :class:`~pipeline.holdem.player.Layout` of ``--layout FILE`` (the default layout without
    one): a layout object (any of :data:`pipeline.holdem.player.LAYOUT_KEYS`; missing keys take the defaults)
    or a player file, whose layout is taken, read by :func:`pipeline.holdem.player.load_layout` (a regular
    file of bounded size and nesting, every field checked by type and range); :class:`LayoutError` in one
    line naming the option."""
    if path is None:
        return Layout()
    try:
        return load_layout(path)
    except LayoutError as e:
        raise LayoutError(f"--layout: {e}") from None


@dataclass(frozen=True)
class Config:
    """Everything that decides an evolution's result (the seed included)."""

    population: int = 100
    generations: int = 200
    hands_per_match: int = 20_000
    seed: int = 0
    format: str = "table"
    trainers: int = 9
    trainer_generations: int = -1            # -1: half of ``generations``
    crossover_percent: float = 80.0
    mutation_percent: float = 30.0
    mutation_share: float = 0.1
    variance: float = 0.1
    tournament: int = 2
    patience: int = 0
    samples: int = 48
    weights: str = "sampled"
    yardstick: str = "tag"
    layout: Layout = field(default_factory=Layout)

    def __post_init__(self) -> None:
        def bad(msg: str) -> None:
            raise ConfigError(msg)

        if not 2 <= self.population <= 100_000:
            bad(f"--population must be 2 to 100000, got {self.population}")
        if not 1 <= self.generations <= 1_000_000:
            bad(f"--generations must be 1 to 1,000,000, got {self.generations}")
        if not 1 <= self.hands_per_match <= 10**10:
            bad(f"--hands-per-match must be 1 to 10,000,000,000, got {self.hands_per_match}")
        if self.format not in FORMATS:
            bad(f"--format must be one of {', '.join(FORMATS)}, got {self.format!r}")
        top = 9 if self.format == "table" else 1000
        if not 1 <= self.trainers <= top:
            bad(f"--trainers must be 1 to {top} for the {self.format} format, got {self.trainers}")
        if self.trainer_generations != -1 and not 1 <= self.trainer_generations < self.generations:
            bad(f"--trainer-generations must be 1 to {self.generations - 1}, got {self.trainer_generations}")
        if self.generations < 2 and self.trainer_generations == -1:
            bad("--generations must be at least 2 (phase 1 trains the trainers, phase 2 the player)")
        for name in ("crossover_percent", "mutation_percent"):
            v = getattr(self, name)
            if not 0.0 <= v <= 100.0:
                bad(f"--{name.replace('_percent', '')} must be a probability 0 to 100, got {v}")
        if not 0.0 < self.mutation_share <= 1.0:
            bad(f"--mutation-share must be above 0 and at most 1, got {self.mutation_share}")
        if not 0.0 < self.variance <= 1.0:
            bad(f"--variance must be above 0 and at most 1, got {self.variance}")
        if not 1 <= self.tournament <= self.population:
            bad(f"--tournament must be 1 to the population ({self.population}), got {self.tournament}")
        if self.patience < 0:
            bad(f"--patience must be 0 (off) or positive, got {self.patience}")
        if not 1 <= self.samples <= 100_000:
            bad(f"--samples must be 1 to 100000, got {self.samples}")
        if self.weights not in ("sampled", "tables"):
            bad(f"--weights must be sampled or tables once resolved, got {self.weights!r}")
        if self.yardstick not in KINDS:
            bad(f"--yardstick must be one of {', '.join(KINDS)}, got {self.yardstick!r}")
        if not -(1 << 63) <= self.seed < 1 << 63:
            bad(f"--seed must fit in 64 bits, got {self.seed}")

    @property
    def seats(self) -> int:
        """Seats of each evaluation's table: the individual and every trainer (``table``), or two (``heads-up``)."""
        return self.trainers + 1 if self.format == "table" else 2

    @property
    def phase1(self) -> int:
        """Generations planned for phase 1."""
        return self.generations // 2 if self.trainer_generations == -1 else self.trainer_generations

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["layout"] = self.layout.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Config":
        d = dict(d)
        d["layout"] = Layout.from_dict(d["layout"])
        return cls(**d)
