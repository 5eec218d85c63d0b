"""Options every batch command shares, and the calls that hand work to the library's batch layer."""
from __future__ import annotations

import sys
from typing import Any, Optional

import typer

from jobs.app import fail

DEFAULT_OUT = "outputs"      # where datasets are built, and where the hold'em commands look for the weight tables

OUT = typer.Option(DEFAULT_OUT, "--out", "-o",
                   help="output folder or URL (s3://bucket/prefix, gs://...); a dataset writes <out>/<name>/")
WORKERS = typer.Option(None, "--workers", "-w", help="local worker processes (default, or --workers with no "
                       "value: every core; at most 4 a core)")
SCHEDULER = typer.Option(None, "--scheduler", help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 "
                         "(Dask sends pickled code: connect only to a cluster you trust)")
QUIET = typer.Option(False, "--quiet", "-q", help="no progress bar")
FORCE = typer.Option(False, "--force", help="recompute every part instead of resuming")
JSON = typer.Option(False, "--json", help="print one JSON object: each dataset's rows, parts, bytes, seconds, "
                                          "folder and pictures")
DASHBOARD = typer.Option(False, "--dashboard", help="start the Dask dashboard of the local cluster and print its "
                         "address; it listens on 127.0.0.1 only (this machine), unless --dashboard-address says")
DASHBOARD_ADDRESS = typer.Option(None, "--dashboard-address", metavar="HOST:PORT",
                                 help="where the dashboard listens (implies --dashboard), e.g. 0.0.0.0:8787 to "
                                 "let other machines see it: it shows your code and data to whoever can reach it")
WEIGHTS = typer.Option("auto", "--weights", help="hand weight after the flop: tables (built by `pokerpipe "
                       "holdem-weights` into --tables), sampled, or auto (tables when built)")
TABLES = typer.Option(DEFAULT_OUT, "--tables", help="folder or URL holding the hand-weight tables "
                      "(`pokerpipe holdem-weights --out`)")


def run(targets: list[Any], out: str, workers: int | None, scheduler: str | None, quiet: bool, force: bool,
        catalog: bool = False, dashboard: bool = False, dashboard_address: str | None = None,
        params: dict[str, dict] | None = None, pictures: bool = True, as_json: bool = False) -> list[Any]:
    """Build ``targets`` (names or datasets; ``params`` by dataset name, for targets named as text and the
    datasets they read); bad options one line and exit 2, an interrupt exit 130.  ``pictures``: print where
    the pictures are (:func:`print_pictures`; a caller that prints a summary first does it after); ``as_json``:
    print one JSON object of the reports (:func:`report_doc`) on stdout instead.  A local cluster's fork server
    is started first unless the command started it already (:func:`ahead`)."""
    ahead(scheduler)
    from pipeline.batch.runner import Interrupted, Session
    from pipeline.datasets import BuildError, build_many

    try:
        with Session(workers, scheduler, quiet, dashboard, dashboard_address) as session:
            reports = build_many(targets, out, session, force=force, write_catalog=catalog, params=params)
    except BuildError as e:
        raise fail(str(e)) from None
    except Interrupted as e:
        print(f"pokerpipe: {e}", file=sys.stderr)
        raise typer.Exit(130) from None
    if not quiet:
        for r in reports:
            print(f"{r.name}: {r.rows:,} rows in {r.parts} parts at {r.location} "
                  f"({r.computed} computed, {r.parts - r.computed} kept, {r.seconds:.1f} s)", file=sys.stderr)
    if as_json:
        from jobs.app import print_json

        print_json({"datasets": [report_doc(r) for r in reports]})
    elif pictures:
        print_pictures(reports)
    return reports


def ahead(scheduler: str | None) -> None:
    """Start the local cluster's fork server now, unless the run is on ``scheduler``: its imports then run on
    another core while the command imports its own modules and plans (:func:`pipeline.batch.forkserver.start_ahead`).
    A command that builds datasets calls this first thing; the server is stopped if the run never uses it (by
    the session, or at the latest by :func:`jobs.main.entry`)."""
    if scheduler is None:
        from pipeline.batch.forkserver import start_ahead

        start_ahead()


def report_doc(r: Any) -> dict[str, Any]:
    """One dataset's run as ``--json`` prints it."""
    return {"dataset": r.name, "rows": r.rows, "parts": r.parts, "computed": r.computed, "bytes": r.bytes,
            "seconds": round(r.seconds, 3), "location": r.location, "pictures": pictures_of(r)}


def pictures_of(r: Any) -> list[str]:
    """The paths of the pictures a dataset's run left (its heat map, ...)."""
    from pipeline.batch.verified import side_path

    root = r.location.rstrip("/")
    root = root[:-len(r.name) - 1] if root.endswith("/" + r.name) else root     # the --out the dataset sits in
    return [f"{root}/{'/'.join(side_path(r.name, side['file']))}"
            for side in (getattr(r, "manifest", None) or {}).get("side_outputs") or []
            if isinstance(side, dict) and str(side.get("file", "")).endswith(".png")]


def print_pictures(reports: list[Any]) -> None:
    """Say where the run's pictures are (a dataset's heat map, ...): one ``picture: PATH`` line each."""
    for r in reports:
        for path in pictures_of(r):
            print(f"picture: {path}")


def dataset(name: str, **params: Any) -> Any:
    """The registered dataset, or one line and exit 2 for bad parameters."""
    from pipeline.datasets import DatasetError
    from pipeline.datasets import dataset as make

    try:
        return make(name, **params)
    except (DatasetError, ValueError) as e:
        raise fail(str(e)) from None


def weight_source(weights: str, tables: str, instead: str = "sampling instead") -> Optional[Any]:
    """The hand-weight tables to play with (a :class:`pipeline.datasets.HandWeightTables`), or None to sample
    (:func:`pipeline.datasets.recipes.holdem_weights.weight_tables`, which checks ``--weights`` and
    ``--tables``); tables built in ``tables`` that ``auto`` passes over are said on stderr, with ``instead``,
    what the caller does without them (``exploit`` counts each weight exactly)."""
    from pipeline.datasets.recipes.holdem_weights import weight_tables

    source, damaged = weight_tables(weights, tables)
    if damaged:                          # auto: say why the tables someone built are not used
        print(f"pokerpipe: not using the hand-weight tables at {damaged}; {instead} (rebuild them with "
              f"`pokerpipe holdem-weights --out {tables}`)", file=sys.stderr)
    return source
