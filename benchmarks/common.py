"""Helpers shared by the benchmark scripts: timing and random hands."""
from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np


def best_of(fn, repeat: int = 5) -> float:
    """Fastest wall time of ``repeat`` calls, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def random_hands(n: int, k: int = 7, seed: int = 1) -> np.ndarray:
    """``n`` random hands of ``k`` distinct cards, uint8 ids, from a seeded shuffle per row."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), np.uint8)
    step = 1 << 18
    for i in range(0, n, step):
        m = min(step, n - i)
        out[i:i + m] = np.argsort(rng.random((m, 52), dtype=np.float32), axis=1)[:, :k]
    return out


def patched_ompeval(src: Path, tmp: Path) -> Path:
    """A copy of OMPEval's sources (``omp/``, ``libdivide/``) under ``tmp`` with the two fixes current compilers
    need: ``constexpr`` ``min()``/``max()`` in ``omp/Random.h``, ``#include <functional>`` in
    ``omp/EquityCalculator.h``.  Returns the copy's folder (the ``-I`` of a driver's build)."""
    copy = tmp / "ompeval"
    for sub in ("omp", "libdivide"):
        shutil.copytree(src / sub, copy / sub)
    random_h = copy / "omp" / "Random.h"
    random_h.write_text(re.sub(r"static uint64_t (min|max)\(\)", r"static constexpr uint64_t \1()",
                               random_h.read_text()))
    calc_h = copy / "omp" / "EquityCalculator.h"
    text = calc_h.read_text()
    if "#include <functional>" not in text:
        calc_h.write_text(text.replace("#include <cstdint>", "#include <cstdint>\n#include <functional>", 1))
    return copy


def build_ompeval_driver(src: Path, tmp: Path, driver: Path, name: str) -> Path:
    """``driver`` (a C++ file of ``benchmarks/``) compiled with ``g++ -O3 -march=native`` against a patched
    copy of OMPEval's sources (:func:`patched_ompeval`); the executable's path, ``tmp / name``."""
    copy = patched_ompeval(src, tmp)
    exe = tmp / name
    subprocess.run(["g++", "-O3", "-march=native", "-std=c++11", "-pthread", "-I", str(copy), "-o", str(exe),
                    str(driver), *map(str, sorted((copy / "omp").glob("*.cpp")))],
                   check=True, capture_output=True, text=True)
    return exe
