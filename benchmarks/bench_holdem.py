"""Hands per second of the fixed-limit engine, beside rlcard's limit-holdem environment measured in the same run.

    python benchmarks/bench_holdem.py [--hands 200000] [--rlcard-hands 3000] [--weights tables|sampled|auto]
                                      [--tables outputs] [--rounds 3] [--process-hands 10000000]
                                      [--errors] [--situations 1000] [--scaling 10000000]
    python benchmarks/bench_holdem.py --hands 0 --errors --weights enumerated   # tables' values, not built

Hand weights are included (the ``tag`` and ``thesis-preflop`` bots compute them),
after the flop from the weight tables (:mod:`pipeline.holdem.weight_build`)
when built, else sampled.  Every rate is given per second of wall time and
per second of the process's CPU time: other jobs share the machine, and the
load average before and after is printed with them.  rlcard and every table
are timed in turn over ``--rounds`` rounds, the best of each kept, each
pokerpipe rate also as a ratio to rlcard's of the same round (the best such
ratio).  ``--process-hands N`` adds ``pokerpipe play --seats 2 --policies
tag,random --hands N`` timed as a whole process (start-up and the tables'
SHA-256 check included).

``--errors`` measures the hand weight after the flop (tables if built, else the
default sampler; ``--weights enumerated``: the tables' values computed per
situation by :func:`~pipeline.holdem.weight_build.enumerated_weights`) against
100,000-trial simulation on ``--situations`` random situations per street and
opponent count.  ``--scaling N`` plays an N-hand
heads-up simulation on one and on two Dask workers.
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Callable

import numpy as np


def timed(run: Callable[[], int]) -> tuple[float, float]:
    """(hands per wall second, hands per CPU second of this process) of ``run`` (which returns hands played)."""
    t, c = time.perf_counter(), time.process_time()
    hands = run()
    return hands / (time.perf_counter() - t), hands / max(time.process_time() - c, 1e-9)


def engine_rate(policies: list[str], hands: int, weights=None, warm: bool = True) -> tuple[float, float]:
    from pipeline.holdem import simulate
    if warm:
        simulate(policies, 100, seed=0, weights=weights)                 # compile / load caches
    return timed(lambda: simulate(policies, hands, seed=1, weights=weights).hands)


def rlcard_rate(hands: int) -> tuple[float, float] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
        from rlcard.models.limitholdem_rule_models import LimitholdemRuleAgentV1
    except Exception:
        return None
    env = rlcard.make("limit-holdem", config={"seed": 0})
    env.set_agents([LimitholdemRuleAgentV1(), RandomAgent(num_actions=env.num_actions)])

    def run() -> int:
        for _ in range(hands):
            env.run(is_training=False)
        return hands
    return timed(run)


def weight_errors(situations: int, reference: int, mode: str, streets: list[str], source=None) -> None:
    from pipeline.evaluator.tables import tables
    from pipeline.holdem.policies import DEFAULT_SAMPLES
    from pipeline.holdem.weight_build import enumerated_weights
    from pipeline.holdem.weights import sampled_weight, table_weight
    T = tables()
    wt = source.load() if source is not None else None
    rng = np.random.default_rng(0)
    s = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    what = {"tables": "weight tables", "enumerated": "the tables' values by enumeration (tables not built)",
            "sampled": f"{DEFAULT_SAMPLES} samples"}[mode]
    print(f"hand weight, {what} vs {reference:,} trials, {situations} situations each:")
    for n_board, street in ((3, "flop"), (4, "turn"), (5, "river")):
        if street not in streets:
            continue
        cards = [rng.choice(52, 7, replace=False).astype(np.int64) for _ in range(situations)]
        exact = [enumerated_weights(c[0], c[1], c[2:], n_board, T) for c in cards] if mode == "enumerated" else []
        for opp in range(1, 10):
            errs = []
            for i, c in enumerate(cards):
                board = c[2:]
                ref = sampled_weight(c[0], c[1], board, n_board, opp, reference, s, deck, T)
                if mode == "tables":
                    got = table_weight(c[:2], board, n_board, opp, wt)
                elif mode == "enumerated":
                    got = exact[i][opp]
                else:
                    got = sampled_weight(c[0], c[1], board, n_board, opp, DEFAULT_SAMPLES, s, deck, T)
                errs.append(got - ref)
            e = np.abs(errs)
            print(f"  {street:5s} {opp} opp: mean |error| {e.mean():.4f}  95th pct {np.quantile(e, 0.95):.4f}  "
                  f"max {e.max():.4f}  bias {np.mean(errs):+.4f}", flush=True)


def _half(hands: int, weights, part: int) -> float:
    """CPU seconds one bare process spends on half of the scaling run (a control free of Dask)."""
    from pipeline.holdem import simulate
    simulate(["tag", "maniac"], 100, seed=0, weights=weights)
    c = time.process_time()
    simulate(["tag", "maniac"], hands // 2, seed=2 + part, weights=weights)
    return time.process_time() - c


def scaling(hands: int, weights=None) -> None:
    """Wall time on 1 and 2 Dask workers, the workers' CPU share of it, and two bare processes as a control:
    on a shared machine the speed-up is bounded by the CPU the other jobs leave, not by the partitioning."""
    from concurrent.futures import ProcessPoolExecutor

    from pipeline.batch.session import Session
    from pipeline.holdem import simulate
    walls = {}
    for workers in (1, 2):
        with Session(workers=workers, quiet=True) as s:
            simulate(["tag", "maniac"], 1000, seed=0, executor=s.executor("hands"), weights=weights)   # warm
            client = s.client()
            cpu0 = client.run(time.process_time)
            t = time.perf_counter()
            r = simulate(["tag", "maniac"], hands, seed=2, executor=s.executor("hands"), weights=weights)
            walls[workers] = time.perf_counter() - t
            cpu = sum(client.run(time.process_time).values()) - sum(cpu0.values())
            print(f"  {workers} worker(s): {r.hands:,} hands in {walls[workers]:.1f} s "
                  f"({r.hands / walls[workers]:,.0f} hands/s); workers busy {cpu / walls[workers]:.2f} cores; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"  scaling on 2 workers: {walls[1] / walls[2]:.2f}x")
    t = time.perf_counter()
    _half(hands, weights, 0), _half(hands, weights, 1)
    one = time.perf_counter() - t
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_half, [100, 100], [weights] * 2, [0, 1]))                  # warm both processes
        t = time.perf_counter()
        list(pool.map(_half, [hands, hands], [weights] * 2, [0, 1]))
        two = time.perf_counter() - t
    print(f"  control, two bare processes of half the hands each, one after the other vs at once: "
          f"{one / two:.2f}x  load {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--rlcard-hands", type=int, default=3_000)
    ap.add_argument("--weights", default="auto", choices=["auto", "tables", "sampled", "enumerated"])
    ap.add_argument("--errors", action="store_true")
    ap.add_argument("--situations", type=int, default=1000)
    ap.add_argument("--scaling", type=int, default=0)
    ap.add_argument("--streets", default="flop,turn,river", help="--errors: the streets to measure")
    ap.add_argument("--tables", default="outputs", help="where `pokerpipe holdem-weights` built the tables")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of every rate (best kept)")
    ap.add_argument("--process-hands", type=int, default=0,
                    help="also time `pokerpipe play` heads-up tag vs random over this many hands, whole process")
    a = ap.parse_args()
    from pipeline.datasets import HandWeightTables
    source = HandWeightTables(a.tables) if a.weights in ("auto", "tables") else None
    if source is not None and not source.built():
        if a.weights == "tables":
            raise SystemExit(f"no hand-weight tables at {a.tables}: pokerpipe holdem-weights --out {a.tables}")
        source = None
    mode = "tables" if source is not None else "sampled"
    if a.hands > 0:
        speed(a, mode, source)
    if a.scaling:
        print(f"{a.scaling:,}-hand heads-up simulation (tag vs maniac) on Dask workers:")
        scaling(a.scaling, source)
    if a.errors:
        weight_errors(a.situations, 100_000, "enumerated" if a.weights == "enumerated" else mode,
                      a.streets.split(","), source)


TABLES = (("heads-up tag vs random", ["tag", "random"]),
          ("heads-up tag vs maniac", ["tag", "maniac"]),
          ("6-max mixed table", ["tag", "station", "maniac", "random", "thesis-preflop", "tag"]),
          ("heads-up random vs maniac", ["random", "maniac"]))


def play_process(hands: int, weights: str, tables: str) -> tuple[float, float]:
    """``pokerpipe play`` heads-up tag vs random as its own process, timed whole (start-up, the tables' load
    and SHA-256 check, the kernels' load from numba's cache, the play, the printing): (hands per wall
    second, hands per CPU second of the process)."""
    import resource
    import subprocess
    import sys

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "jobs", "play", "--seats", "2", "--policies", "tag,random", "--hands",
                    str(hands), "--seed", "1", "--weights", weights, "--tables", tables, "--quiet", "--json"],
                   check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return hands / wall, hands / cpu


def speed(a: argparse.Namespace, mode: str, source=None) -> None:
    """Each table's rate and rlcard's, interleaved over ``--rounds`` rounds (best of each), and with
    ``--process-hands`` the whole ``pokerpipe play`` process; each pokerpipe rate also as a ratio to
    rlcard's rate of the same round."""
    load0 = os.getloadavg()[0]
    for _name, p in TABLES:
        engine_rate(p, 1000, source)                         # compile / load the kernels before timing
    best: dict[str, tuple[float, float, float, float]] = {}  # name: wall, cpu, and their ratios to rlcard

    def keep(name: str, rate: tuple[float, float], rl: tuple[float, float] | None) -> None:
        w, c = rate
        old = best.get(name, (0.0, 0.0, 0.0, 0.0))
        best[name] = (max(old[0], w), max(old[1], c), max(old[2], w / rl[0] if rl else 0.0),
                      max(old[3], c / rl[1] if rl else 0.0))

    for _round in range(a.rounds):
        rl = rlcard_rate(a.rlcard_hands)
        if rl:
            keep("rlcard", rl, rl)
        for name, p in TABLES:
            keep(name, engine_rate(p, a.hands, source, warm=False), rl)
        if a.process_hands:
            keep("process", play_process(a.process_hands, mode, a.tables), rl)
    print(f"machine: {os.cpu_count()} cores, load average {load0:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"hand weight after the flop: {mode}; best of {a.rounds} interleaved round(s)")
    if "rlcard" in best:
        w, c, _, _ = best.pop("rlcard")
        print(f"rlcard limit-holdem (rule agent v1 vs random): {w:,.0f} hands/s wall, {c:,.0f} per CPU second")
    else:
        print("rlcard limit-holdem: not installed (the issue quotes ~9,000 hands/s)")
    for name, (w, c, rw, rc) in best.items():
        ratio = f"  ({rw:.0f}x / {rc:.0f}x rlcard's rate in the same round)" if rc else ""
        what = (f"`pokerpipe play` heads-up tag vs random, whole process, {a.process_hands:,} hands"
                if name == "process" else f"pokerpipe {name}")
        print(f"{what}: {w:,.0f} hands/s wall, {c:,.0f} per CPU second on one core{ratio}")


if __name__ == "__main__":
    main()
