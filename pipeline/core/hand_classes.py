"""The 169 preflop hand classes: 13 pairs, 78 suited and 78 offsuit rank pairs.

Each class has a label (``AA``, ``AKs``, ``AKo``; the higher rank first) and a
grid index ``13*i + j``, with ``i``, ``j`` = 0 for an ace .. 12 for a deuce:
pairs on the diagonal, suited hands above it (``AKs`` at row 0, column 1),
offsuit below (``AKo`` at row 1, column 0) — the 13x13 chart of PokerStove and
every strategy book.  :func:`class_of` gives the index of two cards inside
numba kernels; :func:`hand_class` gives the label in Python and calls it, so
the two cannot disagree.

>>> CLASS_LABELS[:3], CLASS_LABELS[13], CLASS_LABELS[168]
(['AA', 'AKs', 'AQs'], 'AKo', '22')
>>> hand_class(51, 47), CLASS_INDEX['AKs'], class_of(51, 47)
('AKs', 1, 1)
>>> len(label_combos("AKs")), len(label_combos("AKo")), len(label_combos("QQ"))
(4, 12, 6)
"""
from __future__ import annotations

from numba import njit

from .cards import RANKS, CardError

CLASS_COUNT = 169


def class_labels() -> list[str]:
    """The 169 class labels in grid order (see the module doc)."""
    out = []
    for i in range(13):
        for j in range(13):
            hi, lo = RANKS[12 - min(i, j)], RANKS[12 - max(i, j)]
            out.append(hi + lo if i == j else hi + lo + ("s" if i < j else "o"))
    return out


CLASS_LABELS = class_labels()
CLASS_INDEX = {label: i for i, label in enumerate(CLASS_LABELS)}


@njit(cache=True, nogil=True)
def class_of(c1: int, c2: int) -> int:
    """Grid index of the class of two hole cards (card ids, either order)."""
    i, j = 12 - (c1 >> 2), 12 - (c2 >> 2)
    if i > j:
        i, j = j, i
    if i == j:
        return 13 * i + i
    if (c1 & 3) == (c2 & 3):
        return 13 * i + j
    return 13 * j + i


def hand_class(c1: int, c2: int) -> str:
    """The class label of two hole cards: ``AKs``, ``AKo`` or ``QQ``."""
    return CLASS_LABELS[class_of(int(c1), int(c2))]


def class_combos(hi: int, lo: int, kind: str) -> list[tuple[int, int]]:
    """Combos (high card id first) of ranks ``hi`` >= ``lo``; ``kind`` is ``'s'``, ``'o'``
    or ``''`` for both (pairs ignore it): 6 for a pair, 4 suited, 12 offsuit."""
    out = []
    for s1 in range(4):
        for s2 in range(4):
            a, b = 4 * hi + s1, 4 * lo + s2
            if hi == lo and s2 <= s1:
                continue
            if hi != lo and ((kind == "s" and s1 != s2) or (kind == "o" and s1 == s2)):
                continue
            out.append((max(a, b), min(a, b)))
    return out


def label_combos(label: str) -> list[tuple[int, int]]:
    """Combos of the class with this label (one of :data:`CLASS_LABELS`)."""
    if label not in CLASS_INDEX:
        raise CardError(f"unknown hand class {label!r} (expected e.g. 'AA', 'AKs' or 'AKo')")
    return class_combos(RANKS.index(label[0]), RANKS.index(label[1]), label[2:])
