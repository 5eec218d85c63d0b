"""``pokerpipe datasets``: the registry — what each dataset holds and costs — and which are built under ``--out``."""
from __future__ import annotations

import textwrap
from typing import Any, Optional

import typer

from jobs.app import app, fail, print_json
from jobs.options import OUT


def describe(out: Optional[str] = None) -> list[dict[str, Any]]:
    """Every registered dataset with its default parameters: name, description, what it reads, and its rows,
    bytes on disk and seconds on 2 cores — as built under ``out`` when it is, else as recorded
    (:mod:`pipeline.datasets.measured`; None where nothing was measured)."""
    from pipeline.datasets import dataset, figures, is_built, names

    rows: list[dict[str, Any]] = []
    for name in names():
        ds = dataset(name)
        manifest = is_built(ds, out) if out is not None else None
        known = figures(name)
        recorded = None if known is None else {"rows": known.rows, "bytes": known.bytes, "seconds": known.seconds,
                                               "how": known.how, "estimated": known.estimated}
        row: dict[str, Any] = {"name": name, "description": ds.description, "depends_on": ds.depends_on,
                               "parameters": ds.params, "built": manifest is not None,
                               "rows": recorded and recorded["rows"], "bytes": recorded and recorded["bytes"],
                               "seconds": recorded and recorded["seconds"],
                               "figures": "recorded" if recorded else None, "recorded": recorded}
        if manifest is not None:
            side = sum(e["bytes"] for e in manifest.get("side_outputs", []))
            row.update(rows=manifest["rows"], bytes=sum(p["bytes"] for p in manifest["parts"]) + side,
                       figures="built", built_seconds=manifest.get("seconds"))
        rows.append(row)
    return rows


def size_text(n: Optional[int]) -> str:
    """Bytes as a short size (``65 MB``, ``1.8 GB``), ``-`` when unknown."""
    if n is None:
        return "-"
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} B"


def time_text(seconds: Optional[float]) -> str:
    """Seconds as a short duration (``42 s``, ``12 min``, ``2.7 h``), ``-`` when unknown."""
    if seconds is None:
        return "-"
    if seconds < 100:
        return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.1f} min" if seconds < 600 else f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.2g} h"


def table_lines(rows: list[dict[str, Any]], built: bool = True) -> list[str]:
    """The listing: one line per dataset (name, built, rows, size, time on 2 cores, what it reads), its
    description on the next, indented."""
    width = max(len(r["name"]) for r in rows)
    head = f"{'dataset':{width}s} {'built':>5s} " if built else f"{'dataset':{width}s} "
    lines = [head + f"{'rows':>13s} {'size':>8s} {'2 cores':>8s}  reads"]
    for r in rows:
        n = f"{r['rows']:,}" if r["rows"] is not None else "-"
        mark = f"{'yes' if r['built'] else 'no':>5s} " if built else ""
        about = "~" if r["figures"] == "recorded" and r["recorded"]["estimated"] else ""
        size, time = size_text(r["bytes"]), time_text(r["seconds"])
        lines.append(f"{r['name']:{width}s} {mark}{n:>13s} {about * (size != '-') + size:>8s} "
                     f"{about * (time != '-') + time:>8s}  {', '.join(r['depends_on']) or '-'}")
        lines += textwrap.wrap(r["description"], 100, initial_indent=" " * 4, subsequent_indent=" " * 4)
    return lines


@app.command("datasets")
def datasets(out: str = OUT, as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Every registered dataset: what it holds, what it reads, its rows, size on disk and time on 2 cores (as
    built under --out, else as measured with its default parameters), and whether --out holds it built."""
    from pipeline.datasets import DatasetError

    try:
        rows = describe(out)
    except DatasetError as e:
        raise fail(str(e)) from None
    if as_json:
        print_json({"datasets": rows})
        return
    print("\n".join(table_lines(rows)))
    print("rows and size as built under --out where built, else as measured with the default parameters; "
          "2 cores: wall time of the dataset's own build on 2 workers, its inputs built ('-': not measured; "
          "'~': scaled from a smaller build)")
