"""The odometer over k-combinations that the exact kernels walk (boards, a suit's cards).

A numba kernel of its own module beside :mod:`.combinatorics`: that one is imported by
light layers (the batch session and storage, for ``available_cores``) that should not
pay for importing numba.
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def next_combination(idx: np.ndarray, n: int) -> int:
    """Advance ``idx`` (k increasing indices into range(n)) to the next k-combination in
    lexicographic order, in place.  Returns the first position that changed (``idx[:j]`` are
    kept, so sums over them stay valid), or -1 after the last combination (``idx`` is then left
    as it was; so is an empty ``idx``, which has one combination)."""
    k = idx.size
    j = k - 1
    while j >= 0 and idx[j] == n - k + j:
        j -= 1
    if j < 0:
        return -1
    idx[j] += 1
    for q in range(j + 1, k):
        idx[q] = idx[q - 1] + 1
    return j
