"""ProPokerTools' generic syntax: the examples of its documentation, each checked against a brute force.

The table below gives, for each example, what PPT's documentation (or the issue quoting
it) says it means, written as a predicate on rank and suit counts — not through the
parser — and the number of four-card hands it names, worked out by hand.  The test
enumerates all 270,725 hands (once per session), keeps those the predicate accepts,
and asks the parser for exactly that set.
"""
from functools import lru_cache
from itertools import chain, combinations
from math import comb

import numpy as np
import pytest

from pipeline import CardError
from pipeline.ranges.omaha import is_random, parse_omaha_range

A, K, Q, J, T = 12, 11, 10, 9, 8
S, H, D, C = 3, 2, 1, 0


@lru_cache(maxsize=1)
def deck4():
    """Every four-card hand with its rank counts (n, 13), suit counts (n, 4) and card mask, built apart from
    the library (itertools, not pipeline.ranges.omaha_hands)."""
    hands = np.fromiter(chain.from_iterable(combinations(range(52), 4)), np.int64).reshape(-1, 4)
    rc = (hands[:, :, None] // 4 == np.arange(13)).sum(axis=1)
    sc = (hands[:, :, None] % 4 == np.arange(4)).sum(axis=1)
    has = np.zeros((len(hands), 52), bool)
    has[np.arange(len(hands))[:, None], hands] = True
    masks = np.bitwise_or.reduce(np.uint64(1) << hands.astype(np.uint64), axis=1)
    return hands, rc, sc, has, masks


def card(r, s):
    return 4 * r + s


def profile(rc, shape):
    """Hands whose rank counts, largest first, are ``shape``."""
    top = -np.sort(-rc, axis=1)[:, :len(shape)]
    return np.all(top == shape, axis=1) & (rc.sum(axis=1) == sum(shape))


def suited_pairs(has, ranks_a, ranks_b):
    """Some suit holds a card of ``ranks_a`` and a different card of ``ranks_b``."""
    out = np.zeros(len(has), bool)
    for s in range(4):
        for a in ranks_a:
            for b in ranks_b:
                if a != b:
                    out |= has[:, card(a, s)] & has[:, card(b, s)]
    return out


def double_suited_aces(rc, sc, has):
    """AxAyxy: aces of two suits x != y, each suit with another card."""
    out = np.zeros(len(rc), bool)
    for x in range(4):
        for y in range(4):
            if x != y:
                out |= has[:, card(A, x)] & has[:, card(A, y)] & (sc[:, x] >= 2) & (sc[:, y] >= 2)
    return out


def two_pair_double_suited(rc, sc, has):
    """RxRyOxOy: two pairs on the same two suits; four cards in two pairs of two suits are exactly that."""
    return profile(rc, (2, 2)) & ds(sc)


def ds(sc):
    return np.all(-np.sort(-sc, axis=1)[:, :2] == 2, axis=1)


def span(rc, *patterns):
    """A union of rank patterns, each a dict rank -> at least that many cards."""
    out = np.zeros(len(rc), bool)
    for p in patterns:
        ok = np.ones(len(rc), bool)
        for r, n in p.items():
            ok &= rc[:, r] >= n
        out |= ok
    return out


# text, what the documentation says, predicate (rank counts, suit counts, card presence), hands by hand
EXAMPLES = [
    ("AsKhJd2c", "a specific hand where all cards are known",
     lambda rc, sc, has: has[:, card(A, S)] & has[:, card(K, H)] & has[:, card(J, D)] & has[:, card(0, C)], 1),
    ("AA", "a hand with at least two aces", lambda rc, sc, has: rc[:, A] >= 2,
     comb(4, 2) * comb(48, 2) + comb(4, 3) * 48 + 1),
    ("AxAyxy", "double-suited aces", double_suited_aces, comb(4, 2) * 12 * 12),
    ("sshh", "two spades and two hearts", lambda rc, sc, has: (sc[:, S] >= 2) & (sc[:, H] >= 2), comb(13, 2) ** 2),
    ("wxy", "at least three suits", lambda rc, sc, has: (sc > 0).sum(axis=1) >= 3,
     comb(52, 4) - 4 * comb(13, 4) - 12 * comb(13, 3) * 13 - 6 * comb(13, 2) ** 2),
    ("RRON", "one pair and two non-paired side cards", lambda rc, sc, has: profile(rc, (2, 1, 1)),
     13 * comb(4, 2) * comb(12, 2) * 16),
    ("RxRyOxOy", "a double-suited hand with two pairs in it", two_pair_double_suited, comb(13, 2) * comb(4, 2)),
    ("AA:xxyy, JJ!JJJ, KK", "double suited aces, or exactly two jacks, or at least two kings",
     lambda rc, sc, has: ((rc[:, A] >= 2) & ds(sc)) | (rc[:, J] == 2) | (rc[:, K] >= 2),
     864 + comb(4, 2) * comb(48, 2) + (comb(4, 2) * comb(48, 2) + 4 * 48 + 1) - 6 - 36 - 6),
    ("JJ!JJJ", "a hand with exactly two jacks", lambda rc, sc, has: rc[:, J] == 2, comb(4, 2) * comb(48, 2)),
    # the examples
    ("AxKx**", "an ace and a king of one suit", lambda rc, sc, has: suited_pairs(has, [A], [K]), 4 * comb(50, 2) - 6),
    ("AA**:$ds", "two aces, double suited", lambda rc, sc, has: (rc[:, A] >= 2) & ds(sc), 864),
    ("A[K-T]**", "an ace and a card from K to T", lambda rc, sc, has: (rc[:, A] >= 1) & (rc[:, T:A].sum(axis=1) >= 1),
     comb(52, 4) - comb(48, 4) - comb(36, 4) + comb(32, 4)),
    ("RROO", "two pairs", lambda rc, sc, has: profile(rc, (2, 2)), comb(13, 2) * 36),
    ("$np", "no pair", lambda rc, sc, has: rc.max(axis=1) <= 1, comb(13, 4) * 4 ** 4),
    ("aakk", "lower case: two aces and two kings", lambda rc, sc, has: (rc[:, A] >= 2) & (rc[:, K] >= 2), 36),
    ("!AA", "not two aces", lambda rc, sc, has: rc[:, A] < 2, comb(52, 4) - 6961),
    # rank spans, lists, braces, variables, macros
    ("KK-TT", "a pair of kings, queens, jacks or tens (or more)",
     lambda rc, sc, has: span(rc, {K: 2}, {Q: 2}, {J: 2}, {T: 2}), 4 * 6961 - 6 * 36),
    ("JJ+", "jacks or better", lambda rc, sc, has: span(rc, {J: 2}, {Q: 2}, {K: 2}, {A: 2}), 4 * 6961 - 6 * 36),
    ("T8+", "T8, J9, QT, KJ, AQ", lambda rc, sc, has: span(rc, *({r: 1, r - 2: 1} for r in range(T, A + 1))), None),
    ("664-", "664, 553, 442", lambda rc, sc, has: span(rc, {4: 2, 2: 1}, {3: 2, 1: 1}, {2: 2, 0: 1}), None),
    ("AsKs-AsTs", "the ace of spades with the K, Q, J or T of spades",
     lambda rc, sc, has: has[:, card(A, S)] & has[:, [card(r, S) for r in range(T, A)]].any(axis=1), None),
    ("[A,2,3][A,2,3]", "two cards from A, 2, 3", lambda rc, sc, has: rc[:, [A, 0, 1]].sum(axis=1) >= 2, None),
    ("{***}", "three cards of different ranks", lambda rc, sc, has: (rc > 0).sum(axis=1) >= 3, None),
    ("AARR", "aces and another pair", lambda rc, sc, has: (rc[:, A] >= 2) & (np.delete(rc, A, 1).max(axis=1) >= 2),
     6 * 12 * 6),
    ("ssxx", "two spades and two cards of another suit",
     lambda rc, sc, has: (sc[:, S] >= 2) & (sc[:, :S].max(axis=1) >= 2), 3 * comb(13, 2) ** 2),
    ("$B$B", "two big cards (A to J)", lambda rc, sc, has: rc[:, J:].sum(axis=1) >= 2, None),
    ("RR:$ds", "a pair, double suited", lambda rc, sc, has: (rc.max(axis=1) >= 2) & ds(sc), None),
    ("(AA,KK):xxyy", "aces or kings, double suited", lambda rc, sc, has: ((rc[:, A] >= 2) | (rc[:, K] >= 2)) & ds(sc),
     2 * 864 - 6),
    # the omaha_class labels
    ("AAKKds", "the class label AAKKds", lambda rc, sc, has: (rc[:, A] == 2) & (rc[:, K] == 2) & ds(sc), 6),
    ("8877ss", "8877 single suited", lambda rc, sc, has: (rc[:, 6] == 2) & (rc[:, 5] == 2) &
     np.all(-np.sort(-sc, axis=1)[:, :3] == (2, 1, 1), axis=1), 24),
    ("AKQJr", "AKQJ rainbow", lambda rc, sc, has: (rc[:, J:] == 1).all(axis=1) & (sc == 1).all(axis=1), 24),
]


@pytest.mark.parametrize("text, meaning, predicate, by_hand", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_ppt_examples_against_a_brute_force(text, meaning, predicate, by_hand):
    hands, rc, sc, has, masks = deck4()
    want = np.sort(masks[predicate(rc, sc, has)])
    if by_hand is not None:
        assert len(want) == by_hand, (text, meaning)
    r = parse_omaha_range(text)
    got = np.sort(r.masks)
    assert len(got) == len(want) and np.array_equal(got, want), (text, meaning, len(got), len(want))


def test_random_and_wildcards():
    assert is_random("*") and is_random("****") and is_random("random") and is_random("****", 4)
    assert not is_random("*****", 4) and not is_random("xxxx")       # xxxx: four cards of one suit
    assert len(parse_omaha_range("xxxx")) == 4 * comb(13, 4)
    with pytest.raises(CardError, match="has 5 cards"):
        parse_omaha_range("*****")


@pytest.mark.slow
@pytest.mark.parametrize("text, k, n", [
    ("AA", 5, comb(52, 5) - comb(48, 5) - 4 * comb(48, 4)),            # 108,336
    ("AA", 6, comb(52, 6) - comb(48, 6) - 4 * comb(48, 5)),
    ("$ds", 5, 6 * 2 * comb(13, 2) ** 2 * 13),                          # 2-2-1
    ("AsKs***", 5, comb(50, 3)),
    ("RRONM", 5, 13 * comb(4, 2) * comb(12, 3) * 4 ** 3),
])
def test_five_and_six_card_counts(text, k, n):
    assert len(parse_omaha_range(text, k)) == n


def test_a_filter_of_ranks_is_no_weight():
    """``AA:22`` and ``AA:2`` filter by deuces; only a number no pattern can be (``:0.5``, ``:1``) is taken for the
    old weight notation and refused."""
    assert len(parse_omaha_range("AA:22")) == 36
    assert len(parse_omaha_range("AA:2")) == 6 * (comb(48, 2) - comb(44, 2)) + 4 * 4


def test_weights_are_relative_and_the_later_part_wins():
    r = parse_omaha_range("AA@0.5, AsAh**@2")
    w = dict(zip(map(int, r.masks), r.weights.tolist()))
    assert len(r) == 6961 and sorted(set(w.values())) == [0.5, 2.0]
    assert sum(v == 2.0 for v in w.values()) == comb(50, 2)


@pytest.mark.parametrize("text, k, match", [
    ("AAxx:0.5", 4, "':' is ProPokerTools' filter.*@0.5"),
    ("AA:1", 4, "':' is ProPokerTools' filter.*@1"),
    ("$foo", 4, "unknown macro \\$foo"),
    ("xxxxx", 4, "has 5 cards; a hand of this game holds 4"),
    ("AsKsQdJdTc", 4, "has 5 cards"),
    ("AsAs", 4, "duplicate card As"),
    ("AAAAds", 4, "matches no 4-card hand"),
    ("AKQJTr", 5, "rainbow hand has at most 4"),
    ("[K-T", 4, "'\\[' is never closed"),
    ("(AA,KK", 4, "'\\(' is never closed"),
    ("AA-KQ", 4, "same number of steps"),
    ("AK-QJT", 4, "same number of cards"),
    ("AA,,KK", 4, "empty part"),
    ("AA@0", 4, "no hand with a positive weight"),
    ("AA@x", 4, "@ takes a weight"),
    ("AA:", 4, "a range part is missing"),
    ("200%", 4, "percentages run from 0% to 100%"),
    ("", 4, "empty range"),
    ("AA", 7, "4, 5 or 6"),
    ("A#", 4, "cannot read"),
])
def test_bad_ranges_are_one_line(text, k, match):
    with pytest.raises(CardError, match=match) as e:
        parse_omaha_range(text, k)
    assert "\n" not in str(e.value)
