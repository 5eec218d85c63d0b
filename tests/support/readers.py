"""A built dataset's folder read as one table by the tools the field uses — pandas, polars, DuckDB and pyarrow —
each given the folder itself, no glob (issue 40): what a user who never heard of pokerpipe types first."""
from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as pads

from pipeline.batch.parquet import column_descriptions
from pipeline.batch.spec import Dataset
from pipeline.datasets import dataset, read


def read_everywhere(out: str | os.PathLike[str], name: str | Dataset, **params: object) -> int:
    """The rows of the built dataset ``name`` (or recipe) under ``out``, read from its folder by pandas, polars,
    DuckDB and pyarrow, each asserted to give the verified table's rows and columns, and the folder's schema
    every column's description; the row count.

    A Hive-partitioned dataset (``partition_key``) is read the same way, no glob: each tool gives the key
    column last, from the folders' names — pandas as a category, polars Int64, DuckDB BIGINT — and each row
    the key of the verified table's row (pandas and DuckDB compared row by row, polars per key); the key has
    no description in the files (it is not in them), every other column has its own."""
    ds = name if isinstance(name, Dataset) else dataset(name, **params)
    folder = Path(out, ds.name)
    assert "*" not in str(folder) and folder.is_dir()
    verified = read(ds, out)
    name = ds.name
    key = ds.partition_key
    rows, columns = verified.num_rows, verified.column_names
    if key is not None:
        columns = [c for c in columns if c != key] + [key]
        assert sorted(p.name for p in folder.iterdir()) == \
            sorted({f"{key}={v}" for v in verified.column(key).to_pylist()}), ("folders", name)
    frame = pd.read_parquet(folder)
    assert (len(frame), list(frame.columns)) == (rows, columns), ("pandas", name)
    table = pl.read_parquet(folder)
    assert (table.height, table.columns) == (rows, columns), ("polars", name)
    relation = duckdb.sql(f"SELECT * FROM read_parquet('{folder}')")      # DuckDB >= 2 reads a folder
    ((count,),) = duckdb.sql(f"SELECT count(*) FROM read_parquet('{folder}')").fetchall()
    assert (count, relation.columns) == (rows, columns), ("duckdb", name)
    if key is not None:
        _same_keys(verified, key, frame, table, relation, name)
    schema = pads.dataset(folder, format="parquet").schema
    described = column_descriptions(schema)
    want = {c: d for c, d in column_descriptions(ds.schema).items() if c != key}
    assert described == want and all(described.values()), ("descriptions", name)
    if key is not None:                 # the key is in the paths: each file's schema metadata describes it
        import json

        about = json.loads(schema.metadata[b"pokerpipe.partition_key"])
        assert about["column"] == key and about["description"] == column_descriptions(ds.schema)[key], name
        assert about["description"] and about["type"] == str(ds.schema.field(key).type), name
    return rows


def _same_keys(verified: pa.Table, key: str, frame: pd.DataFrame, table: pl.DataFrame,
               relation: duckdb.DuckDBPyRelation, name: str) -> None:
    """Each tool's key column holds the verified table's: pandas a category and DuckDB a BIGINT, in the
    verified table's row order (the folders' names sort as the numbers do below 10), polars Int64 with the
    same rows per key."""
    want = verified.column(key).to_pylist()
    assert isinstance(frame[key].dtype, pd.CategoricalDtype), ("pandas key", name)
    assert [int(v) for v in frame[key]] == want, ("pandas key", name)
    assert table.schema[key] == pl.Int64, ("polars key", name)
    assert Counter(table[key].to_list()) == Counter(want), ("polars key", name)
    assert str(relation.types[relation.columns.index(key)]) == "BIGINT", ("duckdb key", name)
    assert [v for (v,) in relation.select(key).fetchall()] == want, ("duckdb key", name)
