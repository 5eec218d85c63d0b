import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# An unreachable --scheduler is tried for 10 s before the one-line refusal; the tests of that refusal (several,
# through the console script too) need not wait so long.  A reachable test cluster answers well within it.
os.environ.setdefault("DASK_POKERPIPE__CONNECT_TIMEOUT", "3s")
