"""``pokerpipe ehs-table``: EHS of every canonical situation of a street, as Parquet."""
from __future__ import annotations

import typer

from jobs.app import app, fail
from jobs.counts import COUNT
from jobs.options import FORCE, JSON, OUT, QUIET, SCHEDULER, WORKERS, ahead, run


@app.command("ehs-table")
def ehs_table(street: str = typer.Option(..., "--street", help="flop, turn or river"),
              out: str = OUT, workers: int | None = WORKERS, scheduler: str | None = SCHEDULER,
              quiet: bool = QUIET, force: bool = FORCE, as_json: bool = JSON,
              limit: int | None = typer.Option(None, "--limit", parser=COUNT,
                                               help="only the first N canonical boards (smoke runs)")) -> None:
    """HS, PPOT, NPOT and EHS of every canonical (hole, board) situation of a street, indexed by situation_index."""
    ahead(scheduler)      # the local cluster's fork server imports while this command does
    from pipeline.datasets import EhsTable

    try:
        table = EhsTable(street, limit)
    except ValueError as e:
        raise fail(str(e)) from None
    run([table], out, workers, scheduler, quiet, force, as_json=as_json)
