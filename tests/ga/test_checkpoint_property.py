"""Random edits of an evolution's checkpoint restore or are one CheckpointError, never another exception
(issue 20: property tests over every JSON reader).

A checkpoint of two real generations is the starting point.  Each example replaces or deletes one field of
``checkpoint.json`` (anywhere in it: the counters, a progress row, the digests, the config) with random JSON,
and in most examples writes the document's own SHA-256 again — a hand edit that knows the format — so that
the edit reaches the field checks behind the digest; then the checkpoint is loaded and restored as a resumed
run does.
"""
import json
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.documents import edit, json_values, paths

from pipeline.batch.storage import Storage
from pipeline.ga import checkpoint
from pipeline.ga.checkpoint import CheckpointError
from pipeline.ga.config import Config
from pipeline.ga.evolve import evolve
from pipeline.ga.state import State

CFG = Config(population=6, generations=4, hands_per_match=240, seed=4, trainers=3, samples=8, weights="sampled")
JSON = json_values(0, 1, 2, 3, 4, "NaN", "Infinity", [], {})


@pytest.fixture(scope="module")
def two_generations(tmp_path_factory):
    out = tmp_path_factory.mktemp("two")
    evolve(CFG, Storage.open(out), stop_after=2)
    return out


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_edited_checkpoint_restores_or_is_one_checkpoint_error(two_generations, tmp_path_factory, data):
    out = tmp_path_factory.mktemp("edited")
    shutil.copytree(two_generations, out, dirs_exist_ok=True)
    state = out / "evolve" / "checkpoint.json"
    doc = json.loads(state.read_text())
    path = data.draw(st.sampled_from([p for p in paths(doc) if p and p[0] != "sha256"]))
    doc = edit(doc, path, data.draw(JSON), data.draw(st.booleans()))
    if data.draw(st.integers(0, 4)):
        doc["sha256"] = checkpoint._digest(doc)
    state.write_text(json.dumps(doc))
    files = Storage.open(out)
    try:
        arrays, restored = checkpoint.load(files)
        State(CFG, files).restore(arrays, restored)
    except CheckpointError as e:
        assert str(e) and "\n" not in str(e)
