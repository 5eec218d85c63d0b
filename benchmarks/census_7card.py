"""Evaluate all 133,784,560 seven-card hands; print category counts, distinct values, time.

    python benchmarks/census_7card.py
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
import numpy as np  # noqa: E402
from test_evaluator import SEVEN_CARD_CATEGORIES, _hands_from  # noqa: E402

from pipeline import CATEGORY_NAMES, category, evaluate  # noqa: E402


def main() -> None:
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


if __name__ == "__main__":
    main()
