"""Card abstraction for poker AI: exact hand-strength features and buckets of every canonical situation.

Distribution-aware abstraction (Johanson, Burch, Valenzano and Bowling,
"Evaluating state-space abstractions in extensive-form games", AAMAS 2013)
and potential-aware abstraction with earth mover's distance (Ganzfried and
Sandholm, "Potential-aware imperfect-recall abstraction with earth mover's
distance in imperfect-information games", AAAI 2014), from exact features.

================  ==========================================================================
:mod:`.features` exact river counts (OCHS too), turn and flop histograms, board by board
:mod:`.ochs`     the 8 opponent clusters of the 169 classes
:mod:`.emd`      the earth mover's distance: the 1-D closed form, the potential-aware bound
:mod:`.kmeans`   weighted k-means / k-medians: k-means++, Lloyd, exact Hamerly bounds
:mod:`.streets`  a street's points and distances
:mod:`.fitting`  a street's fit (sampled boards) and the assignment of every situation
:mod:`.lookup`   look buckets up (:class:`Abstraction`), :func:`situation` one situation's features
:mod:`.report`   within-bucket distances beside equity-percentile buckets
:mod:`.waugh_file` the bucket file solvers read: a flat array keyed by Waugh's hand index
================  ==========================================================================
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .kmeans import Clustering, assign, fit, plusplus
    from .lookup import Abstraction, AbstractionError, Situation, preflop_situation, situation
    from .waugh_file import WaughBuckets

# A built abstraction is opened by pipeline.datasets.load_abstraction (the verified read of its files is the
# batch layer's, which this package does not import).
__all__ = ["Abstraction", "AbstractionError", "Clustering", "Situation", "WaughBuckets", "assign", "fit", "plusplus",
           "preflop_situation", "situation"]

# Imported when first asked for: a lookup (``pokerpipe bucket``) loads neither k-means nor the report.
_HOME = {"Clustering": "kmeans", "assign": "kmeans", "fit": "kmeans", "plusplus": "kmeans",
         "Abstraction": "lookup", "AbstractionError": "lookup", "Situation": "lookup", "situation": "lookup",
         "preflop_situation": "lookup", "WaughBuckets": "waugh_file"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value
