"""Three-way preflop tables against a plain brute force and the exact enumerator."""
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from oracles.shares import brute_shares
from test_shares import KNOWN

from pipeline.core.hand_classes import CLASS_INDEX, CLASS_LABELS, class_of
from pipeline.equity import equity
from pipeline.equity.matchups import SUIT_PERMUTATIONS
from pipeline.equity.threeway import (
    CLASS_TRIPLES,
    ThreeWayTable,
    canonical_code,
    canonical_triples,
    class_triple_index,
    class_triples,
    count_triples,
    decode,
)
from pipeline.evaluator.tables import tables

pytestmark = pytest.mark.slow      # the whole module: its module fixture enumerates class triples

RNG = np.random.default_rng(22)


@pytest.fixture(scope="module")
def triples():
    return canonical_triples()


def test_classes_cover_every_specific_triple_once(triples):
    codes, weights = triples
    assert int(weights.sum()) == 1326 * 1225 * 1128 // 6        # C(52,2) C(50,2) C(48,2) / 3!
    assert len(codes) == 13_763_646 and (np.diff(codes) < 0).all()
    assert set(np.unique(weights).tolist()) <= {1, 2, 3, 4, 6, 8, 12, 24}
    ascending = codes[::-1]
    for _ in range(300):                  # a random specific triple's canonical code is a class's
        cards = RNG.permutation(52)[:6]
        hands = [(max(cards[i], cards[i + 1]) << 6) | min(cards[i], cards[i + 1]) for i in (0, 2, 4)]
        code = canonical_code(*hands, SUIT_PERMUTATIONS)
        assert ascending[np.searchsorted(ascending, code)] == code


@pytest.mark.slow
def test_a_hundred_rows_equal_the_brute_force(triples):
    codes, _ = triples
    pick = np.sort(RNG.choice(len(codes), 100, replace=False))
    got = count_triples(codes[pick], tables())
    with ThreadPoolExecutor(2) as pool:          # the brute force releases the GIL: both cores
        wanted = list(pool.map(lambda code: brute_shares([[h] for h in decode(code)]), codes[pick].tolist()))
    for row, code, (want, boards) in zip(got, codes[pick].tolist(), wanted):
        assert boards == 1_370_754 and (row == want).all(), decode(code)


def _class_of_array(hands):
    a, b = hands >> 6, hands & 63
    i, j = 12 - (a >> 2), 12 - (b >> 2)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    return np.where(lo == hi, 14 * lo, np.where((a & 3) == (b & 3), 13 * lo + hi, 13 * hi + lo))


@pytest.fixture(scope="module")
def classes(triples):
    """(n, 3) the hand classes of every canonical triple, each row sorted."""
    codes, _ = triples
    return np.sort(np.stack([_class_of_array((codes >> s) & 4095) for s in (24, 12, 0)], axis=1), axis=1)


def _class_rows(triples, classes, labels):
    """Class-triple counts of ``labels`` from the canonical triples holding those classes."""
    codes, weights = triples
    want = sorted(CLASS_INDEX[c] for c in labels)
    mine = np.flatnonzero(classes[:, 0] == want[0])
    mine = mine[(classes[mine] == want).all(axis=1)]
    combos, sums = class_triples(codes[mine], weights[mine], count_triples(codes[mine], tables()))
    row = class_triple_index()[tuple(want)]
    return want, combos[row], sums[row]


@pytest.mark.slow
@pytest.mark.parametrize("labels", list(KNOWN))
def test_class_triples_equal_the_brute_force(triples, classes, labels):
    assert class_of(51, 47) == CLASS_INDEX['AKs']     # the test's vector form agrees with the library
    want, combos, sums = _class_rows(triples, classes, labels)
    counts, boards = KNOWN[labels]
    seat = [sorted(range(3), key=lambda p: CLASS_INDEX[labels[p]]).index(p) for p in range(3)]
    assert combos * 1_370_754 == boards
    assert [sums[seat[p]].tolist() for p in range(3)] == counts


@pytest.mark.slow
@pytest.mark.parametrize("k", range(18))
def test_class_triples_equal_the_enumeration(triples, classes, k):
    rng = np.random.default_rng([22, k])
    while True:
        labels = [CLASS_LABELS[c] for c in rng.choice(169, 3)]
        try:
            r = equity(labels, table=False, exact=True, threads=1)
            break
        except Exception:      # a triple that cannot be dealt (AA AA AA): draw again
            continue
    want, combos, sums = _class_rows(triples, classes, labels)
    order = sorted(range(3), key=lambda p: CLASS_INDEX[labels[p]])
    assert combos * 1_370_754 == r.boards
    for q, p in enumerate(order):
        assert sums[q].tolist() == r.players[p].shares


def test_answers_from_the_table_equal_the_enumeration(triples, classes):
    codes, weights = triples
    keep = np.isin(classes, [CLASS_INDEX[c] for c in ("AA", "KK", "QQ", "AKs")]).all(axis=1)
    combos, sums = class_triples(codes[keep], weights[keep], count_triples(codes[keep], tables()))
    table = ThreeWayTable(combos, sums)
    assert combos.shape == (CLASS_TRIPLES,)
    for players in (["AA", "KK", "QQ"], ["QQ", "AA", "KK"], ["KK", "QQ", "AKs"], ["QQ+", "AKs", "KK"]):
        got = equity(players, three_way=table)
        want = equity(players, table=False, exact=True)
        assert got.source == "table" and got.boards == want.boards
        assert [p.shares for p in got.players] == [p.shares for p in want.players]
        assert [p.equity for p in got.players] == [p.equity for p in want.players]
    t = time.perf_counter()
    equity(["AA", "KK", "QQ"], three_way=table)
    assert time.perf_counter() - t < 0.05            # the target (5 ms) is measured in the benchmark
    assert equity(["AA", "KK", "AhKh"], three_way=table).source == ""      # a part of a class: enumerated
    with pytest.raises(Exception, match="no deal is possible"):
        equity(["AA", "AA", "AA"], three_way=table)
