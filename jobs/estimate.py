"""Progress for long interactive computations: say how long they will take, once."""
from __future__ import annotations

import sys
from typing import Optional

from pipeline.core.budget import duration


class Estimate:
    """Progress callback: once a long run's rate is known, say how long it will take."""

    def __init__(self, hint: str = "--stderr TARGET or --time SECONDS bound Monte Carlo work") -> None:
        self.said = False
        self.hint = hint

    def __call__(self, done: int, total: Optional[int], elapsed: float, unit: str) -> None:
        if self.said or total is None or elapsed < 0.5 or done == 0:
            return
        self.said = True
        left = (total - done) * elapsed / done
        if left > 30:
            print(f"pokerpipe: {total:,} {unit} at {done / elapsed:,.0f}/s will take about {duration(left)}; "
                  f"Ctrl-C stops, {self.hint}",
                  file=sys.stderr, flush=True)

