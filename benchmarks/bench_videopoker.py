"""Video poker timings: a fresh process with caches warm, the first run ever, and --all.

    python benchmarks/bench_videopoker.py

"First run ever" uses an empty table cache (a temporary $POKERPIPE_CACHE) and
removes the video-poker kernels from numba's cache, so it includes compiling.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wall(args: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "jobs", *args], cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "POKERPIPE_CACHE": cache}
        for f in (ROOT / "pipeline" / "videopoker" / "__pycache__").glob("*.nb[ic]"):
            f.unlink()
        first = wall(["videopoker", "jacks-or-better-9-6"], env)
        warm = sorted(wall(["videopoker", "jacks-or-better-9-6"], env) for _ in range(5))
        all_cold = wall(["videopoker", "--all"], {**os.environ, "POKERPIPE_CACHE": cache + "/all"})
        all_warm = wall(["videopoker", "--all"], {**os.environ, "POKERPIPE_CACHE": cache + "/all"})
    print(f"first run ever (compile + tables + solve): {first:.2f} s")
    print(f"fresh process, caches warm: best {warm[0]:.2f} s, median {warm[2]:.2f} s")
    print(f"--all (22 games): {all_cold:.2f} s with empty table caches, {all_warm:.2f} s warm")


if __name__ == "__main__":
    main()
