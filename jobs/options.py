"""Options every batch command shares, and the call that hands a job to the runner."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from .app import fail

OUT = typer.Option(Path("outputs"), "--out", "-o", help="output folder; the job writes <out>/<job>/")
WORKERS = typer.Option(None, "--workers", "-w", help="local worker processes (default: all cores)")
SCHEDULER = typer.Option(None, "--scheduler", help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786")
QUIET = typer.Option(False, "--quiet", "-q", help="no progress bar")
FORCE = typer.Option(False, "--force", help="recompute every part instead of resuming")


def run(job, out: Path, workers: Optional[int], scheduler: Optional[str], quiet: bool, force: bool):
    """Run ``job``; bad options become one line and exit 2, an interrupt exit 130."""
    from pipeline.runner import Interrupted, RunnerError, run_job

    try:
        report = run_job(job, out, workers=workers, scheduler=scheduler, quiet=quiet, force=force)
    except RunnerError as e:
        raise fail(str(e))
    except Interrupted as e:
        print(f"pokerpipe: {e}", file=sys.stderr)
        raise typer.Exit(130)
    if not quiet:
        kept = report.parts - report.computed
        print(f"{job.name}: {report.rows:,} rows in {report.parts} parts at {report.folder} "
              f"({report.computed} computed, {kept} kept, {report.seconds:.1f} s)", file=sys.stderr)
    return report
