"""What a worker imports to take a dataset's work: the recipe, its kernels and the reader of its inputs, never the
runner, the cluster session, the equity calculator or Dask.

A local cluster's fork server unpickles each dataset (and the reader of its inputs, which the tasks carry)
before its first worker can start, so that every worker forked afterwards has them loaded: whatever that
unpickling imports is on the critical path of every run (issue 38: abstraction/turn's cluster start on an AMD
EPYC Zen 1, where the runner, the session and the equity package were 0.16 s of the server's 0.42 s).  Each
check is a fresh interpreter, as the server is.
"""
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.datasets.build import PlannedInputs, Reader, open_storage, plan

ROOT = Path(__file__).parent.parent.parent

# what no worker's task needs: the client's side of a run, and the calculator behind `pokerpipe equity`
CLIENT_ONLY = ("pipeline.batch.runner", "pipeline.batch.session", "pipeline.equity.calculator", "dask",
               "distributed", "typer", "jobs")

LOADED = """
import pickle, sys
ds, inputs = pickle.loads(sys.stdin.buffer.read())
from pipeline.batch import parts                 # what a worker runs a task with
print(" ".join(m for m in {names!r} if m in sys.modules))
"""


@pytest.mark.parametrize("name", ["abstraction/turn", "ehs-table/flop", "matchups", "exploitability"])
def test_a_worker_imports_no_runner_session_or_calculator(name, tmp_path):
    planned = plan([name])
    blob = pickle.dumps((planned[-1], PlannedInputs(Reader(open_storage(tmp_path)), planned)))
    p = subprocess.run([sys.executable, "-c", LOADED.format(names=CLIENT_ONLY)], input=blob, capture_output=True,
                       timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    assert p.stdout.decode().split() == []
