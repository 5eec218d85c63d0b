"""``pokerpipe odds-table``: the exact outs odds table beside the rules of 4 and 2."""
from __future__ import annotations

from jobs.app import app
from jobs.options import FORCE, JSON, OUT, QUIET, SCHEDULER, WORKERS, ahead, run


@app.command("odds-table")
def odds_table(out: str = OUT, workers: int | None = WORKERS, scheduler: str | None = SCHEDULER,
               quiet: bool = QUIET, force: bool = FORCE, as_json: bool = JSON) -> None:
    """Chance of hitting 1..20 outs on the turn, the river, and turn-or-river; prints the table."""
    ahead(scheduler)      # the local cluster's fork server imports while this command does
    from pipeline.strength.hit_odds import outs_row

    run(["odds-table"], out, workers, scheduler, quiet, force, as_json=as_json)
    if as_json:                         # the table's rows are the dataset's: read them from its parts
        return
    print(f"{'outs':>4}  {'turn':>7} {'odds':>10}  {'river':>7} {'odds':>10}  {'turn|river':>10} {'odds':>10}"
          f"  {'2n+1':>5} {'4n-1':>5}")
    for n in range(1, 21):
        r = outs_row(n)
        print(f"{n:>4}  {r['turn_pct']:6.2f}% {r['turn_odds']:>10}  {r['river_pct']:6.2f}% {r['river_odds']:>10}"
              f"  {r['turn_or_river_pct']:9.2f}% {r['turn_or_river_odds']:>10}"
              f"  {r['rule_2_pct']:4d}% {r['rule_4_pct']:4d}%")
