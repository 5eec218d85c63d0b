"""Progress for long interactive computations: say how long they will take, once."""
from __future__ import annotations

import sys
from typing import Optional

from pipeline.core.budget import duration


class Estimate:
    """Progress callback: once a long run's warm rate is known, say how long it will take.

    The rate is measured from the first report on, not from the start: the first piece of work carries the
    kernels' loading (or compiling, on first use) and the threads' start, and a rate that counts them
    announced "about 9 minutes" for an Omaha run of 41 s.  A run that reports once only is short and gets
    no announcement.
    """

    WARM_SECONDS = 0.5      # the rate is measured over at least this long after the first report

    def __init__(self, hint: str = "--stderr TARGET or --time SECONDS bound Monte Carlo work") -> None:
        self.said = False
        self.hint = hint
        self.first: Optional[tuple[int, float]] = None      # (done, elapsed) at the first report

    def __call__(self, done: int, total: Optional[int], elapsed: float, unit: str) -> None:
        if self.said or total is None or done == 0:
            return
        if self.first is None:
            self.first = (done, elapsed)
            return
        done0, elapsed0 = self.first
        if elapsed - elapsed0 < self.WARM_SECONDS or done <= done0:
            return
        self.said = True
        rate = (done - done0) / (elapsed - elapsed0)
        left = (total - done) / rate
        if left > 30:
            print(f"pokerpipe: {total:,} {unit} at {rate:,.0f}/s will take about {duration(left)}; "
                  f"Ctrl-C stops, {self.hint}",
                  file=sys.stderr, flush=True)
