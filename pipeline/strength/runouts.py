"""The runouts of a flop or turn: every way the missing board cards can come, numbered once.

The hand-potential enumeration (:mod:`.hand_strength`), the EHS street kernel
(:mod:`.street`) and the hold'em weight tables all walk the same runouts —
one or two live cards — and complete the board's key with them.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluator.kernels import Tables, suited_bit


@njit(cache=True, nogil=True)
def runout_positions(n: int, look: int) -> tuple[np.ndarray, np.ndarray]:
    """Every runout of ``look`` (0, 1 or 2) cards among ``n`` live cards, as positions in the live cards:
    ``(first, second)``, ``second`` -1 for one card (pairs in lexicographic order; none for 0 cards)."""
    count = n * (n - 1) // 2 if look == 2 else (n if look == 1 else 0)
    first = np.empty(count, np.int64)
    second = np.full(count, -1, np.int64)
    r = 0
    for i in range(n if look else 0):
        for j in range(i + 1, n) if look == 2 else range(-1, 0):
            first[r], second[r] = i, j
            r += 1
    return first, second


@njit(cache=True, nogil=True, inline="always")
def runout_key(bkey: np.uint64, bsuited: np.uint64, live: np.ndarray, ri: int, rj: int, T: Tables) -> tuple:
    """``(key, suited mask)`` of the board completed by ``live[ri]`` and, unless ``rj`` is -1, ``live[rj]``."""
    rkey = bkey + T.card_keys[live[ri]]
    rsuited = bsuited | suited_bit(live[ri])
    if rj >= 0:
        rkey += T.card_keys[live[rj]]
        rsuited |= suited_bit(live[rj])
    return rkey, rsuited
