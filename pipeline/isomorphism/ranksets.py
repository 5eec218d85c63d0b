"""Sets of ranks of one suit as 13-bit masks, numbered by the combinatorial number system (colex).

Both suit-isomorphic numberings — pokerpipe's situation index and Waugh's
hand index — number the ranks a suit holds in a round by their colex rank
among the sets of that size: the set ``{r_1 < r_2 < ... < r_k}`` has rank
``C(r_1, 1) + C(r_2, 2) + ... + C(r_k, k)`` (Knuth, TAOCP vol. 4A, §7.2.1.3).
The tables here are built once at import (8,192 masks).

>>> int(COLEX13[0b1011]), int(UNCOLEX13[3, COLEX13[0b1011]]) == 0b1011
(1, True)
>>> int(POP13[0b1011])
3
"""
from __future__ import annotations

from math import comb

import numpy as np

RANK_SETS = 1 << 13


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three tables, a bit position at a time over every mask at once (a loop over the masks' bits in
    Python took 20-30 ms at every import, in every process that numbers situations)."""
    masks = np.arange(RANK_SETS, dtype=np.int64)
    binomial = np.array([[comb(n, k) for k in range(14)] for n in range(13)], np.int64)   # C(pos, k)
    colex = np.zeros(RANK_SETS, np.int64)
    pop = np.zeros(RANK_SETS, np.int64)
    for pos in range(13):
        bit = masks >> pos & 1
        pop += bit                                          # the bit's place among the set's bits, if set
        colex += bit * binomial[pos, pop]
    uncolex = np.zeros((14, comb(13, 6)), np.int64)        # C(13, 6) = 1,716 sets of the commonest size
    uncolex[pop, colex] = masks
    return colex, pop, uncolex


COLEX13, POP13, UNCOLEX13 = _tables()
"""``COLEX13[mask]``: the colex rank of a rank set among the sets of its size; ``POP13[mask]``: its size;
``UNCOLEX13[k, i]``: the ``k``-set of colex rank ``i``."""

__all__ = ["COLEX13", "POP13", "RANK_SETS", "UNCOLEX13"]
