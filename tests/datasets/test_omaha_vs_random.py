"""``omaha-vs-random`` through the batch layer: a small build against an independent Monte Carlo,
the same bytes with two workers, resume, the class count, bad parameters."""
from pathlib import Path

import numpy as np
import pytest
from support.layout import part

from pipeline.batch.session import Session
from pipeline.core.errors import InputError
from pipeline.datasets import dataset, read
from pipeline.datasets.build import build_many
from pipeline.omaha.classes import canonical_masks, starting_classes
from pipeline.omaha.equity import omaha_equity
from pipeline.ranges.omaha import parse_omaha_range

PARAMS = {"omaha-vs-random": {"limit": 60, "rows_per_part": 20, "trials": 40_000, "opponents": [1, 3]}}


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("omaha")
    with Session(1, None, True) as s:
        build_many(["omaha-vs-random"], str(out), s, params=PARAMS)
    return out


@pytest.mark.slow
def test_twenty_rows_agree_with_an_independent_monte_carlo(built):
    t = read("omaha-vs-random", str(built), **PARAMS["omaha-vs-random"]).to_pylist()
    assert len(t) == 120 and {r["opponents"] for r in t} == {1, 3}
    assert all(r["samples"] > 0 and r["stderr"] > 0 and r["wins"] + r["ties"] <= r["samples"] for r in t)
    rng = np.random.default_rng(2)
    for r in [t[i] for i in rng.choice(len(t), 20, replace=False)]:
        mc = omaha_equity([r["hand"]] + ["random"] * r["opponents"], trials=100_000, seed=7).players[0]
        assert abs(mc.equity - r["equity"]) < 4 * (mc.stderr ** 2 + r["stderr"] ** 2) ** 0.5, (r, mc)


def independent_label(hand: str) -> str:
    """Ranks high to low and the suit-shape suffix (docs/omaha.md), worked out from the text of a hand."""
    ranks = sorted(hand[0::2], key="23456789TJQKA".index, reverse=True)
    shape = tuple(sorted((hand[1::2].count(s) for s in set(hand[1::2])), reverse=True))
    return "".join(ranks) + {(1, 1, 1, 1): "r", (2, 1, 1): "ss", (2, 2): "ds", (3, 1): "ts", (4,): "ms"}[shape]


@pytest.mark.slow
def test_omaha_class_answers_sql(built):
    """``omaha_class`` is the players' label of each row, and ``WHERE omaha_class = ...`` in DuckDB finds
    every class of a label: the first 60 classes hold every hand of ranks 2 to 4, so those labels' combos
    add up to the hands the range parser reads for the label."""
    import duckdb

    glob = str(built / "omaha-vs-random" / "**" / "*.parquet")
    rows = duckdb.sql(f"SELECT hand, omaha_class FROM read_parquet('{glob}')").fetchall()
    assert rows and all(label == independent_label(hand) for hand, label in rows)
    one = duckdb.sql(f"SELECT hand, combos FROM read_parquet('{glob}') WHERE omaha_class = '3322ds' "
                     "AND opponents = 1").fetchall()
    assert len(one) == 1 and one[0][1] == 6
    sums = duckdb.sql(f"SELECT omaha_class, sum(combos) FROM read_parquet('{glob}') WHERE opponents = 1 "
                      "GROUP BY omaha_class").fetchall()
    low = {label: n for label, n in sums if set(label[:4]) <= set("234")}
    assert len(low) == 36 and all(len(parse_omaha_range(label)) == n for label, n in low.items())


@pytest.mark.slow
def test_a_part_is_recomputed_to_its_bytes_alone(built, tmp_path):
    """A part depends on its partition only (seeded from seed, opponents and part): recomputed alone, in a
    copy of the build with two parts gone, it comes back byte for byte; the batch layer's own tests show
    that a part's bytes do not depend on the workers."""
    import shutil

    other = tmp_path / "copy"
    shutil.copytree(built, other)
    for i in (1, 4):                                       # in their opponents=K/ folders
        part(other, "omaha-vs-random", i).unlink()
    with Session(1, None, True) as s:
        reports = build_many(["omaha-vs-random"], str(other), s, params=PARAMS, write_catalog=False)
    assert [r.computed for r in reports] == [2]
    assert files(other) == files(built)


def test_every_four_card_hand_falls_in_one_of_16432_classes():
    hands, weights = starting_classes(4)
    assert len(hands) == 16_432 and int(weights.sum()) == 270_725      # the counts the issue quotes
    assert np.array_equal(canonical_masks(hands), np.bitwise_or.reduce(np.uint64(1) << hands.astype(np.uint64), 1))
    rng = np.random.default_rng(0)
    hand = np.sort(rng.choice(52, 4, replace=False))
    images = {tuple(sorted(4 * (c // 4) + p[c % 4] for c in hand)) for p in
              __import__("itertools").permutations(range(4))}
    row = int(np.searchsorted(np.bitwise_or.reduce(np.uint64(1) << hands.astype(np.uint64), 1),
                              canonical_masks(hand[None])[0]))
    assert weights[row] == len(images)


@pytest.mark.parametrize("params, words", [({"opponents": "0"}, "opponents"), ({"opponents": "1-9"}, "opponents"),
                                           ({"trials": 0}, "trials"), ({"limit": 0}, "limit"),
                                           ({"opponents": "x"}, "opponents")])
def test_bad_parameters(params, words):
    with pytest.raises(InputError, match=words):
        dataset("omaha-vs-random", **params)
