"""Evaluate all 133,784,560 seven-card hands; print category counts, distinct values, time; beside eval7.

    python benchmarks/census_7card.py [--eval7-hands N]

The peer, measured in the same run: eval7's ``evaluate`` (per hand, from Python, Card objects prebuilt) on a
sample of ``--eval7-hands`` (default 200,000) of the same hands, random ones, its rate scaled to the whole
census and set beside ours (``--eval7-hands 0`` skips it).  Our rate includes generating the hands, eval7's
does not.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

_TESTS = os.path.join(os.path.dirname(__file__), "..", "tests")
sys.path[:0] = [os.path.join(_TESTS, "evaluator"), _TESTS]     # test_evaluator, and the oracles it imports
sys.path.insert(0, os.path.dirname(__file__))
import numpy as np  # noqa: E402
from common import best_of, eval7_cards, random_hands  # noqa: E402
from test_evaluator import SEVEN_CARD_CATEGORIES, _hands_from  # noqa: E402

from pipeline import CATEGORY_NAMES, category, evaluate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval7-hands", type=int, default=200_000, help="eval7's sample (0: no peer)")
    args = ap.parse_args()
    t = time.perf_counter()
    cats = np.zeros(9, np.int64)
    distinct: set[int] = set()
    total = 0
    for first in range(46):
        v = evaluate(_hands_from(first, 7), check=False)
        cats += np.bincount(category(v), minlength=9)
        distinct.update(np.unique(v).tolist())
        total += len(v)
    dt = time.perf_counter() - t
    for name, n, want in zip(CATEGORY_NAMES, cats, SEVEN_CARD_CATEGORIES, strict=True):
        print(f"{name:16s} {n:12,d}  {'ok' if n == want else f'WRONG, expected {want}'}")
    print(f"total {total:,} hands, {len(distinct):,} distinct values, {dt:.1f} s (generation included)")
    if args.eval7_hands <= 0:
        return
    try:
        import eval7
    except ImportError:
        print("eval7 not installed (pip install eval7): no peer")
        return
    sample = eval7_cards(random_hands(args.eval7_hands))
    ev = eval7.evaluate
    e7 = best_of(lambda: [ev(h) for h in sample], 3)
    rate, rate_e7 = total / dt, len(sample) / e7
    print(f"pokerpipe {rate / 1e6:.1f} M hands/s; eval7 evaluate (per hand, {len(sample):,}-hand random sample, "
          f"same run) {rate_e7 / 1e6:.2f} M hands/s, so ~{total / rate_e7:.0f} s for the census: "
          f"ratio pokerpipe/eval7 {rate / rate_e7:.1f}x")


if __name__ == "__main__":
    main()
