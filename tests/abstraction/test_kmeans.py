"""Weighted k-means / k-medians (the package pipeline.abstraction.kmeans) against a plain numpy Lloyd written here."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from pipeline.abstraction import kmeans as km
from pipeline.abstraction.kmeans import chunks, hamerly, lloyd, scans, update
from pipeline.abstraction.kmeans.chunks import L1, L2
from pipeline.core.errors import InputError
from pipeline.core.rng import chunk_state, uniform

# ---------------------------------------------------------------------------
# the reference: full distance matrix, argmin, mean / lower weighted median, the same empty-cluster rule


def ref_costs(x: np.ndarray, c: np.ndarray, metric: str) -> np.ndarray:
    """(n, k) costs: squared Euclidean (l2) or l1, summed over the coordinates in order."""
    xf = x.astype(np.float64)
    out = np.zeros((x.shape[0], c.shape[0]))
    for j in range(x.shape[1]):
        t = xf[:, j:j + 1] - c[None, :, j]
        out += t * t if metric == "l2" else np.abs(t)
    return out


def ref_lower_median(values: np.ndarray, weights: np.ndarray) -> float:
    """The smallest value m with weight(x <= m) >= half the total weight."""
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(weights[order])
    return float(values[order][np.flatnonzero(cum >= 0.5 * weights.sum())[0]])


def ref_update(x: np.ndarray, w: np.ndarray, labels: np.ndarray, dist: np.ndarray, c: np.ndarray,
               metric: str) -> np.ndarray:
    xf = x.astype(np.float64)
    new = c.copy()
    empty = []
    for q in range(c.shape[0]):
        m = labels == q
        total = w[m].sum()
        if total <= 0:
            empty.append(q)
            continue
        if metric == "l2":
            new[q] = (w[m, None] * xf[m]).sum(axis=0) / total
        else:
            new[q] = [ref_lower_median(xf[m, j], w[m]) for j in range(x.shape[1])]
    score = w * dist
    score[w <= 0] = -1.0
    order = np.lexsort((np.arange(x.shape[0]), -score))
    for q, i in zip(empty, order):
        new[q] = xf[i]
    return new


def ref_lloyd(x: np.ndarray, w: np.ndarray, c0: np.ndarray, metric: str, iterations: int) -> tuple:
    c = c0.astype(np.float64)
    costs = ref_costs(x, c, metric)
    labels = costs.argmin(axis=1)                      # the first minimum: the lowest index on ties
    best = costs[np.arange(x.shape[0]), labels]
    objs = [float((w * best).sum())]
    for _ in range(iterations):
        dist = np.sqrt(best) if metric == "l2" else best
        c = ref_update(x, w, labels, dist, c, metric)
        costs = ref_costs(x, c, metric)
        new = costs.argmin(axis=1)
        best = costs[np.arange(x.shape[0]), new]
        objs.append(float((w * best).sum()))
        changed = np.any(new != labels)
        labels = new
        if not changed:
            break
    return c, labels, objs


# ---------------------------------------------------------------------------
# data


def cdf_points(rng: np.random.Generator, n: int, d: int, mass: int = 40, distinct: int = 300) -> np.ndarray:
    """Cumulative histograms (uint8, non-decreasing to ``mass``), ``distinct`` of them repeated: many ties."""
    probs = rng.dirichlet(np.ones(d) * 0.7, size=distinct)
    hist = np.array([rng.multinomial(mass, p) for p in probs])
    base = np.cumsum(hist, axis=1).astype(np.uint8)
    return np.ascontiguousarray(base[rng.integers(0, distinct, n)])


def float_points(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """float32 points on a dyadic grid (sums stay exact), a tenth of them duplicated."""
    x = (rng.integers(0, 4096, (n, d)) / 256.0).astype(np.float32)
    x[: n // 10] = x[n // 10: 2 * (n // 10)]
    return x


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 512 rows, so the small sets span several chunks."""
    monkeypatch.setattr(chunks, "CHUNK_ROWS", 512)


# ---------------------------------------------------------------------------
# fit against the reference


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["l1", "l2"])
@pytest.mark.parametrize("kind,d,k", [("cdf", 10, 7), ("cdf", 20, 30), ("float", 5, 12), ("float", 12, 30),
                                      ("few", 6, 25)])
def test_fit_matches_reference_lloyd(small_chunks: None, metric: str, kind: str, d: int, k: int) -> None:
    rng = np.random.default_rng([len(metric), ord(metric[1]), len(kind), d, k])
    n = 2000
    if kind == "few":     # 20 distinct points for 25 clusters: duplicate seeds, ties, empty clusters
        x = cdf_points(rng, n, d, mass=30, distinct=20)
    else:
        x = cdf_points(rng, n, d) if kind == "cdf" else float_points(rng, n, d)
    w = rng.integers(1, 6, n).astype(np.int64)
    w[rng.integers(0, n, 50)] = 0
    seeds = km.plusplus(x, k, metric=metric, weights=w, seed=3)
    c_ref, lab_ref, obj_ref = ref_lloyd(x, w.astype(np.float64), x[seeds], metric, 100)
    for accelerate in (True, False):
        r = km.fit(x, k, metric=metric, weights=w, seed=3, accelerate=accelerate)
        assert r.labels.dtype == np.int32 and r.distances.dtype == np.float64 and r.centroids.dtype == np.float64
        np.testing.assert_array_equal(r.labels, lab_ref)
        np.testing.assert_allclose(r.centroids, c_ref, rtol=1e-12, atol=0)
        assert len(r.objective) == len(obj_ref) == r.iterations + 1
        np.testing.assert_allclose(r.objective, obj_ref, rtol=1e-9)
        cost = ref_costs(x, r.centroids, metric)[np.arange(n), r.labels]
        np.testing.assert_allclose(r.distances, np.sqrt(cost) if metric == "l2" else cost, rtol=1e-12)
        assert r.converged == (r.iterations < 100)


@pytest.mark.slow
def test_ties_go_to_the_lowest_index() -> None:
    x = np.array([[0, 0], [2, 0], [1, 0], [1, 5]], dtype=np.uint8)
    c = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 0.0]])
    for metric in ("l1", "l2"):
        labels, dist = km.assign(x, c, metric=metric)
        assert labels.tolist() == [0, 1, 0, 0]   # [1, 0] and [1, 5] are as far from 0 as from 1 (and 2 = 0)
        assert dist[2] == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32, np.float32, np.float64])
def test_assign_matches_the_distance_matrix(small_chunks: None, dtype: type) -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(0, 200, (1500, 9)).astype(dtype)
    c = rng.uniform(0, 200, (17, 9))
    for metric in ("l1", "l2"):
        labels, dist = km.assign(x, c, metric=metric)
        cost = ref_costs(x, c, metric)
        np.testing.assert_array_equal(labels, cost.argmin(axis=1))
        best = cost.min(axis=1)
        np.testing.assert_allclose(dist, np.sqrt(best) if metric == "l2" else best, rtol=1e-12)
        assert km.objective(x, c, labels, metric=metric) == pytest.approx(best.sum(), rel=1e-12)


# ---------------------------------------------------------------------------
# Hamerly's bounds: exact


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["l2", "l1"])
def test_hamerly_equals_plain_lloyd_on_a_larger_set(metric: str) -> None:
    rng = np.random.default_rng(11)
    centres = rng.normal(0, 4, (40, 8))
    x = (centres[rng.integers(0, 40, 50_000)] + rng.normal(0, 1.5, (50_000, 8))).astype(np.float32)
    iterations = 25 if metric == "l2" else 10
    fast = km.fit(x, 64, metric=metric, seed=1, max_iterations=iterations)
    plain = km.fit(x, 64, metric=metric, seed=1, max_iterations=iterations, accelerate=False)
    np.testing.assert_array_equal(fast.labels, plain.labels)
    np.testing.assert_array_equal(fast.centroids, plain.centroids)
    assert fast.objective == plain.objective
    assert fast.iterations == plain.iterations > 1


@pytest.mark.slow
def test_hamerly_without_centroid_gaps_equals_plain(small_chunks: None) -> None:
    rng = np.random.default_rng(2)
    x = cdf_points(rng, 2000, 8, distinct=1200)
    assert 400 * 400 > 64 * 2000                   # k**2 > 64 n: the lower bound alone
    for metric in ("l1", "l2"):
        fast = km.fit(x, 400, metric=metric, max_iterations=15)
        plain = km.fit(x, 400, metric=metric, max_iterations=15, accelerate=False)
        np.testing.assert_array_equal(fast.labels, plain.labels)
        np.testing.assert_array_equal(fast.centroids, plain.centroids)
        assert fast.objective == plain.objective


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["l2", "l1"])
def test_scanning_only_the_moved_centroids_equals_plain(monkeypatch: pytest.MonkeyPatch, metric: str) -> None:
    """Points whose bound from before the move still holds scan only the centroids that moved: same fit."""
    rng = np.random.default_rng(5)
    x = cdf_points(rng, 20_000, 8, distinct=9000)
    plain = km.fit(x, 200, metric=metric, seed=3, max_iterations=40, accelerate=False)
    full_scans = {}
    for share in (-1.0, 1.0):
        monkeypatch.setattr(hamerly, "MOVED_SHARE", share)
        passes = []
        original = lloyd.hamerly_pass

        def counted(*args: object, _original: object = original, _passes: list = passes) -> tuple:
            out = _original(*args)  # type: ignore[operator]
            _passes.append(out[2])
            return out

        monkeypatch.setattr(lloyd, "hamerly_pass", counted)
        fast = km.fit(x, 200, metric=metric, seed=3, max_iterations=40)
        monkeypatch.setattr(lloyd, "hamerly_pass", original)
        np.testing.assert_array_equal(fast.labels, plain.labels)
        np.testing.assert_array_equal(fast.centroids, plain.centroids)
        assert fast.objective == plain.objective and fast.iterations == plain.iterations > 5
        full_scans[share] = sum(passes)
    assert full_scans[1.0] < full_scans[-1.0] / 2       # the moved-only scans replaced most full ones


# ---------------------------------------------------------------------------
# properties


@pytest.mark.parametrize("metric", ["l1", "l2"])
def test_objective_never_increases(metric: str) -> None:
    rng = np.random.default_rng(8)
    x = cdf_points(rng, 3000, 12, distinct=2000)
    w = rng.integers(1, 100, 3000)
    r = km.fit(x, 20, metric=metric, weights=w, seed=4)
    assert all(b <= a for a, b in zip(r.objective, r.objective[1:]))
    assert r.objective[-1] == pytest.approx(km.objective(x, r.centroids, r.labels, metric=metric, weights=w),
                                           rel=1e-12)
    if metric == "l1":
        np.testing.assert_array_equal(r.centroids, np.round(r.centroids))


@pytest.mark.slow
def test_tolerance_and_max_iterations_stop_early() -> None:
    rng = np.random.default_rng(9)
    x = float_points(rng, 3000, 6)
    assert km.fit(x, 10, max_iterations=0).iterations == 0
    full = km.fit(x, 10)
    loose = km.fit(x, 10, tolerance=0.05)
    assert loose.iterations < full.iterations and not loose.converged
    assert loose.objective == full.objective[: loose.iterations + 1]


@pytest.mark.slow
def test_weighted_lower_median_by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    # column 0: values 1, 2, 3, 10 with weights 1, 1, 1, 3 -> half = 3, weight(x <= 3) = 3: median 3
    # column 1: values 7, 0, 7, 4 -> sorted 0 (1), 4 (3), 7 (1+1): weight(x <= 4) = 4 >= 3: median 4
    # column 2: values 5, 5, 9, 9 -> weight(x <= 5) = 2 < 3, weight(x <= 9) = 6: median 9
    x = np.array([[1, 7, 5], [2, 0, 5], [3, 7, 9], [10, 4, 9]], dtype=np.uint8)
    w = np.array([1, 1, 1, 3])
    want = [3.0, 4.0, 9.0]
    counted = km.fit(x, 1, metric="l1", weights=w, max_iterations=1)
    assert counted.centroids.tolist() == [want]
    assert km.fit(x.astype(np.float32), 1, metric="l1", weights=w, max_iterations=1).centroids.tolist() == [want]
    medians, weight = km.lower_medians(x, np.zeros(4, np.int32), 2, weights=w)
    assert medians.tolist() == [want, [0.0, 0.0, 0.0]] and weight.tolist() == [6.0, 0.0]
    # equal weights 1, 1 on 2 and 8: the lower median 2, not 5 nor 8
    pair = np.array([[2], [8]], dtype=np.int32)
    assert km.fit(pair, 1, metric="l1", max_iterations=1).centroids.tolist() == [[2.0]]


def test_empty_clusters_take_the_farthest_distinct_points() -> None:
    x = np.array([[0], [1], [5], [9], [8], [3]], dtype=np.uint8)
    w = np.array([1.0, 1.0, 0.0, 1.0, 1.0, 3.0])
    labels = np.zeros(6, np.int32)                      # clusters 1 and 2 empty
    c = np.array([[0.0], [50.0], [60.0]])
    dist = np.abs(x[:, 0] - 0.0)                        # w * dist: 0, 1, 0, 9, 8, 9
    order = np.empty(6, np.int32)
    new = update.update(x, w, labels, dist, c, L2, None, order, None)
    # a tie at 9 between points 3 and 5: the lower index first (cluster 1 gets point 3, cluster 2 point 5)
    assert new[1:].tolist() == [[9.0], [3.0]]
    dist = np.array([0.0, 1.0, 100.0, 2.0, 1.0, 1.0])  # w * dist: 0, 1, 0 (weight 0), 2, 1, 3
    new = update.update(x, w, labels, dist, c, L2, None, order, None)
    assert new[1:].tolist() == [[3.0], [9.0]]           # point 5 (3), then point 3 (2); weight-0 point 2 never


# ---------------------------------------------------------------------------
# k-means++


def ref_plusplus(x: np.ndarray, k: int, metric: str, w: np.ndarray, seed: int) -> list[int]:
    """k-means++ by full cumulative sums (exact here: integer points and weights give integer masses)."""
    s0, s1 = chunk_state(seed, 0)
    cost = np.full(x.shape[0], np.inf)
    chosen: list[int] = []
    for _ in range(k):
        s0, s1, u = uniform(np.uint64(s0), np.uint64(s1))
        mass = w if not chosen else w * cost
        cum = np.cumsum(mass)
        if cum[-1] > 0:
            pick = int(np.searchsorted(cum, u * cum[-1], side="right"))
        else:
            pick = next(i for i in range(x.shape[0]) if i not in chosen and w[i] > 0)
        chosen.append(pick)
        cost = np.minimum(cost, ref_costs(x, x[pick:pick + 1].astype(np.float64), metric)[:, 0])
    return chosen


@pytest.mark.parametrize("metric", ["l1", "l2"])
def test_plusplus_matches_a_full_cumulative_sum(small_chunks: None, metric: str) -> None:
    rng = np.random.default_rng(12)
    x = cdf_points(rng, 3000, 8, distinct=800)
    w = rng.integers(0, 5, 3000).astype(np.float64)
    assert km.plusplus(x, 60, metric=metric, weights=w, seed=5).tolist() == ref_plusplus(x, 60, metric, w, 5)


def test_plusplus_is_deterministic_distinct_and_follows_weights() -> None:
    rng = np.random.default_rng(4)
    x = float_points(rng, 5000, 6)
    a = km.plusplus(x, 40, metric="l2", seed=7)
    assert a.dtype == np.int64
    np.testing.assert_array_equal(a, km.plusplus(x, 40, metric="l2", seed=7))
    assert not np.array_equal(a, km.plusplus(x, 40, metric="l2", seed=8))
    assert len(set(a.tolist())) == 40
    w = np.ones(5000)
    heavy = rng.choice(5000, 10, replace=False)
    w[heavy] = 1e7
    w[:2500] = 0.0
    w[heavy] = 1e7
    for metric in ("l1", "l2"):
        seeds = km.plusplus(x, 10, metric=metric, weights=w, seed=1)
        assert np.all(w[seeds] > 0)                               # a weight-0 point is never chosen
        assert np.isin(seeds, heavy).sum() >= 8                   # the heavy points take nearly all the mass
    only = np.zeros(5000, np.int64)
    only[[17, 99, 4321]] = 2
    assert sorted(km.plusplus(x, 3, metric="l1", weights=only, seed=0).tolist()) == [17, 99, 4321]


def test_plusplus_with_fewer_distinct_points_than_k() -> None:
    x = np.array([[1, 1]] * 5 + [[4, 4]] * 5, dtype=np.uint8)
    seeds = km.plusplus(x, 4, metric="l1", seed=0)
    assert len(set(seeds.tolist())) == 4
    assert {int(x[s, 0]) for s in seeds[:2]} == {1, 4}            # both distinct points first
    rest = [i for i in range(10) if i not in seeds[:2]]
    assert seeds[2:].tolist() == rest[:2]                         # then the lowest unchosen indices
    r = km.fit(x, 4, metric="l2")
    assert r.converged and r.objective[-1] == 0.0


# ---------------------------------------------------------------------------
# executor


@pytest.mark.parametrize("metric", ["l1", "l2"])
def test_executor_gives_the_same_bits(small_chunks: None, metric: str) -> None:
    rng = np.random.default_rng(6)
    x = cdf_points(rng, 6000, 10, distinct=3000)
    w = rng.integers(0, 4, 6000)
    alone = km.fit(x, 25, metric=metric, weights=w, seed=2)
    with ThreadPoolExecutor(2) as pool:
        shared = km.fit(x, 25, metric=metric, weights=w, seed=2, executor=pool)
        np.testing.assert_array_equal(km.plusplus(x, 25, metric=metric, weights=w, seed=2, executor=pool),
                                      km.plusplus(x, 25, metric=metric, weights=w, seed=2))
        labels, dist = km.assign(x, alone.centroids, metric=metric, executor=pool)
    np.testing.assert_array_equal(alone.labels, shared.labels)
    np.testing.assert_array_equal(alone.centroids, shared.centroids)
    assert alone.objective == shared.objective
    np.testing.assert_array_equal(labels, alone.labels)
    np.testing.assert_array_equal(dist, alone.distances)


# ---------------------------------------------------------------------------
# errors


def test_input_errors() -> None:
    x = np.zeros((5, 3), np.float32)
    x[:, 0] = np.arange(5)
    with pytest.raises(InputError, match="at least 1"):
        km.fit(x, 0)
    with pytest.raises(InputError, match="positive weight"):
        km.fit(x, 6)
    with pytest.raises(InputError, match="positive weight"):
        km.fit(x, 3, weights=np.array([1, 1, 0, 0, 0]))
    with pytest.raises(InputError, match="metric"):
        km.fit(x, 2, metric="cosine")
    with pytest.raises(InputError, match="metric"):
        km.assign(x, x[:2].astype(np.float64), metric="linf")
    with pytest.raises(InputError, match="2-D"):
        km.fit(x[:, 0], 2)
    with pytest.raises(InputError, match="2-D"):
        km.plusplus(x[None], 2, metric="l2")
    with pytest.raises(InputError, match="weights"):
        km.fit(x, 2, weights=np.ones(4))
    with pytest.raises(InputError, match="non-negative"):
        km.fit(x, 2, weights=np.array([1.0, -1.0, 1.0, 1.0, 1.0]))
    bad = x.copy()
    bad[3, 1] = np.nan
    with pytest.raises(InputError, match="NaN"):
        km.fit(bad, 2)
    with pytest.raises(InputError, match="NaN"):
        km.assign(bad.astype(np.float64), x[:2].astype(np.float64), metric="l1")
    with pytest.raises(InputError, match="uint8"):
        km.fit(x.astype(np.int8), 2)
    with pytest.raises(InputError, match="seed"):
        km.plusplus(x, 2, metric="l1", seed=-1)
    assert issubclass(InputError, ValueError)


# ---------------------------------------------------------------------------
# the scans: k-d tree and integer costs give the float64 full scan's result, bit for bit


def test_kd_tree_finds_the_full_scans_two_best_ties_included() -> None:
    rng = np.random.default_rng(21)
    x = float_points(rng, 3000, 6)                                # a dyadic grid: many exact ties
    c = (rng.integers(0, 4096, (300, 6)) / 256.0)
    c[150:200] = c[100:150]                                      # duplicate centroids: equal costs, lowest index
    c[200:230] = x[:30]                                          # centroids on points: cost 0
    tree = scans.scan_of(x, c, L2, -1)
    plain = scans.Scan(np.ascontiguousarray(c.T), np.empty(0, np.float64), *scans.scan_of(x, c, L1, -1)[2:])
    assert tree.order.shape[0] == 300 and plain.order.shape[0] == 0
    acc, stack, bounds = np.empty(300), np.empty(128, np.int64), np.empty(128)
    cost = ref_costs(x, c, "l2")
    for i in range(x.shape[0]):
        got = scans.nearest_two(x, i, tree, L2, acc, stack, bounds)
        assert got == scans.nearest_two(x, i, plain, L2, acc, stack, bounds)
        row = np.sort(cost[i])
        assert (got[0], got[1], got[2]) == (int(cost[i].argmin()), row[0], row[1])


@pytest.mark.slow
def test_integer_costs_in_32_bits_when_16_could_overflow(small_chunks: None) -> None:
    rng = np.random.default_rng(8)
    x = rng.integers(0, 256, (1500, 300)).astype(np.uint8)      # up to 300 * 255 > 65,535
    c = x[rng.choice(1500, 20, replace=False)].astype(np.float64)
    assert scans.scan_of(x, c, L1, scans.byte_top(x)).proto.dtype == np.uint32
    labels, dist = km.assign(x, c, metric="l1")
    cost = ref_costs(x, c, "l1")
    np.testing.assert_array_equal(labels, cost.argmin(axis=1))
    np.testing.assert_array_equal(dist, cost.min(axis=1))
    half = c + 0.5                                               # centroids off the integers: float64 costs
    assert scans.scan_of(x, half, L1, scans.byte_top(x)).proto.dtype == np.float64
    np.testing.assert_array_equal(km.assign(x, half, metric="l1")[0], ref_costs(x, half, "l1").argmin(axis=1))


def test_lower_medians_of_wide_integers_and_floats_equal_the_reference() -> None:
    rng = np.random.default_rng(4)
    x = np.sort(rng.integers(0, 1082, (3000, 40)), axis=1).astype(np.uint16)   # the flop's 1,081-runout range
    x[:, 5] = 7                                                                 # a constant coordinate
    labels = rng.integers(0, 37, 3000).astype(np.int32)
    labels[labels == 36] = 35                                                   # cluster 36 empty
    w = rng.integers(0, 25, 3000)
    for pts in (x, x.astype(np.float32)):
        got, weight = km.lower_medians(pts, labels, 37, weights=w)
        for q in range(37):
            m = labels == q
            assert weight[q] == w[m].sum()
            want = [ref_lower_median(x[m, j].astype(np.float64), w[m]) for j in range(40)] if w[m].sum() else 0
            np.testing.assert_array_equal(got[q], want)
