"""Re-derive the evaluator's rank multipliers by greedy search (takes a few minutes).

    python benchmarks/search_rank_multipliers.py [--count 13]

Each multiplier is the smallest integer above the previous one such that the
sums over every multiset of at most seven ranks (at most four of each) stay
unique.  A candidate is rejected at its first collision, found with a stamp
array indexed by sum.  Prints the sequence to compare with
``pipeline.evaluator.kernels.RANK_MULTIPLIERS``.  ``--count K`` stops after the first K multipliers (the
same search, a prefix of the sequence: a short check).

No registry package does this search, so its time is set beside a yardstick measured in the same run
(``common.Yardstick``: eval7 evaluating a fixed batch of random 7-card hands, before and after the search)
and printed also as a multiple of it, so that a loaded run can be set beside a quiet one.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from numba import njit

sys.path.insert(0, os.path.dirname(__file__))
from common import Yardstick  # noqa: E402


@njit(cache=True)
def _next_multiplier(sums: np.ndarray, sizes: np.ndarray, start: int, stamp: np.ndarray) -> int:
    gen = 0
    m = start
    while True:
        gen += 1
        good = True
        for i in range(sums.size):
            for c in range(0, min(4, 7 - sizes[i]) + 1):
                v = sums[i] + c * m
                if stamp[v] == gen:
                    good = False
                    break
                stamp[v] = gen
            if not good:
                break
        if good:
            return m
        m += 1


def search(count: int = 13) -> list[int]:
    sums, sizes = np.zeros(1, np.int64), np.zeros(1, np.int64)
    mults: list[int] = []
    for _ in range(count):
        start = mults[-1] + 1 if mults else 1
        stamp = np.zeros(int(sums.max()) + 4 * (start + 4_000_000) + 1, np.int32)
        m = _next_multiplier(sums, sizes, start, stamp)
        mults.append(m)
        parts_s, parts_n = [], []
        for c in range(5):
            keep = sizes + c <= 7
            parts_s.append(sums[keep] + c * m)
            parts_n.append(sizes[keep] + c)
        sums, sizes = np.concatenate(parts_s), np.concatenate(parts_n)
        print(len(mults), m, flush=True)
    return mults


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=13, help="multipliers to find (13: all)")
    args = ap.parse_args()
    yard = Yardstick()
    t = time.perf_counter()
    mults = search(args.count)
    dt = time.perf_counter() - t
    yard.after()
    print(mults, f"{dt:.0f} s" + (f" ({yard.times(dt)})" if yard.seconds else ""))
    print(yard.line())


if __name__ == "__main__":
    main()
