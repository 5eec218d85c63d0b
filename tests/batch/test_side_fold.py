"""Side outputs folded in as the parts are written (``Dataset.side_columns``, ``side_fold``): the client adds
each part's columns as it comes back and the kept parts' on a resume, and the files are those the dataset's
``side_outputs`` makes from the finished table read back (issue 38: abstraction/turn read 14 million rows back
after its last part, 1 s of its end)."""
import json

import pytest
from support import tiny_datasets
from support.layout import beside

from pipeline.batch.runner import MANIFEST, RunnerError
from pipeline.datasets import build as run_job

N = 8
WANT = {"rows": 2 * N, "sum": sum(i * i for i in range(2 * N)), "i": list(range(2 * N))}   # 0..15 and squares


def _sum(out):
    return json.loads((beside(out / "folded") / "_sum.json").read_bytes())


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_each_part_is_folded_as_it_comes_back(tmp_path, workers):
    tiny_datasets.Folded.folds.clear()
    run_job(tiny_datasets.Folded(N), tmp_path, workers=workers, quiet=True)
    (fold,) = tiny_datasets.Folded.folds
    # one add a part, each of its two rows, in the schema's types (narrowed on the way, widened back)
    assert fold.added == [(2, ["int64", "int64"])] * N
    assert _sum(tmp_path) == WANT
    m = json.loads((beside(tmp_path / "folded") / MANIFEST).read_text())
    assert [e["file"] for e in m["side_outputs"]] == ["_sum.json"]


@pytest.mark.slow
def test_kept_parts_are_read_into_the_fold_and_the_bytes_do_not_change(tmp_path):
    run_job(tiny_datasets.Folded(N), tmp_path, workers=2, quiet=True)
    side = beside(tmp_path / "folded") / "_sum.json"
    first = side.read_bytes()
    for k in (1, 5):
        (tmp_path / "folded" / f"part-0000{k}.parquet").unlink()
    (beside(tmp_path / "folded") / MANIFEST).unlink()                # as after an interrupt
    tiny_datasets.Folded.folds.clear()
    r = run_job(tiny_datasets.Folded(N), tmp_path, workers=1, quiet=True)
    (fold,) = tiny_datasets.Folded.folds
    assert r.computed == 2
    assert sorted(fold.added) == [(2, ["int64", "int64"])] * 2 + [(2 * (N - 2), ["int64", "int64"])]
    assert side.read_bytes() == first and _sum(tmp_path) == WANT
    # a side output lost with every part kept: made again from the parts alone, no cluster
    side.unlink()
    tiny_datasets.Folded.folds.clear()
    r = run_job(tiny_datasets.Folded(N), tmp_path, workers=1, quiet=True)
    (fold,) = tiny_datasets.Folded.folds
    assert r.computed == 0 and fold.added == [(2 * N, ["int64", "int64"])]
    assert side.read_bytes() == first


@pytest.mark.slow
def test_a_fold_that_fails_is_one_line_and_leaves_no_manifest(tmp_path):
    with pytest.raises(RunnerError) as e:
        run_job(tiny_datasets.FoldFails(N), tmp_path, workers=1, quiet=True)
    assert str(e.value).startswith("folded: cannot make the side outputs: ZeroDivisionError: ")
    assert not (beside(tmp_path / "folded") / MANIFEST).exists()
    assert len(list((tmp_path / "folded").glob("part-*.parquet"))) == N      # the parts are kept
