"""The CFR+ walks are cached: a second ``pokerpipe solve`` process loads them from numba's cache, compiling nothing.

Each run is a fresh Python process (``python -c DRIVER``: ``solve leduc``,
OpenSpiel's order of the history walk, then ``solve hulhe`` on stand-in
buckets with two threads, the vector walk whole and cut) with the same, at
first empty, ``POKERPIPE_CACHE``.  The driver registers a listener on numba's
``"numba:compile"`` event, which numba broadcasts when a dispatcher compiles
(on a cache miss, and every time for a function that is not cached), and
writes the names of the functions compiled in the run.  The first run must
compile the solver's walks (else the listener saw nothing and the second run's
silence would prove nothing); the second must compile no kernel of
``pipeline.solver`` or ``pipeline.exploit``.  The two runs give the same
strategy bytes.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = """
import json, sys
from numba.core import event

class Compiled(event.Listener):
    def __init__(self):
        self.names = []
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        self.names.append(f.__module__ + "." + f.__qualname__)
    def on_end(self, ev):
        pass

listener = Compiled()
event.register("numba:compile", listener)
from jobs.main import main
code = main(["solve", "leduc", "--iterations", "3", "--out", sys.argv[1] + "/leduc", "--quiet", "--json"])
code |= main(["solve", "hulhe", "--iterations", "2", "--out", sys.argv[1] + "/hulhe", "-p", "k=2", "-p",
              "abstraction=modulo", "--workers", "2", "--quiet", "--json"])
with open(sys.argv[2], "w") as f:
    json.dump({"code": code, "compiled": listener.names}, f)
"""

KERNELS = ("pipeline.solver.", "pipeline.exploit.")


def _solve(cache: Path, out: Path, record: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["POKERPIPE_CACHE"] = str(cache)
    subprocess.run([sys.executable, "-c", DRIVER, str(out), str(record)], env=env, check=True, timeout=900,
                   cwd=Path(__file__).parents[2], stdout=subprocess.DEVNULL)
    return json.loads(record.read_text())


@pytest.mark.slow
def test_a_second_process_compiles_no_solver_kernel(tmp_path):
    cache = tmp_path / "cache"
    first = _solve(cache, tmp_path / "a", tmp_path / "first.json")
    second = _solve(cache, tmp_path / "b", tmp_path / "second.json")
    assert first["code"] == 0 and second["code"] == 0
    walks = {"pipeline.solver.histories._walk", "pipeline.solver.histories.openspiel_iteration",
             "pipeline.solver.vector.cfr_walk", "pipeline.solver.vector.cfr_slots", "pipeline.solver.cfr.iteration",
             "pipeline.solver.cfr.half", "pipeline.exploit.bestresponse.best_response_walk"}
    assert walks <= set(first["compiled"])
    assert [n for n in second["compiled"] if n.startswith(KERNELS)] == []
    for game in ("leduc", "hulhe"):
        a, b = (tmp_path / run / game / "_strategy.npy" for run in "ab")
        assert a.read_bytes() == b.read_bytes()
