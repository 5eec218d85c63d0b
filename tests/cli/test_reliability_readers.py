"""Issue 39, case by case: the new families' readers, estimates and entry points, as a new user meets them.

``ab1`` is the issue's small turn abstraction (``abstraction/turn`` with k = 8 on the first canonical turn
boards), in which ``AdAc`` on ``3s3h3c2d`` is bucket 7.  Each case must end in one line and exit 2 (the command
line), a clear exception (the library) or the right answer — never a wrong answer, a traceback or a hang.
The mechanisms behind them are walked in loops elsewhere: every reader (tests/batch/test_verified_reads.py,
tests/test_file_access.py), every count option (tests/cli/test_work_limits.py), every library argument
(tests/test_library_arguments.py), every path's kind (tests/batch/test_path_kinds.py), Omaha patterns
(tests/omaha/test_omaha_wildcards.py).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support.layout import meta

from jobs.main import main
from pipeline.abstraction.lookup import AbstractionError, situation
from pipeline.core.cards import CardError
from pipeline.datasets import build_many, load_abstraction
from pipeline.isomorphism.situations import situation_index

K = 8
PARAMS = {"abstraction/turn": {"k": K, "limit": 4}, "abstraction/turn-centroids": {"k": K, "limit": 4}}
HOLE, BOARD = "AdAc", "3s3h3c2d"
BUCKET = ["bucket", HOLE, "--board", BOARD, "--k", str(K)]


@pytest.fixture(scope="module")
def ab1(tmp_path_factory, small_cluster):
    out = tmp_path_factory.mktemp("ab1")
    build_many(["abstraction/turn"], out, small_cluster, params=PARAMS)
    return out


def copy(ab1: Path, tmp: Path) -> Path:
    out = tmp / "ab"
    shutil.copytree(ab1, out)
    return out


def turn(out: Path) -> Path:
    """The folder of ``abstraction/turn``'s manifest and side outputs (beside its parts)."""
    return meta(out, "abstraction/turn")


class _Slow(Exception):
    pass


def run(args: list[str], capsys) -> tuple[int, str, str]:
    """``pokerpipe ARGS`` in this process, bounded in time (a FIFO read would never return)."""
    def alarm(signum, frame):
        raise _Slow

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(120)
    try:
        code = main(args)
    except _Slow:
        pytest.fail(f"pokerpipe {' '.join(args)} hung")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    got = capsys.readouterr()
    return code, got.out, got.err


def refused(result: tuple[int, str, str], *words: str) -> None:
    code, out, err = result
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("pokerpipe: error: "), (code, err)
    assert all(w in err for w in words), err
    assert not out


def bucket_of(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert code == 0, err
    return next(line.split(None, 1)[1] for line in out.splitlines() if line.startswith("bucket"))


@pytest.mark.slow
def test_the_build_answers_bucket_7(ab1, capsys):
    assert bucket_of(run([*BUCKET, "--out", str(ab1)], capsys)) == f"7 of {K}"


# ---- case 1: the abstraction lookup reads through the one verified read

def _edit(manifest: Path, change) -> None:
    doc = json.loads(manifest.read_text())
    change(doc)
    manifest.write_text(json.dumps(doc))


def fifo(out: Path) -> None:
    (turn(out) / "_buckets.npy").unlink()
    os.mkfifo(turn(out) / "_buckets.npy")


def deep(out: Path) -> None:
    (turn(out) / "_manifest.json").write_text("[" * 100_000)


def linked(out: Path) -> None:
    outside = out.parent / "elsewhere.npy"
    (turn(out) / "_buckets.npy").rename(outside)
    os.symlink(outside, turn(out) / "_buckets.npy")


CASE_1 = {
    "fifo": (fifo, ["is a FIFO (named pipe), not a regular file"]),
    "deep": (deep, ["_manifest.json: nested too deep"]),
    "side-outputs-5": (lambda out: _edit(turn(out) / "_manifest.json", lambda d: d.update(side_outputs=5)),
                       ["side outputs are damaged"]),
    "k-true": (lambda out: _edit(turn(out) / "_manifest.json", lambda d: d["parameters"].update(k=True)),
               ["k must be an integer, got true"]),
    "link": (linked, ["_buckets.npy is a symbolic link"]),
}


@pytest.mark.parametrize("case", list(CASE_1))
def test_case_1_the_lookup_refuses_what_the_build_refuses(ab1, tmp_path, capsys, case):
    out = copy(ab1, tmp_path)
    damage, words = CASE_1[case]
    damage(out)
    for k in (K, 1) if case == "k-true" else (K,):    # true is neither k = 8 nor k = 1 (it answered k = 8's 7)
        refused(run([*BUCKET[:-1], str(k), "--out", str(out)], capsys), *words)


# ---- case 2: verified by bytes, not by identity

@pytest.mark.slow
def test_case_2_bit_rot_after_a_first_lookup_is_found(ab1, tmp_path):
    """One byte of ``_buckets.npy`` flipped after a first lookup, its size, inode and modification time kept;
    each lookup is a new process, as the issue's were."""
    out = copy(ab1, tmp_path)
    cmd = [sys.executable, "-m", "jobs", *BUCKET, "--out", str(out)]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0 and "7 of 8" in first.stdout, first.stderr
    path = turn(out) / "_buckets.npy"
    st = path.stat()
    index = situation_index(HOLE, BOARD)
    with open(path, "r+b") as f:                 # the bucket's own byte, in place: the same inode
        f.seek(st.st_size - 2 * (13_960_050 - index))
        f.write(bytes([6]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_ino, path.stat().st_mtime_ns) == (st.st_size, st.st_ino,
                                                                                   st.st_mtime_ns)
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and "bucket" not in again.stdout, again.stdout
    assert again.stderr.startswith("pokerpipe: error: ") and "_buckets.npy is damaged" in again.stderr
    assert len(again.stderr.splitlines()) == 1


# ---- case 3: estimates enforced

@pytest.mark.parametrize("args", [
    ["equity", "AA", "KK", "--trials", "1e15"],
    ["equity", "--game", "omaha", "AAxx", "random", "--trials", "1e15"],
    ["evolve", "--lbr-hands", "1e15", "--workers", "1"],
])
def test_case_3_estimates_beyond_a_day_are_refused(tmp_path, capsys, args):
    refused(run([*args, *(["--out", str(tmp_path / "out")] if args[0] == "evolve" else [])], capsys),
            "would take about", "more than the 24 hours pokerpipe starts")
    assert not (tmp_path / "out").exists()


# ---- case 4: library entry points check ids and indices

def test_case_4_library_entry_points_check_their_arguments(ab1):
    with pytest.raises(CardError, match="hole cards: card id 60 is outside 0..51"):
        situation_index([0, 60], [4, 5, 6])
    with pytest.raises(CardError, match="hole cards: card id 60 is outside 0..51"):
        situation([0, 60], [1, 2, 3])
    ab = load_abstraction(ab1, K, streets=("turn",))
    assert ab.bucket(HOLE, BOARD) == 7
    for index, words in [(-1, "between 0 and 13,960,049, got -1"), (10**10, "got 10,000,000,000"),
                         (True, "must be an integer, got true"), (2.0, "must be an integer, got 2.0")]:
        with pytest.raises(AbstractionError, match=words):
            ab.bucket_of_index("turn", index)
    with pytest.raises(AbstractionError, match="situation index 13,960,050 is outside"):
        ab.buckets([0, 13_960_050], "turn")
    for bins in (10**9, 1, True):
        with pytest.raises(AbstractionError, match="bins must be"):
            situation("AhKh", "Qh7h2c", bins=bins)


def test_case_4_bins_1_is_refused_by_the_command_line_as_by_the_library(capsys):
    refused(run(["bucket", "AhKh", "--board", "Qh7h2c", "--bins", "1", "--out", "nowhere"], capsys),
            "--bins must be between 2 and 1,980, got 1")


# `bucket --out FILE` said "bucket not built" and exited 0, as if a folder held no abstraction yet
def test_a_file_as_the_abstractions_folder_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not an abstraction")
    refused(run(["bucket", "AhKh", "--board", "Qh7h2c", "--out", str(tmp_path / "notes.txt")], capsys),
            f"{tmp_path / 'notes.txt'} is a regular file, not a folder")


# ---- case 5: Omaha wildcards count (the parser's own loop: tests/omaha/test_omaha_wildcards.py)

@pytest.mark.parametrize("pattern", ["xxxxx", "*****", "x" * 5000])
def test_case_5_omaha_wildcards_count(capsys, pattern):
    """More items than a hand holds is refused; ``xxx`` is no longer the whole deck but, in ProPokerTools'
    syntax (issue 40), three cards of one suit (tests/omaha/test_omaha_wildcards.py counts it)."""
    refused(run(["equity", "--game", "omaha", pattern, "random"], capsys), "a hand of this game holds 4")


# ---- case 6: a folder where a file belongs

def test_case_6_a_folder_at_the_catalog_is_one_line(tmp_path, capsys):
    (tmp_path / "out" / "_catalog.json").mkdir(parents=True)
    refused(run(["tables", "odds-table", "--workers", "1", "--out", str(tmp_path / "out")], capsys),
            "_catalog.json is a folder, not a file")
    assert not (tmp_path / "out" / "odds-table").exists()          # refused before any work


# ---- case 7: options checked, messages saying what is wrong

@pytest.mark.parametrize("args, words", [
    (["--k", "1e23"], "--k must be between 1 and 50,000, got about 1e23"),
    (["--seed", "-1"], "--seed must be between 0 and"),
    (["--out", "s3://bucket/ab1"], "s3://bucket/ab1 is a URL: lookups map local files"),
    (["--out", "ftp://host/ab1"], "ftp://host/ab1 is a URL: lookups map local files"),
])
def test_case_7_bucket_options(capsys, args, words):
    refused(run(["bucket", HOLE, "--board", BOARD, *args], capsys), words)


@pytest.mark.slow
def test_case_7_exploit_says_it_counts_exact_weights(tmp_path, capsys, small_cluster, monkeypatch):
    """With a limited hold'em-weights build, exploit counts each weight exactly (its figure is the exact
    count): it said "sampling instead".  (LBR itself is stood in for: the line is said before it starts.)"""
    from pipeline.datasets import HandWeightTables
    from pipeline.exploit import lbr

    source = HandWeightTables(str(tmp_path), (1, 1, 1))
    build_many(source.datasets(), tmp_path, small_cluster)
    given = []
    monkeypatch.setattr(lbr, "local_best_response", lambda *a, **k: given.append(k["weights"]) or
                        lbr.LBRResult("fold", 2, 750.0, 0.0, (750.0, 750.0), {"preflop": 750.0}))
    code, out, err = run(["exploit", "fold", "-n", "2", "--tables", str(tmp_path), "--workers", "1"], capsys)
    assert given == [None]                          # no tables: each weight counted exactly
    assert code == 0, err
    assert "not using the hand-weight tables" in err and "counting each hand weight exactly" in err, err
    assert "sampling" not in err
