"""Every batch dataset as a recipe, one registry, and the calls that build and read them.

>>> from pipeline.datasets import dataset, names
>>> "preflop-grid" in names() and dataset("preflop-grid").depends_on == ["matchups"]
True

:mod:`.registry` finds the recipes (one file per family in :mod:`.recipes`);
:mod:`.build` builds them through the batch runner and reads them back
verified; :mod:`.abstraction_lookup` opens a built card abstraction for
lookups.  This is the one package that joins the domain and the batch layer.

Only :mod:`.build` and :mod:`.registry` are imported with the package; the
recipes' classes and the abstraction lookup are imported when first named
(``pipeline.datasets.Matchups``, ``from pipeline.datasets import
load_abstraction``).  A process that unpickles one recipe — each worker of a
run, and the process they are forked from — then imports that recipe's
modules, not every family's: for ``matchups`` that saved the fork server
about 0.25 s of CPU on 2 cores (the card abstraction's and the hold'em
engine's modules).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.exports import lazy_exports
from .build import BuildError, build, build_many, catalog, is_built, open_storage, read, update_catalog
from .registry import PREFLOP_SET, DatasetError, dataset, figures, names, parameters, registry

if TYPE_CHECKING:
    from .abstraction_lookup import built_clusters, load_abstraction, load_waugh_buckets
    from .measured import Measured
    from .recipes.ehs_table import EhsTable
    from .recipes.holdem_weights import HandWeightTables, HoldemWeights
    from .recipes.matchups import Matchups, matchup_arrays
    from .recipes.odds_table import OddsTable
    from .recipes.preflop_grid import PreflopGrid
    from .recipes.videopoker import Strategy
    from .recipes.vs_random import VsRandom

# what is imported when first named: the module (under this package) that holds it
_LAZY = {
    "built_clusters": "abstraction_lookup", "load_abstraction": "abstraction_lookup",
    "load_waugh_buckets": "abstraction_lookup", "Measured": "measured", "EhsTable": "recipes.ehs_table",
    "HandWeightTables": "recipes.holdem_weights", "HoldemWeights": "recipes.holdem_weights",
    "Matchups": "recipes.matchups", "matchup_arrays": "recipes.matchups", "OddsTable": "recipes.odds_table",
    "PreflopGrid": "recipes.preflop_grid", "Strategy": "recipes.videopoker", "VsRandom": "recipes.vs_random",
}

__all__ = ["BuildError", "DatasetError", "EhsTable", "HandWeightTables", "HoldemWeights", "Matchups", "Measured",
           "OddsTable", "PREFLOP_SET", "PreflopGrid", "Strategy", "VsRandom", "build", "build_many", "built_clusters",
           "catalog", "dataset", "figures", "is_built", "load_abstraction", "load_waugh_buckets", "matchup_arrays",
           "names", "open_storage", "parameters", "read", "registry", "update_catalog"]


__getattr__ = lazy_exports(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
