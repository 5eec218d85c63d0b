"""``pokerpipe holdem-weights``: build the hold'em engine's hand-weight tables into the disk cache."""
from __future__ import annotations

import time
from typing import Optional

from jobs.app import app, fail
from jobs.options import SCHEDULER, WORKERS


@app.command("holdem-weights")
def holdem_weights(workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER) -> None:
    """Build the flop/turn/river hand-weight tables (minutes on two cores; those already built are kept)."""
    from pipeline.batch.errors import RunnerError
    from pipeline.batch.session import Session
    from pipeline.holdem.weight_build import build_weight_tables

    t = time.perf_counter()
    try:
        with Session(workers, scheduler, quiet=True) as session:
            folder = build_weight_tables(session)
    except RunnerError as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"cannot write the hand-weight tables: {e.strerror or e}") from None
    size = sum(f.stat().st_size for f in folder.glob("*.npy"))
    print(f"hand-weight tables in {folder} ({size / 1e6:,.0f} MB, {time.perf_counter() - t:.0f} s)")
