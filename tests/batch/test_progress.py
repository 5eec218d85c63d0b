"""The progress display's counts (pipeline.batch.session.Progress): parts, and the pieces of parts not yet
written, against counts made here; the display itself is rich's, replaced by a recorder."""
import time

import pytest

from pipeline.batch.session import Progress


class Recorder:
    """What Progress asks of rich's display: tasks added, removed, and their completed counts."""

    def __init__(self):
        self.completed, self.totals = {}, {}

    def add_task(self, name, total=0, completed=0, **fields):
        self.completed[name], self.totals[name] = completed, total
        return name

    def remove_task(self, task):
        del self.completed[task]

    def update(self, task, completed=None, total=None):
        if completed is not None:
            self.completed[task] = completed

    def advance(self, task, n):
        self.completed[task] += n

    def stop(self):
        pass


@pytest.fixture
def shown(monkeypatch):
    recorder = Recorder()

    def start(self):
        self._bar = self._bar or recorder
        return True

    monkeypatch.setattr(Progress, "_start", start)
    return recorder


def test_pieces_move_the_bar_and_a_written_part_counts_whole(shown):
    p = Progress(quiet=False)
    p.dataset("abstraction/turn", 3, 0)
    for _ in range(4):
        p.piece(1 / 5)                              # 4 pieces of a part, each a fifth; its write the last fifth
    assert shown.completed["abstraction/turn"] == pytest.approx(0.8)
    p.piece(1 / 5)                                  # a piece of the next part
    p.advance(1, 4 * (1 / 5))
    assert shown.completed["abstraction/turn"] == pytest.approx(1.2)
    p.advance(1, 1 / 5)
    p.advance(1)                                    # a part computed whole
    assert shown.completed["abstraction/turn"] == 3  # exactly: nothing of the pieces left over


def test_the_whole_run_counts_skipped_done_and_pieces(shown):
    p = Progress(quiet=False)
    p.plan(10, 2)
    p.skip(4)                                       # a dataset found built
    p.dataset("ehs-table/flop", 6, 2)               # 2 of its parts kept from an earlier run
    assert shown.completed["all datasets"] == 6 and shown.completed["ehs-table/flop"] == 2
    p.piece(0.5)
    assert shown.completed["all datasets"] == 6.5
    p.advance(1, 0.5)
    assert (shown.completed["all datasets"], shown.completed["ehs-table/flop"]) == (7, 3)


def test_a_quiet_run_shows_nothing():
    p = Progress(quiet=True)
    p.dataset("matchups", 3, 0)
    p.piece(0.5)
    p.advance(1, 0.5)
    assert p._bar is None


def test_an_abandoned_run_shows_the_parts_written(shown):
    """Ctrl-C or a failure: the pieces of parts not written are lost (a rerun computes them again), so the last
    frame shows the parts written, and a piece that ends afterwards adds nothing."""
    p = Progress(quiet=False)
    p.plan(10, 2)
    p.skip(4)
    p.dataset("ehs-table/flop", 6, 1)
    p.piece(0.25)
    p.piece(0.25)
    p.advance(1, 0.25)                              # a part written: 2 of 6, a quarter of another computed
    p.piece(0.5)
    p.abandon()
    assert (shown.completed["ehs-table/flop"], shown.completed["all datasets"]) == (2, 6)
    p.piece(0.5)                                    # a piece that was running when the run stopped
    assert (shown.completed["ehs-table/flop"], shown.completed["all datasets"]) == (2, 6)
    p.dataset("ehs-table/turn", 4, 0)               # the next dataset (a library caller carried on) counts again
    p.piece(0.5)
    assert shown.completed["ehs-table/turn"] == 0.5


class Finished:
    """What a ProgressExecutor reports to: the tasks it calls finished."""

    def __init__(self):
        self.finished = 0

    def expect(self, label, tasks):
        pass

    def finish(self, label, tasks):
        self.finished += tasks


def nap(seconds):
    time.sleep(seconds)
    return seconds


@pytest.mark.slow
def test_tasks_cancelled_or_lost_when_a_run_stops_do_not_count_as_finished(pool):
    """``play --workers 2`` stopped by Ctrl-C at 6 of 250 tasks showed 248/250: the tasks the stop cancelled
    (and those whose workers it killed) were counted as finished."""
    from pipeline.batch.fanout import ProgressExecutor

    p = pool(2)
    seen = Finished()
    executor = ProgressExecutor(p, seen, "hands", 2)
    done = [executor.submit(nap, 0) for _ in range(3)]
    assert [f.result(60) for f in done] == [0, 0, 0]
    running = [executor.submit(nap, 60) for _ in range(2)]
    waiting = [executor.submit(nap, 0) for _ in range(5)]
    time.sleep(0.5)                                 # the two long ones are on the workers
    p.stop()                                        # as an abandoned run does: busy workers killed, the rest cancelled
    assert all(f.done() for f in running + waiting) and all(f.cancelled() for f in waiting)
    assert seen.finished == 3


def test_a_task_that_fails_does_not_count_as_finished():
    from concurrent.futures import ThreadPoolExecutor

    from pipeline.batch.fanout import ProgressExecutor

    seen = Finished()
    with ThreadPoolExecutor(1) as inner:
        executor = ProgressExecutor(inner, seen, "hands", 1)
        ok, bad = executor.submit(nap, 0), executor.submit(nap, "not a number")
        assert ok.result(60) == 0 and isinstance(bad.exception(60), TypeError)
    assert seen.finished == 1


# A dataset of 6 parts of 4 pieces each on a local pool of 2 workers, stopped by SIGINT once its first part is
# written: the parts' writes wait while pieces are ready, so by then many pieces of unwritten parts are done.
_INTERRUPTED_RUN = """
import json, os, signal, sys, threading, time
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from support import tiny_datasets
from pipeline.batch.session import Progress
from pipeline.datasets import build

frames = {}
class Recorder:
    def add_task(self, name, total=0, completed=0, **fields):
        frames[name] = completed
        return name
    def remove_task(self, task):
        pass
    def update(self, task, completed=None, total=None):
        if completed is not None:
            frames[task] = completed
    def advance(self, task, n):
        frames[task] += n
    def stop(self):
        pass
def start(self):
    self._bar = self._bar or Recorder()
    return True
Progress._start = start

out = Path(sys.argv[1])
def interrupt():
    while not list(out.glob("pieces/part-*.parquet")):
        time.sleep(0.005)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=interrupt, daemon=True).start()
try:
    build(tiny_datasets.pieces(n=6, k=4, delay=0.3), out, workers=2, quiet=False)
    message = "finished"
except Exception as e:
    message = str(e)
print(json.dumps({"frame": frames.get("pieces"), "message": message,
                  "written": len(list(out.glob("pieces/part-*.parquet")))}))
"""


@pytest.mark.slow
def test_a_run_stopped_by_ctrl_c_ends_on_the_parts_written(tmp_path):
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).parents[1]
    p = subprocess.run([sys.executable, "-c", _INTERRUPTED_RUN, str(tmp_path), str(tests)], capture_output=True,
                       text=True, timeout=300, cwd=tests.parent)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    done = re.fullmatch(r"pieces: interrupted with (\d+) of 6 parts done; run the same command again to resume",
                        got["message"])
    assert done, got
    # stopped mid-run, once its first part was written (its result may not have come back yet: 0 done)
    assert int(done[1]) <= got["written"] < 6, got
    assert got["frame"] == int(done[1]), got                 # the last frame: the parts done, no pieces
