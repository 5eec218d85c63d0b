"""The river EHS table against the single-situation command and the situation index."""
import subprocess
import sys

import pyarrow.dataset as ds
import pytest

from pipeline.ehs import hand_strength
from pipeline.isomorphism import situation_index


@pytest.fixture(scope="module")
def river(tmp_path_factory):
    out = tmp_path_factory.mktemp("ehs")
    p = subprocess.run([sys.executable, "-m", "jobs", "ehs-table", "--street", "river", "--limit", "1200",
                        "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    return ds.dataset(out / "ehs-table" / "river", format="parquet").to_table().to_pandas()


def test_rows_equal_single_situation(river):
    assert river["index"].is_unique and len(river) > 1_000_000
    for _, r in river.sample(40, random_state=2).iterrows():
        h = hand_strength(r.hole, r.board)
        assert (r.ahead, r.tied, r.behind) == (h.ahead, h.tied, h.behind)
        assert r.hs == h.hs and r.ehs == h.hs and r.ppot == r.npot == 0


def test_index_column_is_situation_index(river):
    rows = river.sample(500, random_state=3)
    assert all(situation_index(r.hole, r.board) == r["index"] for _, r in rows.iterrows())
    assert (river.ahead + river.tied + river.behind == 990).all()


def test_flop_and_turn_not_yet():
    p = subprocess.run([sys.executable, "-m", "jobs", "ehs-table", "--street", "turn"], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
