"""``pokerpipe preflop-grid``: the exact 169x169 class grid, from the matchups dataset."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from .app import app
from .options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, run

HEATMAP = "_heatmap.png"   # leading underscore: dataset readers skip it, like _manifest.json


def grid_job(grid):
    import pyarrow as pa

    from pipeline.runner import Job
    from pipeline.store import dictionary_type

    schema = pa.schema([("hero", dictionary_type()), ("villain", dictionary_type()), ("combos", pa.int64()),
                        ("wins", pa.int64()), ("ties", pa.int64()), ("losses", pa.int64()),
                        ("win", pa.float64()), ("tie", pa.float64()), ("equity", pa.float64())])
    # 13 parts, one per row of the grid (hands whose first rank is A, K, ..., 2)
    parts = [(r, grid[13 * r:13 * r + 13]) for r in range(13)]
    return Job("preflop-grid", {"source": "matchups"}, schema, parts, _compute, rows=lambda p: 13 * 169)


def _compute(part):
    from pipeline.preflop import grid_rows
    r, rows = part
    return grid_rows(rows, 13 * r)


@app.command("preflop-grid")
def preflop_grid(out: Path = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
                 quiet: bool = QUIET, force: bool = FORCE) -> None:
    """The 169x169 grid of class-vs-class equity (28,561 rows) and a heat map PNG of equity vs a random hand."""
    from pipeline.heatmap import write_heatmap
    from pipeline.hand_classes import CLASS_LABELS
    from pipeline.preflop import class_grid, vs_random_exact

    from .matchups import load_matchups

    codes, wtl = load_matchups(out, workers, scheduler, quiet, force)
    grid = class_grid(codes, wtl)
    report = run(grid_job(grid), out, workers, scheduler, quiet, force)
    vr = vs_random_exact(grid)
    equity = (2 * vr[:, 0] + vr[:, 1]) / (2 * vr.sum(axis=1))
    write_heatmap(report.folder / HEATMAP, equity, CLASS_LABELS)
