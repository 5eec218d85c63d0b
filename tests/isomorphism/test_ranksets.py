"""The rank-set tables (pipeline.isomorphism.ranksets) against the combinatorial number system enumerated here.

The k-sets of 13 ranks in colex order are the k-combinations of range(13) sorted by their reversed tuples
(the highest rank first): the i-th of them has colex rank i (Knuth, TAOCP 4A, 7.2.1.3).
"""
from itertools import combinations

from pipeline.isomorphism.ranksets import COLEX13, POP13, RANK_SETS, UNCOLEX13


def test_every_rank_set_has_its_colex_rank_its_size_and_comes_back():
    seen = 0
    for k in range(14):
        for i, ranks in enumerate(sorted(combinations(range(13), k), key=lambda c: c[::-1])):
            mask = sum(1 << r for r in ranks)
            assert (int(COLEX13[mask]), int(POP13[mask]), int(UNCOLEX13[k, i])) == (i, k, mask)
            seen += 1
    assert seen == RANK_SETS
