"""The preflop batch jobs: wall time from nothing, scaling 1 -> 2 workers, memory, runner overhead.

    python benchmarks/bench_preflop.py [--skip-scaling]

1. ``pokerpipe preflop-grid`` into an empty folder (runs all 47,008 matchups,
   exact), as a fresh process with the JIT cache warm.
2. ``pokerpipe matchups --workers 1`` and ``--workers 2`` (fresh processes,
   empty folders), interleaved over ``--rounds`` rounds: each round's speed-up
   and the median; then the machine's own ceiling for this kernel — one process
   enumerating every matchup against two processes sharing the work, with no
   Dask at all — and a worker's peak resident memory.  This VM's two vCPUs
   slow each other down by 0–25% from minute to minute, so single figures vary.
3. A job of 10,000 trivial partitions through the runner.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pipeline.batch.spec import Dataset  # noqa: E402
from pipeline.datasets import Matchups, build  # noqa: E402


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Trivial(Dataset):
    """10,000 one-row partitions: what the runner costs per part."""

    name = "trivial"
    params = {"n": 10_000}
    schema = pa.schema([("i", pa.int64())])

    def partitions(self, inputs):
        return list(range(10_000))

    def compute(self, i: int) -> pa.Table:
        return pa.table({"i": pa.array([i], pa.int64())})


def matchups_cli(workers: int, out: Path) -> float:
    """Wall time of ``pokerpipe matchups --workers N`` as a fresh process, into an empty folder."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "jobs", "matchups", "--workers", str(workers), "--quiet",
                    "--out", str(out)], check=True)
    return time.perf_counter() - t


def _kernel_share(share: int, of: int) -> None:
    """Run the matchup kernel over every ``of``-th canonical matchup starting at ``share``."""
    from pipeline.equity.matchups import canonical_matchups, count_matchups
    from pipeline.evaluator.tables import tables

    codes, _ = canonical_matchups()
    t = tables()
    count_matchups(codes[:1], t)                # load the compiled kernel before the timed share
    count_matchups(codes[share::of], t)


def machine_ceiling() -> float:
    """Speed-up of two bare processes sharing the matchup kernel's work over one doing it all."""
    def wall(shares: list[tuple[int, int]]) -> float:
        t = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, __file__, "--kernel-share", f"{s}/{o}"]) for s, o in shares]
        for p in procs:
            p.wait()
        return time.perf_counter() - t
    return wall([(0, 1)]) / wall([(0, 2), (1, 2)])


def worker_peak_memory(out: Path) -> list[float]:
    """Peak resident MiB of each of 2 local workers after they ran part of ``matchups``."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        build(Matchups(limit=6000), out, scheduler=cluster.scheduler_address, quiet=True, force=True)
        return list(client.run(_peak_rss_mib).values())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kernel-share", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.kernel_share:
        _kernel_share(*map(int, args.kernel_share.split("/")))
        return
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run([sys.executable, "-m", "jobs", "odds-table", "--out", str(tmp / "warm"), "--quiet"], check=True)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "jobs", "preflop-grid", "--out", str(tmp / "grid"), "--quiet"],
                       check=True)
        print(f"pokerpipe preflop-grid from nothing (47,008 matchups + 28,561-cell grid): "
              f"{time.perf_counter() - t:.1f} s wall on {os.cpu_count()} cores  (OMPEval, C++, 1 core: 71 s)")
        if not args.skip_scaling:
            ratios = []
            for r in range(args.rounds):
                one = matchups_cli(1, tmp / f"m1-{r}")
                two = matchups_cli(2, tmp / f"m2-{r}")
                ratios.append(one / two)
                same = all((tmp / f"m1-{r}" / "matchups" / p.name).read_bytes() == p.read_bytes()
                           for p in (tmp / f"m2-{r}" / "matchups").glob("part-*.parquet"))
                print(f"round {r + 1}: pokerpipe matchups --workers 1: {one:.1f} s; --workers 2: {two:.1f} s; "
                      f"speed-up {one / two:.2f}x; identical parts: {same}")
            print(f"speed-up 1 -> 2 workers: median {statistics.median(ratios):.2f}x "
                  f"(range {min(ratios):.2f}-{max(ratios):.2f}x over {len(ratios)} rounds)")
            print(f"machine ceiling now: two bare processes run the matchup kernel {machine_ceiling():.2f}x "
                  f"as fast as one")
            rss = worker_peak_memory(tmp / "mem")
            print(f"peak resident memory per worker: {max(rss):.0f} MiB")
        t = time.perf_counter()
        build(Trivial(), tmp / "trivial", quiet=True)
        print(f"runner: 10,000 trivial partitions in {time.perf_counter() - t:.1f} s "
              f"(local cluster start, 10,000 part files and their checksum records included)")


if __name__ == "__main__":
    main()
