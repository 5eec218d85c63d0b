"""The CFR+ walks are cached: a second ``pokerpipe solve`` process loads them from numba's cache, compiling nothing.

Each run is a fresh Python process (``python -c DRIVER``: ``solve leduc``,
OpenSpiel's order of the history walk, then ``solve hulhe`` on stand-in
buckets with two threads, the vector walk whole and cut) with the suite's own
kernel cache, as a user's second command has the first's.  The driver
registers a listener on numba's ``"numba:compile"`` event, which numba
broadcasts when a dispatcher compiles (on a cache miss, and every time for a
function that is not cached), and writes the names of the functions compiled
in the run, and the kernels of ``pipeline.solver`` and ``pipeline.exploit``
that the run loaded from the cache.  The first run compiles whatever the cache
lacks (everything on a fresh clone, nothing once another test has solved); the
second must compile no kernel of those packages and must have loaded the
solver's walks from the cache (so its silence is the cache's doing, not an
idle run's); and the listener must have heard the one kernel the driver
compiles on purpose first (so its silence is not a deaf listener's).  The two
runs give the same strategy bytes.

It once ran both processes on a fresh, empty cache, compiling every solver
kernel for itself: a minute of the suite, warm cache or not.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = """
import json, sys
import numba
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

def heard(x):                      # cached nowhere: compiled in every run, and heard
    return x + 1

assert numba.njit(heard)(1) == 2
from jobs.main import main
code = main(["solve", "leduc", "--iterations", "3", "--out", sys.argv[1] + "/leduc", "--quiet", "--json"])
code |= main(["solve", "hulhe", "--iterations", "2", "--out", sys.argv[1] + "/hulhe", "-p", "k=2", "-p",
              "abstraction=modulo", "--workers", "2", "--quiet", "--json"])
from numba.core.registry import CPUDispatcher
loaded = sorted({f"{d.py_func.__module__}.{d.py_func.__qualname__}" for name, m in list(sys.modules.items())
                 if name.startswith(("pipeline.solver", "pipeline.exploit")) for d in vars(m).values()
                 if isinstance(d, CPUDispatcher) and sum(d.stats.cache_hits.values())})
with open(sys.argv[2], "w") as f:
    json.dump({"code": code, "compiled": listener.names, "loaded": loaded}, f)
"""

KERNELS = ("pipeline.solver.", "pipeline.exploit.")


def _solve(out: Path, record: Path) -> dict:
    subprocess.run([sys.executable, "-c", DRIVER, str(out), str(record)], env=dict(os.environ), check=True,
                   timeout=900, cwd=Path(__file__).parents[2], stdout=subprocess.DEVNULL)
    return json.loads(record.read_text())


@pytest.mark.slow
def test_a_second_process_compiles_no_solver_kernel(tmp_path):
    first = _solve(tmp_path / "a", tmp_path / "first.json")
    second = _solve(tmp_path / "b", tmp_path / "second.json")
    assert first["code"] == 0 and second["code"] == 0
    assert "__main__.heard" in first["compiled"] and "__main__.heard" in second["compiled"]
    assert [n for n in second["compiled"] if n.startswith(KERNELS)] == []
    # the kernels the two solves enter from Python (the walks they call are compiled into them), each loaded
    walks = {"pipeline.solver.histories.openspiel_iteration", "pipeline.solver.cfr.iteration",
             "pipeline.solver.cfr.half", "pipeline.solver.vector.cfr_slots",
             "pipeline.exploit.bestresponse.best_response_walk"}
    assert walks <= set(second["loaded"]), second["loaded"]
    for game in ("leduc", "hulhe"):
        a, b = (tmp_path / run / game / "_strategy.npy" for run in "ab")
        assert a.read_bytes() == b.read_bytes()
