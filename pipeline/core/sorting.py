"""Stable radix ordering of small integer keys inside kernels: a few microseconds for a thousand keys,
where a comparison sort takes tens.

Hand values (below 2**16) and dense hand ranks (below 2**13) are ordered
this way once per runout by the abstraction's and the best response's counts.

>>> import numpy as np
>>> keys = np.array([300, 5, 300, 7, 5], np.int64)
>>> order, tmp, counts = np.empty(5, np.int64), np.empty(5, np.int64), np.empty(256, np.int64)
>>> radix_order(keys, 5, order, tmp, counts)
>>> order.tolist()
[1, 4, 3, 0, 2]
"""
from __future__ import annotations

import numpy as np
from numba import njit

DIGITS = 256          # the ``counts`` scratch a call needs


@njit(cache=True, nogil=True, inline="always")
def _byte_pass(keys: np.ndarray, src: np.ndarray, count: int, shift: int, dst: np.ndarray, counts: np.ndarray,
               first: bool) -> None:
    """``dst[:count]``: the positions ``src`` holds (``first``: 0..count-1), stably by byte ``shift`` of the key."""
    counts[:] = 0
    for q in range(count):
        counts[(keys[q if first else src[q]] >> shift) & 255] += 1
    total = 0
    for d in range(DIGITS):
        c = counts[d]
        counts[d] = total
        total += c
    for q in range(count):
        x = q if first else src[q]
        d = (keys[x] >> shift) & 255
        dst[counts[d]] = x
        counts[d] += 1


@njit(cache=True, nogil=True)
def radix_order(keys: np.ndarray, count: int, order: np.ndarray, tmp: np.ndarray, counts: np.ndarray) -> None:
    """``order[:count]``: the positions of ``keys[:count]`` (each below 2**16) in ascending order of key,
    ties in order of position (stable); ``tmp`` (``count``) and ``counts`` (:data:`DIGITS`) are scratch."""
    _byte_pass(keys, tmp, count, 0, tmp, counts, True)
    _byte_pass(keys, tmp, count, 8, order, counts, False)
