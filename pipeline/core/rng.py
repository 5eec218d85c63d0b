"""A small, fast random number generator for the Monte Carlo kernels.

xoroshiro128++ (Blackman and Vigna, "Scrambled linear pseudorandom number
generators", ACM TOMS 2021) written out in numba: two 64-bit words of state
kept in local variables, one add, three rotations and a few xors per 64-bit
output — several times cheaper than ``np.random`` inside a kernel, and
independent of numpy's global generator.  Its state is seeded with SplitMix64
(Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014) from ``(seed, chunk index)``, so every chunk of trials has its own
stream whatever thread runs it.

Bounded integers use Lemire's multiply-shift with rejection ("Fast random
integer generation in an interval", ACM TOMACS 2019): exactly uniform.

All functions take and return the state as two ``np.uint64`` values; numba
inlines them, so the state lives in registers.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(cache=True, nogil=True, inline="always")
def splitmix64(x: np.uint64) -> np.uint64:
    """SplitMix64's output function of ``x + golden``: a well-mixed 64-bit hash."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def chunk_state(seed: int, chunk: int) -> tuple:
    """The generator state of chunk ``chunk`` of a run seeded with ``seed`` (both >= 0)."""
    base = splitmix64(np.uint64(seed))
    x = base ^ (np.uint64(chunk) * _GOLDEN)
    s0 = splitmix64(x)
    s1 = splitmix64(x + _GOLDEN)
    if s0 == 0 and s1 == 0:     # the one forbidden state
        s1 = _GOLDEN
    return s0, s1


@njit(cache=True, nogil=True, inline="always")
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, nogil=True, inline="always")
def next_u64(s0: np.uint64, s1: np.uint64) -> tuple:
    """``(s0, s1, output)``: one step of xoroshiro128++."""
    out = _rotl(s0 + s1, 17) + s0
    s1 ^= s0
    s0 = _rotl(s0, 49) ^ s1 ^ (s1 << np.uint64(21))
    s1 = _rotl(s1, 28)
    return s0, s1, out


@njit(cache=True, nogil=True, inline="always")
def below(s0: np.uint64, s1: np.uint64, n: int) -> tuple:
    """``(s0, s1, k)`` with ``k`` uniform in ``0 .. n-1`` (``1 <= n < 2**32``)."""
    un = np.uint64(n)
    s0, s1, x = next_u64(s0, s1)
    m = (x >> np.uint64(32)) * un
    low = m & _LOW32
    if low < un:
        threshold = (_TWO32 - un) % un
        while low < threshold:
            s0, s1, x = next_u64(s0, s1)
            m = (x >> np.uint64(32)) * un
            low = m & _LOW32
    return s0, s1, np.int64(m >> np.uint64(32))


@njit(cache=True, nogil=True, inline="always")
def uniform(s0: np.uint64, s1: np.uint64) -> tuple:
    """``(s0, s1, u)`` with ``u`` uniform in [0, 1) on a 2**-53 grid."""
    s0, s1, x = next_u64(s0, s1)
    return s0, s1, np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)
