"""The batch runner and the datasets under damage, bad parameters and Ctrl-C (issue 20), through the console script.

Every case is a ``python -m jobs`` process.  The slow ones run three at a time
ahead of the tests that check them (``support.ahead``), so the processes and
their assertions are unchanged, only their order is not.  Refusals must be one
line on stderr, exit code 2 and no traceback; data cases check the bytes
against digests recorded from clean runs (``support.recorded``) or against
files the test wrote itself.
"""
import glob
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support.recorded import parts_digest


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "jobs", *map(str, args)], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def assert_refused(p, words):
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    assert lines[0].startswith("pokerpipe: error: ") and words in lines[0], lines[0]


def wanted(request, test: str) -> bool:
    """Whether ``test`` was collected (and kept by -k)."""
    return any(getattr(item, "originalname", None) == test for item in request.session.items)


def manifest(folder: Path) -> dict:
    return json.loads((folder / "_manifest.json").read_text())


# ---------------------------------------------------------------------------
# Case 15: a real Ctrl-C (SIGINT to the whole process group) reaches the local cluster's workers too

INTERRUPTED = ["tables", "matchups", "--param", "matchups.limit=1500", "--quiet", "--workers"]
# ``pokerpipe tables matchups --param matchups.limit=1500 --workers 1``, uninterrupted, recorded at main c907f04
RECORDED_LIMIT_1500 = "631d57ad877697e659c910e721214d44c5cd1812ce16a6f347d6af86dbf700e0"


def interrupt_whole_group(out: Path) -> dict:
    """Start a 2-worker run in its own process group, SIGINT the group once it computes, then resume it."""
    proc = subprocess.Popen([sys.executable, "-m", "jobs", *INTERRUPTED, "2", "--out", str(out)],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and not glob.glob(str(out / "matchups" / "part-*")):
        time.sleep(0.05)                 # the first part is in: both workers are computing the next ones
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.time()
    err = proc.communicate(timeout=120)[1]
    seconds = time.time() - sent
    again = cli(*INTERRUPTED, "1", "--out", out)          # resumed in this process: no cluster to start
    return {"code": proc.returncode, "stderr": err, "seconds": seconds, "again": again, "out": out}


@pytest.fixture(scope="module")
def ahead(request, tmp_path_factory):
    """The slow cases of this module, three processes at a time; ``ahead(key)`` is the result of case ``key``."""
    jobs = {}
    if wanted(request, "test_ctrl_c_to_the_process_group_is_one_line_and_resumes"):
        jobs["interrupt"] = (interrupt_whole_group, tmp_path_factory.mktemp("interrupt"))
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {key: pool.submit(fn, *args) for key, (fn, *args) in jobs.items()}
        yield lambda key: futures[key].result()


def test_ctrl_c_to_the_process_group_is_one_line_and_resumes(ahead):
    got = ahead("interrupt")
    err = got["stderr"]
    assert got["code"] == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert len(err.splitlines()) == 1 and err.startswith("pokerpipe: "), err
    # the workers are stopped, not waited for (a part takes seconds): generous for a loaded CI machine
    assert got["seconds"] < 4, got["seconds"]
    again = got["again"]
    assert again.returncode == 0, again.stderr
    # the same parts as an uninterrupted run (recorded from one: support.recorded)
    assert parts_digest(manifest(got["out"] / "matchups")) == RECORDED_LIMIT_1500
