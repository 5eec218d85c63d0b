"""``pokerpipe ehs-table``: EHS of every canonical situation of a street, as Parquet."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .app import app, fail
from .options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, run

STREETS = {"flop": 3, "turn": 4, "river": 5}          # board cards
BOARDS_PER_PART = {"flop": 10, "turn": 100, "river": 500}  # a few seconds of work per part


def street_job(street: str, limit: Optional[int] = None):
    """The job of one street's table: its canonical boards in parts, and the output schema."""
    import pyarrow as pa

    from pipeline.boards import canonical_boards
    from pipeline.ehs_table import POTENTIAL_COLUMNS
    from pipeline.runner import Job

    boards = canonical_boards(STREETS[street])      # 1,755 flops, 16,432 turns, 134,459 rivers
    if limit is not None:
        boards = boards[:limit]
    size = BOARDS_PER_PART[street]
    parts = [boards[i:i + size] for i in range(0, len(boards), size)]
    fields = [("index", pa.int64()), ("hole", pa.string()), ("board", pa.string()),
              ("ahead", pa.int64()), ("tied", pa.int64()), ("behind", pa.int64()),
              ("hs", pa.float64()), ("ppot", pa.float64()), ("npot", pa.float64()), ("ehs", pa.float64())]
    if street != "river":
        fields += [(name, pa.int64()) for name in POTENTIAL_COLUMNS]
    params = {"street": street, "boards_per_part": size, **({"limit": limit} if limit else {})}
    return Job(f"ehs-table/{street}", params, pa.schema(fields), parts, _compute)


def _compute(boards):
    from pipeline.ehs_table import street_rows
    return street_rows(boards)


@app.command("ehs-table")
def ehs_table(street: str = typer.Option(..., "--street", help="flop, turn or river"),
              out: Path = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
              quiet: bool = QUIET, force: bool = FORCE,
              limit: Optional[int] = typer.Option(None, "--limit", help="only the first N canonical boards (smoke runs)")) -> None:
    """HS, PPOT, NPOT and EHS of every canonical (hole, board) situation of a street, indexed by situation_index."""
    street = street.lower()
    if street not in STREETS:
        raise fail(f"--street must be flop, turn or river, got {street!r}")
    if limit is not None and limit < 1:
        raise fail(f"--limit must be positive, got {limit}")
    run(street_job(street, limit), out, workers, scheduler, quiet, force)
