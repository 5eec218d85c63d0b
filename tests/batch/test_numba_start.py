"""numba's start (pipeline.core.numba_start.numba_started: the fork server's, a run client's) without SciPy's
import: numba probes for a BLAS by importing scipy.linalg.cython_blas, 0.2 s of the server's start for a
library no part uses.
The kernels compiled afterwards must be those compiled in any other process: np.convolve of floats takes BLAS
where SciPy is installed, as numba decides on its own, and np.dot still works.

Each check is a fresh process: numba's registries fill once per process."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": str(HERE.parent.parent)}

CODE = """
import importlib.util, json, sys
import numpy as np
{start}
import numba
from numba.np import arraymath
linalg_before = "scipy.linalg" in sys.modules

@numba.njit
def convolved(a, b):
    return np.convolve(a, b)

@numba.njit
def dotted(a, b):
    return np.dot(a, b)

a, b = np.linspace(0.1, 3.7, 31), np.linspace(-2.0, 1.3, 9)
print(json.dumps({{"linalg_before": linalg_before, "blas": arraymath._HAVE_BLAS,
                   "scipy": importlib.util.find_spec("scipy") is not None,
                   "convolved": convolved(a, b).tolist(), "dotted": dotted(a[:9], b)}}))
"""


def run(start: str) -> dict:
    got = subprocess.run([sys.executable, "-c", CODE.format(start=start)], capture_output=True, text=True,
                         timeout=300, env=ENV)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout.splitlines()[-1])


def test_numba_starts_without_importing_scipy_linalg_and_compiles_as_anywhere_else():
    ours = run("from pipeline.core.numba_start import numba_started\nnumba_started()")
    plain = run("from numba.core.registry import cpu_target\n"
                "cpu_target.target_context.refresh(); cpu_target.typing_context.refresh()")
    assert not ours["linalg_before"]
    assert plain["linalg_before"] == plain["scipy"]              # what numba's own start costs where SciPy is
    assert ours["blas"] == plain["blas"] == ours["scipy"]        # numba's own answer, where it probes for real
    assert ours["convolved"] == plain["convolved"]               # the same kernel, to the last bit
    a, b = np.linspace(0.1, 3.7, 31), np.linspace(-2.0, 1.3, 9)
    assert np.allclose(ours["convolved"], np.convolve(a, b), rtol=1e-13, atol=1e-13)
    assert abs(ours["dotted"] - float(np.dot(a[:9], b))) < 1e-12


def test_numba_started_when_its_first_kernel_loads_without_importing_scipy_linalg():
    """The command line's way (jobs.launch): nothing starts until numba.np.arraymath is first imported."""
    ours = run("from pipeline.core.numba_start import start_numba_without_scipy\nstart_numba_without_scipy()\n"
               "import sys\nassert 'numba.np.arraymath' not in sys.modules")
    plain = run("from numba.core.registry import cpu_target\n"
                "cpu_target.target_context.refresh(); cpu_target.typing_context.refresh()")
    assert not ours["linalg_before"]
    assert ours["blas"] == plain["blas"] == ours["scipy"]
    assert ours["convolved"] == plain["convolved"] and ours["dotted"] == plain["dotted"]
