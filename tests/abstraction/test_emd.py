"""Earth mover's distances: the closed form and the potential-aware bound against POT's exact transport."""
from __future__ import annotations

import numpy as np
import ot

from pipeline.abstraction.emd import cumulative, emd, potential_embedding

RNG = np.random.default_rng(2014)


def test_the_closed_form_is_the_exact_transport() -> None:
    ground = np.abs(np.subtract.outer(np.arange(30), np.arange(30))).astype(float)
    for _ in range(20):
        a, b = RNG.multinomial(46, np.ones(30) / 30), RNG.multinomial(46, np.ones(30) / 30)
        exact = ot.emd2(a / 46, b / 46, ground) * 46
        assert emd(a, b) == np.abs(cumulative(a[None]).astype(int) - cumulative(b[None]).astype(int)).sum()
        assert abs(emd(a, b) - exact) < 1e-6


def _transport(p: np.ndarray, q: np.ndarray, centroids: np.ndarray) -> float:
    """Exact EMD of two multisets of turn buckets (47 each), ground cost the L1 of the centroids."""
    cost = np.abs(centroids[p][:, None, :].astype(float) - centroids[q][None, :, :]).sum(axis=2)
    return float(ot.emd2(np.ones(len(p)), np.ones(len(q)), cost))


def test_the_potential_bound_is_below_the_exact_transport_and_equal_when_comonotone() -> None:
    k, d = 12, 9
    hist = RNG.multinomial(46, np.ones(d + 1) / (d + 1), size=k)
    centroids = cumulative(hist)                       # cumulative counts 0..46
    for _ in range(30):
        p, q = np.sort(RNG.integers(0, k, 47)), np.sort(RNG.integers(0, k, 47))
        e = potential_embedding(np.stack([p, q]), centroids).astype(int)
        bound = np.abs(e[0] - e[1]).sum()
        exact = _transport(p, q, centroids)
        assert bound <= exact + 1e-6
    ordered = np.sort(centroids, axis=0)               # every coordinate ordered alike: one coupling is optimal
    for _ in range(10):
        p, q = np.sort(RNG.integers(0, k, 47)), np.sort(RNG.integers(0, k, 47))
        e = potential_embedding(np.stack([p, q]), ordered).astype(int)
        assert abs(np.abs(e[0] - e[1]).sum() - _transport(p, q, ordered)) < 1e-6


def test_the_embedding_sorts_each_coordinate() -> None:
    centroids = np.array([[0, 5, 9], [3, 3, 3], [1, 8, 8]], np.uint8)
    e = potential_embedding(np.array([[0, 1, 2, 2]]), centroids)
    assert e.tolist() == [[0, 1, 1, 3, 3, 5, 8, 8, 3, 8, 8, 9]]
