"""``pokerpipe matchups``: all 47,008 suit-isomorphic heads-up preflop matchups, exact."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import numpy as np
import typer

from .app import app, fail
from .options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, run

ROWS_PER_PART = 500


def matchups_job(limit: Optional[int] = None):
    """The job: partitions of 500 canonical matchups each, in canonical order.

    ``limit`` keeps only the first classes (a quick smoke run; a separate parameter set).
    """
    import pyarrow as pa

    from pipeline.preflop import canonical_matchups
    from pipeline.runner import Job
    from pipeline.store import dictionary_type

    codes, weights = canonical_matchups()
    if limit is not None:
        codes, weights = codes[:limit], weights[:limit]
    parts = [(codes[i:i + ROWS_PER_PART], weights[i:i + ROWS_PER_PART])
             for i in range(0, len(codes), ROWS_PER_PART)]
    schema = pa.schema([("hero", pa.string()), ("villain", pa.string()),
                        ("hero_class", dictionary_type()), ("villain_class", dictionary_type()),
                        ("wins", pa.int64()), ("ties", pa.int64()), ("losses", pa.int64()),
                        ("weight", pa.int64())])
    params = {"rows_per_part": ROWS_PER_PART, **({"limit": limit} if limit is not None else {})}
    return Job("matchups", params, schema, parts,
               _compute, rows=lambda p: len(p[0]))


def _compute(part):
    from pipeline.preflop import matchup_rows
    return matchup_rows(*part)


def load_matchups(out: Path, workers, scheduler, quiet, force=False):
    """The matchups dataset as (codes, wins/ties/losses), running the job if it is not finished."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipeline.preflop import canonical_matchups
    from pipeline.runner import MANIFEST

    folder = Path(out) / "matchups"
    manifest = folder / MANIFEST
    if force or not manifest.exists() or "limit" in json.loads(manifest.read_text())["parameters"]:
        run(matchups_job(), out, workers, scheduler, quiet, force)
    table = pa.concat_tables(pq.read_table(p, columns=["wins", "ties", "losses"])
                             for p in sorted(folder.glob("part-*.parquet")))
    codes, _ = canonical_matchups()
    wtl = np.stack([table.column(c).to_numpy() for c in ("wins", "ties", "losses")], axis=1)
    if len(wtl) != len(codes):
        raise RuntimeError(f"{folder} holds {len(wtl)} matchups, expected {len(codes)}")
    return codes, wtl


@app.command()
def matchups(out: Path = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
             quiet: bool = QUIET, force: bool = FORCE,
             limit: Optional[int] = typer.Option(None, "--limit", help="only the first N classes (smoke runs)")) -> None:
    """Every heads-up preflop matchup up to suit isomorphism (47,008 rows), exact wins/ties/losses."""
    if limit is not None and limit < 1:
        raise fail(f"--limit must be positive, got {limit}")
    run(matchups_job(limit), out, workers, scheduler, quiet, force)
