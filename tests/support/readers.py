"""A built dataset's folder read as one table by the tools the field uses — pandas, polars, DuckDB and pyarrow —
each given the folder itself, no glob (issue 40): what a user who never heard of pokerpipe types first."""
from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow.dataset as pads

from pipeline.batch.parquet import column_descriptions
from pipeline.batch.spec import Dataset
from pipeline.datasets import dataset, read


def read_everywhere(out: str | os.PathLike[str], name: str | Dataset, **params: object) -> int:
    """The rows of the built dataset ``name`` (or recipe) under ``out``, read from its folder by pandas, polars,
    DuckDB and pyarrow, each asserted to give the verified table's rows and columns, and the folder's schema
    every column's description; the row count."""
    ds = name if isinstance(name, Dataset) else dataset(name, **params)
    folder = Path(out, ds.name)
    assert "*" not in str(folder) and folder.is_dir()
    verified = read(ds, out)
    name = ds.name
    rows, columns = verified.num_rows, verified.column_names
    frame = pd.read_parquet(folder)
    assert (len(frame), list(frame.columns)) == (rows, columns), ("pandas", name)
    table = pl.read_parquet(folder)
    assert (table.height, table.columns) == (rows, columns), ("polars", name)
    relation = duckdb.sql(f"SELECT * FROM read_parquet('{folder}')")      # DuckDB >= 2 reads a folder
    ((count,),) = duckdb.sql(f"SELECT count(*) FROM read_parquet('{folder}')").fetchall()
    assert (count, relation.columns) == (rows, columns), ("duckdb", name)
    schema = pads.dataset(folder, format="parquet").schema
    described = column_descriptions(schema)
    assert described == column_descriptions(ds.schema) and all(described.values()), ("descriptions", name)
    return rows
