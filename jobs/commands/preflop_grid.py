"""``pokerpipe preflop-grid``: the exact 169x169 class grid, from the matchups dataset."""
from __future__ import annotations

from jobs.app import app
from jobs.options import FORCE, JSON, OUT, QUIET, SCHEDULER, WORKERS, ahead, run


@app.command("preflop-grid")
def preflop_grid(out: str = OUT, workers: int | None = WORKERS, scheduler: str | None = SCHEDULER,
                 quiet: bool = QUIET, force: bool = FORCE, as_json: bool = JSON) -> None:
    """The 169x169 grid of class-vs-class equity (28,561 rows) and a heat map PNG of equity vs a random hand."""
    ahead(scheduler)      # the local cluster's fork server imports while this command does
    run(["preflop-grid"], out, workers, scheduler, quiet, force, as_json=as_json)
