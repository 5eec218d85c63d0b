"""Every preflop class against two random hands, exact (the ``vs-random`` rows with k = 2), timed and checked.

    python benchmarks/bench_two_opponents.py [--workers N] [--trials T]

Runs :func:`pipeline.equity.two_opponents.two_opponent_counts` over all
134,459 canonical rivers on a thread pool of ``--workers`` (default 2), after
a warm-up that compiles or loads the kernel, and prints the wall time; then
checks that every class's deals are combos x C(50,5) x C(45,2) x C(43,2) / 2,
that the counts are the same with one worker as with several (``--check-serial``)
and compares AA, 72o and AKs with a seeded Monte Carlo of
``equity([cls, 'random', 'random'])`` (within 4 standard errors).

The peer, measured in the same run: eval7 doing the same work by brute force — no registry package computes
three-way exact equity, so eval7's ``evaluate`` (per hand, from Python, Card objects prebuilt) settles
``--eval7-deals`` random deals (hero, board, two opponents: three evaluations and a comparison each), and its
rate is scaled to the deals the exact table covers and set beside our wall time (``--eval7-deals 0`` skips
it).  The projection is a ratio of rates on a sample, said so where it is printed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
from common import best_of, eval7_cards, random_hands  # noqa: E402

from pipeline.core.hand_classes import CLASS_INDEX  # noqa: E402
from pipeline.equity import equity  # noqa: E402
from pipeline.equity.two_opponents import (  # noqa: E402
    DEALS_PER_COMBO,
    class_combo_counts,
    class_counts_of_boards,
    outcome_fractions,
    two_opponent_counts,
)
from pipeline.isomorphism.boards import canonical_boards  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--trials", type=int, default=2_000_000)
    ap.add_argument("--check-serial", action="store_true")
    ap.add_argument("--eval7-deals", type=int, default=100_000, help="eval7's brute-force sample (0: no peer)")
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
    if args.eval7_deals > 0:
        peer(args.eval7_deals, int(deals.sum()), wall, args.workers)
    print(f"load average {os.getloadavg()}")


def peer(n: int, total_deals: int, wall: float, workers: int) -> None:
    """eval7 settling ``n`` random three-way river deals by brute force, its rate scaled to ``total_deals``."""
    try:
        import eval7
    except ImportError:
        print("eval7 not installed (pip install eval7): no peer")
        return
    rows = eval7_cards(random_hands(n, 11, seed=2))     # hero 2, board 5, two opponents 2 + 2
    ev = eval7.evaluate

    def settle() -> int:
        wins = 0
        for r in rows:
            board = r[2:7]
            mine = ev(r[:2] + board)
            wins += mine > max(ev(r[7:9] + board), ev(r[9:11] + board))
        return wins

    e7 = best_of(settle, 3)
    rate = n / e7
    projected = total_deals / rate
    print(f"peer: eval7 brute force (evaluate per hand, 1 core, {n:,} random three-way deals, same run) "
          f"{rate / 1e6:.2f} M deals/s, so ~{projected / 3.156e7:,.0f} years for the {total_deals:,} deals; "
          f"ratio eval7's projected time / ours ({workers} worker(s)) {projected / wall:.2e}x")


if __name__ == "__main__":
    main()
