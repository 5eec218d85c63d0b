"""Exact heads-up preflop enumeration (1,712,304 boards) in-process, and the CLI as a fresh process.

    python benchmarks/bench_equity.py

Prints the warm in-process time of ``AhKh vs QsQd`` and two more matchups,
class-vs-class times, eval7's Monte Carlo rate for the same matchup (its exact
enumerator needs a flop), and the wall time of ``pokerpipe equity AhKh QsQd``
started as a new process with the JIT cache warm.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import best_of  # noqa: E402

from pipeline.equity import equity  # noqa: E402


def main() -> None:
    for hands in (["AhKh", "QsQd"], ["AsAc", "KdKh"], ["7h6h", "AsAd"]):
        equity(hands, threads=1, table=False)
        t = best_of(lambda hands=hands: equity(hands, threads=1, table=False), 20)
        print(f"exact {hands[0]} vs {hands[1]}: 1,712,304 boards in {t * 1e3:6.2f} ms  (1 thread, warm)")
    for hands in (["AA", "KK"], ["AKs", "QQ"], ["AKo", "JTs"]):
        for threads in (1, 2):
            t = best_of(lambda hands=hands, threads=threads: equity(hands, threads=threads, table=False), 3)
            r = equity(hands, table=False)
            print(f"exact {hands[0]} vs {hands[1]}: {r.boards:,} boards in {t * 1e3:7.1f} ms  "
                  f"({threads} thread{'s' if threads > 1 else ''}), equity {100 * r.players[0].equity:.4f}%")
    try:
        import eval7
        h = [eval7.Card("Ah"), eval7.Card("Kh")]
        v = eval7.HandRange("QsQd")
        n = 1_000_000
        t = best_of(lambda: eval7.py_hand_vs_range_monte_carlo(h, v, [], n), 3)
        ours = best_of(lambda: equity(["AhKh", "QsQd"], threads=1, table=False), 10)
        per_board = t / n
        print(f"eval7 Monte Carlo AhKh vs QsQd: {n / t / 1e6:.1f} M trials/s -> 1,712,304 boards would take "
              f"{per_board * 1712304 * 1e3:.0f} ms; ratio to our exact run {per_board * 1712304 / ours:.1f}x")
    except ImportError:
        print("eval7 not installed: pip install eval7")
    cmd = [sys.executable, "-m", "jobs", "equity", "AhKh", "QsQd"]
    subprocess.run(cmd, capture_output=True, check=True)   # warm the JIT and table caches
    walls = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        walls.append(time.perf_counter() - t)
    print(f"fresh process `pokerpipe equity AhKh QsQd`: best {min(walls):.2f} s, median "
          f"{sorted(walls)[2]:.2f} s wall (JIT cache warm)")


if __name__ == "__main__":
    main()
