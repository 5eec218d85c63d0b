"""The console script's first step (jobs.launch): a command that builds datasets on local workers starts its
fork server before the command line loads, and only such a command."""
import ast
import os
import subprocess
import sys
from pathlib import Path

from jobs.launch import BUILDERS, builds_locally

ROOT = Path(__file__).resolve().parent.parent.parent
COMMANDS = ROOT / "jobs" / "commands"


def calls_ahead(path: Path) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "ahead"
               for n in ast.walk(ast.parse(path.read_text())))


def test_the_launchers_list_is_the_commands_that_start_a_fork_server_first_thing():
    found = {p.stem.replace("_", "-") for p in COMMANDS.glob("*.py") if calls_ahead(p)}
    assert found == BUILDERS


def test_a_run_elsewhere_or_a_help_starts_nothing():
    assert builds_locally(["matchups", "--workers", "4"])
    assert not builds_locally(["matchups", "--scheduler=tcp://10.0.0.5:8786"])
    assert not builds_locally(["tables", "--help"]) and not builds_locally(["tables", "-h"])
    assert not builds_locally([]) and not builds_locally(["--help"]) and not builds_locally(["evolve"])


SEEN = """
import sys
import pipeline.batch.forkserver as fs
fs.start_ahead = lambda: print("start_ahead", "typer" in sys.modules, "numpy" in sys.modules, flush=True)
sys.argv = ["pokerpipe", *sys.argv[1:]]
from jobs.launch import entry
entry()
"""


def run(*args: str) -> list[str]:
    p = subprocess.run([sys.executable, "-c", SEEN, *args], capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 2, p.stderr          # the dataset does not exist: one line, exit 2
    return [line for line in p.stdout.splitlines() if line.startswith("start_ahead")]


def test_the_fork_server_starts_before_the_command_line_and_numpy_load(tmp_path):
    seen = run("tables", "no-such-dataset", "--out", str(tmp_path))
    assert seen[0] == "start_ahead False False"      # first, before Typer and numpy
    assert run("tables", "no-such-dataset", "--out", str(tmp_path), "--scheduler", "tcp://127.0.0.1:1") == []


def test_a_command_that_runs_kernels_does_not_import_scipy():
    """numba's start imports scipy.linalg to probe for a BLAS (0.35 s of a warm command's 1.6 s of CPU on the AMD EPYC
    Zen 1 of CI); the console script answers the probe itself (pipeline.core.numba_start).  ``-X importtime`` lists
    every module the real entry imports."""
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "jobs", "equity", "AhKh", "QsQd", "--board",
                        "2c7d9h"], capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr
    assert "(exact, 990 boards)" in p.stdout
    imported = {line.split("|")[-1].strip() for line in p.stderr.splitlines() if line.startswith("import time:")}
    assert "numba.np.arraymath" in imported and "pipeline.equity.exact" in imported     # kernels did run
    assert "scipy.linalg" not in imported
