"""Batch evaluator throughput on random 7-card hands, one core, beside eval7.

    python benchmarks/bench_evaluator.py [--hands N]

Prints evaluations per second for pokerpipe's batch API (``evaluate_into`` on a
preallocated output, ``pipeline.evaluate`` with its checks and allocation, and
``evaluate(check=False)``, which keeps only the bound check on ids),
eval7's ``evaluate`` called per hand from Python, and the ratio.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import numpy as np  # noqa: E402
from common import best_of, random_hands  # noqa: E402

from pipeline import evaluate  # noqa: E402
from pipeline.evaluator.kernels import evaluate_into  # noqa: E402
from pipeline.evaluator.tables import tables  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2_000_000)
    ap.add_argument("--eval7-hands", type=int, default=200_000)
    args = ap.parse_args()
    hands = random_hands(args.hands)
    out = np.empty(len(hands), np.int32)
    t = tables()
    evaluate_into(hands[:10], out[:10], t)   # compile / load the JIT cache
    kernel = best_of(lambda: evaluate_into(hands, out, t), 7)
    api = best_of(lambda: evaluate(hands), 5)
    unchecked = best_of(lambda: evaluate(hands, check=False), 5)
    rate_kernel, rate_api, rate_unchecked = len(hands) / kernel, len(hands) / api, len(hands) / unchecked
    print(f"pokerpipe evaluate_into  {rate_kernel / 1e6:8.1f} M hands/s  ({args.hands:,} random 7-card hands, 1 core)")
    print(f"pokerpipe evaluate()     {rate_api / 1e6:8.1f} M hands/s  (with input checks and output allocation; "
          f"{rate_api / rate_kernel:.2f}x the kernel's rate)")
    print(f"  check=False            {rate_unchecked / 1e6:8.1f} M hands/s  (ids bound-checked only; "
          f"{rate_unchecked / rate_kernel:.2f}x the kernel's rate)")
    try:
        import eval7
    except ImportError:
        print("eval7 not installed: pip install eval7")
        return
    deck = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    sub = [[deck[c] for c in row] for row in hands[:args.eval7_hands].tolist()]
    ev = eval7.evaluate
    e7 = best_of(lambda: [ev(h) for h in sub], 3)
    rate_e7 = len(sub) / e7
    print(f"eval7 evaluate (per hand)  {rate_e7 / 1e6:6.2f} M hands/s  (same hands, Card objects prebuilt)")
    print(f"ratio pokerpipe/eval7    {rate_kernel / rate_e7:8.1f}x")


if __name__ == "__main__":
    main()
