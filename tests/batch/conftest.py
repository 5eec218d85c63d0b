"""What the batch layer's tests share: local pools, stopped after each test."""
import multiprocessing

import pytest

from pipeline.batch.pool import Pool

CONTEXT = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                      else "spawn")


@pytest.fixture
def pool():
    """``pool(n)``: a local pool of ``n`` workers, killed at the test's end whatever it left running."""
    made = []

    def make(workers):
        made.append(Pool(workers, CONTEXT))
        return made[-1]

    yield make
    for p in made:
        p.stop()
