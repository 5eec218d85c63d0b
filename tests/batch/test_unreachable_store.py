"""An object store that does not answer: ``--out gs://...`` with no credentials and no network hung silently for
Google's 15 minutes of retries, deaf to Ctrl-C.  It must be one line naming the URL, exit 2, in bounded time; and
Ctrl-C while the store is asked must end the command at once (exit 130 within 2 s).

No network is needed: the bucket's endpoint is a closed port on this machine, so the store cannot answer
whether or not credentials are found.
"""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pipeline.batch.storage as storage_module
from pipeline.batch.storage import Storage, StorageError

ROOT = Path(__file__).parents[2]
BOUND = 30          # seconds: a refusal later than this is a hang (the store retried for 15 minutes before)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unreachable(extra: str = "") -> str:
    """A gs:// URL whose endpoint is a closed port on this machine."""
    return f"gs://nonexistent-bucket-xyz/x?scheme=http&endpoint_override=127.0.0.1:{closed_port()}{extra}"


@pytest.mark.slow
def test_an_unreachable_bucket_is_refused_in_one_line_in_bounded_time():
    url = unreachable()
    clock = time.monotonic()
    with pytest.raises(StorageError) as e:
        Storage.open(url)
    assert time.monotonic() - clock < BOUND
    assert str(e.value).startswith(f"--out {url!r} cannot be reached: ") and "\n" not in str(e.value), e.value


def test_a_store_silent_beyond_the_limit_is_refused_then(monkeypatch):
    monkeypatch.setattr(storage_module, "REACH_SECONDS", 0.5)
    url = unreachable("&retry_limit_seconds=60")      # the URL's own retries (a minute) are kept
    clock = time.monotonic()
    with pytest.raises(StorageError, match=r"no answer from the store in 0\.5 s"):
        Storage.open(url)
    assert time.monotonic() - clock < 2


def pokerpipe(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)


@pytest.mark.slow
@pytest.mark.parametrize("command", [["tables", "odds-table", "--quiet"], ["datasets"],
                                     ["solve", "leduc", "-n", "10", "--quiet"]])
def test_the_command_line_refuses_an_unreachable_bucket(command):
    url = unreachable()
    clock = time.monotonic()
    p = pokerpipe(*command, "--out", url)
    assert time.monotonic() - clock < BOUND + 20
    assert p.returncode == 2, p.stderr
    lines = p.stderr.splitlines()
    assert lines[-1].startswith(f"pokerpipe: error: --out {url!r} cannot be reached: "), p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


# ``pokerpipe tables odds-table --out URL --quiet``, saying "ready" on stderr once the console script is imported
# (from then on the command's own Ctrl-C handling holds: `pokerpipe: interrupted`, exit 130)
_READY_THEN_RUN = """
import sys
from jobs.main import entry
sys.argv = ["pokerpipe", "tables", "odds-table", "--quiet", "--out", sys.argv[1]]
print("ready", file=sys.stderr, flush=True)
entry()
"""


@pytest.mark.slow
def test_ctrl_c_while_the_store_is_silent_exits_130_at_once():
    url = unreachable("&retry_limit_seconds=60")      # asked for a minute: Ctrl-C comes while it is
    p = subprocess.Popen([sys.executable, "-c", _READY_THEN_RUN, url], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=ROOT,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert p.stderr.readline() == "ready\n"
        time.sleep(3)                                   # the command's imports done, the store being asked
        assert p.poll() is None, p.stderr.read()
        os.kill(p.pid, signal.SIGINT)
        sent = time.monotonic()
        code = p.wait(timeout=15)
        assert (code, p.stderr.read()) == (130, "pokerpipe: interrupted\n")
        assert time.monotonic() - sent < 2
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
