"""The progress display's counts (pipeline.batch.session.Progress): parts, and the pieces of parts not yet
written, against counts made here; the display itself is rich's, replaced by a recorder."""
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
