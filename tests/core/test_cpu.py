"""The one SIMD switch: the default is the best path numba's target runs, POKERPIPE_SIMD forces one, and a bad
value or a path the CPU lacks is one clear error (exit code 2 on the command line), never another path."""
import os
import subprocess
import sys

import pytest

from pipeline.core import cpu


def test_the_default_is_the_best_runnable_path(monkeypatch):
    monkeypatch.delenv("POKERPIPE_SIMD", raising=False)
    assert cpu.simd_path() == cpu.runnable_paths()[-1]
    assert cpu.runnable_paths()[0] == "scalar"
    have = cpu.target_features()
    expected = "avx512" if {"avx512f", "avx512bw"} <= have else "avx2" if "avx2" in have else "scalar"
    assert cpu.simd_path() == expected


@pytest.mark.parametrize("value", ["scalar", " Scalar ", "SCALAR"])
def test_a_path_is_forced(monkeypatch, value):
    monkeypatch.setenv("POKERPIPE_SIMD", value)
    assert cpu.simd_path() == "scalar" and cpu.simd_level() == cpu.SCALAR


@pytest.mark.parametrize("value", ["avx", "sse", "avx-512", "1"])
def test_a_bad_value_is_refused(monkeypatch, value):
    monkeypatch.setenv("POKERPIPE_SIMD", value)
    with pytest.raises(cpu.SimdError, match="is not a SIMD path: use one of avx512, avx2, scalar"):
        cpu.simd_path()


def test_a_path_the_cpu_lacks_is_refused(monkeypatch):
    """On a CPU with AVX2 and no AVX-512 (the x86-64-v3 level), forcing avx512 names what is missing."""
    monkeypatch.setattr(cpu, "target_cpu", lambda: ("x86-64-v3", frozenset(cpu.LEVEL_FEATURES["x86-64-v3"])))
    cpu._resolve.cache_clear()
    try:
        monkeypatch.setenv("POKERPIPE_SIMD", "avx512")
        with pytest.raises(cpu.SimdError, match="needs avx512f, avx512bw, which this CPU .x86-64-v3. lacks: use "
                                                "one of avx2, scalar"):
            cpu.simd_path()
        monkeypatch.delenv("POKERPIPE_SIMD")
        assert cpu.simd_path() == "avx2"
    finally:
        cpu._resolve.cache_clear()


def test_numba_target_features_are_read_from_its_settings(monkeypatch):
    from numba.core import config

    monkeypatch.setattr(config, "CPU_NAME", "x86-64-v3")
    monkeypatch.setattr(config, "CPU_FEATURES", "+avx2,-bmi2")
    cpu.target_cpu.cache_clear()
    try:
        name, features = cpu.target_cpu()
        assert name == "x86-64-v3" and "avx2" in features and "bmi2" not in features and "avx512f" not in features
    finally:
        cpu.target_cpu.cache_clear()


@pytest.mark.slow
def test_the_command_line_refuses_a_bad_value_in_one_line():
    env = {**os.environ, "POKERPIPE_SIMD": "avx1024"}
    got = subprocess.run([sys.executable, "-m", "jobs", "equity", "AhKh", "random", "--trials", "1000"],
                         capture_output=True, text=True, env=env)
    assert got.returncode == 2, got.stderr
    assert got.stderr.strip().splitlines() == ["pokerpipe: error: POKERPIPE_SIMD='avx1024' is not a SIMD path: use "
                                               "one of avx512, avx2, scalar"]
