"""Equity: exact board enumeration and seeded Monte Carlo for 2..10 players with ranges."""
from .calculator import DEFAULT_TRIALS, EXACT_WORK_LIMIT, EquityResult, PlayerEquity, equity

__all__ = ["equity", "EquityResult", "PlayerEquity", "EXACT_WORK_LIMIT", "DEFAULT_TRIALS"]
