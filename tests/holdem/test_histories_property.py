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
from support.documents import edit, json_values, paths

from pipeline.batch.storage import Storage
from pipeline.holdem.histories import MANIFEST, HistoryError, check_histories, write_histories
from pipeline.holdem.seating import Table

JSON = json_values(0, 6, "hands.txt", "phh", "pokerstars", -1)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    table = Table.make(["tag", "station", "maniac"])
    folders = {}
    for fmt in ("pokerstars", "phh"):
        folders[fmt] = tmp_path_factory.mktemp(fmt)
        write_histories(table, 3, 6, fmt, Storage.open(folders[fmt]))
    return folders


@settings(max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_edited_manifest_is_a_whole_run_or_one_history_error(runs, tmp_path_factory, data):
    fmt = data.draw(st.sampled_from(sorted(runs)))
    out = tmp_path_factory.mktemp("edited")
    shutil.copytree(runs[fmt], out, dirs_exist_ok=True)
    doc = json.loads((out / MANIFEST).read_text())
    path = data.draw(st.sampled_from(list(paths(doc))))
    doc = edit(doc, path, data.draw(JSON), data.draw(st.booleans()))
    (out / MANIFEST).write_text(json.dumps(doc) if data.draw(st.integers(0, 5)) else "[" * 50_000)
    try:
        manifest = check_histories(Storage.open(out))
        assert isinstance(manifest, dict)
    except HistoryError as e:
        assert str(e) and "\n" not in str(e)
