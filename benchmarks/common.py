"""Helpers shared by the benchmark scripts: timing and random hands."""
from __future__ import annotations

import time

import numpy as np


def best_of(fn, repeat: int = 5) -> float:
    """Fastest wall time of ``repeat`` calls, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def random_hands(n: int, k: int = 7, seed: int = 1) -> np.ndarray:
    """``n`` random hands of ``k`` distinct cards, uint8 ids, from a seeded shuffle per row."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), np.uint8)
    step = 1 << 18
    for i in range(0, n, step):
        m = min(step, n - i)
        out[i:i + m] = np.argsort(rng.random((m, 52), dtype=np.float32), axis=1)[:, :k]
    return out
