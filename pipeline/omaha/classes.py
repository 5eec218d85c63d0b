"""Omaha starting hands up to suit isomorphism: 16,432 classes of the 270,725 four-card hands.

Two hands are one class when a permutation of the four suits maps one onto the other;
equity against random hands is the same for every member.  A class is named by its
*canonical* member — the one whose 52-bit card mask is smallest over the 24 suit
permutations — and weighs the number of hands it stands for (1 to 24).

>>> hands, weights = starting_classes(4)
>>> len(hands), int(weights.sum())
(16432, 270725)
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np

from ..ranges.omaha import cards_of_masks, choose

CLASS_COUNTS = {4: 16_432, 5: 134_459}


def canonical_masks(hands: np.ndarray) -> np.ndarray:
    """The smallest card mask over the 24 suit permutations of each hand (n, k) of card ids."""
    ranks, suits = hands >> 2, hands & 3
    best = None
    for perm in permutations(range(4)):
        mapped = (ranks << 2) | np.array(perm, np.int64)[suits]
        m = np.bitwise_or.reduce(np.uint64(1) << mapped.astype(np.uint64), axis=1)
        best = m if best is None else np.minimum(best, m)
    assert best is not None
    return best


@lru_cache(maxsize=2)
def starting_classes(k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """``(hands (m, k) canonical members ascending by mask, weights (m,))`` of the k-card hands."""
    every = choose(52, k)
    masks, weights = np.unique(canonical_masks(every), return_counts=True)
    return cards_of_masks(masks, k), weights.astype(np.int64)
