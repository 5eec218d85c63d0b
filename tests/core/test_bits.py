"""core.bits against plain Python on random words: both ways of finding the j-th set bit give the same bit."""
import numpy as np
from numba import njit

from pipeline.core import bits


@njit
def _all(x, j):
    return (bits._nth_set_bit_pdep(x, j) if bits.FAST_PDEP else bits._nth_set_bit_search(x, j),
            bits._nth_set_bit_search(x, j), bits.lowest_bit_index(x), bits.popcount(x))


def test_bits_match_plain_python():
    rng = np.random.default_rng(1)
    words = [int(w) for w in rng.integers(1, 2**63, 300, dtype=np.int64)] + [1, 2**63, 2**64 - 1, 0b1011010]
    for w in words:
        w |= int(rng.integers(0, 2)) << 63
        set_bits = [i for i in range(64) if w >> i & 1]
        for j in {0, len(set_bits) - 1, int(rng.integers(0, len(set_bits)))}:
            fast, search, low, count = _all(np.uint64(w), j)
            assert int(fast) == int(search) == 1 << set_bits[j], (hex(w), j)
            assert int(low) == set_bits[0] and int(count) == len(set_bits)
