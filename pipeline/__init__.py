"""pokerpipe's engine: cards, the evaluator, equity enumeration, ranges, video poker.

The public names are re-exported here and imported on first use, so that a
command needing only one part (say video poker) does not load the others.
"""
from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "CardError": "core.cards", "parse_card": "core.cards", "parse_cards": "core.cards", "format_card": "core.cards",
    "format_cards": "core.cards", "evaluate": "evaluator", "category": "evaluator", "describe": "evaluator",
    "CATEGORY_NAMES": "evaluator", "situation_index": "isomorphism.situations",
    "situation_cards": "isomorphism.situations",
}
__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
