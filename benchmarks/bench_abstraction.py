"""The card abstraction's figures: the default build from nothing, the fit's sampling error, the flop's EMD
bound against exact transport, and lookups.

    python benchmarks/bench_abstraction.py --out /tmp/abs --build      # the three streets, K=256, from nothing
    python benchmarks/bench_abstraction.py --out /tmp/abs --emd --lloyd --lookup

``--build`` runs ``pokerpipe tables abstraction --workers 2`` in a fresh process, samples the machine's used
memory every second, and prints each dataset's seconds beside robopoker's published figures (about 18,000
CPU-hours in all; the flop alone about four days on 176 cores; 16 vCPU and 120 GB of RAM asked).
``--emd`` compares, on pairs of built flop situations, the potential-aware distance the flop is clustered
under (8 order statistics per coordinate) and its exact bound (all 47) with POT's exact transport
``ot.emd2``.  ``--lloyd`` measures the fit's board sampling: from the same k-means++ seeds, plain Lloyd over a
population against the sample's centroids, both scored on the whole population.  ``--lookup``: ``pokerpipe
bucket`` in fresh processes and 10⁶ vectorised lookups.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROBOPOKER = "robopoker (Rust, Monte Carlo features): ~18,000 CPU-hours; flop ~4 days on 176 cores; 16 vCPU, 120 GB"


def used_memory() -> int:
    info = {}
    with open("/proc/meminfo") as f:
        for line in f:
            key, value = line.split(":")
            info[key] = int(value.split()[0]) * 1024
    return info["MemTotal"] - info["MemAvailable"]


def build(out: str, workers: int) -> None:
    base = used_memory()
    peak = [base]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(1.0):
            peak[0] = max(peak[0], used_memory())

    threading.Thread(target=sample, daemon=True).start()
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "jobs", "tables", "abstraction", "--out", out, "--workers",
                        str(workers), "-q"], cwd=ROOT, text=True, capture_output=True)
    wall = time.perf_counter() - start
    done.set()
    print(r.stdout)
    if r.returncode:
        print(r.stderr)
        raise SystemExit(r.returncode)
    catalog = json.load(open(os.path.join(out, "_catalog.json")))
    print(f"{'dataset':30s} {'rows':>12s} {'seconds':>9s}")
    for e in catalog["datasets"]:
        if e["dataset"].startswith("abstraction"):
            print(f"{e['dataset']:30s} {e['rows']:12,d} {e['seconds']:9.1f}")
    print(f"\nall three streets, K=256, from nothing: {wall / 60:.1f} min wall on {workers} workers; "
          f"peak memory {peak[0] / 2**30:.1f} GiB used on the machine ({(peak[0] - base) / 2**30:.1f} GiB above "
          f"the {base / 2**30:.1f} GiB in use before)")
    print(ROBOPOKER)


def emd_error(out: str, pairs: int = 400) -> None:
    import ot

    from pipeline.abstraction.emd import potential_embedding
    from pipeline.abstraction.streets import QUANTILES
    from pipeline.datasets import read
    from pipeline.datasets.recipes.abstraction import Centroids, centroid_array

    flop = read("abstraction/flop", out, columns=["turn_buckets", "bucket"])
    tb = np.array(flop.column("turn_buckets").to_pylist(), np.int64)
    bucket = flop.column("bucket").to_numpy()
    cen = centroid_array(read(Centroids("turn"), out, ["centroid"])).astype(np.int64)
    rng = np.random.default_rng(0)
    rows = {"random pairs": rng.integers(0, len(tb), (pairs, 2))}
    same = []
    while len(same) < pairs:
        i = int(rng.integers(len(tb)))
        mates = np.flatnonzero(bucket == bucket[i])
        same.append((i, int(rng.choice(mates))))
    rows["pairs in one bucket"] = np.array(same)
    for what, ij in rows.items():
        full, quant, exact = [], [], []
        for i, j in ij:
            if i == j:
                continue
            e47 = potential_embedding(tb[[i, j]], cen).astype(np.int64)
            e8 = potential_embedding(tb[[i, j]], cen, QUANTILES).astype(np.int64)
            cost = np.abs(cen[tb[i]][:, None, :] - cen[tb[j]][None, :, :]).sum(axis=2).astype(float)
            exact.append(ot.emd2(np.ones(47), np.ones(47), cost))
            full.append(np.abs(e47[0] - e47[1]).sum())
            quant.append(np.abs(e8[0] - e8[1]).sum() * 47 / QUANTILES)
        x, f, q = np.array(exact), np.array(full), np.array(quant)
        ok = x > 0
        print(f"{what}: {ok.sum()} pairs; exact bound (47 order statistics) / exact transport: mean "
              f"{(f[ok] / x[ok]).mean():.4f}, min {(f[ok] / x[ok]).min():.4f}; the clustered distance "
              f"({QUANTILES} order statistics) / exact transport: mean {(q[ok] / x[ok]).mean():.4f}, "
              f"range {(q[ok] / x[ok]).min():.4f}..{(q[ok] / x[ok]).max():.4f}; rank correlation with exact "
              f"{np.corrcoef(np.argsort(np.argsort(q)), np.argsort(np.argsort(x)))[0, 1]:.4f}")


def lloyd(street: str, population: int, k: int = 256) -> None:
    """Plain Lloyd over the situations of evenly spread boards (about ``population`` of them) against the fit's
    sample of them (each situation kept by :func:`kept`, as many as the fit of the whole street clusters),
    from the same k-means++ seeds (drawn on the sample), both scored on the whole population."""
    from concurrent.futures import ThreadPoolExecutor

    from pipeline.abstraction.fitting import MAX_ITERATIONS, TOLERANCE, kept, sample_size, street_points
    from pipeline.abstraction.kmeans import assign, fit, objective, plusplus
    from pipeline.abstraction.lookup import default_clusters
    from pipeline.abstraction.streets import METRIC, STREETS
    from pipeline.isomorphism.boards import canonical_boards
    from pipeline.isomorphism.situations import street_size

    boards = canonical_boards(STREETS[street])
    per_board = street_size(STREETS[street]) / len(boards)
    boards = boards[::max(1, int(len(boards) * per_board // population))]
    ctx: dict = {"clusters": default_clusters()} if street == "river" else {}
    if street == "flop":
        from pipeline.batch.verified import side_path

        ctx["turn_centroids"] = np.load(os.path.join(ARGS.out, *side_path("abstraction/turn", "_centroids.npy")))
    pool = ThreadPoolExecutor(2)
    pop, w, index = street_points(street, boards, bins=50, chunk=25, executor=pool, **ctx)
    keep = kept(index, sample_size(street, k) / len(pop), 0)
    sp, sw = pop[keep], w[keep]
    metric = METRIC[street]
    seeds = sp[plusplus(sp, k, metric=metric, weights=sw, executor=pool)].astype(np.float64)
    t = time.perf_counter()
    plain = fit(pop, k, metric=metric, weights=w, init=seeds, executor=pool, tolerance=TOLERANCE,
                max_iterations=MAX_ITERATIONS)
    t_plain = time.perf_counter() - t
    t = time.perf_counter()
    sampled = fit(sp, k, metric=metric, weights=sw, init=seeds, executor=pool, tolerance=TOLERANCE,
                  max_iterations=MAX_ITERATIONS)
    labels, _ = assign(pop, sampled.centroids, metric=metric, executor=pool)
    t_sample = time.perf_counter() - t
    o_plain = objective(pop, plain.centroids, plain.labels, metric=metric, weights=w)
    o_sample = objective(pop, sampled.centroids, labels, metric=metric, weights=w)
    print(f"{street}: population {len(pop):,} situations ({len(boards)} boards), sample {len(sp):,} (the fit's "
          f"size); plain Lloyd {plain.iterations} iterations {t_plain:.1f} s, objective {o_plain:.6g}; the "
          f"sample's centroids {sampled.iterations} iterations {t_sample:.1f} s, objective {o_sample:.6g} on the "
          f"population: {100 * (o_sample / o_plain - 1):+.3f}%", flush=True)


def lookups(out: str) -> None:
    from pipeline.datasets import load_abstraction as load
    from pipeline.isomorphism.situations import street_size

    times = []
    for _ in range(5):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "jobs", "bucket", "AhKd", "--board", "Qh7h2cTd3s", "--out", out],
                           cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        assert r.returncode == 0, r.stderr
    print(r.stdout)
    print(f"pokerpipe bucket (river) in a fresh process: best {min(times):.2f} s, median "
          f"{sorted(times)[2]:.2f} s of 5")
    ab = load(out)
    idx = np.random.default_rng(0).integers(0, street_size(5), 1_000_000)
    ab.buckets(idx[:10], "river")
    t = time.perf_counter()
    ab.buckets(idx, "river")
    print(f"10^6 vectorised river lookups: {time.perf_counter() - t:.3f} s")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--build", action="store_true")
    p.add_argument("--emd", action="store_true")
    p.add_argument("--lloyd", action="store_true")
    p.add_argument("--lloyd-k", type=int, default=256, help="buckets of the --lloyd comparison")
    p.add_argument("--lloyd-streets", default="river:8000000,turn:4000000,flop:1286792",
                   help="STREET:POPULATION pairs of the --lloyd comparison")
    p.add_argument("--lookup", action="store_true")
    ARGS = p.parse_args()
    if ARGS.build:
        build(ARGS.out, ARGS.workers)
    if ARGS.emd:
        emd_error(ARGS.out)
    if ARGS.lloyd:
        for item in ARGS.lloyd_streets.split(","):
            street, population = item.split(":")
            lloyd(street, int(population), ARGS.lloyd_k)
    if ARGS.lookup:
        lookups(ARGS.out)
