"""The first-use line: a command that compiles its kernels says so once, and a warm one says nothing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from jobs.firstuse import FIRST_USE_SECONDS, command_key, compile_notice, notice
from pipeline.core.compiling import on_first_compile

ROOT = Path(__file__).resolve().parents[2]


def test_the_callback_runs_once_at_the_first_compilation_and_not_for_cached_kernels():
    heard: list[str] = []

    def double(x):      # a kernel no cache holds: numba compiles it when first called with a new type
        return 2 * x

    kernel = numba.njit(double)
    with on_first_compile(heard.append):
        np.add(1, 2)                          # no kernel: nothing heard
        assert heard == []
        assert kernel(3) == 6                 # compiled: heard once, with the kernel's module
        assert kernel(2.5) == 5.0             # a second compilation: not heard again
    assert heard == [__name__]
    kernel(np.int8(1))                        # outside the block: the listener is gone
    assert heard == [__name__]


def test_each_command_line_finds_its_measured_figure():
    assert command_key(["equity", "AhKh", "QsQd"]) == "equity"
    assert command_key(["equity", "--game", "plo", "AsKsQdJd", "random"]) == "equity omaha"
    assert command_key(["equity", "-g", "omaha5-hilo", "x"]) == "equity omaha"
    assert command_key(["equity", "--game=shortdeck-trips", "AhKh", "QsQd"]) == "equity shortdeck"
    assert command_key(["ehs", "AhKh", "--board", "Qh7h2c"]) == "ehs"
    keys = {command_key(a.split()) for a in ("equity x", "equity -g plo x", "equity -g shortdeck x", "ehs x",
                                             "odds x", "play", "exploit tag")}
    assert keys <= set(FIRST_USE_SECONDS), keys - set(FIRST_USE_SECONDS)
    assert "about" in notice(["equity", "-g", "plo", "x"]) and "once per version" in notice(["ehs", "x"])


def test_quiet_and_the_switch_turn_the_line_off(monkeypatch, capsys):
    monkeypatch.setenv("POKERPIPE_COMPILE_NOTICE", "1")
    with compile_notice(["play", "--hands", "10"]):
        numba.njit(lambda x: x + 1)(1)
        numba.njit(lambda x: x + 3)(1)
    assert capsys.readouterr().err == notice(["play"]) + "\n"        # once, for two compilations
    for args in (["play", "--quiet"], ["exploit", "-q", "tag"], ["tables", "odds-table"], ["outs", "AhKh"]):
        with compile_notice(args):
            numba.njit(lambda x: x + 1)(1)
    monkeypatch.setenv("POKERPIPE_COMPILE_NOTICE", "0")
    with compile_notice(["play"]):
        numba.njit(lambda x: x + 2)(1)
    assert capsys.readouterr().err == ""


def _ehs(cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``pokerpipe ehs`` with its cache in ``cache``: the measured command of the shortest first use that is
    announced (the line is the same for every command; equity's first use is 2.5 times as long)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "POKERPIPE_COMPILE_NOTICE")}
    environ.update(POKERPIPE_CACHE=str(cache), PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, "-m", "jobs", "ehs", "AhKh", "--board", "Qh7h2c"],
                          capture_output=True, text=True, env=environ, cwd=ROOT, timeout=600)


@pytest.mark.slow
def test_a_command_says_it_compiles_on_first_use_only(tmp_path):
    """A fresh cache (a new install): one line on stderr before the answer; the same command again loads
    every kernel from the cache and prints nothing more; the answer is the same."""
    first = _ehs(tmp_path)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerpipe: compiling kernels, about ") and \
        "once per version" in lines[0], first.stderr
    again = _ehs(tmp_path)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout
    silent = _ehs(tmp_path / "other", POKERPIPE_COMPILE_NOTICE="0")
    assert silent.returncode == 0 and silent.stderr == "" and silent.stdout == first.stdout
