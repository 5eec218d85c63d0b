"""The ``abstraction`` group, small: built through the batch layer, byte-identical whatever the worker count,
resumable, refused with other parameters, looked up by ``pokerpipe bucket``."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pytest
from support.layout import manifest, meta, parts, side
from support.readers import read_everywhere

from pipeline.abstraction.lookup import AbstractionError, situation
from pipeline.abstraction.streets import NO_BUCKET
from pipeline.batch.session import Session
from pipeline.datasets import DatasetError, dataset, read
from pipeline.datasets import load_abstraction as load
from pipeline.datasets.build import build_many
from pipeline.isomorphism.situations import situation_cards
from pipeline.isomorphism.waugh import holdem_indexer, situations_of

pytestmark = pytest.mark.slow      # the whole module: its module fixture builds the abstraction (19 s)

K, LIMIT = 6, 12
WAUGH = {"flop": 1_286_792, "turn": 13_960_050, "river": 123_156_254}    # canonical situations a street
STREET_NAMES = ["abstraction/river", "abstraction/turn", "abstraction/flop", "abstraction/river-centroids",
                "abstraction/turn-centroids", "abstraction/flop-centroids"]
STREET_PARAMS = {n: {"k": K, "limit": LIMIT} for n in STREET_NAMES}
PARAMS = {**STREET_PARAMS, "abstraction/report": {"k": K, "limit": LIMIT}}
FLOP_PARAMS = {n: STREET_PARAMS[n] for n in ("abstraction/flop", "abstraction/flop-centroids",
                                             "abstraction/turn-centroids")}
TABLES = ["tables", "abstraction", *[a for n in [*STREET_NAMES, "abstraction/report"]
                                     for a in ("--param", f"{n}.k={K}", "--param", f"{n}.limit={LIMIT}")]]


def pokerpipe(*args: str, **kw: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=900,
                          **kw)  # type: ignore[call-overload]


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and (p.suffix in (".parquet", ".npy", ".png", ".md") or p.name == "_clusters.json")}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("abstraction") / "one"
    with Session(1, None, True) as s:
        build_many(["abstraction/report"], str(out), s, params=PARAMS)
    return out


@pytest.mark.slow
def test_every_dataset_is_built_in_order_with_its_side_outputs(built: Path) -> None:
    for name in ("preflop", "river-centroids", "river", "turn-centroids", "turn", "flop-centroids", "flop"):
        assert manifest(built, f"abstraction/{name}").is_file(), name
    for street in ("river", "turn", "flop"):
        for file in ("_buckets.npy", "_centroids.npy", "_distances.npy"):
            assert side(built, f"abstraction/{street}", file).is_file()
        d = np.load(side(built, f"abstraction/{street}", "_distances.npy"))
        assert d.shape == (K, K) and (np.diag(d) == 0).all() and (d == d.T).all()
        # _buckets.npy, folded in as the parts were written: the table's buckets at their situations, nothing
        # elsewhere, one per canonical situation of the street (Waugh 2013's counts)
        dense = np.load(side(built, f"abstraction/{street}", "_buckets.npy"))
        table = read(f"abstraction/{street}", str(built), k=K, limit=LIMIT)
        index, bucket = table.column("index").to_numpy(), table.column("bucket").to_numpy()
        assert dense.shape == (WAUGH[street],) and dense.dtype == np.uint16
        assert (dense[index] == bucket).all() and (dense != NO_BUCKET).sum() == len(index) > 0
    report = "abstraction/report"
    assert side(built, report, "_report.md").is_file()
    assert side(built, report, "_sizes.png").read_bytes()[:4] == b"\x89PNG"
    river = read("abstraction/river", str(built), k=K, limit=LIMIT)
    assert river.schema.field("bucket").type == "uint16"
    assert set(river.column("bucket").to_numpy().tolist()) == set(range(K))
    flop = read("abstraction/flop", str(built), k=K, limit=LIMIT)
    tb = np.array(flop.column("turn_buckets").to_pylist())
    assert tb.shape[1] == 47 and (np.diff(tb, axis=1) >= 0).all() and tb.max() < K


@pytest.mark.slow
def test_every_tool_reads_the_folders(built: Path) -> None:
    """pandas, polars and DuckDB open each abstraction folder as one table, no glob (issue 40); no folder holds
    another dataset's ("abstraction/report" is not "abstraction")."""
    built_names = [n for n in PARAMS if n.startswith("abstraction/")] + ["abstraction/preflop"]
    for name in built_names:
        assert read_everywhere(built, name, **PARAMS.get(name, {})) > 0


def test_the_fit_records_a_non_increasing_objective(built: Path) -> None:
    for street in ("river", "turn", "flop"):
        fit = json.loads(side(built, f"abstraction/{street}-centroids", "_fit.json").read_text())
        obj = fit["objective"]
        assert len(obj) == fit["iterations"] + 1
        assert all(b <= a * (1 + 1e-12) for a, b in zip(obj, obj[1:]))


def test_potential_aware_buckets_are_tighter_than_percentile_buckets(built: Path) -> None:
    report = read("abstraction/report", str(built), k=K, limit=LIMIT).to_pydict()
    mean: dict[tuple[str, str, str], float] = {}
    for key in {(s, m, me) for s, m, me in zip(report["street"], report["metric"], report["method"])}:
        sel = [i for i in range(len(report["street"]))
               if (report["street"][i], report["metric"][i], report["method"][i]) == key]
        w = np.array([report["weight"][i] for i in sel], float)
        mean[key] = float((w * np.array([report["distance"][i] for i in sel])).sum() / w.sum())
    for street, metric in (("flop", "potential"), ("flop", "emd"), ("turn", "emd")):
        assert mean[(street, metric, "kmeans")] < mean[(street, metric, "percentile")]
    text = side(built, "abstraction/report", "_report.md").read_text()
    assert "| flop | potential |" in text and "| turn | emd |" in text


def test_preflop_classes_and_the_shipped_clusters(built: Path) -> None:
    """The exact all-in equity of AA, 72o and 32o against a random hand (85.2037%, 34.5836%, 32.3032%, the
    published figures) from the one pass over the river boards; the shipped clusters are that pass's."""
    from importlib import resources

    from pipeline.abstraction.ochs import class_combo_counts
    from pipeline.core.hand_classes import CLASS_INDEX

    t = read("abstraction/preflop", str(built)).to_pydict()
    for label, want in (("AA", 0.852037), ("72o", 0.345836), ("32o", 0.323032)):
        assert t["equity"][CLASS_INDEX[label]] == pytest.approx(want, abs=5e-7)
    assert (np.array(t["histogram"]).sum(axis=1) == class_combo_counts() * 2_118_760).all()
    doc = json.loads(resources.files("pipeline.abstraction").joinpath("data/ochs_clusters.json").read_text())
    assert doc["cluster_of_class"] == t["ochs_cluster"]
    assert sorted(set(t["ochs_cluster"])) == list(range(8))
    clusters = json.loads(side(built, "abstraction/preflop", "_clusters.json").read_text())["clusters"]
    assert clusters[0][:3] == ["AA", "KK", "QQ"] and sum(map(len, clusters)) == 169


@pytest.mark.slow
def test_identical_bytes_with_two_workers_and_resume(built: Path, tmp_path: Path) -> None:
    import shutil

    other = tmp_path / "two"
    for folder in (parts, meta):                                                            # one part, no fan-out
        shutil.copytree(folder(built, "abstraction/preflop"), folder(other, "abstraction/preflop"))
    with Session(2, None, True) as s:
        build_many(["abstraction/flop", "abstraction/turn"], str(other), s,    # the river is built as the turn is
                   params={k: v for k, v in STREET_PARAMS.items() if "river" not in k})
    mine = files(built / "abstraction")
    theirs = files(other / "abstraction")
    assert theirs and all(mine[name] == data for name, data in theirs.items())
    part = other / "abstraction" / "turn-centroids" / "part-00000.parquet"
    (other / "abstraction" / "flop" / "part-00000.parquet").unlink()
    with Session(1, None, True) as s:
        reports = build_many(["abstraction/flop"], str(other), s, params=FLOP_PARAMS, write_catalog=False)
    assert [r.computed for r in reports if r.name == "abstraction/flop"] == [1]
    assert part.is_file() and files(other / "abstraction") == theirs


def test_lookups_equal_the_rows_and_ignore_suits_and_order(built: Path) -> None:
    ab = load(built, K, seed=0)
    for street, m in (("river", 5), ("turn", 4), ("flop", 3)):
        t = read(f"abstraction/{street}", str(built), k=K, limit=LIMIT, columns=["index", "bucket", "equity"])
        idx, bucket = t.column("index").to_numpy(), t.column("bucket").to_numpy()
        assert (ab.buckets(idx, street) == bucket).all()
        for row in (0, len(idx) // 2, len(idx) - 1):
            hole, board = situation_cards(int(idx[row]), m)
            assert ab.bucket(hole, board) == bucket[row] == ab.bucket_of_index(street, int(idx[row]))
            swap = [4 * (c >> 2) + (3 - (c & 3)) for c in hole]          # clubs <-> spades, diamonds <-> hearts
            swap_board = [4 * (c >> 2) + (3 - (c & 3)) for c in board][::-1]
            assert ab.bucket(swap[::-1], swap_board) == bucket[row]
            assert situation(hole, board).equity == pytest.approx(t.column("equity")[row].as_py(), abs=1e-12)
    with pytest.raises(AbstractionError, match="k=6"):
        load(built, 256)


@pytest.mark.parametrize("params", [{"k": 0}, {"k": 50_001}, {"bins": 1}, {"seed": -1}, {"limit": 0},
                                    {"k": "many"}])
def test_bad_parameters_are_one_line(params: dict) -> None:
    with pytest.raises(DatasetError):
        dataset("abstraction/turn", **params)


@pytest.mark.slow
def test_inputs_planned_with_other_parameters_are_refused(tmp_path: Path) -> None:
    params = {"abstraction/flop": {"k": K, "limit": 2}, "abstraction/flop-centroids": {"k": K, "limit": 2},
              "abstraction/turn-centroids": {"k": K + 1, "limit": 2}}
    with Session(1, None, True) as s, pytest.raises(DatasetError, match="same k"):
        build_many(["abstraction/flop"], str(tmp_path), s, params=params)


@pytest.mark.slow
def test_bucket_cli(built: Path, tmp_path: Path) -> None:
    t = read("abstraction/turn", str(built), k=K, limit=LIMIT, columns=["index", "bucket", "histogram"])
    hole, board = situation_cards(int(t.column("index")[3].as_py()), 4)
    from pipeline.core.cards import format_cards

    r = pokerpipe("bucket", format_cards(hole), "--board", format_cards(board), "--out", str(built), "--k", str(K),
                  "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert (doc.pop("pokerpipe"), doc.pop("seed")) == (version("pokerpipe"), 0)   # every --json answer's head
    assert set(doc) == {"street", "index", "waugh_index", "bucket", "buckets", "equity", "histogram", "ochs"}
    assert doc["waugh_index"] == holdem_indexer("turn").index(hole + board)
    assert doc["street"] == "turn" and doc["bucket"] == t.column("bucket")[3].as_py() and doc["buckets"] == K
    assert doc["histogram"] == t.column("histogram")[3].as_py() and doc["ochs"] is None
    r = pokerpipe("bucket", "AsKd", "--board", "QhJc2d3s7h", "--out", str(tmp_path), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["bucket"] is None
    assert len(json.loads(r.stdout)["ochs"]) == 8 and len(r.stderr.strip().splitlines()) == 1
    for bad in (["AsKd", "--board", "Qh"], ["AsKd", "--board", "QhJc2d3s7h6c"], ["AsKd", "--board", "AsJc2d"],
                ["AsKd", "--board", "QhJc2d", "--out", str(built)], ["AsKd", "--board", "QhJc2d", "--bins", "1"],
                ["AsKd", "--board", "QhQh2d"]):
        r = pokerpipe("bucket", *bad)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, bad


@pytest.mark.slow
def test_tables_refuses_more_buckets_than_situations(tmp_path: Path) -> None:
    r = pokerpipe("tables", "abstraction/turn-centroids", "--param", "abstraction/turn-centroids.k=5000",
                  "--param", "abstraction/turn-centroids.limit=1", "--out", str(tmp_path), "--workers", "1", "-q")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "5000" in r.stderr, r.stderr


@pytest.mark.slow
def test_buckets_keyed_by_waughs_index(built: Path, tmp_path: Path) -> None:
    """The flop export: every Waugh index's bucket is the abstraction's bucket of that hand; the file is the
    Parquet rows; the preflop export is the 169 classes; resumed, nothing is computed again."""
    from pipeline.abstraction.waugh_file import FILE_NAME
    from pipeline.datasets import load_waugh_buckets

    names = ["abstraction/preflop-waugh", "abstraction/flop-waugh"]
    with Session(1, None, True) as s:
        build_many(names, str(built), s, params=FLOP_PARAMS | {"abstraction/flop-waugh": {"k": K, "limit": LIMIT}},
                   write_catalog=False)
        again = build_many(names, str(built), s, params=FLOP_PARAMS | {"abstraction/flop-waugh": {"k": K,
                                                                                               "limit": LIMIT}},
                           write_catalog=False)
    assert sum(r.computed for r in again) == 0
    flop = load_waugh_buckets(built, "flop", K)
    ab = load(built, K, seed=0)
    assert (flop.buckets == ab.buckets(situations_of("flop", np.arange(1_286_792)), "flop")).all()
    assert (flop.buckets != 65535).sum() == (ab.streets["flop"].array != 65535).sum() > 0
    hands = np.random.RandomState(4).random_sample((2000, 52)).argsort(axis=1)[:, :5]
    for cards in hands[:200].tolist():
        bucket = ab.bucket(cards[:2], cards[2:])
        assert flop.bucket(holdem_indexer("flop").index(cards)) == (65535 if bucket is None else bucket)
    rows = read("abstraction/flop-waugh", str(built), k=K, limit=LIMIT)
    assert (rows.column("index").to_numpy() == np.arange(1_286_792)).all()
    assert read_everywhere(built, "abstraction/flop-waugh", k=K, limit=LIMIT) == 1_286_792   # one recipe for
    assert read_everywhere(built, "abstraction/preflop-waugh") == 169                      # every street's export
    assert (rows.column("bucket").to_numpy() == flop.buckets).all()
    pre = load_waugh_buckets(built, "preflop")
    table = read("abstraction/preflop-waugh", str(built)).to_pydict()
    assert pre.k == 169 and sorted(pre.buckets.tolist()) == list(range(169)) == sorted(table["bucket"])
    assert table["class"][holdem_indexer("preflop").index("AsKs")] == "AKs" and pre.bucket(168) == 1
    with pytest.raises(AbstractionError, match="k=6"):
        load_waugh_buckets(built, "flop", 256)
    with pytest.raises(AbstractionError, match="not built"):
        load_waugh_buckets(built, "turn", K)
    f = side(built, "abstraction/flop-waugh", FILE_NAME)
    f.write_bytes(f.read_bytes()[:-1] + b"\x00")
    with pytest.raises(AbstractionError, match="damaged"):
        load_waugh_buckets(built, "flop", K)
    r = pokerpipe("bucket", "AhKh", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc.pop("pokerpipe") == version("pokerpipe")      # every --json answer's head
    assert doc == {"street": "preflop", "class": "AKs", "index": doc["index"], "waugh_index": 168, "bucket": 1,
                   "buckets": 169, "equity": pytest.approx(0.670446, abs=5e-7)}
    r = pokerpipe("bucket", "7h2d")
    assert r.returncode == 0 and "72o" in r.stdout and "0.345836" in r.stdout and "163 of 169" in r.stdout
