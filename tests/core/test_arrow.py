"""pipeline.core.arrow: the same columns as ``pyarrow.array`` (the reference), and no pandas imported on the way."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pyarrow as pa
import pytest

from pipeline.core.arrow import arrow_table, column, text, values

TYPES = [pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64(),
         pa.float32(), pa.float64()]


@pytest.mark.parametrize("type", TYPES, ids=str)
def test_numeric_columns_equal_pyarrow_array(type):
    rng = np.random.default_rng(7)
    data = rng.integers(0, 100, 41)
    for given in (data, data[::3], data[::-1], data.astype(np.float64), list(data[:5]), data[:0]):
        expected = pa.array(np.asarray(given).astype(type.to_pandas_dtype()), type)
        got = column(given, type)
        assert got.type == type and got.equals(expected)
        assert values(got).tolist() == expected.to_pylist()


def test_bool_columns_equal_pyarrow_array_at_any_offset():
    data = np.random.default_rng(3).integers(0, 2, 37).astype(bool)
    got = column(data, pa.bool_())
    assert got.equals(pa.array(data, pa.bool_()))
    for start in range(0, 12):
        assert values(got.slice(start)).tolist() == data[start:].tolist()


def test_values_of_a_slice_and_of_chunks():
    whole = column(np.arange(20), pa.int64())
    assert values(whole.slice(5, 7)).tolist() == list(range(5, 12))
    chunked = pa.chunked_array([whole.slice(0, 4), whole.slice(4)])
    assert values(chunked).tolist() == list(range(20))
    assert values(pa.chunked_array([], pa.int64())).tolist() == []


def test_text_equals_pyarrow_strings():
    for given in (np.array([b"AsKd", b"2c2d", b"Th9h"]), np.array([b"ab", b"c", b"", b"def"]),
                  np.array([], "S4"), np.array([b"AsKdQh", b"2c2d3c"])[::-1]):
        expected = pa.array([x.decode() for x in given.tolist()], pa.string())
        assert text(given).equals(expected)
    for strings in (["AA", "AKs", "", "72o"], [], ["é", "ß", "x"]):
        assert text(strings).equals(pa.array(strings, pa.string()))
        assert text(np.array(strings, str)).equals(pa.array(strings, pa.string()))


def test_tables_equal_pyarrow_table_with_a_schema():
    schema = pa.schema([("index", pa.int64()), ("bucket", pa.uint16()), ("equity", pa.float32()),
                        ("hand", pa.string()), ("kept", pa.int32())])
    columns = {"index": np.arange(5) * 7, "bucket": np.array([3, 1, 4, 1, 5]), "equity": np.linspace(0, 1, 5),
               "hand": np.array(["AA", "AKs", "72o", "T9s", "22"]), "kept": pa.array(range(5), pa.int32())}
    assert arrow_table(columns, schema).equals(pa.table(columns, schema=schema))


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="one-dimensional"):
        column(np.zeros((2, 2)), pa.int64())
    with pytest.raises(TypeError, match="primitive"):
        column([1], pa.string())
    with pytest.raises(TypeError, match="text array"):
        text(np.array([1, 2]))
    with pytest.raises(TypeError, match="sequence of str"):
        text([b"a"])
    with pytest.raises(ValueError, match="nulls"):
        values(pa.array([1, None], pa.int64()))
    with pytest.raises(TypeError, match="primitive"):
        values(pa.array(["a"], pa.string()))


def test_pyarrow_array_imports_pandas_and_these_do_not():
    """The reason for the module (pyarrow 26 asks pandas about every array it converts), and that an EHS part's
    and a matchups part's whole path in a worker (preparation, rows, pieces combined, Parquet bytes) stays
    clear of pandas."""
    code = textwrap.dedent("""
        import sys
        import numpy as np
        import pyarrow as pa
        from pipeline.batch.parquet import parquet_bytes
        from pipeline.datasets.recipes.ehs_table import EhsTable
        from pipeline.datasets.recipes.matchups import Matchups
        ds = EhsTable("river")
        boards = np.array([[0, 5, 10, 20, 33]], np.uint8)
        ds.prepare(boards)
        table = ds.combine([ds.compute(boards)])
        parquet_bytes(table)
        ds = Matchups(limit=20)
        part = ds.partitions(None)[0]
        ds.prepare(ds.pieces(part)[0])
        parquet_bytes(ds.combine([ds.compute(p) for p in ds.pieces(part)]))
        clear = "pandas" not in sys.modules
        pa.array(np.arange(3), pa.int64())
        print(clear, "pandas" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True"]
