"""The fork server prepares a dataset whose class lives in a folder the client added to its path, and a list
holding one dataset it cannot read still prepares the others (pipeline.batch.preload).

Before, the server unpickled the whole list at once on its own ``sys.path`` (multiprocessing's fork server
ignored the client's until Python 3.12.8): a test module's dataset, or a user's beside a script, made it prepare
nothing, and every worker then prepared (compiled) every dataset itself, all at the same time.
"""
import pickle
import sys

import pytest
from support.prepared import MODULE, preparing_seconds, preparing_seconds_of_a_run

from pipeline.batch.handoff import pickled
from pipeline.batch.preload import listing, read_listing
from pipeline.datasets.recipes.matchups import Matchups


@pytest.mark.slow
def test_the_server_prepares_a_dataset_from_the_clients_own_folder(tmp_path):
    """Every part's worker found the dataset prepared (0 s of its own preparing): the server unpickled it from the
    folder the client had added to ``sys.path``.  On the earlier listing, the server could not import ``mine``
    and each of the two workers prepared it (a part with a non-zero preparation)."""
    prepares = preparing_seconds(tmp_path / "out", tmp_path / "src")
    assert prepares and all(p == 0 for p in prepares), prepares


def test_a_pair_that_does_not_unpickle_loses_only_itself(tmp_path, monkeypatch):
    folder = tmp_path / "gone"
    folder.mkdir()
    (folder / "gone_module.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(folder))
    from gone_module import Mine

    lost = pickled((Mine(limit=5), None))
    kept = (Matchups(limit=7), (0, 1))
    monkeypatch.delitem(sys.modules, "gone_module")
    # the module is not where the listing's path says: its pair is left out, the other read
    data = pickle.dumps(([p for p in sys.path if p != str(folder)], [lost, pickled(kept)]))
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(folder)])
    pairs = read_listing(data)
    assert [(type(d), d.params, s) for d, s in pairs] == [(Matchups, kept[0].params, kept[1])]


def test_the_server_reads_the_listing_with_the_path_its_workers_get(tmp_path, monkeypatch):
    """The server takes the client's search path whole, its working folder ('') made absolute, as multiprocessing
    gives it to a worker: a module the server imports is the one its workers would."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", "/client/own", *sys.path])
    data = listing([(Matchups(limit=3), (0, 1))])
    from multiprocessing import process

    monkeypatch.setattr(sys, "path", ["/server/first"])
    pairs = read_listing(data)
    assert sys.path[:2] == [process.ORIGINAL_DIR, "/client/own"] and "/server/first" not in sys.path
    assert len(pairs) == 1 and pairs[0][0].params == Matchups(limit=3).params and pairs[0][1] == (0, 1)


def test_a_failed_pair_leaves_no_module_of_its_own_behind(tmp_path, monkeypatch):
    """A name the server resolves to another module (here: the working folder's ``mine/``, a namespace package)
    must not stay imported: the workers, forked with it, would meet it instead of the client's ``mine.py``."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "mine.py").write_text(MODULE)
    (tmp_path / "mine").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    from mine import Mine

    blob = pickled((Mine(limit=5), None))
    monkeypatch.delitem(sys.modules, "mine")
    data = pickle.dumps(([str(tmp_path), *[p for p in sys.path if p != str(tmp_path / "src")]], [blob]))
    assert read_listing(data) == [] and "mine" not in sys.modules


@pytest.mark.slow
def test_a_run_of_several_datasets_prepares_them_all_before_the_workers_fork(tmp_path):
    """The cluster starts once, for the run's first dataset: the server prepares the later ones too, where their
    inputs are at hand, and no worker prepares any of them for itself."""
    parts = preparing_seconds_of_a_run(tmp_path / "out")
    assert set(parts) == {"matchups", "ehs-table/river"} and all(parts.values()), parts
    assert all(seconds == 0 for times in parts.values() for seconds in times), parts
