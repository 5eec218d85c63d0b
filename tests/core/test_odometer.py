"""The odometer over combinations shared by the exact kernels (:func:`pipeline.core.odometer.next_combination`)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from pipeline.core.combinatorics import BINOM
from pipeline.core.odometer import next_combination


@pytest.mark.parametrize("n,k", [(0, 0), (3, 0), (1, 1), (5, 1), (5, 2), (6, 3), (7, 5), (5, 5), (9, 4)])
def test_next_combination_walks_itertools_combinations(n: int, k: int) -> None:
    idx = np.arange(k, dtype=np.int64)
    seen = [tuple(idx.tolist())]
    while True:
        before = idx.copy()
        j = next_combination(idx, n)
        if j < 0:
            assert (idx == before).all()          # the last combination is left as it was
            break
        assert (idx[:j] == before[:j]).all() and idx[j] != before[j]   # j: the first position changed
        seen.append(tuple(idx.tolist()))
    assert seen == list(itertools.combinations(range(n), k))
    assert len(seen) == BINOM[n, k]


def test_next_combination_on_a_prefix_view() -> None:
    """The rank-multiset kernel advances ``idx[:k]`` of a longer scratch array: the rest is untouched."""
    idx = np.array([0, 1, 7, 7], np.int64)
    got = [tuple(idx[:2].tolist())]
    while next_combination(idx[:2], 4) >= 0:
        got.append(tuple(idx[:2].tolist()))
    assert got == list(itertools.combinations(range(4), 2))
    assert idx[2:].tolist() == [7, 7]
