"""Issue 40: Hive-style partition folders, and no temporary file among the parts.

A dataset with a partition key (:attr:`Dataset.partition_key`) has its parts in ``<key>=<value>/`` folders, the
column in the path only: pandas, polars and DuckDB read the folder as one table with the column from the path,
pokerpipe's reader puts it back typed as the schema says.  The tiny recipe :class:`support.tiny_datasets.Keyed`
has 7 parts of 3 rows, part ``j`` holding ``i = 3j .. 3j+2`` and ``k = j // 3 + 1``: every row has
``k = i // 9 + 1``, the values the tests expect, computed here from ``i``.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from support.layout import manifest, meta, parts, record, side
from support.tiny_datasets import Keyed

from pipeline.batch.runner import RunnerError
from pipeline.batch.storage import StorageError
from pipeline.datasets import DatasetError, build, is_built, read

NAME = "keyed"
FILES = [f"k={j // 3 + 1}/part-{j:05d}.parquet" for j in range(7)]


def tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path) with its SHA-256."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hive")
    report = build(Keyed(), out, workers=2)
    assert report.rows == 21 and report.bytes == sum(p.stat().st_size for p in parts(out, NAME).rglob("*.parquet"))
    return out


def test_parts_lie_in_key_folders_without_the_key_column(reference: Path) -> None:
    folder = parts(reference, NAME)
    assert sorted(tree(folder)) == sorted(FILES)
    built = is_built(Keyed(), reference)                                 # what ``pokerpipe datasets`` shows
    assert built is not None and built["rows"] == 21
    assert sum(p["bytes"] for p in built["parts"]) == sum((folder / f).stat().st_size for f in FILES)
    assert sorted(p.name for p in folder.iterdir()) == ["k=1", "k=2", "k=3"]
    m = json.loads(manifest(reference, NAME).read_text())
    assert [p["file"] for p in m["parts"]] == FILES and m["rows"] == 21
    assert json.loads(record(reference, NAME, 4).read_text())["file"] == "k=2/part-00004.parquet"
    assert pq.read_schema(folder / FILES[0]).names == ["i", "label"]
    assert not (meta(reference, NAME) / "_writing").exists()          # a finished run leaves no staging folder


def test_every_reader_gets_the_key_from_the_path(reference: Path) -> None:
    folder = parts(reference, NAME)
    frame = pd.read_parquet(folder)
    assert list(frame.columns) == ["i", "label", "k"] and len(frame) == 21
    assert isinstance(frame["k"].dtype, pd.CategoricalDtype)                 # pandas: a category
    assert all(int(k) == i // 9 + 1 for i, k in zip(frame["i"], frame["k"]))
    table = pl.read_parquet(folder)
    assert table.schema["k"] == pl.Int64 and table.columns == ["i", "label", "k"]
    assert all(k == i // 9 + 1 for i, k in zip(table["i"].to_list(), table["k"].to_list()))
    rel = duckdb.sql(f"SELECT i, k FROM read_parquet('{folder}') ORDER BY i")
    assert [str(t) for t in rel.types] == ["BIGINT", "BIGINT"]
    assert rel.fetchall() == [(i, i // 9 + 1) for i in range(21)]


def test_pokerpipe_reads_the_key_back_in_its_place_and_type(reference: Path) -> None:
    t = read(Keyed(), reference)
    assert t.schema.names == ["k", "i", "label"] and t.schema.field("k").type == pa.int64()
    assert t.column("k").to_pylist() == [i // 9 + 1 for i in range(21)]
    assert t.column("i").to_pylist() == list(range(21))
    some = read(Keyed(), reference, columns=["i", "k"])
    assert some.column_names == ["i", "k"] and some.column("k").to_pylist() == [i // 9 + 1 for i in range(21)]
    assert read(Keyed(), reference, columns=["label"]).column_names == ["label"]
    alone = read(Keyed(), reference, columns=["k"])                     # no column of the files: rows from them
    assert alone.column_names == ["k"] and alone.column("k").to_pylist() == [i // 9 + 1 for i in range(21)]


def test_a_side_output_reads_the_key_back(tmp_path: Path) -> None:
    build(Keyed(side=True), tmp_path, workers=1)
    doc = json.loads(side(tmp_path, NAME, "_k.json").read_text())
    assert doc == {"columns": ["i", "k"], "k": [i // 9 + 1 for i in range(21)], "type": "int64"}


def test_the_same_bytes_with_one_worker_and_resume_from_the_key_folders(reference: Path, tmp_path: Path) -> None:
    r = build(Keyed(), tmp_path, workers=1)
    assert r.computed == 7 and tree(parts(tmp_path, NAME)) == tree(parts(reference, NAME))
    folder = parts(tmp_path, NAME)
    (folder / FILES[4]).unlink()
    manifest(tmp_path, NAME).unlink()                                        # as after a crash
    (folder / "k=1" / "part-00006.parquet").write_bytes((folder / FILES[6]).read_bytes())   # a part misplaced
    (folder / FILES[6]).unlink()
    r = build(Keyed(), tmp_path, workers=1)
    assert r.computed == 2 and tree(folder) == tree(parts(reference, NAME))   # the stray one removed
    assert build(Keyed(), tmp_path, workers=1).computed == 0


def test_other_parameters_leave_no_empty_key_folder(tmp_path: Path) -> None:
    build(Keyed(), tmp_path, workers=1)
    r = build(Keyed(n=2), tmp_path, workers=1)
    assert r.computed == 2 and sorted(tree(parts(tmp_path, NAME))) == FILES[:2]
    assert sorted(p.name for p in parts(tmp_path, NAME).iterdir()) == ["k=1"]


def test_a_flat_build_is_carried_over_without_recomputing(reference: Path, tmp_path: Path) -> None:
    """A folder built before the dataset declared its key (the same recipe and parameters, parts flat with
    the column in them) is rewritten into the key folders by the next run: nothing computed, and the very
    bytes a fresh build writes."""
    build(Keyed(hive=False), tmp_path, workers=1)
    folder = parts(tmp_path, NAME)
    assert sorted(tree(folder)) == [f"part-{j:05d}.parquet" for j in range(7)]
    assert pq.read_schema(folder / "part-00000.parquet").names == ["k", "i", "label"]
    with pytest.raises(DatasetError, match=r"not a finished run \(its manifest entry 0 is not "
                                           r"k=<value>/part-00000.parquet .*build it again") as e:
        read(Keyed(), tmp_path)                                                # the reader: one line
    assert "\n" not in str(e.value)
    r = build(Keyed(), tmp_path, workers=1)
    assert r.computed == 0 and r.rows == 21
    assert tree(folder) == tree(parts(reference, NAME))
    assert json.loads(manifest(tmp_path, NAME).read_text())["parts"] == \
        json.loads(manifest(reference, NAME).read_text())["parts"]
    assert read(Keyed(), tmp_path).column("k").to_pylist() == [i // 9 + 1 for i in range(21)]


def test_a_damaged_flat_part_is_computed_again(reference: Path, tmp_path: Path) -> None:
    build(Keyed(hive=False), tmp_path, workers=1)
    part = parts(tmp_path, NAME) / "part-00003.parquet"
    part.write_bytes(part.read_bytes()[:-4])
    r = build(Keyed(), tmp_path, workers=1)
    assert r.computed == 1 and tree(parts(tmp_path, NAME)) == tree(parts(reference, NAME))


def test_a_partition_value_that_disagrees_with_the_rows_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(RunnerError, match=r"k=2/part-00000.parquet holds rows with k \[1\], not only 2") as e:
        build(Keyed(lie=True), tmp_path, workers=1)
    assert "\n" not in str(e.value)


def test_a_key_folder_that_is_a_link_is_refused(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(Keyed(), out, workers=1)
    elsewhere = tmp_path / "elsewhere"
    os.rename(parts(out, NAME) / "k=2", elsewhere)
    os.symlink(elsewhere, parts(out, NAME) / "k=2")
    with pytest.raises((RunnerError, StorageError), match="k=2 is a symbolic link"):
        build(Keyed(), out, workers=1)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["part-00003.parquet", "part-00004.parquet",
                                                            "part-00005.parquet"]   # untouched


KILLED_WRITE = """
import os, sys
import pyarrow as pa
sys.path.insert(0, sys.argv[2])
from support.tiny_datasets import Keyed
from pipeline.batch import parts
from pipeline.batch.storage import Storage
from pipeline.core import files
def killed(*args):
    os._exit(9)                       # as kill -9 between the temporary's last byte and its rename
files.os.replace = killed
d = Keyed()
parts._write(d, 4, "k=2/part-00004.parquet", d.compute((4, 2)), Storage(sys.argv[1]))
"""


def test_a_killed_write_leaves_nothing_among_the_parts(reference: Path, tmp_path: Path) -> None:
    """A part's temporary is written beside the parts folder, in ``<name>.meta/_writing``: a write killed
    midway leaves the folder readable by every tool, and the next run removes the temporary."""
    out = tmp_path / "out"
    build(Keyed(), out, workers=1)
    p = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(out), str(Path(__file__).parents[1])],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 9, p.stderr
    (left,) = list((meta(out, NAME) / "_writing").iterdir())
    assert left.name.startswith(".part-00004.parquet.") and left.name.endswith(".tmp") and left.stat().st_size > 0
    folder = parts(out, NAME)
    assert tree(folder) == tree(parts(reference, NAME))                     # nothing else among the parts
    assert len(pd.read_parquet(folder)) == 21 and pl.read_parquet(folder).height == 21
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{folder}')").fetchall() == [(21,)]
    assert build(Keyed(), out, workers=1).computed == 0
    assert not (meta(out, NAME) / "_writing").exists()


def test_a_staging_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    """``<name>.meta/_writing`` planted as a link: the run stops in one line and deletes nothing through it."""
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    (outside / ".part-00000.parquet.1.2.tmp").write_bytes(b"mine")
    meta(out, NAME).mkdir(parents=True)
    os.symlink(outside, meta(out, NAME) / "_writing")
    with pytest.raises((RunnerError, StorageError), match="_writing.* is a symbolic link") as e:
        build(Keyed(), out, workers=1)
    assert "\n" not in str(e.value) and (outside / ".part-00000.parquet.1.2.tmp").read_bytes() == b"mine"
