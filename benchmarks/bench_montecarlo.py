"""Monte Carlo and range equity beside eval7, measured in the same run (issue 11's "Fast" lines).

    python benchmarks/bench_montecarlo.py [--quick]

One thread, in-process, warm JIT; each figure is the best of a few runs.  The
machine's speed drifts, so compare the ratios: ours / eval7 measured here,
and OMPEval's published rates (/work/shared/README.md: 19.8 / 11.9 / 8.7 M
trials/s against 1 / 3 / 5 random hands, when eval7 ran at 9.3 M/s) scaled by
eval7's rate in this run.
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import best_of  # noqa: E402
from pipeline.equity import equity  # noqa: E402
from pipeline.preflop import vs_random_mc_rows  # noqa: E402

EVAL7_README_RATE = 9.3e6
OMPEVAL = {1: 19.8e6, 3: 11.9e6, 5: 8.7e6}
ALL_CLASSES = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"


def rate(hands, trials, repeat=3) -> float:
    equity(hands, trials=1000, threads=1)
    return trials / best_of(lambda: equity(hands, trials=trials, seed=1, threads=1), repeat)


def main() -> None:
    quick = "--quick" in sys.argv
    n = 300_000 if quick else 1_000_000
    import eval7
    hero = [eval7.Card("Ah"), eval7.Card("Kh")]
    e7 = {}
    for name, villain in (("QsQd", eval7.HandRange("QsQd")), ("random", eval7.HandRange(ALL_CLASSES))):
        e7[name] = n / best_of(lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [], n), 3)
    scale = e7["QsQd"] / EVAL7_README_RATE
    print(f"eval7 py_hand_vs_range_monte_carlo AhKh vs QsQd: {e7['QsQd'] / 1e6:.2f} M trials/s "
          f"(machine at {scale:.2f}x of the README's eval7 figure)")
    for villain in ("QsQd", "random"):
        ours = rate(["AhKh", villain], n)
        print(f"Monte Carlo AhKh vs {villain:6s}: ours {ours / 1e6:6.2f} M trials/s, eval7 "
              f"{e7[villain] / 1e6:5.2f} M/s -> {ours / e7[villain]:.2f}x eval7   (target >= 2x)")
    rates = {}
    for k in (1, 3, 5, 9):
        rates[k] = rate(["AA"] + ["random"] * k, n if k < 5 else n // 2)
        omp = f", OMPEval scaled {OMPEVAL[k] * scale / 1e6:5.2f} M/s -> {rates[k] / (OMPEVAL[k] * scale):.2f}x" \
            if k in OMPEVAL else ""
        print(f"Monte Carlo AA vs {k} random: {rates[k] / 1e6:6.2f} M trials/s{omp}")
    print(f"AA vs 9 random / AA vs 1 random rate: {rates[9] / rates[1]:.2f}   (target >= 0.25)")
    hands = ["AK,AQ", "AK,KQ", "AQ,KQ"]
    print(f"Monte Carlo {' vs '.join(hands)} (overlapping, importance-weighted): "
          f"{rate(hands, n // 2) / 1e6:.2f} M trials/s")

    base = best_of(lambda: equity(["AhKh", "QsQd"], threads=1, table=False), 10)
    print(f"exact AhKh vs QsQd: {base * 1e3:.1f} ms (1 thread, enumerated)")
    for a, b, target in (("AA", "KK", 4), ("QQ+,AKs", "JJ,TT,99,88,AQs", 40)):
        t = best_of(lambda: equity([a, b], threads=1, table=False), 3)
        equity([a, b])
        tt = best_of(lambda: equity([a, b]), 20)
        print(f"exact {a} vs {b}: {t * 1e3:.1f} ms enumerated = {t / base:.1f}x AhKh vs QsQd   (target <= {target}x); "
              f"from the matchups table {tt * 1e6:.0f} us")

    classes = list(range(0, 169, 13))   # 13 of the 169 classes, spread over the grid
    trials = 20_000 if quick else 200_000
    vs_random_mc_rows(2, classes[:1], 1000, 0)
    t = time.perf_counter()
    for k in range(2, 10):
        vs_random_mc_rows(k, classes, trials, 0)
    spent = time.perf_counter() - t
    full = spent * 169 / len(classes) * 200_000 / trials
    print(f"vs-random k = 2..9, {len(classes)} classes x {trials:,} trials: {spent:.1f} s on one core -> "
          f"defaults (169 classes, 200,000 trials) about {full / 60:.1f} min on one core, "
          f"{full / 120:.1f} min on 2   (target <= 5 min on 2 cores)")


if __name__ == "__main__":
    main()
