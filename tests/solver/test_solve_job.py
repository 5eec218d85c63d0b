"""``pokerpipe solve``: its JSON, its checkpoints, and a kill -9 resumed to the bytes of an uninterrupted run."""
import json
import multiprocessing
import os
import signal
import time

import pytest

from jobs.main import main
from pipeline.batch.storage import Storage
from pipeline.datasets.solve import ARRAYS, STATE, STRATEGY, SolveError, load_checkpoint, read_strategy, solve
from pipeline.solver.cfr import Solver
from pipeline.solver.leduc import leduc

PARAMS = {"seed": 0}


def run(out, n, seconds=0.0):
    s = Solver(leduc())
    return solve(Storage.open(out), s, PARAMS, iterations=n, hours=None, checkpoint_seconds=seconds,
                 measure=lambda x: float(x.exploitability()))


@pytest.mark.slow
def test_solve_leduc_json_prints_the_exploitability(tmp_path, capsys):
    assert main(["solve", "leduc", "--iterations", "10", "--out", str(tmp_path / "s"), "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["iterations"] == 10 and doc["exploitability"] == pytest.approx(0.6104389015904066, abs=1e-9)
    manifest, probs = read_strategy(Storage.open(tmp_path / "s"))
    assert probs.shape == (leduc().rows, 3) and manifest["job"] == "solve/leduc"


def test_bad_input_is_one_line(tmp_path, capsys):
    assert main(["solve", "chess", "--iterations", "1", "--out", str(tmp_path)]) == 2
    assert main(["solve", "leduc", "--out", str(tmp_path)]) == 2
    assert main(["solve", "leduc", "--iterations", "1e15", "--out", str(tmp_path)]) == 2
    assert main(["solve", "leduc", "--hours", "30", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and "more than the 24 hours" in err[3]


def _child(out, n):
    run(out, n)


@pytest.mark.slow
def test_kill_9_then_the_same_run_gives_the_uninterrupted_bytes(tmp_path):
    whole = tmp_path / "whole"
    run(whole, 300)
    cut = tmp_path / "cut"
    Solver(leduc()).run(1)                                   # compiled before the fork
    p = multiprocessing.get_context("fork").Process(target=_child, args=(cut, 300))
    p.start()
    deadline = time.monotonic() + 60
    while not (cut / STATE).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.05)
    os.kill(p.pid, signal.SIGKILL)
    p.join()
    s = Solver(leduc())
    done = load_checkpoint(Storage.open(cut), PARAMS, s)
    assert done is not None and 0 < done.t < 300             # killed half way
    run(cut, 300)
    for name in (STRATEGY, ARRAYS):
        assert (cut / name).read_bytes() == (whole / name).read_bytes()


def test_a_damaged_checkpoint_or_other_parameters_are_refused(tmp_path):
    run(tmp_path, 3)
    with pytest.raises(SolveError, match="other parameters"):
        load_checkpoint(Storage.open(tmp_path), {"seed": 1}, Solver(leduc()))
    doc = json.loads((tmp_path / STATE).read_text())
    doc["t"] = 2
    (tmp_path / STATE).write_text(json.dumps(doc))
    with pytest.raises(SolveError, match="damaged"):
        load_checkpoint(Storage.open(tmp_path), PARAMS, Solver(leduc()))
