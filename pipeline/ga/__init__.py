"""A fixed-limit hold'em player evolved by a co-evolutionary genetic algorithm (García Pérez's thesis, §3).

Modules: :mod:`.operators` (birth, selection, crossovers, mutation, a
generation's offspring), :mod:`.fitness` (matches against the trainers, the
yardstick), :mod:`.config`, :mod:`.budget` (the work planned, refused beyond
a day), :mod:`.state` (what a checkpoint holds), :mod:`.checkpoint`,
:mod:`.folder` (the run's files, written and read back), :mod:`.evolve` (the
two-phase loop) and
:mod:`.assessment` (yardsticks, the report, the player inside rlcard).  The
player itself — its layout, gene table and file — and its decision in the
betting kernel live in :mod:`pipeline.holdem` (:mod:`~pipeline.holdem.player`,
:mod:`~pipeline.holdem.genes`).
"""
from .config import Config, ConfigError
from .evolve import Summary, evolve
from .folder import EvolveError, best_of

__all__ = ["Config", "ConfigError", "EvolveError", "Summary", "best_of", "evolve"]
