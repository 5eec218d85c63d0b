"""Hive-style partition folders: a dataset's key column in the path of its parts, not in their files.

A dataset whose every part holds one value of an integer column (``vs-random``:
one opponent count a part) may declare that column its
:attr:`~pipeline.batch.spec.Dataset.partition_key`, and say each partition's
value (:meth:`~pipeline.batch.spec.Dataset.partition_value`).  Its parts then
lie in ``<out>/<name>/<key>=<value>/part-NNNNN.parquet`` (:func:`.verified.part_file`)
and each file holds every column but the key: pyarrow (so pandas), polars and
DuckDB read the folder as one table with the key column taken from the path —
pandas as a category, polars as Int64, DuckDB as BIGINT — with no glob.  A file
that held the column as well would be refused (pyarrow: "Unable to merge:
Field opponents has incompatible types"), hence the column lives in the path
only, and described in each file's schema metadata instead (:data:`PARTITION_KEY`).
pokerpipe's own readers put it back, typed as the schema says and where
the schema has it (:func:`restored`), so that a verified read gives the very
table the recipe computed.

The batch layer knows no poker: a column name, and an integer per partition.
Only integers: their text in a path is one canonical name per value that every
reader types alike; free text would have to be escaped in folder names, could
outgrow one (255 bytes), and when every value happened to be digits would be
read back as a number.
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

import numpy as np
import pyarrow as pa

from ..core.arrow import column
from .parquet import DESCRIPTION
from .spec import Dataset
from .verified import part_file, part_name

_FILE = re.compile(r"^([a-z_][a-z0-9_]*)=(0|-?[1-9][0-9]{0,18})/(part-[0-9]{5,}\.parquet)$")


def key_of(dataset: Dataset) -> Optional[str]:
    """``dataset``'s partition key if it has one that is an integer column of its schema, None if it has none;
    ValueError in one line for a key that is not such a column (a recipe's mistake, found before any work)."""
    key = dataset.partition_key
    if key is None:
        return None
    if key not in dataset.schema.names or not pa.types.is_integer(dataset.schema.field(key).type):
        raise ValueError(f"{dataset.name}: partition key {key!r} is not an integer column of its schema")
    return key


def file_of(dataset: Dataset, index: int, partition: Any) -> str:
    """Where part ``index`` (computing ``partition``) lies inside the dataset's folder (:func:`.verified.part_file`)."""
    key = key_of(dataset)
    return part_file(index, key, None if key is None else dataset.partition_value(partition))


def value_of(dataset: Dataset, file: str) -> Optional[int]:
    """The key's value of the part ``file`` as :func:`file_of` names it; None when the dataset has no key or
    ``file`` is not in one of its key's folders."""
    m = _FILE.match(file)
    return int(m[2]) if m and m[1] == dataset.partition_key else None


def is_file_of(dataset: Dataset, file: Any, index: int) -> bool:
    """Whether ``file`` (a manifest entry's, read from disk) names part ``index`` where this dataset's layout
    puts parts: ``part-NNNNN.parquet``, or in a ``<key>=<integer>`` folder of its key, written canonically (no
    ``+``, no leading zero: the folder each value has one name)."""
    if not isinstance(file, str):
        return False
    if key_of(dataset) is None:
        return file == part_name(index)
    m = _FILE.match(file)
    return m is not None and m[1] == dataset.partition_key and m[3] == part_name(index)


PARTITION_KEY = b"pokerpipe.partition_key"     # a part file's schema metadata: the key column its path holds


def file_schema(dataset: Dataset) -> pa.Schema:
    """The schema of the dataset's part files: its full schema (metadata included) without the key column, and
    that column described in the schema's metadata instead (:data:`PARTITION_KEY`: its name, type and
    description as JSON), so that a part read alone still says what every column of the table holds."""
    schema = dataset.full_schema
    key = key_of(dataset)
    if key is None:
        return schema
    field = schema.field(key)
    about = {"column": key, "type": str(field.type), "folders": f"{key}=<value>",
             "description": (field.metadata or {}).get(DESCRIPTION, b"").decode()}
    stripped = schema.remove(schema.get_field_index(key))
    return stripped.with_metadata({**(stripped.metadata or {}), PARTITION_KEY: json.dumps(about).encode()})


def stripped(dataset: Dataset, table: pa.Table, file: str) -> pa.Table:
    """``table`` (in the dataset's full schema) as part ``file`` stores it: without the key column, after
    checking that every row holds the value its folder names (ValueError in one line if one does not: the
    path would say something the rows do not)."""
    key = key_of(dataset)
    if key is None:
        return table
    value = value_of(dataset, file)
    held = table.column(key).unique().to_pylist()
    if held and held != [value]:
        raise ValueError(f"{dataset.name}: {file} holds rows with {key} {sorted(held)[:3]}, not only {value}")
    return table.drop_columns([key]).replace_schema_metadata(file_schema(dataset).metadata)


def restored(dataset: Dataset, table: pa.Table, file: str, columns: Optional[list[str]] = None) -> pa.Table:
    """Part ``file``'s ``table`` (``columns`` of it, every column when None) with the key column put back:
    its value from the path, typed as the schema types it, where the schema (or ``columns``) has it."""
    key = key_of(dataset)
    if key is None or (columns is not None and key not in columns):
        return table
    field = dataset.full_schema.field(key)
    value = value_of(dataset, file)
    held = pa.nulls(table.num_rows, field.type) if value is None else column(np.full(table.num_rows, value), field.type)
    table = table.append_column(field, held)
    return table.select(columns if columns is not None else dataset.full_schema.names)


def file_columns(dataset: Dataset, columns: Optional[list[str]]) -> Optional[list[str]]:
    """The columns to read from the part files for ``columns`` of the table (all when None): the key is not
    in them."""
    key = key_of(dataset)
    return columns if columns is None or key is None else [c for c in columns if c != key]
