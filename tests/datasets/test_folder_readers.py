"""Issue 40: pandas, polars and DuckDB each open every built dataset's folder as one table, with no glob.

Each registered dataset is built small here (limits, few trials, as the other dataset tests build them) and
read from ``<out>/<name>`` by every tool (:func:`support.readers.read_everywhere`); the datasets whose inputs
must be built whole (the preflop grids, the abstraction) are read the same way where their own modules
build them, and :func:`test_every_registered_dataset_is_read_by_every_tool` checks that
none is left out.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from support.readers import read_everywhere

from pipeline.batch.session import Session
from pipeline.datasets import build_many, dataset, names
from pipeline.datasets.recipes.two_opponents import TwoOpponents

SMALL = {
    "matchups": {"limit": 20},
    "matchups-3way": {"limit": 40, "rows_per_part": 20},
    "preflop-3way": {"limit": 40, "rows_per_part": 20},
    "vs-random": {"opponents": "3,4", "trials": 1000},
    "shortdeck-matchups": {"limit": 30},
    "shortdeck-vs-random": {"opponents": "3", "trials": 1000},
    "odds-table": {},
    "ehs-table/flop": {"limit": 2},
    "ehs-table/turn": {"limit": 2},
    "ehs-table/river": {"limit": 2},
    "holdem-weights/flop": {"limit": 1},
    "holdem-weights/turn": {"limit": 3},
    "holdem-weights/river": {"limit": 6},
    "exploitability": {"hands": 20},
    "videopoker/jacks-or-better-9-6": {},
    "omaha-vs-random": {"limit": 40, "rows_per_part": 20, "trials": 4000, "opponents": [1, 3]},
    "omaha5-vs-random": {"limit": 20, "rows_per_part": 10, "trials": 2000, "opponents": [1]},
}


class FirstChunk(TwoOpponents):
    """``two-opponents`` with the first of its 32 board chunks only (the whole is half a minute of one core):
    the same recipe, schema and folder, one part."""

    def partitions(self, inputs):
        return super().partitions(inputs)[:1]

    def planned_parts(self) -> int:
        return 1


HERE = Path(__file__).parent
# read_everywhere'd by the module that builds them (their inputs are built whole there)
ELSEWHERE = {
    "preflop-grid": HERE.parent / "cli" / "test_cli_jobs.py",
    "shortdeck-preflop-grid": HERE / "test_shortdeck_datasets.py",
    "exploitability-exact": HERE.parent / "exploit" / "test_exact_job.py",
    **{n: HERE / "test_abstraction.py" for n in names() if n.startswith("abstraction/")},
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("readers")
    later = {"exploitability"}     # what reads datasets built here: on a cluster of its own, started once they are
    with Session(2, None, True) as session:
        build_many([*(dataset(n, **p) for n, p in SMALL.items() if n not in later), FirstChunk()], out, session,
                   write_catalog=False)
    # a run's cluster prepares, in the process its workers fork from, the datasets whose inputs are finished when it
    # starts (pipeline.datasets.build.samples); each worker prepares any other for itself: on a fresh kernel cache,
    # both workers compiled the exploitability kernels, 78 s of CPU each on the AMD EPYC Zen 1 of CI
    with Session(2, None, True) as session:      # with the inputs as built above (finished: skipped)
        build_many([dataset(n, **p) for n, p in SMALL.items()], out, session, write_catalog=False)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SMALL))
def test_pandas_polars_and_duckdb_read_the_folder(built: Path, name: str) -> None:
    assert read_everywhere(built, name, **SMALL[name]) > 0


# The Hive-partitioned datasets (``partition_key``): each SMALL build's rows per opponent count, from its
# parameters (169 hold'em hands, 81 short-deck ones, the first ``limit`` Omaha classes at each count)
HIVE = {
    "vs-random": {3: 169, 4: 169},
    "shortdeck-vs-random": {3: 81},
    "omaha-vs-random": {1: 40, 3: 40},
    "omaha5-vs-random": {1: 20},
}


def test_the_hive_datasets_are_these() -> None:
    """Partitioned by opponent count: the datasets whose every part is one count (see docs/datasets.md for
    why ``exploitability`` is not partitioned by policy)."""
    keyed = {n: dataset(n).partition_key for n in names() if dataset(n).partition_key is not None}
    assert keyed == {n: "opponents" for n in HIVE}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HIVE))
def test_every_tool_reads_the_key_from_the_folders(built: Path, name: str) -> None:
    """The folder, no glob: one ``opponents=K`` folder per count, and each tool's ``opponents`` column holds each
    count as many times as the build has rows at it."""
    import duckdb
    import pandas as pd
    import polars as pl

    folder = built / name
    want = HIVE[name]
    assert sorted(p.name for p in folder.iterdir()) == [f"opponents={k}" for k in sorted(want)]
    assert Counter(int(k) for k in pd.read_parquet(folder)["opponents"]) == want
    assert Counter(pl.read_parquet(folder)["opponents"].to_list()) == want
    got = duckdb.sql(f"SELECT opponents, count(*) FROM read_parquet('{folder}') GROUP BY opponents").fetchall()
    assert dict(got) == want


def test_two_opponents_folder(built: Path) -> None:
    assert read_everywhere(built, FirstChunk()) == 169


def test_every_registered_dataset_is_read_by_every_tool() -> None:
    """A dataset added to the registry is read by every tool somewhere: here, or where its inputs are built
    (the video-poker games are one recipe: one game stands for all; so are the streets' Waugh exports)."""
    for name in names():
        if name in SMALL or name == "two-opponents" or name.startswith("videopoker/"):
            continue
        if name in ("abstraction/turn-waugh", "abstraction/river-waugh"):
            name = "abstraction/flop-waugh"                     # one recipe for the three streets' exports
        assert name in ELSEWHERE, f"{name}: no test reads its folder with pandas, polars and DuckDB"
        text = ELSEWHERE[name].read_text()
        assert "read_everywhere" in text and f'"{name}"' in text, (name, ELSEWHERE[name].name)


def test_every_dataset_and_column_is_described() -> None:
    """Each recipe says what it holds in one line, and each column of its schema what the column holds (field
    metadata, as every Arrow reader shows it); a recipe that leaves a column out cannot even be made."""
    import pyarrow as pa

    from pipeline.batch.parquet import column_descriptions, described

    for name in names():
        ds = dataset(name)
        assert ds.description and "\n" not in ds.description, name
        text = column_descriptions(ds.full_schema)
        assert list(text) == ds.schema.names and all(text.values()), (name, text)
    with pytest.raises(ValueError, match="none for"):
        described(pa.schema([("wins", pa.int64()), ("ties", pa.int64())]), {"wins": "boards won"})
