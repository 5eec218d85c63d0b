"""The exact best response in heads-up limit hold'em: the cost of a flop, and the whole run predicted from it.

    python benchmarks/bench_exact_br.py [--policy tag] [--flops 6] [--seed 1] [--workers 1,2,16,64]
                                        [--tables DIR] [--full N]

A seeded sample of ``--flops`` canonical flops (of 1,755) is walked as the
batch job walks them (:func:`pipeline.exploit.exact.flop_values`: both seats
of the best response, the flop's 7 entries, 49 turns and 48 rivers each, the
values summed over the flop's suit class), after one warm-up flop that
compiles the kernels.  Each flop's CPU seconds (this process's: the machine is
shared) and wall seconds are printed; the whole run on ``w`` workers is
predicted as the preflop walks plus the mean flop's CPU time x 1,755 / w (a
piece a flop, handed out as workers free up: the tail adds at most one flop,
printed as the upper figure).  Peak memory is this process's maximum resident
set (one worker's).

The peer, in the same run: OpenSpiel's ``exploitability`` of Leduc hold'em's
uniform policy (its best response by tree walk) beside ours (the same walk
code as hold'em's, :mod:`pipeline.exploit.bestresponse`).  No peer computes a
hold'em best response (OpenSpiel's maintainers call it infeasible, their
issue 519).

``--full N`` runs the whole best response on ``N`` worker processes and prints
its figure, time and memory.
"""
from __future__ import annotations

import argparse
import math
import os
import resource
import time


def cpu_name() -> str:
    """The CPU's model name, core count and widest vector extension (from /proc/cpuinfo)."""
    try:
        text = open("/proc/cpuinfo").read()
    except OSError:
        return f"{os.cpu_count()} cores"
    name = next((ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("model name")), "?")
    flags = next((ln for ln in text.splitlines() if ln.startswith("flags")), "")
    simd = "AVX-512" if " avx512f" in flags else "AVX2" if " avx2" in flags else "no AVX2"
    have = " ".join(f for f in ("avx2", "avx512f", "avx512bw", "avx512vl") if f" {f}" in flags)
    return f"{name}, {os.cpu_count()} cores, {simd} ({have})"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def leduc_peer() -> str:
    """Our best response of Leduc's uniform policy beside OpenSpiel's, timed in this run."""
    try:
        import pyspiel
        from open_spiel.python import policy as os_policy
        from open_spiel.python.algorithms import exploitability
    except ImportError:
        return "OpenSpiel not installed (pip install open-spiel): no peer figure"
    from pipeline.solver.cfr import Solver
    from pipeline.solver.leduc import leduc

    s = Solver(leduc())
    s.exploitability()                                 # compile
    t = time.perf_counter()
    ours = s.exploitability()
    t_ours = time.perf_counter() - t
    g = pyspiel.load_game("leduc_poker")
    t = time.perf_counter()
    theirs = exploitability.exploitability(g, os_policy.UniformRandomPolicy(g))
    t_theirs = time.perf_counter() - t
    return (f"Leduc uniform policy: ours {ours:.12f} in {t_ours * 1e3:.2f} ms, OpenSpiel {theirs:.12f} in "
            f"{t_theirs * 1e3:.0f} ms: {t_theirs / t_ours:.0f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="tag")
    ap.add_argument("--flops", type=int, default=6, help="canonical flops sampled (of 1,755)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", default="1,2,16,64", help="worker counts to predict the whole run on")
    ap.add_argument("--tables", default=None, help="built hand-weight tables (pokerpipe holdem-weights --out)")
    ap.add_argument("--full", type=int, default=0, help="run the whole best response on this many processes")
    a = ap.parse_args()
    import numpy as np

    from pipeline.exploit.exact import _canonical_piece, _opponents, exact_best_response, preflop_reach
    from pipeline.exploit.flops import flop_orbits
    from pipeline.exploit.lbr import lbr_table
    from pipeline.exploit.public import public_tree
    from pipeline.holdem.tree import hulhe
    from pipeline.isomorphism.boards import canonical_boards

    weights = None
    if a.tables:
        from pipeline.datasets import HandWeightTables
        weights = HandWeightTables(a.tables)
    names = ["23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in range(52)]
    print(f"bench_exact_br: {cpu_name()}; load average {os.getloadavg()[0]:.2f}; policy {a.policy}; weights "
          f"{'from tables' if weights else 'counted on the spot, memoised'}")
    print("peer:", leduc_peer())
    table = lbr_table(a.policy)
    tree = public_tree(hulhe())
    orbits = flop_orbits()
    t = time.process_time()
    opps = _opponents(table, weights)
    reach = np.stack([preflop_reach(tree, M, me).reach for me, M in enumerate(opps)])
    _canonical_piece(table, 0, reach, weights)          # compile the flop's kernels
    warm = time.process_time() - t
    t = time.process_time()
    reach = np.stack([preflop_reach(tree, M, me).reach for me, M in enumerate(opps)])
    preflop = time.process_time() - t
    sample = np.random.default_rng(a.seed).choice(len(orbits), a.flops, replace=False)
    cpu, wall = [], []
    for i in sample:
        c, w = time.process_time(), time.perf_counter()
        _canonical_piece(table, int(i), reach, weights)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        flop = " ".join(names[c] for c in canonical_boards(3)[i])
        print(f"  flop {int(i):4d} {flop:9s} (class of {len(orbits[i]):2d}): {cpu[-1]:6.1f} CPU s, {wall[-1]:6.1f} "
              f"wall s", flush=True)
    mean = float(np.mean(cpu))
    sd = float(np.std(cpu, ddof=1)) if len(cpu) > 1 else 0.0
    total = preflop + mean * len(orbits)
    print(f"compile and warm-up {warm:.0f} CPU s; preflop walks {preflop:.2f} CPU s; a flop {mean:.1f} CPU s mean "
          f"(sd {sd:.1f}, {min(cpu):.1f} .. {max(cpu):.1f}); peak memory {peak_mb():.0f} MB")
    for w in (int(x) for x in a.workers.split(",")):
        low = preflop + mean * math.ceil(len(orbits) / w)
        print(f"  {w:3d} worker(s): {low / 3600:7.2f} h .. {(low + max(cpu)) / 3600:7.2f} h predicted "
              f"(1,755 flops x {mean:.1f} s / {w})")
    print(f"the whole run on one core: {total / 3600:.1f} h")
    if a.full:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(a.full) as ex:
            t = time.perf_counter()
            r = exact_best_response(a.policy, executor=ex, weights=weights)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"full run on {a.full} processes: {r.mbb_per_hand:.6f} mbb/hand ({r.by_seat}), exact {r.exact}, "
              f"{(time.perf_counter() - t) / 3600:.2f} h wall; peak memory of a worker {kids:.0f} MB")


if __name__ == "__main__":
    main()
