"""``pokerpipe solve``: CFR+ on Leduc or on abstracted heads-up limit hold'em, checkpointed and resumable."""
from __future__ import annotations

import sys
import time
from typing import Any, Optional

import typer

from jobs.app import app, fail, print_json
from jobs.options import QUIET, SCHEDULER, WORKERS


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
    from pipeline.core.budget import duration
    from pipeline.datasets.solve_plan import SolvePlan

    n = None if iterations is None else count_option(iterations, "--iterations", None)   # a whole number ...
    plan = SolvePlan(game, n, hours, tuple(param), workers, scheduler)   # ... the rest checked: one line, exit 2
    plan.refuse_work()
    params = plan.params
    from pipeline.batch.storage import Storage, StorageError
    from pipeline.datasets.solve import CURVE, SolveError
    from pipeline.datasets.solve import solve as run_solve

    try:
        storage = Storage.open(out)          # before the solver is built (seconds): a bad --out is said at once
    except StorageError as e:
        raise fail(str(e)) from None
    solver = plan.solver()
    if not quiet:
        print(f"pokerpipe: solve {game}: " + (f"{n:,} iterations, at least {duration(plan.least_seconds)} on one "
                                              "core" if n is not None else f"{hours:g} hours") +
              f"; {solver.game.rows:,} information sets; checkpoints every "
              f"{duration(params['checkpoint_seconds'])} in {out}", file=sys.stderr, flush=True)
    show = _Progress(quiet, n)

    from concurrent.futures import ThreadPoolExecutor

    from pipeline.core.cores import available_cores

    threads = workers or available_cores()
    try:
        with ThreadPoolExecutor(threads) as executor:
            manifest, done = run_solve(storage, solver, plan.recorded, iterations=n, hours=hours,
                                       checkpoint_seconds=params["checkpoint_seconds"], measure=plan.measure,
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
