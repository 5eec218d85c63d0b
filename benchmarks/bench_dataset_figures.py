"""Measure datasets' figures with their default parameters — rows, size on disk, wall time on 2 workers — and
print them as entries of ``pipeline/datasets/measured.py``'s ``FIGURES``.

    python benchmarks/bench_dataset_figures.py [NAME_OR_GROUP ...] [--out DIR] [--workers 2]

Each dataset is built from nothing (its inputs first, in the same run: their own time is theirs); run it
with a warm kernel cache (any earlier build of the same datasets, a small one will do), so that a figure is
the build's and not the compiler's.  The size is what the dataset writes: its Parquet parts and its side
outputs.  The CPU, its vector flags and the
load average are printed with the figures: the machine is shared, so quote them with the load.

No registry package builds these datasets, so the builds are set beside a yardstick measured in the same run
(``common.Yardstick``: eval7 evaluating a fixed batch of random 7-card hands, on the client, before and after
the builds): its line is printed as a comment, and each figure's seconds also as a multiple of it, in a
comment after the entry, so that a figure from a loaded run can be set beside one from a quiet run.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scaling import cpu_name  # noqa: E402
from common import Yardstick  # noqa: E402

from pipeline.batch.session import Session  # noqa: E402
from pipeline.datasets import build_many, names  # noqa: E402

CHEAP = ["matchups", "preflop-grid", "two-opponents", "vs-random", "odds-table", "shortdeck-matchups",
         "shortdeck-preflop-grid", "shortdeck-vs-random", "videopoker"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=CHEAP)
    parser.add_argument("--out", default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    known = names()
    chosen = [k for n in args.names for k in known if k == n or k.startswith(n.rstrip("/") + "/")]
    out = args.out or tempfile.mkdtemp(prefix="figures-")
    load = os.getloadavg()[0]
    yard = Yardstick()
    started = time.time()
    with Session(args.workers, None, True) as session:
        reports = build_many(chosen, out, session, write_catalog=False)
    load = max(load, os.getloadavg()[0])
    elapsed = time.time() - started
    yard.after()
    how = (f"benchmarks/bench_dataset_figures.py, {args.workers} workers, {cpu_name()}, load average "
           f"{load:.1f}, {time.strftime('%Y-%m-%d')}")
    print(f"# {how}; {elapsed:.0f} s in all" + (f" ({yard.times(elapsed)})" if yard.seconds else ""))
    print(yard.line("# "))
    for r in reports:
        side = sum(e["bytes"] for e in r.manifest.get("side_outputs", []))
        note = f"  # {yard.times(r.manifest['seconds'])}" if yard.seconds else ""
        print(f'    "{r.name}": Measured({r.rows:_}, {r.bytes + side:_}, {r.manifest["seconds"]}, _RUN),{note}')


if __name__ == "__main__":
    main()
