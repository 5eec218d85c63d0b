"""``pokerpipe matchups``: all 47,008 suit-isomorphic heads-up preflop matchups, exact."""
from __future__ import annotations

import typer

from jobs.app import app
from jobs.counts import COUNT
from jobs.options import FORCE, JSON, OUT, QUIET, SCHEDULER, WORKERS, ahead, dataset, run


@app.command()
def matchups(out: str = OUT, workers: int | None = WORKERS, scheduler: str | None = SCHEDULER,
             quiet: bool = QUIET, force: bool = FORCE, as_json: bool = JSON,
             limit: int | None = typer.Option(None, "--limit", parser=COUNT,
                                              help="only the first N classes (smoke runs)")) -> None:
    """Every heads-up preflop matchup up to suit isomorphism (47,008 rows), exact wins/ties/losses."""
    ahead(scheduler)      # the local cluster's fork server imports while this command does
    run([dataset("matchups", limit=limit)], out, workers, scheduler, quiet, force, as_json=as_json)
