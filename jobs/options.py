"""Options every batch command shares, and the call that hands datasets to the runner."""
from __future__ import annotations

import sys
from typing import Any

import typer

from jobs.app import fail

OUT = typer.Option("outputs", "--out", "-o",
                   help="output folder or URL (s3://bucket/prefix, gs://...); a dataset writes <out>/<name>/")
WORKERS = typer.Option(None, "--workers", "-w", help="local worker processes (default: all cores)")
SCHEDULER = typer.Option(None, "--scheduler", help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 "
                         "(Dask sends pickled code: connect only to a cluster you trust)")
QUIET = typer.Option(False, "--quiet", "-q", help="no progress bar")
FORCE = typer.Option(False, "--force", help="recompute every part instead of resuming")
DASHBOARD = typer.Option(False, "--dashboard", help="start the Dask dashboard and print its address")


def run(targets: list[Any], out: str, workers: int | None, scheduler: str | None, quiet: bool, force: bool,
        catalog: bool = False, dashboard: bool = False) -> list[Any]:
    """Build ``targets`` (names or datasets); bad options one line and exit 2, an interrupt exit 130."""
    from pipeline.batch.runner import Interrupted, Session
    from pipeline.datasets import BuildError, build_many

    try:
        with Session(workers, scheduler, quiet, dashboard) as session:
            reports = build_many(targets, out, session, force=force, write_catalog=catalog)
    except BuildError as e:
        raise fail(str(e)) from None
    except Interrupted as e:
        print(f"pokerpipe: {e}", file=sys.stderr)
        raise typer.Exit(130) from None
    if not quiet:
        for r in reports:
            print(f"{r.name}: {r.rows:,} rows in {r.parts} parts at {r.location} "
                  f"({r.computed} computed, {r.parts - r.computed} kept, {r.seconds:.1f} s)", file=sys.stderr)
    return reports


def dataset(name: str, **params: Any) -> Any:
    """The registered dataset, or one line and exit 2 for bad parameters."""
    from pipeline.datasets import DatasetError
    from pipeline.datasets import dataset as make

    try:
        return make(name, **params)
    except (DatasetError, ValueError) as e:
        raise fail(str(e)) from None
