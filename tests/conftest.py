import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# An unreachable --scheduler is tried for 10 s before the one-line refusal; the tests of that refusal (several,
# through the console script too) need not wait so long.  A reachable test cluster answers well within it.
os.environ.setdefault("DASK_POKERPIPE__CONNECT_TIMEOUT", "3s")


@pytest.fixture(scope="session")
def small_cluster():
    """One local Dask worker for the small builds that fixtures of several modules share (started once)."""
    from pipeline.batch.session import Session

    with Session(1, None, True) as session:
        yield session
