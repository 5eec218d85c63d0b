"""``pokerpipe ehs-table``: EHS of every canonical situation of a street, as Parquet."""
from __future__ import annotations

from typing import Optional

import typer

from .app import app, fail
from .options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, dataset, run


@app.command("ehs-table")
def ehs_table(street: str = typer.Option(..., "--street", help="flop, turn or river"),
              out: str = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
              quiet: bool = QUIET, force: bool = FORCE,
              limit: Optional[int] = typer.Option(None, "--limit", help="only the first N canonical boards (smoke runs)")) -> None:
    """HS, PPOT, NPOT and EHS of every canonical (hole, board) situation of a street, indexed by situation_index."""
    from pipeline.datasets import EhsTable

    try:
        table = EhsTable(street, limit)
    except ValueError as e:
        raise fail(str(e))
    run([table], out, workers, scheduler, quiet, force)
