"""Arrow columns from numpy arrays, and numpy arrays from Arrow columns, without importing pandas.

``pyarrow.array`` and ``Array.to_numpy`` ask pyarrow's pandas shim whether their argument is a pandas object,
and the shim imports pandas to answer (0.2 s of CPU, pyarrow 26): a worker that builds its part's table with
them imports pandas for nothing.  The fork server every local worker comes from does so once per cluster,
on the path to the first worker's first part; a separately started worker once each (issue 38: a worker
imports only what its parts use).  A numpy array's memory is instead handed to Arrow as the column's data
buffer (``Array.from_buffers``, no copy where the array is contiguous and of the column's type), and read
back the same way.

>>> import numpy as np, pyarrow as pa
>>> column(np.array([3, 1, 2]), pa.int64()).to_pylist()
[3, 1, 2]
>>> text(np.array([b"AsKd", b"2c2d"])).to_pylist()
['AsKd', '2c2d']
>>> text(["pair", "flush"]).to_pylist()
['pair', 'flush']
>>> values(column(np.array([True, False, True]), pa.bool_())).tolist()
[True, False, True]
>>> arrow_table({"index": np.arange(3), "hand": np.array(["AA", "KK", "QQ"])},
...       pa.schema([("index", pa.int64()), ("hand", pa.string())])).to_pylist()[0]
{'index': 0, 'hand': 'AA'}
>>> t = pa.table({"wins": column(np.array([3, 70_000]), pa.int64()), "equity": column([0.5, 0.25], pa.float64())})
>>> narrowed(t).schema.types
[DataType(uint32), DataType(double)]
>>> widened(narrowed(t), t.schema).equals(t)
True
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

__all__ = ["arrow_table", "column", "narrowed", "text", "values", "widened"]

# the Arrow types of a primitive column and the numpy dtype of its data buffer
_DTYPES: dict[Any, Any] = {
    pa.int8(): np.int8, pa.int16(): np.int16, pa.int32(): np.int32, pa.int64(): np.int64,
    pa.uint8(): np.uint8, pa.uint16(): np.uint16, pa.uint32(): np.uint32, pa.uint64(): np.uint64,
    pa.float32(): np.float32, pa.float64(): np.float64,
}


def column(data: Any, type: pa.DataType) -> pa.Array:
    """The Arrow column of ``type`` (a primitive integer, float or bool type) holding ``data`` (a numpy array or
    a sequence of numbers), without nulls.  The values are converted as numpy's ``astype`` does (``type``
    must hold them: an int64 column of floats truncates, as ``pyarrow.array(..., safe=False)`` would)."""
    data = np.asarray(data)
    if data.ndim != 1:
        raise ValueError(f"a column is one-dimensional, got shape {data.shape}")
    if type == pa.bool_():
        bits = np.packbits(data.astype(bool), bitorder="little")
        return pa.Array.from_buffers(type, len(data), [None, pa.py_buffer(bits)])
    dtype = _DTYPES.get(type)
    if dtype is None:
        raise TypeError(f"column() makes primitive integer, float or bool columns, not {type}")
    data = np.ascontiguousarray(data, dtype)
    return pa.Array.from_buffers(type, len(data), [None, pa.py_buffer(data)])


def text(strings: np.ndarray | Sequence[str]) -> pa.Array:
    """The Arrow string column of ``strings``: a numpy bytes array (``dtype 'S<w>'``, ASCII or UTF-8 text; an
    entry shorter than ``w`` ends at its first zero byte, as numpy reads it), a numpy ``str`` array, or a
    sequence of ``str``."""
    if not isinstance(strings, np.ndarray):
        if not all(isinstance(s, str) for s in strings):
            raise TypeError("text() takes a numpy text array (dtype 'S<w>' or 'U<w>') or a sequence of str")
        encoded = [s.encode() for s in strings]
        lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
        return _strings(lengths, np.frombuffer(b"".join(encoded), np.uint8))
    fixed = np.ascontiguousarray(strings)
    if fixed.dtype.kind == "U":
        fixed = np.char.encode(fixed, "utf-8")
    if fixed.dtype.kind != "S" or fixed.ndim != 1:
        raise TypeError(f"text() takes a numpy text array (dtype 'S<w>' or 'U<w>', one-dimensional) or a sequence "
                        f"of str, not {fixed.dtype} of shape {fixed.shape}")
    n, width = len(fixed), fixed.dtype.itemsize
    raw = fixed.view(np.uint8).reshape(n, width)
    if n and width and raw[:, -1].all():         # every entry full width (card text): the buffer as it is
        return _strings(np.full(n, width, np.int64), raw.reshape(-1))
    lengths = np.char.str_len(fixed)
    return _strings(lengths, raw[np.arange(width) < lengths[:, None]])


def _strings(lengths: np.ndarray, data: np.ndarray) -> pa.Array:
    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] >= 2**31:
        raise ValueError(f"{offsets[-1]:,} bytes of text are more than a string column holds (2**31 - 1)")
    return pa.Array.from_buffers(pa.string(), len(lengths), [None, pa.py_buffer(offsets.astype(np.int32)),
                                                             pa.py_buffer(np.ascontiguousarray(data))])


def arrow_table(columns: dict[str, Any], schema: pa.Schema) -> pa.Table:
    """``pyarrow.table(columns, schema=schema)`` with each numpy array among ``columns`` made a column of its
    field's type by :func:`column` (numbers) or :func:`text` (text); other values (Arrow arrays) as they are."""
    def made(name: str, value: Any) -> Any:
        if not isinstance(value, np.ndarray):
            return value
        return text(value) if value.dtype.kind in "SU" else column(value, schema.field(name).type)

    return pa.table({name: made(name, value) for name, value in columns.items()}, schema=schema)


def values(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The values of a primitive (integer, float or bool) Arrow column without nulls as a numpy array: a view
    of its data buffer where it has one chunk (bools are unpacked, a copy)."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
    if array.null_count:
        raise ValueError(f"values() reads columns without nulls; this one has {array.null_count}")
    type = array.type
    data = array.buffers()[1]
    if type == pa.bool_():
        bits = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
        return np.unpackbits(bits, count=array.offset + len(array), bitorder="little")[array.offset:].astype(bool)
    dtype = _DTYPES.get(type)
    if dtype is None:
        raise TypeError(f"values() reads primitive integer, float or bool columns, not {type}")
    if data is None:
        return np.zeros(0, dtype)
    return np.frombuffer(data, dtype, count=len(array), offset=array.offset * np.dtype(dtype).itemsize)


_UNSIGNED = (pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64())


def narrowed(table: pa.Table) -> pa.Table:
    """``table`` with each integer column, and each fixed-size list column of integers, in the narrowest unsigned
    type that holds its values, where none is negative; other columns as they are.

    For a table that travels between processes or machines and is read back by :func:`widened` (a part's
    pieces, ``pipeline.batch``): the same values in fewer bytes, a histogram of 46 river cards in one byte a
    bin instead of two."""
    fields = []
    for field, col in zip(table.schema, table.columns):
        listed = pa.types.is_fixed_size_list(field.type)
        inner = col.combine_chunks().flatten() if listed else col
        if pa.types.is_integer(inner.type) and not inner.null_count:
            data = values(inner)
            if data.size == 0 or data.min() >= 0:
                top = int(data.max()) if data.size else 0
                kind = next(t for t in _UNSIGNED if top <= np.iinfo(_DTYPES[t]).max)
                field = field.with_type(pa.list_(field.type.value_field.with_type(kind), field.type.list_size)
                                        if listed else kind)
        fields.append(field)
    return table.cast(pa.schema(fields, metadata=table.schema.metadata))


def widened(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table``'s columns (those :func:`narrowed` made) in the types of the fields of ``schema`` that bear their
    names, in ``table``'s column order; the values unchanged (``schema``'s types hold them: they were its)."""
    return table.cast(pa.schema([schema.field(name) for name in table.column_names]))
