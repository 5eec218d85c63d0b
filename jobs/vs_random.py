"""``pokerpipe vs-random``: each of the 169 hands against 1..9 random hands."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .app import app, fail
from .options import FORCE, OUT, QUIET, SCHEDULER, WORKERS, run

DEFAULT_TRIALS = 200_000


def parse_opponents(text: str) -> list[int]:
    """``'1-9'``, ``'3'`` or ``'1,2,5'`` -> sorted opponent counts, each 1..9."""
    out: set[int] = set()
    try:
        for part in text.split(","):
            if "-" in part:
                a, b = (int(x) for x in part.split("-", 1))
                out.update(range(a, b + 1))
            else:
                out.add(int(part))
    except ValueError:
        raise fail(f"--opponents {text!r}: expected a number, a span like 1-9, or a list like 1,3,5")
    bad = sorted(k for k in out if not 1 <= k <= 9)
    if bad or not out:
        raise fail(f"--opponents {text!r}: opponents must be 1 to 9 (got {bad[0] if bad else 'none'})")
    return sorted(out)


def vs_random_job(opponents: list[int], trials: int, seed: int, exact_counts=None):
    import pyarrow as pa

    from pipeline.runner import Job
    from pipeline.store import dictionary_type

    schema = pa.schema([("hand", dictionary_type()), ("opponents", pa.int64()), ("win", pa.float64()),
                        ("tie", pa.float64()), ("equity", pa.float64()), ("stderr", pa.float64()),
                        ("samples", pa.int64()), ("exact", pa.bool_())])
    parts = []
    for k in opponents:
        if k == 1:
            parts.append(("exact", exact_counts))
        else:
            parts.extend(("mc", k, list(range(r, r + 13)), trials, seed) for r in range(0, 169, 13))
    params = {"opponents": opponents, "trials": trials, "seed": seed}
    return Job("vs-random", params, schema, parts, _compute,
               rows=lambda p: 169 if p[0] == "exact" else len(p[2]))


def _compute(part):
    from pipeline.preflop import vs_random_exact_rows, vs_random_mc_rows
    if part[0] == "exact":
        return vs_random_exact_rows(part[1])
    _, k, classes, trials, seed = part
    return vs_random_mc_rows(k, classes, trials, seed)


@app.command("vs-random")
def vs_random(opponents: str = typer.Option("1-9", "--opponents", help="opponent counts: 1-9, 3, or 1,2,5"),
              trials: int = typer.Option(DEFAULT_TRIALS, "--trials", "-n", help="Monte Carlo trials per hand for 2+ opponents"),
              seed: int = typer.Option(0, "--seed", help="Monte Carlo seed"),
              out: Path = OUT, workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER,
              quiet: bool = QUIET, force: bool = FORCE) -> None:
    """Each of the 169 hands against k random hands: exact for k = 1, seeded Monte Carlo for k >= 2."""
    ks = parse_opponents(opponents)
    if trials < 1:
        raise fail(f"--trials must be positive, got {trials}")
    exact = None
    if 1 in ks:
        from pipeline.preflop import class_grid, vs_random_exact

        from .matchups import load_matchups
        codes, wtl = load_matchups(out, workers, scheduler, quiet)
        exact = vs_random_exact(class_grid(codes, wtl))
    run(vs_random_job(ks, trials, seed, exact), out, workers, scheduler, quiet, force)
