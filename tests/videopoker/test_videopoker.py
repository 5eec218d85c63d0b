"""Video poker against published exact figures and a brute-force draw enumeration."""
import json
import math
import subprocess
import sys
from itertools import combinations

import numpy as np
import pytest
from oracles.reference import rank5
from support.layout import beside

from pipeline.videopoker import PayTableError, analyze, break_even_royal, builtin, builtin_names, load
from pipeline.videopoker.subsets import family_tables

JOB_96 = {
    "royal-flush": 493512264, "straight-flush": 2178883296, "four-of-a-kind": 47093167764,
    "full-house": 229475482596, "flush": 219554786160, "straight": 223837565784,
    "three-of-a-kind": 1484003070324, "two-pair": 2576946164148, "jacks-or-better": 4277372890968,
    "nothing": 10872274993896,
}


@pytest.fixture(scope="module")
def job96():
    return analyze(builtin("jacks-or-better-9-6"))


def test_jacks_or_better_9_6_exact(job96):
    assert job96.total == 19933230517200
    assert job96.combinations == JOB_96
    assert round(job96.ret, 8) == 0.99543904
    assert round(job96.variance, 6) == 19.514676


def test_deuces_wild_full_pay():
    assert round(analyze(builtin("deuces-wild-full-pay")).ret, 8) == 1.00761961


def test_deal_classes():
    for family, classes, deals in (("natural", 134459, 2598960), ("joker", None, 2869685)):
        ft = family_tables(family)
        assert int(ft.weights.sum()) == deals
        if classes:
            assert len(ft.deals) == classes


def _job_pay(cards):
    cat, *ranks = rank5(cards)
    pays = {8: 50, 7: 25, 6: 9, 5: 6, 4: 4, 3: 3, 2: 2}
    if cat == 8 and ranks[0] == 12:
        return 800
    if cat == 1:
        return 1 if ranks[0] >= 9 else 0
    return pays.get(cat, 0)


@pytest.mark.parametrize("index", [7, 4321, 77777, 134000])
def test_hold_evs_match_brute_force(job96, index):
    """EV of every hold keeping 3+ cards, by enumerating the draws with a plain evaluator."""
    ft = family_tables("natural")
    deal = ft.deals[index].tolist()
    rest = [c for c in range(52) if c not in deal]
    for mask in range(32):
        held = [c for i, c in enumerate(deal) if mask >> i & 1]
        if len(held) < 3:
            continue
        total = sum(_job_pay(held + list(d)) for d in combinations(rest, 5 - len(held)))
        draws = math.comb(47, 5 - len(held))
        assert job96.hold_ev[index, mask] * draws == total * job96.scale, (deal, mask)


def test_best_hold_is_argmax(job96):
    best = job96.hold_ev[np.arange(len(job96.best_mask)), job96.best_mask]
    assert (best == job96.hold_ev.max(axis=1)).all()


def test_royal_override_and_break_even():
    base = builtin("jacks-or-better-9-6")
    lower = analyze(base.with_royal(250))
    assert lower.ret < 0.99543904
    be = break_even_royal(base)
    assert 800 < be < 2000
    at = analyze(base.with_royal(round(be)))
    assert abs(at.ret - 1.0) < 1e-3


def test_all_builtins_load_and_published_returns():
    names = builtin_names()
    assert len(names) == 22
    # returns as Wizard of Odds publishes them (percent, two decimals)
    published = {"bonus-poker-8-5": 99.17, "double-double-bonus-9-6": 98.98, "deuces-wild-nsu": 99.73,
                 "double-bonus-10-7": 100.17, "jacks-or-better-8-5": 97.30, "triple-double-bonus-9-7": 99.58,
                 "aces-and-faces-8-5": 99.26}
    for name, pct in published.items():
        assert round(100 * analyze(builtin(name)).ret, 2) == pct, name


@pytest.mark.parametrize("text, words", [
    ('family = "natural"\n[pays]\nroyal-flush = 800\nbogus-hand = 3\n', "unknown hand"),
    ('family = "natural"\n[pays]\nroyal-flush = -1\n', "whole number"),
    ('family = "natural"\n[pays]\nroyal-flush = 800\nstraight-flush = 50\n', "no pay given for"),
    ('family = "klondike"\n[pays]\nroyal-flush = 800\n', "unknown family"),
    ('this is not toml', "not valid TOML"),
])
def test_bad_paytables(tmp_path, text, words):
    p = tmp_path / "game.toml"
    p.write_text(text)
    with pytest.raises(PayTableError, match=words):
        load(p)


def run(*args):
    return subprocess.run([sys.executable, "-m", "jobs", "videopoker", *args], capture_output=True, text=True,
                          timeout=600)


@pytest.mark.slow
def test_cli_json_and_custom_paytable(tmp_path):
    p = run("jacks-or-better-9-6", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["game"] == "jacks-or-better-9-6" and round(doc["return"], 8) == 0.99543904
    assert {r["hand"]: r["combinations"] for r in doc["distribution"]} == JOB_96
    assert set(doc["distribution"][0]) >= {"hand", "pays", "combinations", "probability", "return"}
    custom = tmp_path / "my-game.toml"
    custom.write_text('family = "natural"\n[pays]\nroyal-flush = 800\nstraight-flush = 50\nfour-of-a-kind = 25\n'
                      'full-house = 9\nflush = 6\nstraight = 4\nthree-of-a-kind = 3\ntwo-pair = 2\n'
                      'jacks-or-better = 1\n')
    q = run("--paytable", str(custom), "--json")
    assert q.returncode == 0, q.stderr
    assert json.loads(q.stdout)["return"] == doc["return"]


@pytest.mark.parametrize("args, words", [
    (["no-such-game"], "unknown game"),
    ([], "give one of"),
    (["jacks-or-better-9-6", "--royal", "-5"], "--royal"),
    (["--paytable", "/nonexistent.toml"], "cannot read pay table"),
])
def test_cli_bad_input(args, words):
    p = run(*args)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], p.stderr


@pytest.mark.slow
def test_strategy_dataset(tmp_path):
    p = run("jacks-or-better-9-6", "--out", str(tmp_path), "--quiet", "--json")
    assert p.returncode == 0, p.stderr
    import pyarrow.dataset as ds
    folder = tmp_path / "videopoker" / "jacks-or-better-9-6"
    t = ds.dataset(folder, format="parquet").to_table()
    assert t.num_rows == 134459 and sum(t.column("weight").to_pylist()) == 2598960
    evs = np.array(t.column("hold_ev").to_pylist())
    assert np.allclose(evs.max(axis=1), t.column("ev").to_numpy())
    text = (beside(folder) / "_strategy.txt").read_text()
    assert "pat royal-flush" in text and "KQJTs" in text and "four of a kind" in text


@pytest.mark.parametrize("royal, got", [(-5, "-5"), (10**6 + 1, "1,000,001"), (2.5, "2.5"), (True, "True")])
def test_a_royal_pay_out_of_range_is_one_line_naming_the_option(royal, got):
    """The pay table owns --royal's range: the command line prints this line as it is."""
    with pytest.raises(PayTableError) as e:
        builtin("jacks-or-better-9-6").with_royal(royal)
    assert str(e.value) == ("--royal must be 0 to 1,000,000 per coin (pays are at most 1,000,000 coins per coin, "
                            f"for exact int64 arithmetic), got {got}")
