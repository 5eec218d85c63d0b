"""``pokerpipe solve``: CFR+ on Leduc or on abstracted heads-up limit hold'em, checkpointed and resumable."""
from __future__ import annotations

import sys
import time
from typing import Any, Optional

import typer

from jobs.app import app, fail, print_json
from jobs.options import QUIET, SCHEDULER, WORKERS

GAMES = ("leduc", "hulhe")
# seconds an iteration takes on one core, on the fast side of what was measured (docs/solver.md), so that only
# a run certainly beyond a day is refused: Leduc 3.9 ms loaded; hold'em 0.35 s CPU at k=64 on a loaded machine
LOW_SECONDS = {"leduc": 0.0005, "hulhe": 0.1}
DEFAULTS: dict[str, dict[str, Any]] = {
    "leduc": {"seed": 0, "checkpoint_seconds": 300.0},
    "hulhe": {"seed": 0, "checkpoint_seconds": 300.0, "k": 256, "abstraction": "outputs"},
}


def _params(game: str, items: list[str]) -> dict[str, Any]:
    from pipeline.core.errors import InputError
    from pipeline.core.inputs import integer, parse_json, real

    out = dict(DEFAULTS[game])
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or key not in out:
            raise fail(f"-p {item!r}: expected KEY=VALUE with KEY one of {', '.join(sorted(out))}")
        try:
            v: Any = parse_json(value, f"-p {key}")
        except InputError:
            v = value
        out[key] = v
    try:
        out["seed"] = integer(out["seed"], "-p seed", 0, (1 << 63) - 1)
        out["checkpoint_seconds"] = real(out["checkpoint_seconds"], "-p checkpoint_seconds", 0.0, 86400.0)
        if game == "hulhe":
            out["k"] = integer(out["k"], "-p k", 1, 50_000)
            out["abstraction"] = str(out["abstraction"])
    except InputError as e:
        raise fail(str(e)) from None
    return out


@app.command()
def solve(game: str = typer.Argument(..., metavar="GAME", help="leduc or hulhe (heads-up limit hold'em)"),
          iterations: Optional[str] = typer.Option(None, "--iterations", "-n", metavar="N",
                                                   help="CFR+ iterations in all (a resumed run counts those done)"),
          hours: Optional[float] = typer.Option(None, "--hours", help="run this long in all, then stop"),
          out: str = typer.Option(..., "--out", "-o", help="the solve's folder or URL: checkpoints and strategy"),
          param: list[str] = typer.Option([], "--param", "-p", help="seed=, checkpoint_seconds=; hold'em: k= "
                                          "(buckets a postflop street), abstraction= (where it is built)"),
          as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
          force: bool = typer.Option(False, "--force", help="start over instead of resuming"),
          workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER, quiet: bool = QUIET) -> None:
    """Solve a game by CFR+ (regret matching+, alternating updates, linear averaging) into --out: the average
    strategy as Parquet and as the arrays the engine's ``cfr:DIR`` policy reads, a checkpoint every few minutes
    (the same command again resumes it to the same bytes), exploitability per checkpoint in chips a game, and
    its convergence curve as a PNG (mbb/g, log-log, against iterations and hours; its path on a ``picture:``
    line).

    The estimate is printed before the run starts; work beyond a day is refused.
    """
    from jobs.counts import count_option
    from pipeline.core.budget import TooMuchWork, duration, refuse_beyond

    if game not in GAMES:
        raise fail(f"unknown game {game!r} (choose from {', '.join(GAMES)})")
    if (iterations is None) == (hours is None):
        raise fail("give --iterations N or --hours H (one of them)")
    n = count_option(iterations, "--iterations", 1, 10**12) if iterations is not None else None
    if hours is not None and not 0 < hours <= 1e6:
        raise fail(f"--hours must be positive, got {hours}")
    if scheduler is not None:
        raise fail("solve shares its tables between the threads of one process: it runs on this machine's "
                   "cores (--workers), not on a Dask cluster")
    if workers is not None and not 1 <= workers <= 256:
        raise fail(f"--workers must be 1 to 256, got {workers}")
    params = _params(game, param)
    seconds = n * LOW_SECONDS[game] if n is not None else 3600.0 * (hours or 0.0)
    try:
        refuse_beyond(seconds, f"solve {game} " + (f"--iterations {n:,}" if n is not None else f"--hours {hours:g}"),
                      "fewer --iterations or --hours")
    except TooMuchWork as e:
        raise fail(str(e)) from None
    from pipeline.batch.storage import Storage, StorageError
    from pipeline.datasets.solve import CURVE, SolveError
    from pipeline.datasets.solve import solve as run_solve
    from pipeline.solver.cfr import Solver

    solver = Solver(_game(game, params), seed=params["seed"])

    def measure(s: Solver) -> Optional[float]:
        return float(s.exploitability()) if s.game.full_traversal else None

    warm = Solver(solver.game, seed=params["seed"])      # compile (or load) the kernels now, outside the run's clock:
    warm.run(1)                                          # the walk and the exploitability's best response
    measure(warm)
    kept = {k: v for k, v in params.items() if k != "checkpoint_seconds"}
    if not quiet:
        print(f"pokerpipe: solve {game}: " + (f"{n:,} iterations, at least {duration(seconds)} on one core"
                                              if n is not None else f"{hours:g} hours") +
              f"; {solver.game.rows:,} information sets; checkpoints every "
              f"{duration(params['checkpoint_seconds'])} in {out}", file=sys.stderr, flush=True)
    show = _Progress(quiet, n)

    from concurrent.futures import ThreadPoolExecutor

    from pipeline.core.combinatorics import available_cores

    threads = workers or available_cores()
    try:
        storage = Storage.open(out)
        with ThreadPoolExecutor(threads) as executor:
            manifest, done = run_solve(storage, solver, kept, iterations=n, hours=hours,
                                       checkpoint_seconds=params["checkpoint_seconds"], measure=measure,
                                       progress=show, force=force, executor=executor if threads > 1 else None)
    except (SolveError, StorageError) as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"cannot write to {out}: {e.strerror or e}") from None
    finally:
        show.close()
    result = {"game": game, "iterations": done.t, "exploitability": manifest["exploitability"],
              "seconds": manifest["seconds"], "information_sets": manifest["rows"], "out": storage.url(),
              "curve": manifest["curve"], "picture": storage.url(CURVE)}
    if as_json:
        print_json(result)
        return
    ex = manifest["exploitability"]
    print(f"{game}: {done.t:,} iterations in {manifest['seconds']:,.1f} s; exploitability "
          + (f"{ex:.9g} chips a game" if ex is not None else "not measured") + f"; strategy in {storage.url()}")
    print(f"picture: {storage.url(CURVE)}")


def _game(game: str, params: dict[str, Any]) -> Any:
    if game == "leduc":
        from pipeline.solver.leduc import leduc

        return leduc()
    from pipeline.abstraction import AbstractionError
    from pipeline.datasets.abstraction_lookup import load_abstraction as load
    from pipeline.solver.hulhe import HULHE, ModuloBuckets

    if params["abstraction"] == "modulo":                 # a stand-in for smoke tests: no build needed
        return HULHE(params["k"], ModuloBuckets(params["k"]))

    try:
        source = load(params["abstraction"], k=params["k"])
    except AbstractionError as e:
        raise fail(f"{e} (hold'em needs the card abstraction: pokerpipe tables abstraction -p "
                   f"abstraction/flop.k={params['k']} ... --out {params['abstraction']})") from None
    return HULHE(params["k"], source)


class _Progress:
    """The bar on stderr: iterations, iterations a second, the latest exploitability."""

    def __init__(self, quiet: bool, total: Optional[int]) -> None:
        self.bar: Any = None
        self.last = 0.0
        if quiet:
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("solve"), BarColumn(), TextColumn("{task.completed:,.0f} it"),
                            TextColumn("{task.fields[rate]}/s"), TextColumn("exploitability {task.fields[expl]}"),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.task = self.bar.add_task("solve", total=total, rate="-", expl="-")
        self.bar.start()
        self.start = time.monotonic()
        self.first: Optional[int] = None

    def __call__(self, t: int, total: Optional[int], expl: Optional[float]) -> None:
        if self.bar is None:
            return
        now = time.monotonic()
        if self.first is None:
            self.first = t - 1
        if now - self.last < 0.2 and t != total:
            return
        self.last = now
        rate = (t - self.first) / max(now - self.start, 1e-9)
        self.bar.update(self.task, completed=t, rate=f"{rate:,.1f}", expl="-" if expl is None else f"{expl:.6g}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
