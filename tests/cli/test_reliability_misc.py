"""Issue 20, the cases outside the batch runner, the evolution and the hold'em engine: one line and exit 2
for numbers that would overflow or options that would be ignored, honest labels, caches that cannot be used.

Every case runs the real console script in its own process (``python -m jobs``), three at a time.
"""
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest


def cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=300,
                          env=env)


def assert_refused(p, words):
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    assert lines[0].startswith("pokerpipe: error: ") and words in lines[0], lines[0]
    assert not p.stdout


REFUSALS = [
    # item 19: pot odds of 1e300 against 1e-300 overflowed a float conversion
    (["outs", "AhKh", "--board", "Qh 7h 2c", "--pot", "1e300", "--to-call", "1e-300"], "pot must be 0 or between"),
    (["outs", "AhKh", "--board", "Qh 7h 2c", "--pot", "100", "--to-call", "1e-300"], "to-call must be 0 or"),
    (["outs", "AhKh", "--board", "Qh 7h 2c", "--pot", "-1", "--to-call", "5"], "pot must be 0 or between"),
    (["outs", "AhKh", "--board", "Qh 7h 2c", "--pot", "inf", "--to-call", "5"], "--pot must be a finite number"),
    # the pot holds the bet to call: one below the call gave a break-even and implied odds
    (["outs", "AhKh", "--board", "Qh 7h 2c", "--pot", "10", "--to-call", "20"], "pot 10 is less than to-call 20"),
    (["outs", "AhKh", "--board", "Qh 7h 2c", "--pot", "0", "--to-call", "5"], "the pot includes the bet to call"),
    # item 21: --hand analyses one hand; --out and --break-even were silently ignored
    (["videopoker", "jacks-or-better-9-6", "--hand", "Jc Qc Kc Ac 2h", "--out", "x"], "--out apply to a whole game"),
    (["videopoker", "jacks-or-better-9-6", "--hand", "Jc Qc Kc Ac 2h", "--break-even"], "--break-even apply"),
    # GAME, --paytable and --all exclude each other: two of them said "give one of ..."
    (["videopoker", "jacks-or-better-9-6", "--paytable", "F"],
     "GAME and --paytable exclude each other: give only one of GAME, --paytable FILE or --all"),
    (["videopoker", "--paytable", "F", "--all"], "--paytable and --all exclude each other"),
    # --workers out of range: checked after the whole analysis was printed (--out), or not at all (without)
    (["videopoker", "jacks-or-better-9-6", "--out", "x", "--workers", "0"], "--workers must be 1 to "),
    (["videopoker", "jacks-or-better-9-6", "--workers", "0"], "--workers must be 1 to "),
    (["videopoker", "jacks-or-better-9-6", "--workers", "100000"], "per core), got 100000"),
    # --list with a game, --all or options that only an analysis takes: they were ignored
    (["videopoker", "--list", "--all"], "--list lists the games and takes no --all"),
    (["videopoker", "--list", "jacks-or-better-9-6", "--royal", "800"], "takes no GAME or --royal"),
    # --hero shows one seat's cards in PokerStars text: without it, it was ignored
    (["play", "-p", "tag,random", "--hands", "100", "--hero", "1"], "--hero goes with --history pokerstars"),
]


@pytest.fixture(scope="module")
def console():
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = [pool.submit(cli, *args) for args, _ in REFUSALS]
        yield lambda i: futures[i].result()


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(REFUSALS)))
def test_refused_with_one_line(console, case):
    assert_refused(console(case), REFUSALS[case][1])


@pytest.mark.slow
def test_pot_odds_at_the_limits_are_exact():
    """A trillion into a millionth: pot odds 10**18 : 1, finite; AhKh on Qh7h2c has 15 outs (nine hearts,
    three aces, three kings) of 47 unseen cards."""
    p = cli("outs", "AhKh", "--board", "Qh 7h 2c", "--pot", "1e12", "--to-call", "1e-6", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["pot_odds"] == 1e18 and r["hit_next_card"] == 15 / 47 and r["profitable"] is True


@pytest.mark.slow
def test_an_estimate_from_no_deals_is_not_called_exact():
    """Quad aces on AcAdKh are never behind: against 2 opponents the sampled PPOT has no deal in its
    denominator — 0 by convention, with no standard error — and NPOT is a Monte Carlo estimate, not 'exact'."""
    p = cli("odds", "AhAs", "--board", "AcAdKh", "--trials", "2000", "--max-opponents", "2")
    assert p.returncode == 0, p.stderr
    row = next(line.split() for line in p.stdout.splitlines() if line.split()[:1] == ["2"])
    assert row[-3:] == ["n/a", "0.0000", "0.0000"], p.stdout      # PPOT se, NPOT, NPOT se
    assert "no sampled deal was behind" in p.stdout
    doc = json.loads(cli("odds", "AhAs", "--board", "AcAdKh", "--trials", "2000", "--max-opponents", "2",
                         "--json").stdout)
    assert doc["opponents"][1]["ppot_stderr"] is None and doc["opponents"][1]["npot_stderr"] == 0.0


def test_a_paytable_that_is_a_fifo_is_refused_not_read(tmp_path):
    """Reading a FIFO would wait forever for a writer."""
    fifo = tmp_path / "my-game.toml"
    os.mkfifo(fifo)
    assert_refused(cli("videopoker", "--paytable", str(fifo)), "not a regular file")


@pytest.mark.slow
def test_cache_files_holding_objects_are_rebuilt_once(tmp_path):
    """Cached tables replaced by .npz files of pickled objects are refused unread (never unpickled) and
    rebuilt with one line each; the answer is the one a clean cache gives (../shared/README.md: AhKh vs QsQd
    wins 787,966 and ties 6,732 of 1,712,304 boards)."""
    src = os.path.join(os.environ.get("POKERPIPE_CACHE") or os.path.expanduser("~/.cache/pokerpipe"))
    from pipeline.core.version import __version__
    cache = tmp_path / "cache"
    shutil.copytree(os.path.join(src, __version__), cache / __version__, ignore=shutil.ignore_patterns("numba"))
    poisoned = sorted(p.name for p in (cache / __version__).glob("evaluator-*.npz"))
    assert poisoned
    for name in poisoned:
        np.savez(cache / __version__ / name, x=np.array([{"a": 1}], dtype=object))
    from pipeline.core.cache import numba_cache_dir
    env = dict(os.environ, POKERPIPE_CACHE=str(cache), NUMBA_CACHE_DIR=str(numba_cache_dir()))
    p = cli("equity", "AhKh", "QsQd", "--no-table", "--json", env=env)
    assert p.returncode == 0, p.stderr
    from pipeline.evaluator.tables import _cache_path
    read = _cache_path().name                 # the 52-card deck's file (a short deck's tables may lie beside it)
    assert read in poisoned
    assert [line for line in p.stderr.splitlines() if line] == \
        [f"pokerpipe: cached table {cache / __version__ / read} was damaged or stale; rebuilding it"]
    first = json.loads(p.stdout)["players"][0]
    assert (first["wins"], first["ties"], json.loads(p.stdout)["boards"]) == (787_966, 6_732, 1_712_304)
    p = cli("equity", "AhKh", "QsQd", "--no-table", "--json", env=env)     # rebuilt once: quiet now
    assert p.returncode == 0 and not p.stderr, p.stderr
