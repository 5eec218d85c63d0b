import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# An unreachable --scheduler is tried for 10 s before the one-line refusal; the tests of that refusal (several,
# through the console script too) need not wait so long.  A reachable test cluster answers well within it.
os.environ.setdefault("DASK_POKERPIPE__CONNECT_TIMEOUT", "3s")
# A fresh clone compiles every kernel during the suite, and each command that compiles would say so on stderr,
# in whatever test runs it first: the tests compare stderr byte for byte, so the line is off here (its own tests,
# tests/cli/test_compile_notice.py, turn it back on).
os.environ["POKERPIPE_COMPILE_NOTICE"] = "0"


@pytest.fixture(scope="module")
def small_cluster():
    """One local Dask worker for a module's small builds.

    Per module, not per session: a process has one fork server (:mod:`pipeline.batch.forkserver`), kept while any
    cluster's workers live, so a session-long cluster left every later cluster of its test process unprepared:
    each of their workers compiled its kernels itself (the two of tests/datasets/test_folder_readers.py's
    cluster 92 s each for one kernel, on the AMD EPYC Zen 1 of CI)."""
    from pipeline.batch.session import Session

    with Session(1, None, True) as session:
        yield session


@pytest.fixture(scope="module")
def built_sides(tmp_path_factory, small_cluster):
    """``<out>/sides/`` (parts, checksum records, an array and a document beside them, a manifest) and
    ``<out>/_catalog.json``, built clean: the dataset of the tests of reading back and of path kinds."""
    from support.tiny_datasets import WithSides

    from pipeline.datasets import build_many

    out = tmp_path_factory.mktemp("sides")
    build_many([WithSides()], out, small_cluster, write_catalog=True)
    return out


# At most this many test processes for ``-n auto`` (pyproject.toml's addopts): each runs whole files, and the files
# start clusters of up to 8 workers and time Ctrl-C to the second, so more processes than cores would only slow
# each other; measured at 2 on the 2-core CI machine, every test passing (issue 38's note).
MOST_TEST_PROCESSES = 4


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one test process for each core this process may run on (its affinity, which pytest-xdist's
    count of physical cores ignores), at most :data:`MOST_TEST_PROCESSES`."""
    from pipeline.core.cores import available_cores

    return min(available_cores(), MOST_TEST_PROCESSES)


# Doctests that run kernels for seconds: part of the slow set (`-m "not slow"` is the fast part of the suite).
SLOW_DOCTESTS = {"pipeline.exploit.lbr.local_best_response", "pipeline.exploit.ranges"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def pool():
    """``pool(n)``: a local pool of ``n`` workers on the fork server (pipeline.batch.pool), killed at the test's
    end whatever it left running."""
    import multiprocessing

    from pipeline.batch.pool import Pool

    context = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                          else "spawn")
    made = []

    def make(workers):
        made.append(Pool(workers, context))
        return made[-1]

    yield make
    for p in made:
        p.stop()
