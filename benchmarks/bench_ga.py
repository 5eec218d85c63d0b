"""The GA player's quality bar and cost, printed (issue 13); not a unit test.

    python benchmarks/bench_ga.py timing [--generations 2] [--workers 2] [--weights auto]
        run the first generations of the default evolution (population 100,
        20,000 hands per match, table format) and print the measured time per
        generation and what 200 generations take on this machine;
    python benchmarks/bench_ga.py quality RUN_DIR [--hands 1000000] [--rlcard-hands 100000] [--weights W]
        the final player of ``RUN_DIR/evolve`` against random, station, maniac
        and the rule bot (duplicate deals, at the table size it was evolved
        for), and heads-up against rlcard's rule and random agents in rlcard's
        environment; the yardstick curve's first and last generation, and each
        phase's first and last best individual re-measured against the
        yardstick over ``--hands``; a PASS / FAIL per line of the bar (beaten
        at 95% confidence).

The quick configuration's wall time is printed by ``quick``:

    python benchmarks/bench_ga.py quick   # --population 20 --generations 10, 2 workers
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def source_of(weights: str, tables: str):
    """The hand-weight tables to play with, as `pokerpipe evolve --weights W --tables T` resolves them."""
    from pipeline.datasets import HandWeightTables

    if weights == "sampled":
        return None
    source = HandWeightTables(str(Path(tables).absolute()))
    if source.built():
        return source
    if weights == "tables":
        raise SystemExit(f"no hand-weight tables at {tables}: pokerpipe holdem-weights --out {tables}")
    return None


def timing(generations: int, workers: int, weights: str = "auto", tables: str = "outputs") -> None:
    from pipeline.batch.session import Session
    from pipeline.batch.storage import Storage
    from pipeline.ga.config import Config
    from pipeline.ga.evolve import evolve

    source = source_of(weights, tables)
    cfg = Config(weights="sampled" if source is None else "tables")     # auto: the tables when built, as evolve
    with tempfile.TemporaryDirectory() as d, Session(workers, quiet=True) as session:
        t = time.perf_counter()
        s = evolve(cfg, Storage.open(d), executor=session.executor("matches"), weights=source,
                   stop_after=generations)
        wall = time.perf_counter() - t
    per = wall / generations
    hands = sum(r["evaluated"] + 1 for r in s.progress) * cfg.hands_per_match    # matches + the yardstick's
    from bench_holdem import rlcard_rate  # the peer, measured in the same run

    rl = rlcard_rate(3_000)
    peer = f" = {hands / wall / rl[0]:.1f}x rlcard's {rl[0]:,.0f} heads-up hands/s on 1 core" if rl else ""
    print(f"  {hands:,} ten-handed hands in {wall:.0f} s: {hands / wall:,.0f} hands/s on {workers} workers{peer}")
    print(f"default evolution (population {cfg.population}, {cfg.hands_per_match:,} hands per match, "
          f"{cfg.format}, {cfg.weights} hand weights), {workers} workers: {per:.1f} s per generation over "
          f"generations 1..{generations} "
          f"(mean of the evolution's own timer: {s.seconds_per_generation:.1f} s)")
    print(f"  -> {cfg.generations} generations: about {cfg.generations * per / 3600:.1f} h "
          f"(generation 0 evaluates the population only; later ones also evaluate ~{cfg.crossover_percent:.0f}% "
          f"children)")


def quick() -> None:
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "jobs", "evolve", "--population", "20", "--generations", "10",
                        "--hands-per-match", "2000", "--workers", "2", "--out", d, "--quiet", "--report-hands",
                        "20000", "--rlcard-hands", "2000"], check=True)
        print(f"quick configuration (--population 20 --generations 10 --hands-per-match 2000, 2 workers, "
              f"report included): {time.perf_counter() - t:.0f} s wall")


def quality(run: Path, hands: int, rlcard_hands: int, weights: str = "auto", tables: str = "outputs") -> None:
    import pyarrow.parquet as pq

    from pipeline.batch.session import Session
    from pipeline.batch.storage import Storage
    from pipeline.ga.assessment.yardsticks import against, evolved_weights, trainers_in
    from pipeline.holdem.player import Player

    player_file = run / "evolve" / "final-player.json"
    player = Player.load(player_file)
    prog = pq.read_table(run / "evolve" / "progress.parquet").to_pylist()
    first, last = prog[0], prog[-1]
    mode = source_of(evolved_weights(player, weights), tables)
    print(f"player {player_file} ({player.about}); hand weights: {'sampled' if mode is None else 'tables'}")
    for r in (first, last):
        se = r["yardstick_stderr"]
        print(f"  yardstick curve, generation {r['generation']}: {r['yardstick_bb100']:+.2f} BB/100 "
              f"[{r['yardstick_bb100'] - 1.96 * se:+.2f}, {r['yardstick_bb100'] + 1.96 * se:+.2f}]")
    curve(run, hands, mode)
    with Session(None, quiet=True) as session:
        for name in ("random", "station", "maniac", "tag", "trainers", "rlcard-rule", "rlcard-random"):
            n = rlcard_hands if name.startswith("rlcard") else hands
            t = time.perf_counter()
            many = n >= 400_000 and not name.startswith("rlcard")
            y = against(player, name, n, seed=2026, executor=session.executor("hands") if many else None,
                        trainers=trainers_in(Storage.open(run), "evolve") if name == "trainers" else None,
                        weights=mode)
            lo, hi = y.ci95
            verdict = "PASS" if lo > 0 else "FAIL"
            print(f"  vs {name:13s} {y.seats:2d} seats {y.hands:>10,} hands: {y.bb_per_100:+8.2f} BB/100 "
                  f"[{lo:+.2f}, {hi:+.2f}]  {verdict}  ({time.perf_counter() - t:.0f} s)")


def curve(run: Path, hands: int, mode) -> None:
    """Each phase's first and last best individual re-measured against the yardstick over ``hands`` hands."""
    from pipeline.batch.session import Session
    from pipeline.batch.storage import Storage
    from pipeline.ga.assessment.report import remeasure

    with Session(None, quiet=True) as session:
        for phase, g, y in remeasure(Storage.open(run), hands, executor=session.executor("hands"), seed=2026,
                                     weights=mode):
            lo, hi = y.ci95
            print(f"  phase {phase}, best of generation {g:3d} vs the yardstick: {y.bb_per_100:+8.2f} BB/100 "
                  f"[{lo:+.2f}, {hi:+.2f}] over {y.hands:,} hands")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    t = sub.add_parser("timing")
    t.add_argument("--generations", type=int, default=2)
    t.add_argument("--workers", type=int, default=2)
    t.add_argument("--weights", default="auto", help="auto (tables when built), tables or sampled")
    t.add_argument("--tables", default="outputs", help="where `pokerpipe holdem-weights` built the tables")
    sub.add_parser("quick")
    q = sub.add_parser("quality")
    q.add_argument("run", type=Path)
    q.add_argument("--hands", type=int, default=1_000_000)
    q.add_argument("--rlcard-hands", type=int, default=100_000)
    q.add_argument("--weights", default="auto", help="auto: the mode the player was evolved with, if recorded")
    q.add_argument("--tables", default="outputs", help="where `pokerpipe holdem-weights` built the tables")
    a = ap.parse_args()
    if a.what == "timing":
        timing(a.generations, a.workers, a.weights, a.tables)
    elif a.what == "quick":
        quick()
    else:
        quality(a.run, a.hands, a.rlcard_hands, a.weights, a.tables)


if __name__ == "__main__":
    main()
