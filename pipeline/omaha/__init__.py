"""Omaha: exactly two hole cards and three board cards, with 4, 5 or 6 hole cards, high and 8-or-better low."""
from __future__ import annotations

from .evaluator import NO_LOW, evaluate_omaha, evaluate_omaha_low, low_ranks

__all__ = ["evaluate_omaha", "evaluate_omaha_low", "low_ranks", "NO_LOW"]
