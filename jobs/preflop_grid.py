"""``pokerpipe preflop-grid``: the exact 169x169 class grid, from the matchups dataset."""
from __future__ import annotations

from typing import Optional

from .app import app
from .options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, run


@app.command("preflop-grid")
def preflop_grid(out: str = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
                 quiet: bool = QUIET, force: bool = FORCE) -> None:
    """The 169x169 grid of class-vs-class equity (28,561 rows) and a heat map PNG of equity vs a random hand."""
    run(["preflop-grid"], out, workers, scheduler, quiet, force)
