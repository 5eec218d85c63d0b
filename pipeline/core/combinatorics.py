"""Binomial coefficients as a table for kernels."""
from __future__ import annotations

import numpy as np

# C(n, k) for 0 <= n <= 53 (a deck with a joker) and 0 <= k <= 13 (a suit's ranks)
BINOM = np.zeros((54, 14), np.int64)
for _n in range(54):
    BINOM[_n, 0] = 1
    for _k in range(1, min(_n, 13) + 1):
        BINOM[_n, _k] = BINOM[_n - 1, _k - 1] + BINOM[_n - 1, _k]

