"""Video poker timings: a fresh process with caches warm, the first run ever, and --all.

    python benchmarks/bench_videopoker.py

"First run ever" uses an empty table cache (a temporary $POKERPIPE_CACHE) and
removes the video-poker kernels from numba's cache, so it includes compiling.

No registry package solves video-poker strategy, so the times are set beside a yardstick measured in the
same run (``common.Yardstick``: eval7 evaluating a fixed batch of random 7-card hands, before and after the
runs) and printed also as multiples of it, so that a loaded run can be set beside a quiet one.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))
from common import Yardstick  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def wall(args: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "jobs", *args], cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    yard = Yardstick()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "POKERPIPE_CACHE": cache}
        for f in (ROOT / "pipeline" / "videopoker" / "__pycache__").glob("*.nb[ic]"):
            f.unlink()
        first = wall(["videopoker", "jacks-or-better-9-6"], env)
        warm = sorted(wall(["videopoker", "jacks-or-better-9-6"], env) for _ in range(5))
        all_cold = wall(["videopoker", "--all"], {**os.environ, "POKERPIPE_CACHE": cache + "/all"})
        all_warm = wall(["videopoker", "--all"], {**os.environ, "POKERPIPE_CACHE": cache + "/all"})
    yard.after()

    def y(seconds: float) -> str:
        return f" ({yard.times(seconds)})" if yard.seconds else ""

    print(f"first run ever (compile + tables + solve): {first:.2f} s{y(first)}")
    print(f"fresh process, caches warm: best {warm[0]:.2f} s{y(warm[0])}, median {warm[2]:.2f} s{y(warm[2])}")
    print(f"--all (22 games): {all_cold:.2f} s with empty table caches{y(all_cold)}, {all_warm:.2f} s warm"
          f"{y(all_warm)}")
    print(yard.line())


if __name__ == "__main__":
    main()
