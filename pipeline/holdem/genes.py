"""The ``evolved`` policy kind: a gene table indexed by the betting situation decides (thesis §3.3.1).

The chromosome and its layout are described in :mod:`pipeline.holdem.player`;
this module is the part that runs inside the betting kernel: find the gene of
the situation (:func:`gene_index`), mark it used, and compare
``d = weight - pot odds`` (±100 scale) with its thresholds (:func:`gene_decision`).
A layout reaches the kernel as a float array: the seven bucket counts, the
weight scale (1: bucket ``weight × players in``, 0: the weight itself), then
the pot-odds edges, then the weight edges.
"""
from __future__ import annotations

import numpy as np

from .jit import hand_kernel
from .policies import (
    CALL,
    FOLD,
    O_CATEGORY,
    O_PLAYERS,
    O_POSITION,
    O_POT_ODDS,
    O_RAISES,
    O_RAISES_PREV,
    O_STREET,
    O_WEIGHT,
    RAISE,
)


@hand_kernel
def _bucket(x: float, layout: np.ndarray, start: int, n_edges: int) -> int:
    b = 0
    for i in range(n_edges):
        if x > layout[start + i]:
            b += 1
    return b


@hand_kernel
def gene_index(layout: np.ndarray, obs: np.ndarray) -> int:
    """Index of the gene for observation ``obs`` (a flop, turn or river decision) in a flat gene table."""
    n_po = int(layout[5]) - 1
    n_w = int(layout[6]) - 1
    weight = obs[O_WEIGHT] * obs[O_PLAYERS] if layout[7] > 0.0 else obs[O_WEIGHT]
    coords = (int(obs[O_CATEGORY]), int(obs[O_STREET]) - 1, int(obs[O_RAISES_PREV]), int(obs[O_POSITION]),
              int(obs[O_RAISES]), _bucket(obs[O_POT_ODDS], layout, 8, n_po),
              _bucket(weight, layout, 8 + n_po, n_w))
    g = 0
    for a in range(7):
        size = int(layout[a])
        g = g * size + min(max(coords[a], 0), size - 1)
    return g


@hand_kernel
def gene_decision(genes: np.ndarray, used: np.ndarray, layout: np.ndarray, obs: np.ndarray) -> int:
    """The gene's answer (fold, call, raise) to ``obs``; marks the gene used.

    ``genes`` is one player's ``(genes, 2)`` int8 table, ``used`` its marks.
    """
    g = gene_index(layout, obs)
    used[g] = 1
    d = round(100.0 * (obs[O_WEIGHT] - obs[O_POT_ODDS]))
    if d > genes[g, 0]:
        return RAISE
    if d > genes[g, 1]:
        return CALL
    return FOLD
