"""CFR+ beside OpenSpiel: Leduc's exploitability and time an iteration, hold'em's time an iteration, and the
engine playing a solved strategy.

    python benchmarks/bench_solver.py --leduc [--iterations 1000]
    python benchmarks/bench_solver.py --hulhe [--k 256] [--threads 2] [--abstraction DIR]
    python benchmarks/bench_solver.py --engine cfr:DIR [--hands 400000]
    python benchmarks/bench_solver.py --startup [N]

``--leduc`` runs pokerpipe's solve and OpenSpiel's ``CFRPlusSolver`` side by side in this process and prints
their exploitability (OpenSpiel's ``exploitability`` for theirs, pokerpipe's best response for ours) after 1,
10, 100 and 1,000 iterations and each one's CPU and wall time an iteration (the issue: ours at most 1/20 of
theirs).  ``--hulhe`` times iterations of hold'em with one thread and with ``--threads`` (CPU and wall; the
load average beside them), on the built abstraction or on the stand-in buckets (``modulo``).  ``--engine``
plays the strategy against ``random`` and ``tag`` against ``random`` in the same run, hands a CPU second.
``--startup`` runs ``pokerpipe solve leduc --iterations N`` (10) as a new process twice with one, at first empty,
``POKERPIPE_CACHE`` (cold: numba compiles the kernels and caches them; warm: it loads them) and prints each
one's wall and CPU seconds.
"""
from __future__ import annotations

import argparse
import os
import time


def leduc(iterations: int) -> None:
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    from pipeline.solver.cfr import Solver
    from pipeline.solver.leduc import leduc as game

    g = pyspiel.load_game("leduc_poker")
    theirs = cfr.CFRPlusSolver(g)
    ours = Solver(game())
    Solver(game()).run(1)                      # compile outside the clock
    cpu = {"ours": 0.0, "theirs": 0.0}
    wall = {"ours": 0.0, "theirs": 0.0}
    marks = [n for n in (1, 10, 100, 1000, iterations) if n <= iterations]
    done = 0
    print(f"{'N':>6s} {'pokerpipe':>24s} {'OpenSpiel':>24s} {'difference':>11s}")
    for n in sorted(set(marks)):
        c, w = time.process_time(), time.perf_counter()
        ours.run(n - done)
        cpu["ours"] += time.process_time() - c
        wall["ours"] += time.perf_counter() - w
        c, w = time.process_time(), time.perf_counter()
        for _ in range(n - done):
            theirs.evaluate_and_update_policy()
        cpu["theirs"] += time.process_time() - c
        wall["theirs"] += time.perf_counter() - w
        done = n
        a, b = ours.exploitability(), exploitability.exploitability(g, theirs.average_policy())
        print(f"{n:6d} {a!r:>24s} {float(b)!r:>24s} {abs(a - b):11.2e}", flush=True)
    for k in ("ours", "theirs"):
        print(f"{'pokerpipe' if k == 'ours' else 'OpenSpiel'}: {1e3 * cpu[k] / done:.3f} ms CPU, "
              f"{1e3 * wall[k] / done:.3f} ms wall an iteration")
    print(f"ratio (OpenSpiel / pokerpipe): CPU {cpu['theirs'] / cpu['ours']:.1f}x, wall "
          f"{wall['theirs'] / wall['ours']:.1f}x; load average {os.getloadavg()[0]:.1f}")


def hulhe(k: int, threads: int, abstraction: str, iterations: int) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from pipeline.solver.cfr import Solver
    from pipeline.solver.hulhe import HULHE, ModuloBuckets

    if abstraction == "modulo":
        game = HULHE(k, ModuloBuckets(k))
    else:
        from pipeline.datasets.abstraction_lookup import load_abstraction as load

        game = HULHE(k, load(abstraction, k=k))
    with ThreadPoolExecutor(threads) as ex:
        s = Solver(game, seed=1)
        s.run(1)
        s.run(1, ex)                          # both paths compiled
        for label, executor in (("1 thread", None), (f"{threads} threads", ex)):
            c, w = time.process_time(), time.perf_counter()
            s.run(iterations, executor)
            print(f"hold'em k={k} ({abstraction}), {label}: {(time.process_time() - c) / iterations:.3f} s CPU, "
                  f"{(time.perf_counter() - w) / iterations:.3f} s wall an iteration; load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
    print(f"tables: {game.rows:,} rows, {2 * game.rows * 3 * 8 / 1e6:,.0f} MB")


def engine(policy: str, hands: int) -> None:
    from pipeline.datasets.solve import resolve_policy
    from pipeline.holdem import simulate

    cfr = resolve_policy(policy)
    for pol in ([cfr, "random"], ["tag", "random"]):
        simulate(pol, 2_000, 1)
    for _ in range(2):
        for pol in ([cfr, "random"], ["tag", "random"]):
            c = time.process_time()
            r = simulate(pol, hands, 2)
            name = getattr(pol[0], "name", pol[0])
            print(f"{name} vs random: {r.hands / (time.process_time() - c):,.0f} hands a CPU second", flush=True)


def startup(iterations: int) -> None:
    import resource
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["POKERPIPE_CACHE"] = f"{tmp}/cache"
        for run in ("cold", "warm"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            w = time.perf_counter()
            subprocess.run([sys.executable, "-m", "jobs", "solve", "leduc", "--iterations", str(iterations), "--out",
                            f"{tmp}/{run}", "--quiet", "--json"], env=env, check=True, stdout=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            print(f"solve leduc --iterations {iterations}, {run} cache: {time.perf_counter() - w:.2f} s wall, "
                  f"{cpu:.2f} s CPU; load average {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--leduc", action="store_true")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--hulhe", action="store_true")
    ap.add_argument("--k", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--abstraction", default="modulo")
    ap.add_argument("--engine", default=None, metavar="cfr:DIR")
    ap.add_argument("--hands", type=int, default=400_000)
    ap.add_argument("--startup", type=int, nargs="?", const=10, default=None, metavar="N")
    a = ap.parse_args()
    if a.leduc:
        leduc(a.iterations)
    if a.hulhe:
        hulhe(a.k, a.threads, a.abstraction, 3)
    if a.engine:
        engine(a.engine, a.hands)
    if a.startup is not None:
        startup(a.startup)


if __name__ == "__main__":
    main()
