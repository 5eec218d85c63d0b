"""Suit-isomorphic situation indexing: sizes, invariance, and the inverse."""
import random
from itertools import combinations

import numpy as np
import pytest

from pipeline import CardError, situation_cards, situation_index
from pipeline.isomorphism.situations import street_size


def test_street_sizes():
    assert [street_size(k) for k in (0, 3, 4, 5)] == [169, 1286792, 13960050, 123156254]


def test_street_blocks_are_every_suit_shape_configuration():
    """The blocks a street's index is laid out in are the sorted configurations of four suits' shapes that deal
    the street's cards, found by trying every ordered four (the definition), in the same order."""
    from itertools import product

    from pipeline.isomorphism.situations import _blocks, _rounds

    for board in (0, 3, 4, 5):
        rounds = _rounds(board)
        shapes = list(product(*(range(k + 1) for k in rounds)))
        every = {tuple(sorted(c, reverse=True)) for c in product(shapes, repeat=4)
                 if all(sum(s[r] for s in c) == rounds[r] for r in range(len(rounds)))}
        offsets, order = _blocks(rounds)
        assert set(offsets) == every
        assert [cfg for _, cfg in order] == sorted(every, reverse=True)


def test_preflop_is_onto_169():
    assert {situation_index(list(h)) for h in combinations(range(52), 2)} == set(range(169))


@pytest.mark.parametrize("board_cards", [3, 4, 5])
def test_invariant_under_suit_permutations(board_cards):
    rng = random.Random(board_cards)
    for _ in range(2000):
        cards = rng.sample(range(52), 2 + board_cards)
        perm = rng.sample(range(4), 4)
        moved = [4 * (c >> 2) + perm[c & 3] for c in cards]
        rng.shuffle(moved[2:])
        assert situation_index(cards[:2], cards[2:]) == situation_index(moved[:2], moved[2:])


@pytest.mark.parametrize("board_cards", [3, 4, 5])
def test_inverse(board_cards):
    rng = random.Random(10 + board_cards)
    n = street_size(board_cards)
    for i in [0, n - 1] + [rng.randrange(n) for _ in range(2000)]:
        hole, board = situation_cards(i, board_cards)
        assert len(set(hole + board)) == 2 + board_cards and len(board) == board_cards
        assert situation_index(hole, board) == i


def test_distinct_situations_get_distinct_indices():
    """Brute force on a 2-suit corner: situations differing beyond suit permutation differ in index."""
    rng = random.Random(7)
    seen = {}
    for _ in range(3000):
        cards = rng.sample(range(52), 5)
        key = situation_index(cards[:2], cards[2:])
        canon = min(tuple(sorted(4 * (c >> 2) + p[c & 3] for c in cards[:2])) +
                    tuple(sorted(4 * (c >> 2) + p[c & 3] for c in cards[2:]))
                    for p in [[a, b, c, d] for a in range(4) for b in range(4) for c in range(4) for d in range(4)
                              if len({a, b, c, d}) == 4])
        assert seen.setdefault(canon, key) == key
        seen.setdefault(("idx", key), canon)
        assert seen[("idx", key)] == canon


def test_bad_input():
    with pytest.raises(CardError):
        situation_index("AhKh", "2c7d")
    with pytest.raises(CardError):
        situation_cards(street_size(3), 3)


@pytest.mark.parametrize("m", [3, 4, 5])
def test_kernel_situation_index_inverts_the_python_unranking(m):
    """The kernel numbering, called as the betting kernel calls it, against :func:`situation_cards` (plain Python)."""
    from pipeline.isomorphism.situations import block_table, situation_cards, situation_index_nb, street_size

    rng = np.random.default_rng(m)
    blocks = block_table(m)
    for i in rng.integers(0, street_size(m), 3000):
        hole, board = situation_cards(int(i), m)
        perm = rng.permutation(4)                       # any suit relabelling and card order
        c = np.array([4 * (x >> 2) + perm[x & 3] for x in hole + board], np.int64)
        rng.shuffle(c[2:])
        assert situation_index_nb(c[1], c[0], c[2:], m, blocks) == i
