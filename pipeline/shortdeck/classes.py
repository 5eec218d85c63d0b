"""The 81 starting-hand classes of short-deck hold'em: 9 pairs, 36 suited and 36 offsuit rank pairs.

The 169 classes of :mod:`pipeline.core.hand_classes` restricted to the ranks six to ace, in the same
picture: a 9x9 grid, row and column ``i``, ``j`` = 0 for an ace .. 8 for a six, pairs on the diagonal,
suited hands above it, offsuit below; index ``9*i + j``.  Labels are the 52-card deck's (``AKs``, ``66``),
so a short-deck table and a 52-card one join on them.

>>> CLASS_LABELS[:3], CLASS_LABELS[9], CLASS_LABELS[80], len(CLASS_LABELS)
(['AA', 'AKs', 'AQs'], 'AKo', '66', 81)
>>> class_of(51, 47), int(COMBOS.sum()), [int(COMBOS[CLASS_INDEX[c]]) for c in ("AA", "AKs", "AKo")]
(1, 630, [6, 4, 12])
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.hand_classes import CLASS_LABELS as HOLDEM_LABELS
from ..core.hand_classes import class_combos
from ..evaluator.decks import SHORT_DECK

SIDE = 13 - SHORT_DECK.low_rank                       # 9 ranks: A..6
CLASS_COUNT = SIDE * SIDE                             # 81
HOLDEM_INDEX = np.array([13 * i + j for i in range(SIDE) for j in range(SIDE)], np.int64)   # in the 169 grid
CLASS_LABELS = [HOLDEM_LABELS[g] for g in HOLDEM_INDEX]
CLASS_INDEX = {label: i for i, label in enumerate(CLASS_LABELS)}


@njit(cache=True, nogil=True)
def class_of(c1: int, c2: int) -> int:
    """Grid index (0..80) of the class of two short-deck hole cards (card ids 16..51, either order)."""
    i, j = 12 - (c1 >> 2), 12 - (c2 >> 2)
    if i > j:
        i, j = j, i
    if i == j or (c1 & 3) == (c2 & 3):
        return 9 * i + j
    return 9 * j + i


def _combos() -> np.ndarray:
    out = np.zeros(CLASS_COUNT, np.int64)
    for k, label in enumerate(CLASS_LABELS):
        hi, lo = "23456789TJQKA".index(label[0]), "23456789TJQKA".index(label[1])
        out[k] = len(class_combos(hi, lo, label[2:]))
    return out


COMBOS = _combos()        # specific hands of each class: 6 a pair, 4 suited, 12 offsuit (630 in all)
