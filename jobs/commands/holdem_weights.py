"""``pokerpipe holdem-weights``: build the hold'em engine's hand-weight tables, the ``holdem-weights`` datasets."""
from __future__ import annotations

from typing import Optional

import typer

from jobs.app import app
from jobs.counts import COUNT
from jobs.options import FORCE, JSON, OUT, QUIET, SCHEDULER, WORKERS, ahead, dataset, run


@app.command("holdem-weights")
def holdem_weights(out: str = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
                   quiet: bool = QUIET, force: bool = FORCE, as_json: bool = JSON,
                   limit: Optional[int] = typer.Option(None, "--limit", parser=COUNT,
                                                       help="only the first N canonical boards of "
                                                       "each street (smoke runs; the engine needs full tables)")
                   ) -> None:
    """Build the flop, turn and river hand-weight tables under --out/holdem-weights (resumable, verified)."""
    ahead(scheduler)      # the local cluster's fork server imports while this command does
    run([dataset(f"holdem-weights/{street}", limit=limit) for street in ("flop", "turn", "river")], out, workers,
        scheduler, quiet, force, as_json=as_json)
