"""The one SIMD switch: which vector path the evaluator's and Monte Carlo's kernels take.

Three paths, by what the CPU offers:

* ``avx512``: eight hands a step in eight 64-bit lanes (AVX-512 F and BW: Intel since Skylake-SP, AMD
  since Zen 4);
* ``avx2``: eight hands a step in eight 32-bit lanes, with AVX2's 8 x 32-bit gathers (Intel since Haswell,
  AMD since Zen 1: the CPUs of most cloud instances without AVX-512);
* ``scalar``: one hand at a time, as numba compiles the plain kernels (any CPU).

The default is the best path the CPU has.  ``POKERPIPE_SIMD=avx512|avx2|scalar`` forces one: to compare
paths, or to rule one out.  A value that is not a path, or a path this CPU cannot run, raises
:class:`SimdError` (one line, exit code 2 on the command line) rather than running another path silently.

"The CPU" is numba's compilation target: the host, unless ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES``
name another.  ``NUMBA_CPU_NAME=x86-64-v3 NUMBA_CPU_FEATURES=+avx2`` compiles every kernel as for a CPU with
AVX2 and no AVX-512 (the path and numba's own vectorised loops alike), so an AVX-512 machine measures what an
AVX2-only one runs (``benchmarks/bench_vs_ompeval.py --simd avx2`` does that).  Kernels cached for one target
are never run on another: numba keys its cache by the target's name and features.

>>> PATHS
('scalar', 'avx2', 'avx512')
>>> simd_path() in runnable_paths()
True
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

import llvmlite.binding as llvm

from .errors import InputError

__all__ = ["PATHS", "SCALAR", "AVX2", "AVX512", "SimdError", "simd_path", "simd_level", "runnable_paths",
           "target_cpu", "target_features"]

PATHS = ("scalar", "avx2", "avx512")      # a path's index is the level the kernels take
SCALAR, AVX2, AVX512 = 0, 1, 2
ENV = "POKERPIPE_SIMD"
NEEDS = {"scalar": (), "avx2": ("avx2",), "avx512": ("avx2", "avx512f", "avx512bw")}

# The features of the x86-64 micro-architecture levels (the psABI's), for NUMBA_CPU_NAME=x86-64-v3 or -v4:
# LLVM gives a named CPU its features itself; numba passes only NUMBA_CPU_FEATURES beside the name.
_V2 = {"cx16", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3", "sahf"}
_V3 = _V2 | {"avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"}
_V4 = _V3 | {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}
LEVEL_FEATURES = {"x86-64-v2": _V2, "x86-64-v3": _V3, "x86-64-v4": _V4}


class SimdError(InputError):
    """``POKERPIPE_SIMD`` names no path, or one this CPU (numba's target) cannot run."""


@lru_cache(maxsize=1)
def target_cpu() -> tuple[str, frozenset[str]]:
    """``(name, features)`` of numba's compilation target: the host's, or those NUMBA_CPU_NAME and
    NUMBA_CPU_FEATURES set (features of a named CPU other than the host and the x86-64 levels: only those
    the feature string adds)."""
    from numba.core import config
    from numba.core.codegen import get_host_cpu_features

    try:
        host = llvm.get_host_cpu_name()
    except RuntimeError:
        host = "generic"
    settings: Any = config                     # numba sets its settings at run time: untyped to mypy
    name = settings.CPU_NAME or host
    if settings.CPU_FEATURES is not None:
        text = settings.CPU_FEATURES
        features = set(LEVEL_FEATURES.get(name, ()))
    else:
        try:
            text = get_host_cpu_features()
        except RuntimeError:
            text = ""
        features = set()
    for flag in filter(None, (f.strip() for f in text.split(","))):
        if flag[0] == "+":
            features.add(flag[1:])
        elif flag[0] == "-":
            features.discard(flag[1:])
    return name, frozenset(features)


def target_features() -> frozenset[str]:
    """The features of numba's compilation target (:func:`target_cpu`)."""
    return target_cpu()[1]


def runnable_paths() -> tuple[str, ...]:
    """The paths this CPU (numba's target) can run, slowest first."""
    have = target_features()
    return tuple(p for p in PATHS if all(f in have for f in NEEDS[p]))


@lru_cache(maxsize=8)
def _resolve(wanted: str) -> str:
    runnable = runnable_paths()
    if not wanted:
        return runnable[-1]
    if wanted not in PATHS:
        raise SimdError(f"{ENV}={wanted!r} is not a SIMD path: use one of {', '.join(reversed(PATHS))}")
    if wanted not in runnable:
        missing = [f for f in NEEDS[wanted] if f not in target_features()]
        raise SimdError(f"{ENV}={wanted} needs {', '.join(missing)}, which this CPU ({target_cpu()[0]}) lacks: "
                        f"use one of {', '.join(reversed(runnable))}")
    return wanted


def simd_path() -> str:
    """The path the kernels take: ``POKERPIPE_SIMD`` when set (read at each call), else the best runnable."""
    return _resolve(os.environ.get(ENV, "").strip().lower())


def simd_level() -> int:
    """:func:`simd_path` as the level the kernels take: :data:`SCALAR`, :data:`AVX2` or :data:`AVX512`."""
    return PATHS.index(simd_path())
