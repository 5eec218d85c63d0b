"""pokerpipe's engine: cards, the evaluator, equity enumeration, ranges, video poker.

The public names are re-exported here and imported on first use, so that a
command needing only one part (say video poker) does not load the others.

Importing the package points numba's cache of compiled kernels at
pokerpipe's cache folder (:func:`pipeline.core.cache.numba_cache_dir`) unless
``NUMBA_CACHE_DIR`` is set: numba's default writes beside the source, inside
site-packages for an installed copy, where it may not write and where its
files outlive the install.
"""
from __future__ import annotations

import os
import sys

from .core.exports import lazy_exports
from .core.version import __version__


def _point_numba_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    from .core.cache import numba_cache_dir

    os.environ["NUMBA_CACHE_DIR"] = str(numba_cache_dir())   # worker processes inherit it
    if "numba" in sys.modules:                                 # numba read its config already
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


_point_numba_cache()

_EXPORTS = {
    "CardError": "core.cards", "parse_card": "core.cards", "parse_cards": "core.cards", "format_card": "core.cards",
    "format_cards": "core.cards", "evaluate": "evaluator", "category": "evaluator", "describe": "evaluator",
    "CATEGORY_NAMES": "evaluator", "situation_index": "isomorphism.situations",
    "situation_cards": "isomorphism.situations",
}
__all__ = sorted(_EXPORTS) + ["__version__"]

__getattr__ = lazy_exports(__name__, _EXPORTS, globals())
