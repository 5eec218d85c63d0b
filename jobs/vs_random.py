"""``pokerpipe vs-random``: each of the 169 hands against 1..9 random hands."""
from __future__ import annotations

import typer

from jobs.app import app
from jobs.options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, dataset, run


@app.command("vs-random")
def vs_random(opponents: str = typer.Option("1-9", "--opponents", help="opponent counts: 1-9, 3, or 1,2,5"),
              trials: int = typer.Option(200_000, "--trials", "-n",
                                         help="Monte Carlo trials per hand for 2+ opponents"),
              seed: int = typer.Option(0, "--seed", help="Monte Carlo seed"),
              out: str = OUT, workers: int | None = WORKERS, scheduler: str | None = SCHEDULER,
              quiet: bool = QUIET, force: bool = FORCE) -> None:
    """Each of the 169 hands against k random hands: exact for k = 1, seeded Monte Carlo for k >= 2."""
    run([dataset("vs-random", opponents=opponents, trials=trials, seed=seed)], out, workers, scheduler, quiet, force)
