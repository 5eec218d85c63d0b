"""The random numbers of every pokerpipe kernel: two generators, one bounded draw, one shuffle step.

Two generators, because two kinds of work need two kinds of state:

* **xoroshiro128++** (Blackman and Vigna, "Scrambled linear pseudorandom
  number generators", ACM TOMS 2021) for the Monte Carlo kernels (equity,
  potential): two 64-bit words kept in local variables — one add, three
  rotations and a few xors per output, several times cheaper than
  ``np.random`` inside a kernel.  :func:`chunk_state` seeds it with SplitMix64
  from ``(seed, chunk)``, so every chunk of trials has its own stream
  whatever thread runs it.  The functions take and return the state as two
  ``np.uint64``; numba inlines them, so the state lives in registers.
* **Counter streams** for the hold'em kernels: SplitMix64 (Steele, Lea and
  Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014) over
  a Weyl sequence, seeded by ``(seed, number, purpose)`` alone
  (:func:`seed_stream`), so a hand's cards and choices never depend on how
  the hands were split among workers.  A stream is a one-element ``uint64``
  array, so a kernel can hand it to the policies it calls.

Both draw bounded integers the same way, Lemire's multiply-shift with
rejection ("Fast random integer generation in an interval", ACM TOMACS 2019):
exactly uniform, and the rejection (a modulo) is reached only when the low
word falls below ``n``.  Both deal cards by the same partial Fisher–Yates step
(:func:`shuffle_step`).

>>> s0, s1 = chunk_state(7, 0)
>>> s0, s1, k = below(s0, s1, 52)
>>> 0 <= int(k) < 52
True
"""
from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)   # 2**64 / the golden ratio: the Weyl increment
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_UNIT = 1.0 / 9007199254740992.0          # 2**-53
DEAL_STREAM = 1     # hold'em: the cards of a deal
ACTION_STREAM = 2   # hold'em: the random choices of policies and the hand-weight sampler


@njit(cache=True, nogil=True, inline="always")
def mix64(x: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijection of 64-bit words that scatters every input bit."""
    z = (x ^ (x >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def splitmix64(x: np.uint64) -> np.uint64:
    """SplitMix64's output for the Weyl state ``x``: ``mix64(x + GOLDEN)``."""
    return mix64(x + GOLDEN)


@njit(cache=True, nogil=True, inline="always")
def _rejected(m: np.uint64, n: np.uint64) -> bool:
    """Lemire's test on the product ``m`` of a 32-bit draw and ``n``: reject it to keep the draw uniform."""
    low = m & _LOW32
    return bool(low < n and low < (_TWO32 - n) % n)


# ---------------------------------------------------------------------------
# xoroshiro128++: the Monte Carlo kernels' generator, state (s0, s1) in registers

@njit(cache=True, nogil=True)
def chunk_state(seed: int, chunk: int) -> tuple:
    """The generator state of chunk ``chunk`` of a run seeded with ``seed`` (both >= 0)."""
    base = splitmix64(np.uint64(seed))
    x = base ^ (np.uint64(chunk) * GOLDEN)
    s0 = splitmix64(x)
    s1 = splitmix64(x + GOLDEN)
    if s0 == 0 and s1 == 0:     # the one forbidden state
        s1 = GOLDEN
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
    while _rejected(m, un):        # rare: the low word fell below n
        s0, s1, x = next_u64(s0, s1)
        m = (x >> np.uint64(32)) * un
    return s0, s1, np.int64(m >> np.uint64(32))


@njit(cache=True, nogil=True, inline="always")
def below_pair(s0: np.uint64, s1: np.uint64, n: int, n2: int) -> tuple:
    """``(s0, s1, k, k2)``: ``k`` uniform below ``n`` and ``k2`` below ``n2`` (both ``< 2**32``), independent, from
    the two 32-bit halves of one output (Lemire's multiply-shift on each; both drawn again if either half is
    rejected, so the pair stays uniform on the product)."""
    un, un2 = np.uint64(n), np.uint64(n2)
    while True:
        s0, s1, x = next_u64(s0, s1)
        m = (x >> np.uint64(32)) * un
        m2 = (x & _LOW32) * un2
        if not (_rejected(m, un) or _rejected(m2, un2)):
            return s0, s1, np.int64(m >> np.uint64(32)), np.int64(m2 >> np.uint64(32))


_LOW16 = np.uint64(0xFFFF)
_TWO16 = np.uint64(1 << 16)


@njit(cache=True, nogil=True, inline="always")
def below16(s0: np.uint64, s1: np.uint64, word: np.uint64, left: int, n: int) -> tuple:
    """``(s0, s1, word, left, k)`` with ``k`` uniform in ``0 .. n-1`` (``1 <= n <= 2**16``), from the next 16 bits
    of ``word``, which holds ``left`` unused 16-bit draws (a new output of the generator when it holds none).

    Four draws from one output instead of one: Lemire's multiply-shift on 16 bits with the same rejection as
    :func:`below`, so still exactly uniform; the rejection's modulo is reached only when the low 16 bits of
    the product fall below ``n`` (``n`` in 65,536 draws: one in 1,260 for the deck's 52)."""
    un = np.uint64(n)
    while True:
        if left == 0:
            s0, s1, word = next_u64(s0, s1)
            left = 4
        m = (word & _LOW16) * un
        word >>= np.uint64(16)
        left -= 1
        low = m & _LOW16
        if not (low < un and low < (_TWO16 - un) % un):
            return s0, s1, word, left, np.int64(m >> np.uint64(16))


@njit(cache=True, nogil=True, inline="always")
def uniform(s0: np.uint64, s1: np.uint64) -> tuple:
    """``(s0, s1, u)`` with ``u`` uniform in [0, 1) on a 2**-53 grid."""
    s0, s1, x = next_u64(s0, s1)
    return s0, s1, np.float64(x >> np.uint64(11)) * _UNIT


# ---------------------------------------------------------------------------
# counter streams: the hold'em kernels' generator, state a uint64[1] array

@njit(cache=True, nogil=True)
def seed_stream(state: np.ndarray, seed: int, number: int, purpose: int) -> None:
    """Start ``state`` (uint64[1]) on the stream of ``(seed, number, purpose)``."""
    s = mix64(np.uint64(seed) * GOLDEN + np.uint64(purpose))
    state[0] = mix64(s ^ (np.uint64(number) * _M1 + GOLDEN))


@njit(cache=True, nogil=True)
def stream_next(state: np.ndarray) -> np.uint64:
    """The stream's next 64-bit word."""
    state[0] += GOLDEN
    return mix64(state[0])


@njit(cache=True, nogil=True)
def stream_below(state: np.ndarray, n: int) -> int:
    """A draw from ``0..n-1`` (``1 <= n < 2**32``), uniform."""
    un = np.uint64(n)
    m = (stream_next(state) >> np.uint64(32)) * un
    while _rejected(m, un):        # rare: the low word fell below n
        m = (stream_next(state) >> np.uint64(32)) * un
    return int(m >> np.uint64(32))


@njit(cache=True, nogil=True)
def stream_uniform(state: np.ndarray) -> float:
    """A draw from [0, 1) with 53 random bits."""
    return float(stream_next(state) >> np.uint64(11)) * _UNIT


# ---------------------------------------------------------------------------
# dealing: one partial Fisher-Yates step, whichever generator draws it

@njit(cache=True, nogil=True, inline="always")
def shuffle_step(deck: np.ndarray, pos: int, j: int) -> int:
    """One step of a partial Fisher–Yates shuffle: swap ``deck[pos]`` with ``deck[pos + j]``
    (``j`` uniform in ``0 .. live-1``) and return the card now at ``pos``, the one dealt."""
    c = deck[pos + j]
    deck[pos + j] = deck[pos]
    deck[pos] = c
    return c


@njit(cache=True, nogil=True, inline="always")
def deal_card(s0: np.uint64, s1: np.uint64, deck: np.ndarray, pos: int, L: int) -> tuple:
    """Deal the next card of ``deck[pos:L]`` with xoroshiro128++: ``(s0, s1, card, pos + 1)``."""
    s0, s1, j = below(s0, s1, L - pos)
    return s0, s1, shuffle_step(deck, pos, j), pos + 1


@njit(cache=True, nogil=True)
def stream_deal(state: np.ndarray, deck: np.ndarray, pos: int, L: int) -> int:
    """Deal the next card of ``deck[pos:L]`` from a counter stream: the card (``deck[pos]`` afterwards)."""
    return shuffle_step(deck, pos, stream_below(state, L - pos))
