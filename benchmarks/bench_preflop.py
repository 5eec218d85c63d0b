"""The preflop batch jobs: wall time from nothing, scaling 1 -> 2 workers, memory, runner overhead.

    python benchmarks/bench_preflop.py [--skip-scaling]

1. ``pokerpipe preflop-grid`` into an empty folder (runs all 47,008 matchups,
   exact), as a fresh process with the JIT cache warm.
2. ``matchups`` on a local cluster of 1 and of 2 workers; the speed-up and each
   worker's peak resident memory.
3. A job of 10,000 trivial partitions through the runner.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from jobs.matchups import matchups_job  # noqa: E402
from pipeline.runner import Job, run_job  # noqa: E402


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _trivial(i: int) -> pa.Table:
    return pa.table({"i": pa.array([i], pa.int64())})


def matchups_on(workers: int, out: Path) -> tuple[float, list[float]]:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.run(lambda: __import__("pipeline.preflop"))      # same start for both: modules loaded
        t = time.perf_counter()
        run_job(matchups_job(), out, scheduler=cluster.scheduler_address, quiet=True, force=True)
        dt = time.perf_counter() - t
        rss = list(client.run(_peak_rss_mib).values())
    return dt, rss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-scaling", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run([sys.executable, "-m", "jobs", "odds-table", "--out", str(tmp / "warm"), "--quiet"], check=True)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "jobs", "preflop-grid", "--out", str(tmp / "grid"), "--quiet"], check=True)
        print(f"pokerpipe preflop-grid from nothing (47,008 matchups + 28,561-cell grid): "
              f"{time.perf_counter() - t:.1f} s wall on {os.cpu_count()} cores  (OMPEval, C++, 1 core: 71 s)")
        if not args.skip_scaling:
            one, rss1 = matchups_on(1, tmp / "m1")
            two, rss2 = matchups_on(2, tmp / "m2")
            same = all((tmp / "m1" / "matchups" / p.name).read_bytes() == p.read_bytes()
                       for p in (tmp / "m2" / "matchups").glob("part-*.parquet"))
            print(f"matchups, 1 worker: {one:.1f} s; 2 workers: {two:.1f} s; speed-up {one / two:.2f}x; "
                  f"identical parts: {same}")
            print(f"peak resident memory per worker: {max(rss1 + rss2):.0f} MiB")
        job = Job("trivial", {"n": 10_000}, pa.schema([("i", pa.int64())]), list(range(10_000)), _trivial,
                  rows=lambda p: 1)
        t = time.perf_counter()
        run_job(job, tmp / "trivial", quiet=True)
        print(f"runner: 10,000 trivial partitions in {time.perf_counter() - t:.1f} s "
              f"(local cluster start and 10,000 part files included)")


if __name__ == "__main__":
    main()
