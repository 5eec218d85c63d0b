"""Random edits of a hand-history folder's manifest are read as a whole run or as one HistoryError, never as
another exception (issue 20: property tests over every JSON reader).

Two real runs, PokerStars text and PHH (a file per hand, summed up by one digest), are the starting points;
each example replaces or deletes one field of ``_histories.json`` (or writes a document that is not one) and
asks :func:`pipeline.holdem.histories.check_histories`.
"""
import json
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.batch.storage import Storage
from pipeline.holdem.histories import MANIFEST, HistoryError, check_histories, write_histories
from pipeline.holdem.seating import Table

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
                    | st.sampled_from([0, 6, "hands.txt", "phh", "pokerstars", -1]),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids, max_size=3),
                    max_leaves=8)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    table = Table.make(["tag", "station", "maniac"])
    folders = {}
    for fmt in ("pokerstars", "phh"):
        folders[fmt] = tmp_path_factory.mktemp(fmt)
        write_histories(table, 3, 6, fmt, Storage.open(folders[fmt]))
    return folders


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


@settings(max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_edited_manifest_is_a_whole_run_or_one_history_error(runs, tmp_path_factory, data):
    fmt = data.draw(st.sampled_from(sorted(runs)))
    out = tmp_path_factory.mktemp("edited")
    shutil.copytree(runs[fmt], out, dirs_exist_ok=True)
    doc = json.loads((out / MANIFEST).read_text())
    path = data.draw(st.sampled_from(list(_paths(doc))))
    value = data.draw(JSON)
    if not path:
        doc = value
    else:
        inner = doc
        for step in path[:-1]:
            inner = inner[step]
        if data.draw(st.booleans()) and isinstance(inner, dict):
            del inner[path[-1]]
        else:
            inner[path[-1]] = value
    (out / MANIFEST).write_text(json.dumps(doc) if data.draw(st.integers(0, 5)) else "[" * 50_000)
    try:
        manifest = check_histories(Storage.open(out))
        assert isinstance(manifest, dict)
    except HistoryError as e:
        assert str(e) and "\n" not in str(e)
