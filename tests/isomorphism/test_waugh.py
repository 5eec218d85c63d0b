"""Waugh's hand isomorphism: published sizes, the C library's own indices, round trips, brute-force classes.

The reference values came from outside this code: the index sizes are the
paper's and the shared facts' (docs/abstraction.md); ``data/waugh_reference.json``
holds 60 random hands per indexer with every round's index and the canonical
hand that Waugh's C library (``hand_index_all``, ``hand_unindex``) gives; and
the digests below are SHA-256 of the int64 indices that library gives the
100,000 hands :func:`_hands` makes (``np.random.RandomState``, whose stream
numpy keeps frozen).  The classes are checked against a brute-force canonical
form: the sorted per-suit tuples of rank sets per round.
"""
import hashlib
import json
import random
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

from pipeline.core.cards import CardError
from pipeline.isomorphism.situations import situation_index, situation_indices, street_size
from pipeline.isomorphism.waugh import (
    HOLDEM_ROUNDS,
    PERFECT_RECALL,
    HandIndexer,
    IndexerError,
    holdem_indexer,
    situations_of,
)

REFERENCE = json.loads((Path(__file__).parent / "data" / "waugh_reference.json").read_text())

# Sizes of every round: the paper's (perfect recall), and the boards-as-sets ones of the shared facts.
SIZES = {(2,): [169], (2, 3): [169, 1_286_792], (2, 4): [169, 13_960_050], (2, 5): [169, 123_156_254],
         (2, 3, 1): [169, 1_286_792, 55_190_538], (2, 3, 1, 1): [169, 1_286_792, 55_190_538, 2_428_287_420]}

# SHA-256 of the C library's hand_index_all (every round, int64 little-endian) of _hands(cards).
C_DIGESTS = {
    (2,): "480ad4b1cf4a87c95aa6d0a2ffed9fae0cad43d0ddd440f4eea566428295acff",
    (2, 3): "96675a32a978783996d1bf19b0a5dddb52402109dabf412248d84d536f7db912",
    (2, 4): "2ecd78f1140765ec1d7d51515535fdd7e9130d8bedc1f79e8096b1f64c4892c7",
    (2, 5): "8514fdf187001b87e0216d085641a4f23abdb800440e21b41d216b2e433dab40",
    (2, 3, 1): "2b18bfc4417c88100c8dad4713b68ca053406a500d907f16024267aabb2aea7c",
    (2, 3, 1, 1): "07180730ae73a784b6222a937a129b3eb96e4deafed8128190bb226dfe4bc91b",
}


def _hands(cards: int, n: int = 100_000, seed: int = 2013) -> np.ndarray:
    """``n`` random hands of ``cards`` distinct cards (the first ``cards`` of a shuffled deck), uint8."""
    return np.random.RandomState(seed).random_sample((n, 52)).argsort(axis=1)[:, :cards].astype(np.uint8)


def _canonical(cards: np.ndarray, rounds: tuple[int, ...]) -> np.ndarray:
    """A brute-force canonical form of each hand under suit permutations: per suit the rank masks of its
    rounds packed in one integer, the four sorted (a permutation of suits permutes them)."""
    cards = np.asarray(cards, np.int64)
    per_suit = np.zeros((len(cards), 4), np.int64)
    at = 0
    for n in rounds:
        masks = np.zeros((len(cards), 4), np.int64)
        for t in range(at, at + n):
            bit = 1 << (cards[:, t] >> 2)
            for s in range(4):
                masks[:, s] |= np.where(cards[:, t] & 3 == s, bit, 0)
        per_suit = per_suit << 13 | masks
        at += n
    return np.sort(per_suit, axis=1)


def _moved(cards: list[int], rounds: tuple[int, ...], rng: random.Random) -> list[int]:
    """``cards`` with the suits permuted at random and each round's cards shuffled: an isomorphic hand."""
    perm = rng.sample(range(4), 4)
    out, at = [], 0
    for n in rounds:
        part = [4 * (c >> 2) + perm[c & 3] for c in cards[at:at + n]]
        rng.shuffle(part)
        out += part
        at += n
    return out


@pytest.mark.parametrize("rounds", list(SIZES))
def test_sizes_are_the_published_ones(rounds):
    ix = HandIndexer(rounds)
    assert [ix.size(r) for r in range(ix.rounds)] == SIZES[rounds]


def test_holdem_indexers():
    assert {s: holdem_indexer(s).size() for s in HOLDEM_ROUNDS} == {
        "preflop": 169, "flop": street_size(3), "turn": street_size(4), "river": street_size(5)}
    assert PERFECT_RECALL.cards_per_round == (2, 3, 1, 1) and PERFECT_RECALL.size() == 2_428_287_420


@pytest.mark.parametrize("key", list(REFERENCE))
def test_the_c_librarys_indices_and_hands(key):
    """hand_index_all's indices on every round; hand_unindex's canonical hand is one of the same class (its
    order of suits sharing a configuration may differ: its search starts from a floating-point guess)."""
    rounds = tuple(int(n) for n in key.split(","))
    ix = HandIndexer(rounds)
    for cards, indices, back in REFERENCE[key]:
        assert ix.index_all(cards) == indices
        assert ix.index(back) == indices[-1]
        ours = ix.unindex(indices[-1])
        assert (_canonical(np.array([ours]), rounds) == _canonical(np.array([back]), rounds)).all()


@pytest.mark.parametrize("rounds", list(C_DIGESTS))
def test_the_c_librarys_indices_of_100000_hands(rounds):
    ix = HandIndexer(rounds)
    hands = _hands(sum(rounds))
    got = np.stack([ix.index_array(hands[:, :ix.cards(r)], r) for r in range(ix.rounds)], axis=1)
    assert hashlib.sha256(got.astype("<i8").tobytes()).hexdigest() == C_DIGESTS[rounds]


@pytest.mark.parametrize("rounds", [(2, 3), (2, 4), (2, 5), (2, 3, 1, 1)])
def test_classes_are_the_brute_force_ones(rounds):
    """Isomorphic hands (suits permuted, rounds shuffled) share an index; hands of one index are isomorphic
    (their brute-force canonical forms agree), and unindex gives a hand of the class."""
    rng = random.Random(sum(rounds))
    ix = HandIndexer(rounds)
    base = [rng.sample(range(52), sum(rounds)) for _ in range(3000)]
    hands = np.array(base + [_moved(h, rounds, rng) for h in base], np.int64)
    index = ix.index_array(hands)
    assert (index[:3000] == index[3000:]).all()
    canon = _canonical(hands, rounds)
    _, by_index = np.unique(index, return_inverse=True)
    _, by_canon = np.unique(canon, axis=0, return_inverse=True)
    pairs = set(zip(by_index.ravel().tolist(), by_canon.ravel().tolist()))
    assert len(pairs) == len(set(by_index.ravel().tolist())) == len(set(by_canon.ravel().tolist()))
    assert (_canonical(ix.unindex_array(index), rounds) == canon).all()


def test_brute_force_over_suit_permutations():
    """The literal definition on a sample: the least relabelled hand over all 24 permutations of suits."""
    rng = random.Random(5)
    ix = holdem_indexer("flop")
    seen: dict = {}
    for _ in range(1500):
        cards = rng.sample(range(52), 5)
        canon = min((tuple(sorted(4 * (c >> 2) + p[c & 3] for c in cards[:2])),
                     tuple(sorted(4 * (c >> 2) + p[c & 3] for c in cards[2:]))) for p in permutations(range(4)))
        index = ix.index(cards)
        assert seen.setdefault(("canon", canon), index) == index
        assert seen.setdefault(("index", index), canon) == canon


@pytest.mark.slow
@pytest.mark.parametrize("street", ["preflop", "flop"])
def test_round_trip_over_every_index(street):
    """unindex then index is the identity over the whole street; the canonical hands are valid, of distinct
    classes — so the index is a bijection onto the classes — and the C library indexes them 0, 1, 2, ...
    (checked once against it: their SHA-256 is recorded)."""
    ix = holdem_indexer(street)
    every = np.arange(ix.size())
    hands = ix.unindex_array(every)
    assert (ix.index_array(hands) == every).all()
    sorted_cards = np.sort(hands, axis=1)
    assert (sorted_cards[:, 1:] != sorted_cards[:, :-1]).all() and hands.max() < 52
    canon = _canonical(hands, HOLDEM_ROUNDS[street])
    canon = canon[np.lexsort(canon.T[::-1])]
    assert (canon[1:] != canon[:-1]).any(axis=1).all()                # every class once
    assert hashlib.sha256(hands.tobytes()).hexdigest() == {
        "preflop": "9955a18c40d3c6247625129a3e58b827fba2cf09428da8acf95c167d7a8f2b1c",
        "flop": "ec8ddbfb999f9114ea8fa2376148ec974040f533277b7410e826a79ba16e0f48"}[street]


@pytest.mark.parametrize("rounds", [(2, 4), (2, 5), (2, 3, 1, 1)])
def test_round_trip_on_a_sample(rounds):
    ix = HandIndexer(rounds)
    rng = np.random.RandomState(len(rounds) + sum(rounds))
    every = np.unique(np.concatenate([[0, ix.size() - 1], rng.randint(0, ix.size(), 300_000, dtype=np.int64)]))
    assert (ix.index_array(ix.unindex_array(every)) == every).all()
    hands = _hands(sum(rounds), 50_000, seed=7)
    index = ix.index_array(hands)
    assert (_canonical(ix.unindex_array(index), rounds) == _canonical(hands, rounds)).all()


@pytest.mark.parametrize("street", ["preflop", "flop"])
def test_a_bijection_with_the_situation_index(street):
    """The same classes as pokerpipe's situation index, numbered otherwise: a permutation of the street, and
    a hand's situation index is the permutation's value at its Waugh index."""
    ix = holdem_indexer(street)
    perm = situations_of(street, np.arange(ix.size()))
    assert (np.bincount(perm, minlength=ix.size()) == 1).all()
    hands = _hands(ix.cards(), 20_000, seed=3)
    assert (perm[ix.index_array(hands)] == situation_indices(hands)).all()
    assert not (perm == np.arange(ix.size())).all()


@pytest.mark.parametrize("street", ["turn", "river"])
def test_the_situation_index_agrees_on_a_sample(street):
    ix = holdem_indexer(street)
    hands = _hands(ix.cards(), 100_000, seed=11)
    waugh, ours = ix.index_array(hands), situation_indices(hands)
    pairs = np.unique(np.stack([waugh, ours], axis=1), axis=0)
    assert len(pairs) == len(np.unique(waugh)) == len(np.unique(ours))         # one to one on the sample
    assert (situations_of(street, pairs[:, 0]) == pairs[:, 1]).all()
    assert situation_index("AhKh", "2c7d9s") == situations_of("flop", [holdem_indexer("flop").index("AhKh2c7d9s")])[0]


def test_preflop_classes():
    """Preflop, as the C library numbers it: the 91 pairs and offsuit hands (two suits of one card: a multiset
    of two ranks), then the 78 suited hands."""
    ix = holdem_indexer("preflop")
    got = [ix.index(h) for h in ("2c2d", "AcAd", "3c2d", "AcKd", "AhKd", "7c2d", "3c2c", "AsKs")]
    assert got == [0, 90, 1, 89, 89, 15, 91, 168]


def test_bad_input():
    ix = holdem_indexer("flop")
    with pytest.raises(CardError, match="duplicate"):
        ix.index([0, 0, 1, 2, 3])
    with pytest.raises(IndexerError, match="twice"):
        ix.index_array(np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 5]]))
    with pytest.raises(IndexerError, match="outside"):
        ix.index_array(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(IndexerError, match="2, 5 cards"):
        ix.index([0, 1, 2, 3])
    with pytest.raises(IndexerError, match="shape"):
        ix.index_array(np.zeros((3, 4), np.int64))
    with pytest.raises(IndexerError, match="outside"):
        ix.unindex_array(np.array([0, 1_286_792]))
    with pytest.raises(IndexerError):
        ix.unindex(-1)
    with pytest.raises(IndexerError):
        ix.size(2)
    for bad in [(), (0, 3), (2, 14), "23", (2, 3.0), (13, 13, 13, 13, 1), (1,) * 9]:
        with pytest.raises(IndexerError):
            HandIndexer(bad)
    with pytest.raises(IndexerError):
        holdem_indexer("showdown")
    assert ix.index_array(np.zeros((0, 5), np.uint8)).shape == (0,)
    assert ix.unindex_array(np.zeros(0, np.int64)).shape == (0, 5)


def test_the_binary_search_equals_the_lookup_table():
    """An indexer whose count patterns exceed the lookup table's bound finds its configuration by binary
    search: both give the same indices."""
    from pipeline.isomorphism.waugh import _index_rows

    ix = PERFECT_RECALL
    hands = _hands(7, 50_000, seed=9).astype(np.int64)
    words, offsets, sizes, lookup = ix._tables[3]
    assert lookup.size == 110_592
    out = np.empty(len(hands), np.int64)
    assert _index_rows(hands, ix._cpr, 3, words, offsets, sizes, lookup[:0], out) == -1
    assert (out == ix.index_array(hands)).all()


@pytest.mark.slow
def test_indexers_beyond_hold_em_are_bounded():
    """Three rounds of one card: the sizes are the brute-force count of classes of all 132,600 ordered deals,
    and every deal's class is its index's."""
    ix = HandIndexer((1, 1, 1))
    deals = np.array([(a, b, c) for a in range(52) for b in range(52) for c in range(52) if len({a, b, c}) == 3])
    for r in range(3):
        canon = np.unique(_canonical(deals[:, :r + 1], (1,) * (r + 1)), axis=0, return_inverse=True)[1].ravel()
        index = ix.index_array(deals[:, :r + 1], r)
        assert ix.size(r) == canon.max() + 1 == len(set(zip(canon.tolist(), index.tolist())))
    assert (ix.index_array(ix.unindex_array(np.arange(ix.size()))) == np.arange(ix.size())).all()
    with pytest.raises(IndexerError, match="configurations"):
        HandIndexer((13, 13, 13, 13))
    with pytest.raises(IndexerError, match="more hands"):
        HandIndexer((1,) * 8)
