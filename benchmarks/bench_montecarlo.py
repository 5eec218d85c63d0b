"""Monte Carlo and range equity beside eval7, measured in the same run (issue 11's "Fast" lines).

    python benchmarks/bench_montecarlo.py [--quick]

One thread, in-process, warm JIT.  The shared machine's speed swings within
seconds, so every comparison is *interleaved*: ours and the peer (or the
baseline) alternate for several rounds and each keeps its best round.  Times
are the process's CPU time (``time.process_time``): every measured call runs
on the calling thread alone, ours and eval7's alike, so other people's jobs
on the shared cores slow both less than they slow the wall clock.  The load
average is printed at the start and the end.
OMPEval's published rates (/work/shared/README.md: 19.8 / 11.9 / 8.7 M trials/s
against 1 / 3 / 5 random hands, on a day eval7 ran at 9.3 M/s) are scaled by
eval7's rate in this run.
"""
from __future__ import annotations

import os
import sys
import time
from functools import partial

sys.path.insert(0, os.path.dirname(__file__))
from common import ALL_CLASSES, random_hands  # noqa: E402

from pipeline.datasets.recipes.vs_random import vs_random_mc_rows  # noqa: E402
from pipeline.equity import equity  # noqa: E402
from pipeline.evaluator import evaluate  # noqa: E402

EVAL7_README_RATE = 9.3e6
EVALUATOR_README_RATE = 293e6     # README: batch evaluator, random 7-card hands, one core
OMPEVAL = {1: 19.8e6, 3: 11.9e6, 5: 8.7e6}


def interleaved(fns, rounds: int = 5) -> list[float]:
    """Best wall time of each function over ``rounds`` rounds that call them in turn."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            t = time.process_time()
            fn()
            best[i] = min(best[i], time.process_time() - t)
    return best


def ours(hands, trials):
    """Our run, the ranges parsed beforehand as eval7's HandRange is."""
    from pipeline.ranges.query import parse_query
    parsed = [parse_query(h) for h in hands]
    return lambda: equity(parsed, trials=trials, seed=1, threads=1)


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rounds = 3 if quick else 7
    n = 300_000 if quick else 1_000_000
    import eval7
    hero = [eval7.Card("Ah"), eval7.Card("Kh")]
    villains = {"QsQd": eval7.HandRange("QsQd"), "random": eval7.HandRange(ALL_CLASSES)}
    equity(["AhKh", "random"], trials=1000, threads=1)
    hands = random_hands(1_000_000)
    evaluate(hands[:10], check=False)
    e7 = {}
    for name, villain in villains.items():
        peer = partial(eval7.py_hand_vs_range_monte_carlo, hero, villain, [], n)
        t_ours, t_e7 = interleaved([ours(["AhKh", name], n), peer], rounds)
        e7[name] = n / t_e7
        print(f"Monte Carlo AhKh vs {name:6s}: ours {n / t_ours / 1e6:6.2f} M trials/s, eval7 "
              f"{e7[name] / 1e6:5.2f} M/s -> {t_e7 / t_ours:.2f}x eval7   (target >= 2x)")
    scale = e7["QsQd"] / EVAL7_README_RATE
    (t_ev,) = interleaved([lambda: evaluate(hands, check=False)], rounds)
    print(f"machine state: eval7 at {scale:.2f}x its README rate; our batch evaluator "
          f"{len(hands) / t_ev / 1e6:.0f} M hands/s = {len(hands) / t_ev / EVALUATOR_README_RATE:.2f}x its README rate")
    ks = (1, 3, 5, 9)
    times = interleaved([ours(["AA"] + ["random"] * k, n // 2) for k in ks], rounds)
    rates = {k: n // 2 / t for k, t in zip(ks, times)}
    for k in ks:
        omp = f", OMPEval scaled {OMPEVAL[k] * scale / 1e6:5.2f} M/s -> {rates[k] / (OMPEVAL[k] * scale):.2f}x" \
            if k in OMPEVAL else ""
        target = "   (target >= 4 M trials/s, within 2x of OMPEval)" if k == 5 else ""
        print(f"Monte Carlo AA vs {k} random: {rates[k] / 1e6:6.2f} M trials/s{omp}{target}")
    print(f"AA vs 9 random / AA vs 1 random rate: {rates[9] / rates[1]:.2f}   (target >= 0.25)")
    hands3 = ["AK,AQ", "AK,KQ", "AQ,KQ"]
    (t3,) = interleaved([ours(hands3, n // 2)], rounds)
    print(f"Monte Carlo {' vs '.join(hands3)} (overlapping ranges, one assignment drawn per trial): "
          f"{n // 2 / t3 / 1e6:.2f} M trials/s")

    def exact(a, b, table=False):
        return lambda: equity([a, b], threads=1, exact=True, table=table)

    pairs = (("AA", "KK", 4), ("QQ+,AKs", "JJ,TT,99,88,AQs", 40))
    for a, b, _ in pairs:
        exact(a, b)()
        exact(a, b, True)()
    t = interleaved([exact("AhKh", "QsQd")] + [exact(a, b) for a, b, _ in pairs]
                    + [exact(a, b, True) for a, b, _ in pairs], rounds)
    print(f"exact AhKh vs QsQd: {t[0] * 1e3:.1f} ms (1 thread, enumerated)")
    for i, (a, b, target) in enumerate(pairs):
        print(f"exact {a} vs {b}: {t[1 + i] * 1e3:.1f} ms enumerated = {t[1 + i] / t[0]:.1f}x AhKh vs QsQd "
              f"(target <= {target}x); from the matchups table {t[3 + i] * 1e6:.0f} us")

    classes = list(range(0, 169, 13))   # 13 of the 169 classes, spread over the grid
    trials = 20_000 if quick else 200_000
    vs_random_mc_rows(2, classes[:1], 1000, 0)
    t0 = time.process_time()
    for k in range(2, 10):
        vs_random_mc_rows(k, classes, trials, 0)
    spent = time.process_time() - t0
    full = spent * 169 / len(classes) * 200_000 / trials
    print(f"vs-random k = 2..9, {len(classes)} classes x {trials:,} trials: {spent:.1f} s on one core -> "
          f"defaults (169 classes, 200,000 trials) about {full / 60:.1f} min on one core, "
          f"{full / 120:.1f} min on 2   (target <= 5 min on 2 cores)")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
