"""The sorting network both suit-canonical numberings use: four values high to low in five compare-exchanges.

Knuth's optimal network for four inputs (TAOCP vol. 3, §5.3.4): (0,1) (2,3)
(0,2) (1,3) (1,2).  Written out so that numba keeps the values in registers;
a canonical board code and a situation index both sort their four suit keys
with it.

>>> sort4_desc(3, 9, 1, 7)
(9, 7, 3, 1)
"""
from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def sort4_desc(a: int, b: int, c: int, d: int) -> tuple[int, int, int, int]:
    """``(a, b, c, d)`` sorted from the largest to the smallest."""
    if a < b:
        a, b = b, a
    if c < d:
        c, d = d, c
    if a < c:
        a, c = c, a
    if b < d:
        b, d = d, b
    if b < c:
        b, c = c, b
    return a, b, c, d
