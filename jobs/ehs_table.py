"""``pokerpipe ehs-table``: EHS of every canonical situation of a street, as Parquet."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .app import app, fail
from .options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, run

BOARDS_PER_PART = 500


def river_job(limit: Optional[int] = None):
    import pyarrow as pa

    from pipeline.isomorphism import canonical_boards
    from pipeline.runner import Job

    boards = canonical_boards()                   # the 134,459 suit-canonical five-card sets
    if limit is not None:
        boards = boards[:limit]
    parts = [boards[i:i + BOARDS_PER_PART] for i in range(0, len(boards), BOARDS_PER_PART)]
    schema = pa.schema([("index", pa.int64()), ("hole", pa.string()), ("board", pa.string()),
                        ("ahead", pa.int64()), ("tied", pa.int64()), ("behind", pa.int64()),
                        ("hs", pa.float64()), ("ppot", pa.float64()), ("npot", pa.float64()), ("ehs", pa.float64())])
    params = {"street": "river", "boards_per_part": BOARDS_PER_PART, **({"limit": limit} if limit else {})}
    return Job("ehs-table/river", params, schema, parts, _compute)


def _compute(boards):
    from pipeline.ehs_table import river_rows
    return river_rows(boards)


@app.command("ehs-table")
def ehs_table(street: str = typer.Option(..., "--street", help="flop, turn or river"),
              out: Path = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
              quiet: bool = QUIET, force: bool = FORCE,
              limit: Optional[int] = typer.Option(None, "--limit", help="only the first N canonical boards (smoke runs)")) -> None:
    """HS, PPOT, NPOT and EHS of every canonical (hole, board) situation of a street, indexed by situation_index."""
    street = street.lower()
    if street not in ("flop", "turn", "river"):
        raise fail(f"--street must be flop, turn or river, got {street!r}")
    if street != "river":
        raise fail(f"the {street} table is not built yet; --street river is")
    if limit is not None and limit < 1:
        raise fail(f"--limit must be positive, got {limit}")
    run(river_job(limit), out, workers, scheduler, quiet, force)
