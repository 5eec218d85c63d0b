"""pokerpipe's engine: cards, the evaluator, equity enumeration and ranges.

The public names are re-exported here; each lives in a small module of its own.
"""
from .cards import CardError, format_card, format_cards, parse_card, parse_cards
from .evaluator import CATEGORY_NAMES, category, describe, evaluate

__version__ = "0.1.0"
__all__ = ["CardError", "parse_card", "parse_cards", "format_card", "format_cards",
           "evaluate", "category", "describe", "CATEGORY_NAMES", "__version__"]
