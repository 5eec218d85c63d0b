"""Counter-based random numbers for the hold'em kernels (SplitMix64, Steele, Lea & Flood 2014).

Every hand draws from a stream seeded by ``(seed, hand number, purpose)`` alone,
so a simulation gives the same result however its deals are split among
workers.  A stream is a one-element ``uint64`` array (the kernels stay free of
Python objects); :func:`below` maps a draw to ``0..n-1`` by Lemire's
multiply-shift, whose bias (< n / 2**32) is far below any simulation's noise.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
DEAL_STREAM = 1     # the cards of a deal
ACTION_STREAM = 2   # the random choices of policies and the hand-weight sampler


@njit(cache=True, nogil=True)
def mix64(x: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijection of 64-bit words that scatters every input bit."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def seed_stream(state: np.ndarray, seed: int, number: int, purpose: int) -> None:
    """Start ``state`` (uint64[1]) on the stream of ``(seed, number, purpose)``."""
    s = mix64(np.uint64(seed) * _GOLDEN + np.uint64(purpose))
    state[0] = mix64(s ^ (np.uint64(number) * _M1 + _GOLDEN))


@njit(cache=True, nogil=True)
def next_u64(state: np.ndarray) -> np.uint64:
    """The stream's next 64-bit word."""
    state[0] += _GOLDEN
    return mix64(state[0])


@njit(cache=True, nogil=True)
def below(state: np.ndarray, n: int) -> int:
    """A draw from ``0..n-1`` (``n`` < 2**32)."""
    return int(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, nogil=True)
def uniform(state: np.ndarray) -> float:
    """A draw from [0, 1) with 53 random bits."""
    return float(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def deal_cards(state: np.ndarray, out: np.ndarray, m: int, deck: np.ndarray) -> None:
    """Write ``m`` distinct random card ids to ``out[:m]`` (a partial Fisher-Yates shuffle of ``deck``'s 52)."""
    for i in range(52):
        deck[i] = i
    for i in range(m):
        j = i + below(state, 52 - i)
        deck[i], deck[j] = deck[j], deck[i]
        out[i] = deck[i]
