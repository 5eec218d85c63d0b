"""Random edits of the runner's own documents — manifest, checksum record, catalog, lock — read as "not built"
or "damaged", never as another exception (issue 20: property tests over every JSON reader).

A real build of ``odds-table`` is the starting point; each example replaces or deletes one field of one of its
documents (or the whole document) with random JSON, then asks every reader: ``datasets.is_built`` (a manifest
or None), ``datasets.read`` (the verified rows or a DatasetError), ``datasets.catalog``, the ``datasets``
listing command (exit 0), the runner's check of the manifest and its choice of parts to keep, and the
writer lock (taken, or a StorageError).
"""
import json
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.documents import edit, json_values, paths
from support.layout import key
from support.layout import lock as lock_file

from jobs.main import main
from pipeline import datasets
from pipeline.batch import runner
from pipeline.batch.storage import Storage, StorageError
from pipeline.core.errors import InputError

JSON = json_values(0, 1, 20, -1, "part-00000.parquet", "odds-table")
DOCUMENTS = [key("odds-table", "_manifest.json"), key("odds-table", "_checksums", "part-00000.parquet.json"),
             "_catalog.json", key("odds-table", "_lock")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("built")
    assert main(["tables", "odds-table", "--out", str(out), "--workers", "1", "--quiet"]) == 0
    lock = {"pid": 2**22 + 12345, "host": "elsewhere", "since": 0.0}
    lock_file(out, "odds-table").write_text(json.dumps(lock))     # a lock as another run leaves it
    return out


@settings(max_examples=80, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_edited_documents_read_as_not_built_or_damaged(built, tmp_path_factory, data, capsys):
    out = tmp_path_factory.mktemp("edited")
    shutil.copytree(built, out, dirs_exist_ok=True)
    document = data.draw(st.sampled_from(DOCUMENTS))
    original = json.loads((out / document).read_text())
    path = data.draw(st.sampled_from(list(paths(original))))
    edited = edit(original, path, data.draw(JSON), data.draw(st.booleans()))
    text = json.dumps(edited) if data.draw(st.booleans()) else data.draw(st.sampled_from(
        ["", "{", "[" * 40 + "]" * 40, json.dumps(edited)[:-1]]))
    (out / document).write_text(text)

    manifest = datasets.is_built("odds-table", out)
    assert manifest is None or isinstance(manifest, dict)
    try:
        rows = datasets.read("odds-table", out)
        assert rows.num_rows == 20
    except InputError as e:                       # DatasetError: one line
        assert "\n" not in str(e)
    assert isinstance(datasets.catalog(out)["datasets"], list)
    assert main(["datasets", "--out", str(out), "--json"]) == 0
    storage = Storage.open(out)
    ds = datasets.dataset("odds-table")
    manifest = runner.read_manifest(storage, ds.name)           # as the runner reads it, before a rerun
    why = runner.check_manifest(manifest, ds, 1)
    assert why is None or isinstance(why, str)
    kept = runner._valid_parts(storage, ds, list(ds.partitions(None)), ["part-00000.parquet"], False,
                               manifest if why is None else None)
    assert set(kept) <= {0}
    try:
        with storage.lock("odds-table"):
            pass
    except StorageError as e:
        assert "\n" not in str(e)
    capsys.readouterr()
