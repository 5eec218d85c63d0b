"""A damaged disk cache is rebuilt, said once on stderr, and never changes a number.

The evaluator's ``.npz`` in ``$POKERPIPE_CACHE`` is damaged in each way a disk
or an interrupted writer can leave it (empty, a flipped byte, truncated, other
arrays, no digest); then a real ``python -m jobs ehs`` runs in a fresh process
(``equity AhKh QsQd`` now reads the packaged matchups table and never touches
the evaluator's file).  The numbers it must print are the AAAI-98 example's
(A♦Q♣ on 3♥4♣J♥) from ../shared/README.md, not this code's output.
"""
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from support.ahead import selected

from pipeline import __version__
from pipeline.core.cache import DIGEST, arrays_digest, load_or_build, numba_cache_dir

ADQC_ON_3H4CJH = (628, 9, 444)          # ahead, tied, behind now; HS .585, PPOT .208, NPOT .274


def ehs_run(cache):
    """``pokerpipe ehs AdQc --board 3h4cJh --json`` in a fresh process with ``cache`` as the cache folder
    of built tables (compiled kernels stay where this process keeps them: only the tables are under test)."""
    env = dict(os.environ, POKERPIPE_CACHE=str(cache), NUMBA_CACHE_DIR=str(numba_cache_dir()))
    return subprocess.run([sys.executable, "-m", "jobs", "ehs", "AdQc", "--board", "3h4cJh", "--json"],
                          capture_output=True, text=True, timeout=300, env=env)


def assert_right_numbers(p):
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert (doc["ahead"], doc["tied"], doc["behind"]) == ADQC_ON_3H4CJH
    assert (round(doc["hs"], 3), round(doc["ppot"], 3), round(doc["npot"], 3)) == (0.585, 0.208, 0.274)


@pytest.fixture(scope="module")
def good_cache(tmp_path_factory):
    """A cache folder holding a freshly built, valid evaluator file."""
    cache = tmp_path_factory.mktemp("cache")
    p = ehs_run(cache)
    assert_right_numbers(p)
    assert p.stderr == ""                  # a missing file is built silently: nothing was damaged
    files = list((cache / __version__).glob("evaluator-*.npz"))        # one folder per package version
    assert len(files) == 1 and not list(cache.glob("*.npz"))
    return files[0]


def _empty(path):
    path.write_bytes(b"")


def _flip(offset_fraction):
    def damage(path):
        data = bytearray(path.read_bytes())
        i = int(len(data) * offset_fraction)
        data[i] ^= 0x01
        path.write_bytes(bytes(data))
    return damage


def _truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _other_arrays(path):
    """A whole, self-consistent file (its digest matches) holding the wrong arrays."""
    arrays = {"something": np.arange(10), "else": np.zeros(3)}
    with open(path, "wb") as f:
        np.savez(f, **arrays, **{DIGEST: np.array(arrays_digest(arrays))})


def _wrong_digest(path):
    """The right arrays with one value changed: whole as a zip, caught by the digest alone."""
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    name = sorted(k for k in arrays if k != DIGEST)[0]
    arrays[name] = arrays[name].copy()
    arrays[name].flat[0] += 1
    with open(path, "wb") as f:
        np.savez(f, **arrays)


@pytest.fixture(scope="module")
def damaged_runs(request, tmp_path_factory, good_cache):
    """For each damage: a cache folder holding the damaged file, and two ``ehs_run`` on it one after the
    other (the first rebuilds, the second reads).  The damages' runs go two at a time (``ahead``)."""
    def twice(cache):
        first = ehs_run(cache)
        return first, ehs_run(cache)

    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {}
        for damage in selected(request, "test_damaged_evaluator_cache_is_rebuilt_once", "damage"):
            cache = tmp_path_factory.mktemp("cache")
            target = cache / __version__ / good_cache.name
            target.parent.mkdir()
            shutil.copyfile(good_cache, target)
            damage(target)
            runs[damage] = pool.submit(twice, cache)
        yield lambda damage: runs[damage].result()


@pytest.mark.slow
@pytest.mark.parametrize("damage", [_empty, _flip(0.5), _flip(0.999), _truncate, _other_arrays, _wrong_digest],
                         ids=["empty", "flip-middle", "flip-end", "truncated", "other-arrays", "wrong-value"])
def test_damaged_evaluator_cache_is_rebuilt_once(damaged_runs, damage):
    first, second = damaged_runs(damage)
    assert_right_numbers(first)
    lines = first.stderr.splitlines()
    assert len(lines) == 1 and "rebuilding" in lines[0] and "Traceback" not in first.stderr, first.stderr
    assert_right_numbers(second)
    assert second.stderr == ""             # rebuilt and saved: the next run is silent


# ---------------------------------------------------------------------------
# load_or_build in-process, with a tiny table whose right contents the test knows

def _table():
    return {"squares": np.arange(5) ** 2, "label": np.array("ok")}


def test_load_or_build_builds_once_then_reads(tmp_path, capsys):
    calls = []
    build = lambda: calls.append(1) or _table()  # noqa: E731 (a counting stand-in)
    path = tmp_path / "t.npz"
    a = load_or_build(path, build, {"squares", "label"})
    b = load_or_build(path, build, {"squares", "label"})
    assert len(calls) == 1
    assert b["squares"].tolist() == [0, 1, 4, 9, 16] and str(b["label"]) == "ok"
    assert a["squares"].tolist() == b["squares"].tolist()
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not really a zip", b"\x00" * 100])
def test_load_or_build_rebuilds_garbage_saying_so_once(tmp_path, capsys, content):
    path = tmp_path / "t.npz"
    path.write_bytes(content)
    got = load_or_build(path, _table, {"squares", "label"})
    assert got["squares"].tolist() == [0, 1, 4, 9, 16]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "rebuilding" in err[0]
    load_or_build(path, _table, {"squares", "label"})
    assert capsys.readouterr().err == ""


def test_load_or_build_rebuilds_a_file_without_digest(tmp_path, capsys):
    path = tmp_path / "t.npz"
    np.savez(path, **_table())                   # the right arrays from a writer that predates the digest
    got = load_or_build(path, _table, {"squares", "label"})
    assert got["squares"].tolist() == [0, 1, 4, 9, 16]
    assert "rebuilding" in capsys.readouterr().err
    load_or_build(path, _table, {"squares", "label"})
    assert capsys.readouterr().err == ""


def test_load_or_build_refuses_a_file_missing_a_field(tmp_path, capsys):
    path = tmp_path / "t.npz"
    load_or_build(path, lambda: {"squares": np.arange(5) ** 2}, None)     # an older table without "label"
    got = load_or_build(path, _table, {"squares", "label"})
    assert str(got["label"]) == "ok"
    assert "rebuilding" in capsys.readouterr().err


def test_unwritable_cache_still_answers(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    got = load_or_build(blocker / "t.npz", _table, {"squares", "label"})   # parent is a file: cannot save
    assert got["squares"].tolist() == [0, 1, 4, 9, 16]
    assert capsys.readouterr().err == ""
