"""The abstraction's report: how tight its buckets are, beside equity-percentile buckets at the same k.

For each street and each way of bucketing — the k-means buckets, and the
classical EHS buckets (equal-weight percentiles of the equity against a random
hand, :func:`~.streets.percentile_buckets`) — every bucket's centroid is the
minimiser of its within-bucket distance (the weighted median of cumulative
histograms under EMD, the mean under Euclidean), and its figure the weighted
mean distance of its situations to it, in equity units:

=====  =============  =====================================================
river  ``ochs``       Euclidean distance of the OCHS vectors
turn   ``emd``        EMD of the 46-river equity histograms
flop   ``potential``  the potential-aware EMD bound (:mod:`.emd`)
flop   ``emd``        EMD of the 1,081-runout equity histograms
=====  =============  =====================================================

Three passes over the parts: the equities' weights (the percentile cut
points), the centroids, the distances.  Under EMD the centroids are weighted
lower medians (:func:`~.kmeans.lower_medians`), which need each bucket's
points together: the street's points are held for the second and third pass
(uint8 or uint16: at most 2.8 GB, the flop's 1,081-runout histograms); the
river's OCHS means are summed part by part, so its 123 M rows are never held
at once.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Optional

import numpy as np
import pyarrow as pa
from numba import njit

from ..core.arrow import values
from .emd import cumulative, potential_embedding
from .features import FULL
from .kmeans import lower_medians
from .streets import QUANTILES, percentile_labels

METRICS = {"river": ("ochs",), "turn": ("emd",), "flop": ("potential", "emd")}


def street_columns(street: str) -> list[str]:
    """The columns the report reads of a street's dataset."""
    base = ["bucket", "weight", "win2"]
    if street == "river":
        return base + [f"ochs{j}" for j in range(8)]
    return base + ["histogram"] + (["turn_buckets"] if street == "flop" else [])


def _list(table: pa.Table, name: str) -> np.ndarray:
    col = table.column(name).combine_chunks()
    return values(col.flatten()).reshape(len(col), col.type.list_size)


def points_of(street: str, metric: str, table: pa.Table, turn_centroids: Optional[np.ndarray]) -> np.ndarray:
    """The points of one part under ``metric`` (see the module doc)."""
    if metric == "ochs":
        return np.ascontiguousarray(np.stack([values(table.column(f"ochs{j}")) for j in range(8)], axis=1))
    if metric == "potential":
        assert turn_centroids is not None
        return potential_embedding(_list(table, "turn_buckets"), turn_centroids, QUANTILES)
    return cumulative(_list(table, "histogram"))


def _unit(street: str, metric: str, bins: int) -> float:
    if metric == "ochs":
        return 1.0
    if metric == "potential":
        return 1.0 / (QUANTILES * 46 * bins)
    return 1.0 / ((46 if street == "turn" else 1081) * bins)


@njit(cache=True, nogil=True)
def _sums(x: np.ndarray, labels: np.ndarray, w: np.ndarray, s: np.ndarray) -> None:
    for r in range(x.shape[0]):
        for i in range(x.shape[1]):
            s[labels[r], i] += w[r] * x[r, i]


@njit(cache=True, nogil=True)
def _distance_sums(x: np.ndarray, labels: np.ndarray, w: np.ndarray, c: np.ndarray, l1: bool,
                   out: np.ndarray) -> None:
    for r in range(x.shape[0]):
        lab = labels[r]
        s = 0.0
        for i in range(x.shape[1]):
            t = x[r, i] - c[lab, i]
            s += abs(t) if l1 else t * t
        out[lab] += w[r] * (s if l1 else np.sqrt(s))


def _held(parts: Iterable[np.ndarray], rows: int) -> np.ndarray:
    """The parts' points (``rows`` in all) in one array, filled part by part (never two copies at once)."""
    out = np.empty((0, 0))
    start = 0
    for c in parts:
        if start == 0:
            out = np.empty((rows, c.shape[1]), c.dtype)
        out[start:start + len(c)] = c
        start += len(c)
    return out


def street_report(street: str, parts: Callable[[], Iterable[pa.Table]], k: int, bins: int,
                  turn_centroids: Optional[np.ndarray]) -> dict[str, Any]:
    """The report's rows of one street: per method (``kmeans``, ``percentile``) and metric, per bucket the
    situations, their weight and the mean within-bucket distance (NaN where a figure is left out)."""
    win2_top = FULL * (1 if street == "river" else (46 if street == "turn" else 1081))
    mass = np.zeros(win2_top + 1, np.float64)
    labels: dict[str, list[np.ndarray]] = {"kmeans": [], "percentile": []}
    weights = []
    for t in parts():                                        # pass 1: weights by equity, the k-means labels
        w2 = values(t.column("win2"))
        w = values(t.column("weight"))
        mass += np.bincount(w2, weights=w, minlength=win2_top + 1)
        labels["kmeans"].append(values(t.column("bucket")).astype(np.int32))
        weights.append(w.astype(np.uint8))                  # a situation stands for at most 24
        labels["percentile"].append(w2)
    cut = percentile_labels(mass, k)                        # mass by win2: by equity, in ascending order
    labels["percentile"] = [cut[w2].astype(np.int32) for w2 in labels["percentile"]]
    rows: dict[str, list] = {"street": [], "method": [], "metric": [], "bucket": [], "situations": [],
                             "weight": [], "distance": []}
    sizes = [len(w) for w in weights]
    for metric in METRICS[street]:
        l1 = metric != "ochs"
        centroids: dict[str, np.ndarray] = {}
        if l1:                                               # pass 2: the points, held for the medians
            x_all = _held((points_of(street, metric, t, turn_centroids) for t in parts()), sum(sizes))
            w_all = np.concatenate(weights)
            for method in labels:
                centroids[method] = lower_medians(x_all, np.concatenate(labels[method]), k, weights=w_all)[0]
            points: Iterable[np.ndarray] = np.split(x_all, np.cumsum(sizes)[:-1])
        else:                                                # pass 2: the means' sums, part by part
            stats = {m: np.zeros((k, 8)) for m in labels}
            for i, t in enumerate(parts()):
                x = points_of(street, metric, t, turn_centroids).astype(np.float64)
                for method in labels:
                    _sums(x, labels[method][i], weights[i].astype(np.float64), stats[method])
            for method in labels:
                wsum = np.bincount(np.concatenate(labels[method]), weights=np.concatenate(weights), minlength=k)
                centroids[method] = np.divide(stats[method], wsum[:, None], out=np.zeros_like(stats[method]),
                                              where=wsum[:, None] > 0)
            points = (points_of(street, metric, t, turn_centroids) for t in parts())
        dist = {m: np.zeros(k) for m in labels}
        for i, xi in enumerate(points):                      # pass 3: distances to the centroids
            x = xi.astype(np.float64)
            for method in labels:
                _distance_sums(x, labels[method][i], weights[i].astype(np.float64), centroids[method], l1,
                               dist[method])
        del points                                           # the held points are not kept into the next metric
        if l1:
            del x_all
        for method in labels:
            lab = np.concatenate(labels[method])
            w = np.concatenate(weights)
            wsum = np.bincount(lab, weights=w, minlength=k)
            mean = np.divide(dist[method], wsum, out=np.zeros(k), where=wsum > 0) * _unit(street, metric, bins)
            rows["street"] += [street] * k
            rows["method"] += [method] * k
            rows["metric"] += [metric] * k
            rows["bucket"] += list(range(k))
            rows["situations"] += np.bincount(lab, minlength=k).tolist()
            rows["weight"] += wsum.astype(np.int64).tolist()
            rows["distance"] += mean.tolist()
    return rows


def summary(table: pa.Table) -> list[dict[str, Any]]:
    """Per street, metric and method: buckets used, the weighted mean within-bucket distance, sizes."""
    out = []
    d = table.to_pydict()
    keys = sorted({(s, m, me) for s, m, me in zip(d["street"], d["metric"], d["method"])},
                  key=lambda x: (["flop", "turn", "river"].index(x[0]), x[1], x[2]))
    for street, metric, method in keys:
        sel = [i for i in range(len(d["street"]))
               if (d["street"][i], d["metric"][i], d["method"][i]) == (street, metric, method)]
        w = np.array([d["weight"][i] for i in sel], np.float64)
        n = np.array([d["situations"][i] for i in sel], np.int64)
        dist = np.array([d["distance"][i] for i in sel], np.float64)
        mean = float((w * dist).sum() / w.sum()) if w.sum() and not np.isnan(dist).any() else float("nan")
        used = n[n > 0]
        out.append({"street": street, "metric": metric, "method": method, "buckets": int(len(used)),
                    "mean_distance": mean, "smallest": int(used.min()) if len(used) else 0,
                    "median": int(np.median(used)) if len(used) else 0, "largest": int(used.max()) if len(used) else 0})
    return out


def report_files(table: pa.Table, params: dict[str, Any]) -> dict[str, bytes]:
    """``_report.md``, ``_sizes.png`` (bucket sizes by rank) and ``_within.png`` (within-bucket distance)."""
    from ..plots.evolution import line_chart

    rows = summary(table)
    lines = ["# Card abstraction: how tight the buckets are", "",
             f"Parameters: {', '.join(f'{k}={v}' for k, v in params.items())}.", "",
             "Mean within-bucket distance in equity units (weighted by the situations of the deck each canonical "
             "one stands for), for the k-means buckets and for equity-percentile (EHS) buckets at the same k.", "",
             "| street | metric | buckets | k-means | percentile | k-means / percentile | sizes (min / median / max) |",
             "|---|---|---:|---:|---:|---:|---|"]
    by = {(r["street"], r["metric"], r["method"]): r for r in rows}
    for (street, metric, method), r in by.items():
        if method != "kmeans":
            continue
        p = by.get((street, metric, "percentile"))
        pm = p["mean_distance"] if p else float("nan")
        ratio = r["mean_distance"] / pm if pm and pm == pm else float("nan")
        lines.append(f"| {street} | {metric} | {r['buckets']} | {r['mean_distance']:.5f} | {pm:.5f} | {ratio:.3f} | "
                     f"{r['smallest']:,} / {r['median']:,} / {r['largest']:,} |")
    lines += ["", "![bucket sizes](_sizes.png)", "", "![within-bucket distance](_within.png)", ""]
    d = table.to_pydict()
    sizes: dict[str, list[float]] = {}
    within: dict[str, list[float]] = {}
    for street in ("flop", "turn", "river"):
        sel = [i for i in range(len(d["street"])) if d["street"][i] == street and d["method"][i] == "kmeans"
               and d["metric"][i] == METRICS[street][0]]
        if not sel:
            continue
        w = sorted((d["weight"][i] for i in sel), reverse=True)
        total = sum(w) or 1
        sizes[street] = [100.0 * x / total for x in w]
        for method in ("kmeans", "percentile"):
            ds = sorted((d["distance"][i] for i in range(len(d["street"])) if d["street"][i] == street
                         and d["method"][i] == method and d["metric"][i] == METRICS[street][0]), reverse=True)
            within[f"{street} {method}"] = ds
    k = max((len(v) for v in sizes.values()), default=1)
    pad: dict[str, Sequence[float]] = {s: v + [0.0] * (k - len(v)) for s, v in sizes.items()}
    sizes_png = line_chart(list(range(1, k + 1)), pad, "Bucket weight by rank (k-means)", "% of situations")
    kw = max((len(v) for v in within.values()), default=1)
    padded: dict[str, Sequence[float]] = {s: v + [0.0] * (kw - len(v)) for s, v in within.items()}
    within_png = line_chart(list(range(1, kw + 1)), padded, "Within-bucket distance by rank", "mean distance (equity)")
    return {"_report.md": "\n".join(lines).encode(), "_sizes.png": sizes_png, "_within.png": within_png}
