"""The three-way datasets through the batch layer: limited smoke builds, workers, resume, bad input."""
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.batch.session import Session
from pipeline.datasets import read
from pipeline.datasets.build import build_many
from pipeline.datasets.recipes.threeway import three_way_table
from pipeline.equity import equity

LIMIT = 60
PARAMS = {"matchups-3way": {"limit": LIMIT, "rows_per_part": 20}, "preflop-3way": {"limit": LIMIT, "rows_per_part": 20}}


def files(root: Path) -> dict[str, bytes]:
    """The parts under ``root`` (manifests and the catalog hold times)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("three")
    with Session(1, None, True) as s:
        build_many(["preflop-3way"], str(out), s, params=PARAMS)
    return out


@pytest.mark.slow
def test_rows_and_sums(built):
    t = read("matchups-3way", str(built), **PARAMS["matchups-3way"])
    assert t.num_rows == LIMIT and t.column("hand1")[0].as_py() == "AsAh" and t.column("hand2")[0].as_py() == "AdAc"
    for row in t.to_pylist():
        assert sum(row["shares3"]) <= 1_370_754 and row["weight"] in (1, 2, 3, 4, 6, 8, 12, 24)
    p = read("preflop-3way", str(built), **PARAMS["preflop-3way"])
    first = p.to_pylist()[0]
    assert (first["class1"], first["class2"], first["class3"], first["combos"]) == ("AA", "AA", "KK", 36)
    assert first["shares1"] == first["shares2"]            # the two aces' seats sum the same deals
    assert first["equity1"] + first["equity2"] + first["equity3"] == pytest.approx(1.0, abs=1e-12)
    # the AA AA KK row against the enumeration: all of its triples are among the first ones
    r = equity(["AA", "AA", "KK"], table=False, exact=True, threads=1)
    assert [first[f"shares{i}"] for i in (1, 2, 3)] == [q.shares for q in r.players]
    table = three_way_table(p)
    assert equity(["AA", "KK", "AA"], three_way=table).players[1].shares == first["shares3"]


@pytest.mark.slow
def test_identical_bytes_with_two_workers_and_resume(built, tmp_path):
    other = tmp_path / "two"
    with Session(2, None, True) as s:
        build_many(["preflop-3way"], str(other), s, params=PARAMS)
    assert files(other) == files(built)
    (other / "matchups-3way" / "part-00001.parquet").unlink()
    with Session(1, None, True) as s:
        reports = build_many(["preflop-3way"], str(other), s, params=PARAMS, write_catalog=False)
    assert [r.computed for r in reports] == [1, 0]
    assert files(other) == files(built)


@pytest.mark.parametrize("args, message", [
    (["tables", "matchups-3way", "--param", "matchups-3way.limit=0"], "matchups-3way.limit"),
    (["equity", "AA", "AA", "AA"], "no deal is possible"),
    (["equity", "AhAs", "AA", "AA"], "no deal is possible"),
])
def test_bad_input_is_one_line(tmp_path: Path, args, message):
    p = subprocess.run([sys.executable, "-m", "jobs", *args, "--out", str(tmp_path)] if args[0] == "tables"
                       else [sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and message in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
