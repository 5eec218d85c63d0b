"""Every batch dataset as a recipe, one registry, and the calls that build and read them.

>>> "preflop-grid" in names() and dataset("preflop-grid").depends_on == ["matchups"]
True

:mod:`.registry` finds the recipes (one file per family in :mod:`.recipes`);
:mod:`.build` builds them through the batch runner and reads them back
verified; :mod:`.abstraction_lookup` opens a built card abstraction for
lookups.  This is the one package that joins the domain and the batch layer.
"""
from .abstraction_lookup import built_clusters, load_abstraction, load_waugh_buckets
from .build import BuildError, build, build_many, catalog, is_built, open_storage, read, update_catalog
from .measured import Measured
from .recipes.ehs_table import EhsTable
from .recipes.holdem_weights import HandWeightTables, HoldemWeights
from .recipes.matchups import Matchups, matchup_arrays
from .recipes.odds_table import OddsTable
from .recipes.preflop_grid import PreflopGrid
from .recipes.videopoker import Strategy
from .recipes.vs_random import VsRandom
from .registry import PREFLOP_SET, DatasetError, dataset, figures, names, parameters, registry

__all__ = ["BuildError", "DatasetError", "EhsTable", "HandWeightTables", "HoldemWeights", "Matchups", "Measured",
           "OddsTable", "PREFLOP_SET", "PreflopGrid", "Strategy", "VsRandom", "build", "build_many", "built_clusters",
           "catalog", "dataset", "figures", "is_built", "load_abstraction", "load_waugh_buckets", "matchup_arrays",
           "names", "open_storage", "parameters", "read", "registry", "update_catalog"]
