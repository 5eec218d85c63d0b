"""Every preflop class against two random hands, exact (the ``vs-random`` rows with k = 2), timed and checked.

    python benchmarks/bench_two_opponents.py [--workers N] [--trials T]

Runs :func:`pipeline.equity.two_opponents.two_opponent_counts` over all
134,459 canonical rivers on a thread pool of ``--workers`` (default 2), after
a warm-up that compiles or loads the kernel, and prints the wall time; then
checks that every class's deals are combos x C(50,5) x C(45,2) x C(43,2) / 2,
that the counts are the same with one worker as with several (``--check-serial``)
and compares AA, 72o and AKs with a seeded Monte Carlo of
``equity([cls, 'random', 'random'])`` (within 4 standard errors).
"""
from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

from pipeline.core.hand_classes import CLASS_INDEX
from pipeline.equity import equity
from pipeline.equity.two_opponents import (
    DEALS_PER_COMBO,
    class_combo_counts,
    class_counts_of_boards,
    outcome_fractions,
    two_opponent_counts,
)
from pipeline.isomorphism.boards import canonical_boards


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--trials", type=int, default=2_000_000)
    ap.add_argument("--check-serial", action="store_true")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()}")
    t = time.perf_counter()
    boards = canonical_boards(5)
    class_counts_of_boards(boards[:2])
    print(f"warm-up (canonical boards, kernel load): {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    with ThreadPoolExecutor(args.workers) as pool:
        counts = two_opponent_counts(pool)
    wall = time.perf_counter() - t
    print(f"exact k = 2, all 169 classes, {args.workers} worker thread(s): {wall:.1f} s")
    win, tie, eq, deals = outcome_fractions(counts)
    assert (deals == class_combo_counts() * DEALS_PER_COMBO).all()
    print(f"deals per class = combos x {DEALS_PER_COMBO:,}: ok (total {deals.sum():,})")
    if args.check_serial:
        t = time.perf_counter()
        assert (two_opponent_counts() == counts).all()
        print(f"one thread: the same counts, {time.perf_counter() - t:.1f} s")
    for label in ("AA", "72o", "AKs"):
        c = CLASS_INDEX[label]
        mc = equity([label, "random", "random"], trials=args.trials, seed=c).players[0]
        z = (mc.equity - eq[c]) / mc.stderr
        print(f"{label:>3}: exact equity {eq[c]:.6f} win {win[c]:.6f} tie {tie[c]:.6f} | Monte Carlo "
              f"{mc.equity:.6f} +- {mc.stderr:.6f} ({args.trials:,} trials), z = {z:+.2f}")
        assert abs(z) < 4
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
