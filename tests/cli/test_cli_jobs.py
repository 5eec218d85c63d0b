"""The batch commands end to end, as a user runs them (fresh processes, real Dask)."""
import hashlib
import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.dataset as ds
import pytest
from support.layout import beside, copy_dataset, manifest, part, record, records, side
from support.readers import read_everywhere

pytestmark = pytest.mark.slow      # the whole module: its module fixture builds datasets (22 s)


def pokerpipe(*args, **kw):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=900, **kw)


def parts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("part-*.parquet"))}


# k = 1 (exact, from the grid) and k = 3 (Monte Carlo): the exact k = 2 rows need the whole two-opponents count
# (half a minute of CI); tests/datasets/test_two_opponents_recipe.py builds them from a part of it, and
# benchmarks/bench_two_opponents.py checks the whole run against Monte Carlo
PREFLOP_SET = ["tables", "--param", "vs-random.opponents=1,3", "--param", "vs-random.trials=3000"]


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """The preflop set: ``matchups``, then ``preflop-grid`` and ``vs-random`` from it.

    Where the checkout's ``outputs/`` holds the README's first quick start (``pokerpipe preflop-grid``, run by
    CI just before the tests), its ``matchups`` and ``preflop-grid`` are copied in first: the run below keeps
    each part only if it verifies against its manifest for these parameters and version, and computes
    everything else, so the bytes the tests check are this code's either way — a minute less in CI."""

    out = tmp_path_factory.mktemp("full")
    quick_start = Path(__file__).resolve().parents[2] / "outputs"
    for name in ("matchups", "preflop-grid"):
        if manifest(quick_start, name).is_file():
            copy_dataset(quick_start / name, out / name)
    p = pokerpipe(*PREFLOP_SET, "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    return out


@pytest.mark.slow
def test_preflop_set_byte_identical_to_before(full):
    from support.recorded import RECORDED_FULL, RECORDED_SIDE, parts_digest
    for name, digest in RECORDED_FULL.items():
        assert parts_digest(json.loads(manifest(full, name).read_text())) == digest, name
    heatmap = side(full, "preflop-grid", "_heatmap.png").read_bytes()
    assert hashlib.sha256(heatmap).hexdigest() == RECORDED_SIDE["preflop-grid/_heatmap.png"]
    cat = json.loads((full / "_catalog.json").read_text())
    assert [e["dataset"] for e in cat["datasets"]] == ["matchups", "preflop-grid", "vs-random"]


@pytest.mark.slow
def test_matchups_dataset(full):
    t = ds.dataset(full / "matchups", format="parquet").to_table().to_pandas()
    assert len(t) == 47008
    assert t.weight.sum() == 812175
    assert ((t.wins + t.ties + t.losses) == 1712304).all()
    row = t[(t.hero_class == "AA") & (t.villain_class == "KK")]
    assert row.weight.sum() == 6 * 6
    m = json.loads(manifest(full, "matchups").read_text())
    assert m["rows"] == 47008 and len(m["parts"]) == 95


def test_grid_published_cells(full):
    t = ds.dataset(full / "preflop-grid", format="parquet").to_table().to_pandas()
    assert len(t) == 28561
    cell = t.set_index(["hero", "villain"])
    for a, b, pct in [("AA", "KK", 81.9461), ("AKs", "QQ", 46.0485), ("72o", "AA", 11.8004), ("JTs", "AKo", 40.5139)]:
        assert round(100 * cell.loc[(a, b), "equity"], 4) == pct
    assert cell.loc[("AA", "KK"), ["wins", "ties", "losses"]].tolist() == [50371344, 285228, 10986372]
    total = t.wins + t.ties + t.losses
    assert (t.equity == (t.wins + t.ties / 2) / total).all()
    assert (total == t.combos * 1712304).all()
    swapped = cell.loc[list(zip(t.villain, t.hero, strict=True)), "equity"].to_numpy()
    assert abs(t.equity.to_numpy() + swapped - 1).max() < 1e-12
    assert t.combos.sum() == 1624350
    assert side(full, "preflop-grid", "_heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_grid_reads_in_polars_and_duckdb(full):
    """The folder itself, no glob (issue 40): nothing but parts lies in it."""
    import duckdb
    import polars

    folder = str(full / "preflop-grid")
    df = polars.read_parquet(folder)
    assert df.height == 28561 and df["wins"].dtype == polars.Int64
    (row,) = duckdb.sql(f"select wins, ties, losses from read_parquet('{folder}') "
                        "where hero = 'AA' and villain = 'KK'").fetchall()
    assert row == (50371344, 285228, 10986372)
    params = {"vs-random": {"opponents": "1,3", "trials": 3000}}
    for name in ("matchups", "preflop-grid", "vs-random"):
        assert read_everywhere(full, name, **params.get(name, {})) > 0


def test_vs_random(full):
    t = ds.dataset(full / "vs-random", format="parquet", partitioning="hive").to_table().to_pandas()
    one = t[t.opponents == 1].set_index("hand")
    assert len(one) == 169 and one.exact.all() and (one.stderr == 0).all()
    assert {h: round(100 * one.loc[h, "equity"], 4) for h in ("AA", "72o", "32o")} == \
        {"AA": 85.2037, "72o": 34.5836, "32o": 32.3032}
    assert one.equity.idxmin() == "32o"
    three = t[t.opponents == 3].set_index("hand")
    assert len(three) == 169 and not three.exact.any() and (three.samples == 3000).all() and (three.stderr > 0).all()
    from pipeline.core.hand_classes import CLASS_INDEX
    from pipeline.equity import equity
    for h in ("AA", "72o"):                      # an independent seeded run agrees within the two errors
        mc = equity([h] + ["random"] * 3, trials=200_000, seed=CLASS_INDEX[h] + 1).players[0]
        assert abs(mc.equity - three.loc[h, "equity"]) < 4 * (mc.stderr ** 2 + three.loc[h, "stderr"] ** 2) ** 0.5, h


@pytest.mark.slow
def test_rerun_is_a_resume(full):
    p = pokerpipe("matchups", "--out", str(full))
    assert p.returncode == 0
    assert "0 computed, 95 kept" in p.stderr
    t = time.perf_counter()
    p = pokerpipe(*PREFLOP_SET, "--out", str(full))
    assert p.returncode == 0, p.stderr
    assert time.perf_counter() - t < 10
    rows = {line.split()[0]: line.split() for line in p.stdout.splitlines()[1:4]}
    assert set(rows) == {"matchups", "preflop-grid", "vs-random"}
    assert all(r[3] == "0" for r in rows.values())               # computed nothing


LEFT_BY_AN_EARLIER_KILL = 83          # matchups parts (of 95) already written when the killed run starts


@pytest.mark.slow
def test_tables_killed_midway_then_rerun_ends_identical(full, tmp_path):
    """SIGKILL of ``pokerpipe tables`` while its workers compute matchups parts: no stray workers, no
    manifest, and the rerun ends byte-identical to the uninterrupted build from nothing (``full``).

    The killed run starts where an earlier killed run stopped (the first 83 parts and their checksum
    records, as a kill leaves them), so that the kill and the rerun together compute 12 matchups parts,
    the grid and vs-random rather than the whole matchups table a second time: ``full`` is the one
    build from nothing in this module."""
    import shutil

    import psutil

    (tmp_path / "matchups").mkdir()
    records(tmp_path, "matchups").mkdir(parents=True)
    for i in range(LEFT_BY_AN_EARLIER_KILL):
        shutil.copy2(part(full, "matchups", i), part(tmp_path, "matchups", i))
        shutil.copy2(record(full, "matchups", i), record(tmp_path, "matchups", i))
    proc = subprocess.Popen([sys.executable, "-m", "jobs", *PREFLOP_SET, "--workers", "2", "--quiet",
                             "--out", str(tmp_path)], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while (time.time() < deadline
           and len(list((tmp_path / "matchups").glob("part-*.parquet"))) < LEFT_BY_AN_EARLIER_KILL + 4):
        time.sleep(0.05)
    children = psutil.Process(proc.pid).children(recursive=True)
    proc.kill()
    proc.communicate(timeout=60)
    gone, alive = psutil.wait_procs(children, timeout=30)
    assert not alive, [p.cmdline() for p in alive]                 # no stray workers
    assert not manifest(tmp_path, "matchups").exists()
    assert len(list((tmp_path / "matchups").glob("part-*.parquet"))) < 95       # killed midway
    again = pokerpipe(*PREFLOP_SET, "--out", str(tmp_path), "--quiet")
    assert again.returncode == 0, again.stderr
    for name in ("matchups", "preflop-grid", "vs-random"):
        assert parts(tmp_path / name) == parts(full / name), name


def interrupt_then_resume(out: Path, sig: int) -> tuple:
    """``matchups --limit 6000`` stopped by ``sig`` once two parts are in, then the same command again."""
    proc = subprocess.Popen([sys.executable, "-m", "jobs", "matchups", "--limit", "6000", "--workers", "1",
                             "--quiet", "--out", str(out)], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and len(list((out / "matchups").glob("part-*.parquet"))) < 2:
        time.sleep(0.05)
    proc.send_signal(sig)
    err = proc.communicate(timeout=120)[1]
    folder = out / "matchups"
    manifest_after_stop = (beside(folder) / "_manifest.json").exists()
    done = len(parts(folder))
    again = pokerpipe("matchups", "--limit", "6000", "--workers", "2", "--out", str(out))
    return proc.returncode, err, manifest_after_stop, done, again, folder


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """SIGTERM's run (SIGINT's is tests/cli/test_reliability_batch.py's Ctrl-C to the process group, and the
    bucket's interrupted run in tests/batch/test_object_store.py)."""
    runs: dict = {}

    def get(sig):
        if sig not in runs:
            runs[sig] = interrupt_then_resume(tmp_path_factory.mktemp(f"signal{int(sig)}"), sig)
        return runs[sig]
    yield get


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM])
def test_interrupt_then_resume_equals_uninterrupted(interrupted, sig):
    from support.recorded import RECORDED_LIMIT_6000, parts_digest
    code, err, manifest_after_stop, done, again, folder = interrupted(sig)
    assert code == 130, err
    assert "run the same command again to resume" in err and "Traceback" not in err
    assert not manifest_after_stop
    assert 2 <= done < 12
    assert again.returncode == 0, again.stderr
    assert f"{12 - done} computed, {done} kept" in again.stderr
    assert parts_digest(json.loads((beside(folder) / "_manifest.json").read_text())) == RECORDED_LIMIT_6000
    assert [hashlib.sha256(b).hexdigest() for b in parts(folder).values()] == \
        [p["sha256"] for p in json.loads((beside(folder) / "_manifest.json").read_text())["parts"]]


@pytest.mark.slow
def test_odds_table(tmp_path):
    p = pokerpipe("odds-table", "--out", str(tmp_path), "--quiet")
    assert p.returncode == 0, p.stderr
    t = ds.dataset(tmp_path / "odds-table", format="parquet").to_table().to_pandas().set_index("outs")
    assert len(t) == 20
    assert abs(t.loc[15, "turn_or_river_pct"] - 100 * (1 - 32 * 31 / (47 * 46))) < 1e-12
    assert abs(t.loc[9, "turn_pct"] - 100 * 9 / 47) < 1e-12 and abs(t.loc[9, "river_pct"] - 100 * 9 / 46) < 1e-12
    assert t.loc[15, "rule_4_pct"] == 59 and t.loc[15, "rule_2_pct"] == 31
    assert t.loc[9, "turn_odds"] == "4.22 : 1"
    assert "54.12%" in p.stdout


def _closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
@pytest.mark.parametrize("args, words", [
    (["vs-random", "--opponents", "0"], "opponents must be 1 to 9"),
    (["vs-random", "--opponents", "10"], "opponents must be 1 to 9"),
    (["vs-random", "--opponents", "x"], "--opponents"),
    (["odds-table", "--out", "/proc/forbidden"], "cannot write"),
    (["odds-table", "--scheduler", "tcp://127.0.0.1:{port}"], "cannot reach Dask scheduler"),
    (["matchups", "--workers", "0"], "--workers"),
])
def test_bad_options(tmp_path, args, words):
    args = [a.format(port=_closed_port()) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path)]
    p = pokerpipe(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], p.stderr


@pytest.mark.slow
def test_damaged_input_is_repaired_not_read(full, tmp_path):
    """A flipped bit in a finished matchups part is caught by its SHA-256 and recomputed before use."""
    copy_dataset(full / "matchups", tmp_path / "matchups")
    damaged = tmp_path / "matchups" / "part-00001.parquet"
    data = bytearray(damaged.read_bytes())
    data[3620] ^= 1
    damaged.write_bytes(bytes(data))
    p = pokerpipe("vs-random", "--opponents", "1", "--out", str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "matchups: 47,008 rows in 95 parts" in p.stderr and "(1 computed, 94 kept" in p.stderr
    assert damaged.read_bytes() == (full / "matchups" / "part-00001.parquet").read_bytes()
    t = ds.dataset(tmp_path / "vs-random", format="parquet").to_table().to_pandas().set_index("hand")
    assert round(t.loc["AKo", "equity"], 5) == 0.65320
