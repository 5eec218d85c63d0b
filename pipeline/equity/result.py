"""What the equity calculator answers: each player's win, tie and equity, exact counts where there are some.

Apart from :mod:`.calculator` so that readers of a result (the command line, the datasets, the Omaha and
short-deck front ends) need not import the calculator's kernels.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

__all__ = ["EquityResult", "PlayerEquity"]


@dataclass
class PlayerEquity:
    """One player's result.  ``wins``/``ties``/``losses`` are integer board counts
    (exact runs with unweighted ranges; ``None`` otherwise).  ``shares[j]`` counts the
    boards (Monte Carlo: trials) on which the player is one of exactly ``j + 1`` winners,
    so ``equity = sum_j shares[j] / (j + 1) / boards``: integers for exact runs with
    unweighted ranges and for Monte Carlo runs whose deals carry no importance weight;
    with weights, the weighted sums scaled to the boards (or trials) figure."""

    range: str
    win: float
    tie: float
    equity: float
    wins: Optional[int] = None
    ties: Optional[int] = None
    losses: Optional[int] = None
    stderr: float = 0.0
    shares: list = field(default_factory=list)


@dataclass
class EquityResult:
    """Equities of all players.  ``trials`` and ``stderr`` (the largest player's standard
    error; NaN after a single trial, whose sample cannot tell one) describe a Monte Carlo run,
    ``stopped`` why it ended: ``"trials"``, ``"stderr"`` (the target was reached) or ``"time"``
    (the budget ran out)."""

    exact: bool
    boards: int                      # boards scored: over all combo assignments (exact) or trials
    players: list[PlayerEquity] = field(default_factory=list)
    board: str = ""
    dead: str = ""
    trials: Optional[int] = None
    stderr: float = 0.0
    stopped: Optional[str] = None
    source: str = ""                 # exact runs: "table" when summed from the matchups table

    def to_json(self) -> dict:
        """The ``--json`` object of ``pokerpipe equity``."""
        return {"exact": self.exact, "boards": self.boards, "trials": self.trials, "stderr": self.stderr,
                "stopped": self.stopped, "source": self.source or ("enumeration" if self.exact else "monte carlo"),
                "players": [asdict(p) for p in self.players]}
