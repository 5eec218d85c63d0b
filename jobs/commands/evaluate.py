"""``pokerpipe evaluate``: a saved player against fixed opponents, BB/100 with 95% intervals."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Optional

import typer

from jobs.app import app, fail, print_json
from jobs.counts import COUNT
from jobs.options import QUIET, SCHEDULER, TABLES, WORKERS, weight_source
from pipeline.ga.assessment.plan import EvaluatePlan
from pipeline.ga.assessment.yardsticks import DEFAULT_HANDS, DEFAULT_RLCARD_HANDS
from pipeline.holdem.policies import DEFAULT_SAMPLES

DEFAULT_AGAINST = "random,station,maniac,tag,trainers,rlcard-rule,rlcard-random"


@app.command()
def evaluate(player_file: str = typer.Argument(..., help="a player .json written by `pokerpipe evolve`"),
             against: str = typer.Option(DEFAULT_AGAINST, "--against", help="comma list of yardsticks"),
             hands: int = typer.Option(DEFAULT_HANDS, "--hands", "-n", parser=COUNT,
                                       help="hands per engine yardstick"),
             rlcard_hands: int = typer.Option(DEFAULT_RLCARD_HANDS, "--rlcard-hands", parser=COUNT,
                                              help="hands per rlcard opponent"),
             seed: int = typer.Option(0, "--seed", help="seed of the deals"),
             samples: int = typer.Option(DEFAULT_SAMPLES, "--samples", parser=COUNT,
                                         help="hand-weight samples per decision after the flop"),
             seats: Optional[int] = typer.Option(None, "--seats",
                                                 help="table size against engine bots (default: the size the "
                                                      "player was evolved at)"),
             weights: str = typer.Option("auto", "--weights", help="hand weight after the flop: tables (in "
                                         "--tables), sampled, or auto (the player's own mode, tables when built)"),
             tables: str = TABLES,
             as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
             workers: int | None = WORKERS, scheduler: str | None = SCHEDULER, quiet: bool = QUIET) -> None:
    """Play a saved player against yardsticks (our bots, its trainers, rlcard's agents) on duplicate deals."""
    from pipeline.batch.errors import RunnerError
    from pipeline.batch.session import Session, local_processes
    from pipeline.batch.storage import Storage
    from pipeline.ga.assessment.yardsticks import against as play_against
    from pipeline.ga.assessment.yardsticks import evolved_weights, trainers_in
    from pipeline.holdem.player import Player

    names = tuple(a.strip() for a in against.split(",") if a.strip())
    plan = EvaluatePlan(player_file, names, hands, rlcard_hands, samples, seats)    # bad options: one line, exit 2
    if plan.solved:
        return _evaluate_solved(plan, seed, as_json, tables, workers, scheduler, quiet)
    player = Player.load(player_file)
    trainers = trainers_in(Storage.open(Path(player_file).parent)) if "trainers" in names else None
    source = weight_source(evolved_weights(player, weights), tables)    # None: sampled, several times slower
    plan.refuse_work(local_processes(workers, scheduler), player, source is None)
    results = []
    try:
        with Session(workers, scheduler, quiet=quiet) as session:
            if scheduler is not None:                       # the cluster reached: its size is known
                plan.refuse_work(session.processes(), player, source is None)
            for n in names:
                t = time.perf_counter()
                results.append(play_against(player, n, plan.hands_against(n), seed,
                                            executor=session.executor_or_none("hands") if plan.spread(n) else None,
                                            samples=samples, trainers=trainers, seats=seats, weights=source))
                if not quiet:                       # stderr, so that --json output stays one object on stdout
                    print(f"{n}: {results[-1].hands:,} hands in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    except RunnerError as e:
        raise fail(str(e)) from None
    if as_json:
        print_json({"player": player_file, "results": [r.to_dict() for r in results]}, seed)
        return
    print(f"{player_file}: BB/100 with 95% intervals (duplicate deals)")
    print(f"{'opponent':<15s} {'seats':>5s} {'hands':>10s} {'BB/100':>9s}  {'95% interval':>20s}")
    for r in results:
        lo, hi = r.ci95
        print(f"{r.opponent:<15s} {r.seats:5d} {r.hands:10,d} {r.bb_per_100:9.2f}  [{lo:8.2f}, {hi:8.2f}]")


def _evaluate_solved(plan: EvaluatePlan, seed: int, as_json: bool, tables: str, workers: int | None,
                     scheduler: str | None, quiet: bool) -> None:
    """A solved strategy (cfr:DIR) heads-up against the engine's yardsticks, on duplicate deals."""
    from pipeline.batch.errors import RunnerError
    from pipeline.batch.session import Session
    from pipeline.datasets.solve import resolve_policy
    from pipeline.holdem import simulate

    policy = plan.player
    cfr = resolve_policy(policy)                # no finished hold'em solve in DIR: one line, exit 2
    plan.refuse_work()
    source = weight_source("auto", tables)
    rows: list[dict[str, Any]] = []
    try:
        with Session(workers, scheduler, quiet=quiet) as session:
            for n in plan.against:
                res = simulate([cfr, n], plan.hands, seed, weights=source,
                               executor=session.executor_or_none("hands") if plan.spread(n) else None)
                s = res.seats[0]
                rows.append({"opponent": n, "seats": 2, "hands": res.hands, "bb_per_100": round(s.bb_per_100, 4),
                             "ci95": [round(s.ci95[0], 4), round(s.ci95[1], 4)]})
    except RunnerError as e:
        raise fail(str(e)) from None
    if as_json:
        print_json({"player": policy, "results": rows}, seed)
        return
    print(f"{policy}: BB/100 with 95% intervals (duplicate deals, heads-up)")
    print(f"{'opponent':<15s} {'seats':>5s} {'hands':>10s} {'BB/100':>9s}  {'95% interval':>20s}")
    for row in rows:
        lo, hi = row["ci95"]
        print(f"{row['opponent']:<15s} {row['seats']:5d} {row['hands']:10,d} {row['bb_per_100']:9.2f}  "
              f"[{lo:8.2f}, {hi:8.2f}]")
