"""``pokerpipe vs-random``: each of the 169 hands against 1..9 random hands."""
from __future__ import annotations

import typer

from jobs.app import app
from jobs.counts import COUNT
from jobs.options import FORCE, JSON, OUT, QUIET, SCHEDULER, WORKERS, ahead, dataset, run
from pipeline.datasets.recipes.vs_random import DEFAULT_OPPONENTS, DEFAULT_SEED, DEFAULT_TRIALS


@app.command("vs-random")
def vs_random(opponents: str = typer.Option(DEFAULT_OPPONENTS, "--opponents", help="opponent counts: 1-9, 3, or 1,2,5"),
              trials: int = typer.Option(DEFAULT_TRIALS, "--trials", "-n", parser=COUNT,
                                         help="Monte Carlo trials per hand for 3+ opponents"),
              seed: int = typer.Option(DEFAULT_SEED, "--seed", help="Monte Carlo seed"),
              out: str = OUT, workers: int | None = WORKERS, scheduler: str | None = SCHEDULER,
              quiet: bool = QUIET, force: bool = FORCE, as_json: bool = JSON) -> None:
    """Each of the 169 hands against k random hands: exact for k = 1 and 2, seeded Monte Carlo for k >= 3."""
    ahead(scheduler)      # the local cluster's fork server imports while this command does
    run([dataset("vs-random", opponents=opponents, trials=trials, seed=seed)], out, workers, scheduler, quiet, force,
        as_json=as_json)
