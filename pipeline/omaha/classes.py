"""Omaha starting hands up to suit isomorphism: 16,432 classes of the 270,725 four-card hands.

Two hands are one class when a permutation of the four suits maps one onto the other;
equity against random hands is the same for every member.  A class is named by its
*canonical* member — the one whose 52-bit card mask is smallest over the 24 suit
permutations — and weighs the number of hands it stands for (1 to 24).

Each class also has the label players write (:func:`class_labels`, the ``omaha_class``
column of the Omaha tables: ranks high to low and the suit shape, ``AAKKds``), which a
few classes may share: ``AKQJds`` is three classes, one for each way the suits pair.

>>> hands, weights = starting_classes(4)
>>> len(hands), int(weights.sum())
(16432, 270725)
>>> labels = class_labels(hands)
>>> len(set(labels.tolist())), int(weights[labels == "AKQJds"].sum()), int((labels == "AKQJds").sum())
(7566, 36, 3)
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..ranges.omaha import cards_of_masks, choose
from ..ranges.omaha_hands import canonical_masks, class_labels

__all__ = ["CLASS_COUNTS", "canonical_masks", "class_labels", "starting_classes"]

CLASS_COUNTS = {4: 16_432, 5: 134_459}


@lru_cache(maxsize=2)
def starting_classes(k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """``(hands (m, k) canonical members ascending by mask, weights (m,))`` of the k-card hands."""
    every = choose(52, k)
    masks, weights = np.unique(canonical_masks(every), return_counts=True)
    return cards_of_masks(masks, k), weights.astype(np.int64)
