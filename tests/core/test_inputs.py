"""Checked numbers and documents (pipeline.core.inputs): types as well as ranges, bounded documents."""
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.core.errors import InputError
from pipeline.core.inputs import boolean, integer, nesting, parse_json, parse_toml, read_local, real


@pytest.mark.parametrize("value", [True, False, 2.5, float("inf"), float("nan"), "3", None, [1], {"a": 1}])
def test_integer_refuses_what_is_not_one(value):
    with pytest.raises(InputError, match="trials must be an integer"):
        integer(value, "trials")


def test_integer_takes_ints_and_integral_floats_in_range():
    assert integer(3000, "t") == 3000 and integer(1e6, "t") == 1_000_000
    with pytest.raises(InputError, match="at least 1"):
        integer(0, "t", lo=1)
    with pytest.raises(InputError, match="between 1 and 10"):
        integer(11, "t", lo=1, hi=10)


@pytest.mark.parametrize("value", [True, "1.5", None, float("inf"), float("-inf"), float("nan"), 10 ** 400])
def test_real_refuses_non_finite_and_non_numbers(value):
    with pytest.raises(InputError, match="pot must be a"):
        real(value, "pot")


def test_boolean_is_only_true_or_false():
    assert boolean(True, "b") is True
    for v in (0, 1, "true", None):
        with pytest.raises(InputError, match="must be true or false"):
            boolean(v, "b")


def test_deep_documents_are_refused_before_parsing():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InputError, match="nested too deep"):
        parse_json(deep, "a manifest")
    with pytest.raises(InputError, match="nested too deep"):
        parse_toml("a = " + "[" * 5_000 + "]" * 5_000, "a pay table")
    assert parse_json('{"s": "' + "[" * 100 + '"}', "x") == {"s": "[" * 100}   # brackets in strings do not count


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), lambda c: st.lists(c, max_size=3)
                    | st.dictionaries(st.text(max_size=3), c, max_size=3), max_leaves=30))
def test_nesting_counts_what_json_nests(doc):
    import json

    def depth(o):
        if isinstance(o, list):
            return 1 + max(map(depth, o), default=0)
        if isinstance(o, dict):
            return 1 + max(map(depth, o.values()), default=0)
        return 0

    assert nesting(json.dumps(doc)) == depth(doc)


def test_json_refuses_nan_bad_utf8_and_large():
    for data, words in ((b'{"a": NaN}', "NaN is not a JSON number"), (b"\xff", "not UTF-8"),
                        (b"{", "not valid JSON"), (b" " * 101, "larger than 100 bytes")):
        with pytest.raises(InputError, match=words):
            parse_json(data, "f", max_bytes=100)


def test_read_local_only_regular_bounded_files(tmp_path):
    f = tmp_path / "p.json"
    f.write_bytes(b"{}")
    assert read_local(f, "player file") == b"{}"
    with pytest.raises(InputError, match="a folder"):
        read_local(tmp_path, "player file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):       # would hang a plain read
        read_local(fifo, "player file")
    with pytest.raises(InputError, match="no such file"):
        read_local(tmp_path / "missing", "player file")
    f.write_bytes(b" " * 11)
    with pytest.raises(InputError, match=r"larger than 10 bytes \(11\)"):
        read_local(f, "player file", max_bytes=10)
