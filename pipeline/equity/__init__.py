"""Equity: exact board enumeration and seeded Monte Carlo for 2..10 players with ranges."""
from .calculator import equity
from .limits import DEFAULT_TRIALS, EXACT_WORK_LIMIT
from .result import EquityResult, PlayerEquity

__all__ = ["equity", "EquityResult", "PlayerEquity", "EXACT_WORK_LIMIT", "DEFAULT_TRIALS"]
