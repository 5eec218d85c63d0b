"""``pokerpipe tables``: build many datasets, dependencies first, on one cluster (the overnight run)."""
from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperCommand

from jobs.app import app, fail
from jobs.options import (
    DASHBOARD,
    DASHBOARD_ADDRESS,
    FORCE,
    JSON,
    OUT,
    QUIET,
    SCHEDULER,
    WORKERS,
    ahead,
    print_pictures,
    report_doc,
    run,
)


def _params(items: list[str]) -> dict[str, dict]:
    """``vs-random.trials=3000`` -> ``{"vs-random": {"trials": 3000}}``: values read as JSON when they parse
    (``3000``, ``true``, ``[1, 3]``), else taken as text (``1-9``); the recipes check them."""
    from pipeline.core.errors import InputError
    from pipeline.core.inputs import MAX_DEPTH, nesting, parse_json

    out: dict[str, dict] = {}
    for item in items:
        key, eq, value = item.partition("=")
        name, dot, param = key.rpartition(".")
        if not eq or not dot or not name or not param:
            raise fail(f"--param {item!r}: expected DATASET.NAME=VALUE, e.g. vs-random.trials=3000")
        try:
            parsed = parse_json(value, f"--param {key}")
        except InputError as e:
            if nesting(value) > MAX_DEPTH:             # JSON too deep to read: not text either
                raise fail(str(e)) from None
            parsed = value
        out.setdefault(name, {})[param.replace("-", "_")] = parsed
    return out


class WithDatasets(TyperCommand):
    """``tables --help`` ends with every dataset: what it holds, its rows, size and time on 2 cores (read from
    the registry only when help is asked for, so that a run starts no slower)."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:    # click's Context and HelpFormatter
        from jobs.commands.datasets import describe, table_lines

        super().format_epilog(ctx, formatter)
        formatter.write_paragraph()
        formatter.write_text("Datasets (rows, size on disk and wall time on 2 cores as measured with the default "
                             "parameters, '-': not measured, '~': scaled from a smaller build; "
                             "`pokerpipe datasets --out DIR` for what is built):")
        formatter.write_paragraph()
        for line in table_lines(describe(), built=False):
            formatter.write(f"  {line}\n")


@app.command(cls=WithDatasets)
def tables(names: list[str] = typer.Argument(
               None, metavar="[NAMES]...",
               help="datasets or groups (ehs-table, videopoker); default: the preflop set"),
           all_: bool = typer.Option(False, "--all", help="every registered dataset"),
           param: list[str] = typer.Option([], "--param", "-p", help="a dataset parameter, e.g. vs-random.trials=3000"),
           out: str = OUT, workers: int | None = WORKERS, scheduler: str | None = SCHEDULER,
           quiet: bool = QUIET, force: bool = FORCE, as_json: bool = JSON, dashboard: bool = DASHBOARD,
           dashboard_address: str | None = DASHBOARD_ADDRESS) -> None:
    """Build datasets in dependency order on one cluster, resumably, and write <out>/_catalog.json."""
    ahead(scheduler)      # the local cluster's fork server imports while this command does
    from pipeline.datasets import PREFLOP_SET
    from pipeline.datasets import names as registered
    from pipeline.datasets.registry import chosen

    if all_ and names:
        raise fail("give dataset names or --all, not both")
    targets = chosen(registered() if all_ else names or list(PREFLOP_SET))     # an unknown name: one line, exit 2
    reports = run(targets, out, workers, scheduler, quiet, force, catalog=True, dashboard=dashboard,
                  dashboard_address=dashboard_address, params=_params(param), pictures=False)
    if as_json:
        from jobs.app import print_json

        print_json({"datasets": [report_doc(r) for r in reports], "catalog": f"{out.rstrip('/')}/_catalog.json"})
        return
    width = max(len(r.name) for r in reports)
    print(f"{'dataset':{width}s} {'rows':>12s} {'parts':>6s} {'computed':>8s} {'MB':>9s} {'seconds':>8s}")
    for r in reports:
        print(f"{r.name:{width}s} {r.rows:12,d} {r.parts:6d} {r.computed:8d} {r.bytes / 1e6:9.2f} {r.seconds:8.1f}")
    print(f"catalog: {out.rstrip('/')}/_catalog.json")
    print_pictures(reports)
