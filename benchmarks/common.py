"""Helpers shared by the benchmark scripts: timing, random hands, the machine's state."""
from __future__ import annotations

import os
import platform
import time
from pathlib import Path
from typing import Callable

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


ALL_CLASSES = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"     # every hand, in eval7's range syntax


def interleave(rounds: int, a: Callable[[], tuple], b: Callable[[], tuple]) -> tuple[tuple, tuple]:
    """Best times of ``a`` and ``b`` over ``rounds``, alternating which runs first: each returns a tuple of times
    (wall seconds, CPU seconds, ...), each kept at its own best."""
    best: list = [None, None]
    for i in range(rounds):
        for k in ((0, 1) if i % 2 == 0 else (1, 0)):
            got = (a if k == 0 else b)()
            best[k] = got if best[k] is None else tuple(min(x, y) for x, y in zip(best[k], got))
    return best[0], best[1]


def load_line() -> str:
    """The load averages (1, 5 and 15 minutes) and the cores: how quiet the machine was."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


SIMD_FLAGS = ("avx2", "bmi2", "avx512f", "avx512bw", "avx512vl", "avx512vbmi")


def cpu_line() -> str:
    """The CPU's name and its vector flags (Linux's /proc/cpuinfo; else the platform's words)."""
    name, flags = platform.processor() or platform.machine(), set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                name = value.strip()
            elif key.strip() == "flags":
                flags = set(value.split())
                break
    except OSError:
        pass
    return f"CPU: {name}; flags {' '.join(f for f in SIMD_FLAGS if f in flags) or 'unknown'}"


# --------------------------------------------------------------------------- the yardstick

YARDSTICK_HANDS = 100_000


def eval7_cards(hands: np.ndarray) -> list:
    """eval7 ``Card`` lists for rows of card ids (``4 * rank + suit``, ranks 2..A, suits c d h s)."""
    import eval7

    deck = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    return [[deck[c] for c in row] for row in np.asarray(hands).tolist()]


def yardstick(hands: int = YARDSTICK_HANDS, repeat: int = 3) -> float | None:
    """Seconds for eval7 to evaluate a fixed batch of ``hands`` random 7-card hands (seed 1, Card objects
    prebuilt, best of ``repeat``), or None without eval7.  A benchmark with no registry peer doing its work
    measures this before and after itself, and quotes its times also as multiples of it: a figure from a loaded
    run can then be set beside one from a quiet run."""
    try:
        import eval7
    except ImportError:
        return None
    batch = eval7_cards(random_hands(hands))
    ev = eval7.evaluate
    return best_of(lambda: [ev(h) for h in batch], repeat)


class Yardstick:
    """The yardstick measured before a benchmark (on construction) and after it (:meth:`after`)."""

    def __init__(self, hands: int = YARDSTICK_HANDS) -> None:
        self.hands = hands
        self.before = yardstick(hands)
        self.after_s: float | None = None

    def after(self) -> None:
        self.after_s = yardstick(self.hands) if self.before is not None else None

    @property
    def seconds(self) -> float | None:
        """The yardstick's time: the mean of before and after (before alone until :meth:`after`)."""
        if self.before is None:
            return None
        return self.before if self.after_s is None else (self.before + self.after_s) / 2

    def times(self, seconds: float) -> str:
        """``seconds`` as a multiple of the yardstick, for printing beside the seconds."""
        s = self.seconds
        return "" if s is None else f"{seconds / s:,.1f} yardsticks"

    def line(self, prefix: str = "") -> str:
        """What the yardstick was: its rate before (and after) the benchmark."""
        if self.before is None:
            return f"{prefix}yardstick: eval7 not installed (pip install eval7), no yardstick"
        rate = f"{self.hands / self.before / 1e6:.2f} M hands/s"
        if self.after_s is not None:
            rate += f" before, {self.hands / self.after_s / 1e6:.2f} after"
        return (f"{prefix}yardstick (eval7 evaluate, {self.hands:,} fixed random 7-card hands, 1 core, this run): "
                f"{rate}; 1 yardstick = {self.seconds:.3f} s")
