"""``pokerpipe datasets``: the registry, and which datasets are built under ``--out``."""
from __future__ import annotations

from typing import Any

import typer

from jobs.app import app, fail, print_json
from jobs.options import OUT


@app.command("datasets")
def datasets(out: str = OUT, as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Every registered dataset: what it reads, its default parameters, and whether --out holds it built."""
    from pipeline.datasets import DatasetError, dataset, is_built, names

    rows: list[dict[str, Any]] = []
    try:
        for name in names():
            ds = dataset(name)
            manifest = is_built(ds, out)
            rows.append({"name": name, "depends_on": ds.depends_on, "parameters": ds.params,
                         "built": manifest is not None, "rows": manifest.get("rows") if manifest else None})
    except DatasetError as e:
        raise fail(str(e)) from None
    if as_json:
        print_json({"datasets": rows})
        return
    width = max(len(r["name"]) for r in rows)
    print(f"{'dataset':{width}s} {'built':>5s} {'rows':>12s}  reads")
    for r in rows:
        n = f"{r['rows']:,}" if r["rows"] is not None else "-"
        print(f"{r['name']:{width}s} {'yes' if r['built'] else 'no':>5s} {n:>12s}  {', '.join(r['depends_on']) or '-'}")
