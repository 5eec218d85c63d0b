"""The fit's sample: an independent draw per situation, the same whatever the chunking or the executor."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from pipeline.abstraction.fitting import kept, street_points
from pipeline.isomorphism.boards import canonical_boards


def test_kept_is_a_fixed_independent_draw() -> None:
    index = np.arange(2_000_000, dtype=np.int64)
    a = kept(index, 0.1, 0)
    assert abs(a.mean() - 0.1) < 0.001
    assert (kept(index, 0.1, 0) == a).all() and (kept(index[::-1], 0.1, 0) == a[::-1]).all()
    b = kept(index, 0.1, 1)
    assert abs((a & b).mean() - 0.01) < 0.0005                 # another seed: another, independent draw
    assert kept(index, 1.0, 0).all() and not kept(index, 0.0, 0).any()
    pairs = a[:-1] & a[1:]                                      # neighbours are independent too
    assert abs(pairs.mean() - 0.01) < 0.0005


@pytest.mark.slow
def test_points_do_not_depend_on_threads_and_the_sample_not_on_chunks() -> None:
    boards = canonical_boards(4)[:40]
    one = street_points("turn", boards, bins=20, chunk=7, fraction=0.3, seed=5)
    with ThreadPoolExecutor(2) as pool:
        threads = street_points("turn", boards, bins=20, chunk=7, executor=pool, fraction=0.3, seed=5)
    for x, y in zip(one, threads):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    whole = street_points("turn", boards, bins=20, chunk=40, fraction=0.3, seed=5)
    order = np.argsort(one[2])                                   # other chunks: the same situations, in index order
    assert np.array_equal(one[2][order], whole[2]) and np.array_equal(one[0][order], whole[0])
    assert 0.25 < len(one[0]) / len(street_points("turn", boards, bins=20, chunk=40)[0]) < 0.35


def test_percentile_buckets_from_binned_weights() -> None:
    """The report's cut (weights binned by ``win2``, empty bins included) is :func:`percentile_buckets`'."""
    from pipeline.abstraction.features import FULL
    from pipeline.abstraction.streets import percentile_buckets, percentile_labels

    rng = np.random.default_rng(3)
    win2 = rng.integers(0, 46 * FULL + 1, 5000)
    weight = rng.integers(1, 25, 5000)
    for k in (1, 7, 256, 10_000):
        want = percentile_buckets(win2 / (46 * FULL), weight, k)
        mass = np.bincount(win2, weights=weight.astype(np.float64), minlength=46 * FULL + 1)
        got = percentile_labels(mass, k)[win2].astype(np.int32)
        assert np.array_equal(got, want)
        assert (np.diff(want[np.argsort(win2, kind="stable")]) >= 0).all() and want.max() < k


@pytest.mark.slow
def test_flop_turn_buckets_looked_up_equal_those_assigned() -> None:
    """The flop's turn cards bucketed from a built turn table (a dense array by turn situation index) equal
    their histograms assigned to the turn centroids; turn situations the table lacks are assigned."""
    from pipeline.abstraction.features import runout_features
    from pipeline.abstraction.kmeans import fit
    from pipeline.abstraction.streets import NO_BUCKET, _assigned_turns, street_rows
    from pipeline.isomorphism.situations import street_size

    flops = canonical_boards(3)[[3, 40, 1000]]
    turn = street_points("turn", canonical_boards(4)[::800], bins=20, chunk=10)[0]
    centroids = fit(turn, 12, metric="l1", seed=2, max_iterations=5).centroids
    assigned = street_rows("flop", flops, bins=20, turn_centroids=centroids)
    ff = runout_features(flops, 20, turns=True, turn_index=True)
    table = np.full(street_size(4), NO_BUCKET, np.uint16)
    labels = _assigned_turns(ff, centroids)
    table[ff.turn_index] = labels                        # every turn situation once: one bucket per index
    assert np.array_equal(table[ff.turn_index], labels)
    table[ff.turn_index[::2, ::3]] = NO_BUCKET           # a limited build: some turn situations missing
    looked = street_rows("flop", flops, bins=20, turn_centroids=centroids, turn_buckets=lambda: table)
    for name in ("turn_buckets", "histogram"):
        assert np.array_equal(looked.features[name], assigned.features[name])
    assert np.array_equal(looked.points, assigned.points) and np.array_equal(looked.index, assigned.index)
