"""A fixed-limit hold'em player evolved by a co-evolutionary genetic algorithm (García Pérez's thesis, §3).

Modules: :mod:`.operators` (birth, selection, crossovers, mutation),
:mod:`.fitness` (matches against the trainers), :mod:`.config`,
:mod:`.checkpoint`, :mod:`.evolve` (the two-phase loop) and
:mod:`.assessment` (yardsticks, the report, the player inside rlcard).  The
player itself — its layout, gene table and file — and its decision in the
betting kernel live in :mod:`pipeline.holdem` (:mod:`~pipeline.holdem.player`,
:mod:`~pipeline.holdem.genes`).
"""
from .config import Config, ConfigError
from .evolve import EvolveError, Summary, best_of, evolve

__all__ = ["Config", "ConfigError", "EvolveError", "Summary", "best_of", "evolve"]
