"""Small shared helpers: binomial coefficients as a table for kernels, and the usable core count."""
from __future__ import annotations

import os

import numpy as np

# C(n, k) for 0 <= n <= 53 (a deck with a joker) and 0 <= k <= 13 (a suit's ranks)
BINOM = np.zeros((54, 14), np.int64)
for _n in range(54):
    BINOM[_n, 0] = 1
    for _k in range(1, min(_n, 13) + 1):
        BINOM[_n, _k] = BINOM[_n - 1, _k - 1] + BINOM[_n - 1, _k]


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
