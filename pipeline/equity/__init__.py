"""Equity: exact board enumeration and seeded Monte Carlo for 2..10 players with ranges."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.exports import lazy_exports

if TYPE_CHECKING:
    from .calculator import equity
    from .limits import DEFAULT_TRIALS, EXACT_WORK_LIMIT
    from .result import EquityResult, PlayerEquity

# the public names, each imported from its module on first use: a process that uses one module of the package
# (its limits, its progress chunks: :mod:`pipeline.strength.win_odds` at import) does not load the calculator
# and every kernel behind it (issue 38: 0.13 s of the local cluster's fork server's CPU on an AMD EPYC Zen 1,
# before its first worker could start, for a card abstraction whose workers never call it)
_EXPORTS = {"equity": "calculator", "DEFAULT_TRIALS": "limits", "EXACT_WORK_LIMIT": "limits",
            "EquityResult": "result", "PlayerEquity": "result"}

__all__ = ["equity", "EquityResult", "PlayerEquity", "EXACT_WORK_LIMIT", "DEFAULT_TRIALS"]

__getattr__ = lazy_exports(__name__, _EXPORTS, globals())
