"""A local cluster's workers keep the memory they free (pipeline.batch.forkserver.WORKER_ENVIRON), where Dask's own
nannies have glibc hand it back at once: the next task's arrays then come from the kernel afresh, every page
of them zeroed again.  The kernel's own count of page faults tells the two apart."""
import os
import platform
import subprocess
import sys

import pytest

from pipeline.batch.forkserver import WORKER_ENVIRON

# A 24 MB array made twice in a thread of its own (a worker computes in one, not in its main thread): the page
# faults of the second.  Kept, it reuses the first one's pages: no fault.  Handed back, it faults all of them
# again: 12 where transparent huge pages give 2 MB at a time, 6,144 of 4 kB.
PROBE = """
import resource, threading
import numpy as np
faults = []
def probe():
    np.ones(3 << 20)
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    np.ones(3 << 20)
    faults.append(resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before)
thread = threading.Thread(target=probe)
thread.start()
thread.join()
print(faults[0])
"""
HEAP = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "ARROW_DEFAULT_MEMORY_POOL")


def faults_again(env: dict[str, str]) -> int:
    base = {k: v for k, v in os.environ.items() if k not in HEAP}
    got = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120,
                         env={**base, **env})
    assert got.returncode == 0, got.stderr
    return int(got.stdout.split()[-1])


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="glibc's malloc reads these variables; page faults counted per thread on Linux")
def test_a_worker_keeps_what_it_frees_where_dasks_nanny_hands_it_back():
    kept = faults_again({k: v for k, v in WORKER_ENVIRON.items() if k in HEAP})
    handed_back = faults_again({"MALLOC_TRIM_THRESHOLD_": "65536"})      # distributed.nanny.pre-spawn-environ
    assert kept < 4 and handed_back >= 12, (kept, handed_back)
