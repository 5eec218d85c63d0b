"""The CFR+ tables pinned byte for byte: SHA-256 of ``regret`` then ``avg`` (float64, C order), recorded with
the recursive walks of main at 0df6a42, before they became loops over an explicit stack (issue 42's rest).

The loops must do the recursion's floating-point operations in its order; a digest here changes with any
reordering of a sum, which the tests within 1e-9 (OpenSpiel, the vector walk against the history walk) would
not see.
"""
import hashlib
from concurrent.futures import ThreadPoolExecutor

import pytest

from pipeline.solver.cfr import Solver
from pipeline.solver.hulhe import modulo_game
from pipeline.solver.leduc import Leduc

RECORDED = {
    "leduc-histories-100": "ecc923615b36b7ff865a6a438048f3e4d08e8a8de0dcd99d2168488ea4ae1a89",
    "leduc-vector-20": "25c2612cacb8ff0b5b47ac69e6c985c00c520016923f5215da97f2c74efedecd",
    "hulhe-k16-seed1-4": "f156a90a6cb7070735f4c9914b7da97214f40d05910898c71f2148e4948f2300",
}


def _digest(s: Solver) -> str:
    return hashlib.sha256(s.regret.tobytes() + s.avg.tobytes()).hexdigest()


@pytest.mark.parametrize("walk, n", [("histories", 100), ("vector", 20)])
def test_leduc_tables_are_the_recursive_walks_bytes(walk, n):
    s = Solver(Leduc(walk=walk))
    s.run(n)
    assert _digest(s) == RECORDED[f"leduc-{walk}-{n}"]


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
def test_holdem_tables_are_the_recursive_walks_bytes(threads):
    s = Solver(modulo_game(16), seed=1)
    with ThreadPoolExecutor(threads) as ex:
        s.run(4, ex if threads > 1 else None)
    assert _digest(s) == RECORDED["hulhe-k16-seed1-4"]
