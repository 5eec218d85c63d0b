"""ProPokerTools' percentages of Omaha hands: ``15%``, ``5%-10%``, ``15%6h``, by a hand ranking.

A ranking orders the suit classes of k-card hands (16,432 of four cards), best first.
The rankings shipped in ``data/omaha-rankings.npz`` were computed by
:mod:`pipeline.omaha.ranking`, our implementation of the evolutionary procedure
ProPokerTools describes for its own rankings (docs/omaha.md says how they compare):
each array is the class order, as indices into the classes sorted by canonical card mask
(:func:`class_index`).

Percentages count hands, not classes: class *c* covers the hands ranked after the
``B(c)`` hands of the classes above it.  The top ``p%`` holds the classes with
``B(c) < p% of all hands``, so a class straddling the cut is in and the top 100% is
every hand.  ``a%-b%`` holds percentiles *a* through *b*: the top ``b%`` less the top
``(a-1)%`` — the reading under which PPT's own examples agree (``1%-100%`` is every
hand; ``5%-10%`` the hands from the 5th to the 10th percentile).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core.cards import CardError
from .omaha_hands import all_hands, canonical_masks

RANKINGS = Path(__file__).parent / "data" / "omaha-rankings.npz"


def ranking_name(k: int, hilo: bool, six_handed: bool) -> str:
    """The key of a ranking: ``omaha``, ``omaha5-hilo``, ``omaha-6h`` ..."""
    return f"omaha{'' if k == 4 else k}{'-hilo' if hilo else ''}{'-6h' if six_handed else ''}"


@lru_cache(maxsize=1)
def rankings() -> dict[str, np.ndarray]:
    """Every shipped ranking by name (empty when the file is absent)."""
    if not RANKINGS.exists():
        return {}
    with np.load(RANKINGS) as z:
        return {name: z[name] for name in z.files if not name.startswith("_")}


@lru_cache(maxsize=3)
def class_index(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(class_masks, class_of_hand)``: the canonical masks of the suit classes, ascending, and each hand's
    class (its index there), for every hand of :func:`all_hands`."""
    masks, inverse = np.unique(canonical_masks(all_hands(k)), return_inverse=True)
    return masks, inverse.reshape(-1)


def _top(before: np.ndarray, total: int, p: float) -> np.ndarray:
    return before * 100.0 < p * total


@lru_cache(maxsize=64)
def percent_mask(k: int, hilo: bool, six_handed: bool, lo: float, hi: float) -> np.ndarray:
    """The hands (a bool row over :func:`all_hands`) from percentile ``lo`` through ``hi`` (``lo`` 0: the top
    ``hi%``) of the ranking of k-card hands (hi/lo, six-handed when asked)."""
    name = ranking_name(k, hilo, six_handed)
    order = rankings().get(name)
    if order is None:
        have = ", ".join(sorted(rankings())) or "none"
        raise CardError(f"no hand ranking for {name}: percentages work in {have}")
    _, cls = class_index(k)
    weights = np.bincount(cls)
    if len(order) != len(weights):
        raise CardError(f"the {name} ranking holds {len(order)} classes, not {len(weights)}: a damaged file")
    before_in_order = np.cumsum(weights[order]) - weights[order]
    before = np.empty_like(before_in_order)
    before[order] = before_in_order
    total = int(weights.sum())
    keep = _top(before, total, hi) & ~_top(before, total, max(lo - 1.0, 0.0) if lo > 0 else 0.0)
    out = keep[cls]
    out.setflags(write=False)
    return out
