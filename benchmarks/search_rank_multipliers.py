"""Re-derive the evaluator's rank multipliers by greedy search (takes a few minutes).

    python benchmarks/search_rank_multipliers.py

Each multiplier is the smallest integer above the previous one such that the
sums over every multiset of at most seven ranks (at most four of each) stay
unique.  A candidate is rejected at its first collision, found with a stamp
array indexed by sum.  Prints the sequence to compare with
``pipeline.evaluator.kernels.RANK_MULTIPLIERS``.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit


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


def search() -> list[int]:
    sums, sizes = np.zeros(1, np.int64), np.zeros(1, np.int64)
    mults: list[int] = []
    for _ in range(13):
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


if __name__ == "__main__":
    t = time.perf_counter()
    print(search(), f"{time.perf_counter() - t:.0f} s")
