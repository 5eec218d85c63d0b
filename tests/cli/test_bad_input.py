"""Bad input gets one line on stderr and exit code 2: never a traceback, a hang or a silently wrong number.

Each case found by the reliability pass of issue 10 (items 5, 8 and 9) is here:
through the real console script (``python -m jobs`` in a subprocess) for the
command line, in-process for the library API.  A property-based test then feeds
random printable and non-ASCII strings to every argument that parses cards,
ranges, queries or pay tables.  Expected figures come from ../shared/README.md
(independent enumerations, Wizard of Odds) or from arithmetic done here in
Python integers, never from the code under test.
"""
import functools
import io
import json
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.ahead import selected

from jobs.main import main
from pipeline import CardError, situation_cards
from pipeline.core.cards import parse_card, parse_cards
from pipeline.equity import equity
from pipeline.isomorphism.situations import street_size
from pipeline.ranges.query import MAX_DEPTH, parse_query
from pipeline.ranges.syntax import parse_range
from pipeline.strength.outs import outs
from pipeline.videopoker import PayTableError, analyze, builtin
from pipeline.videopoker.paytable import MAX_PAY, build, slug

KELVIN, LONG_S = "\u212a", "\u017f"        # fold to ASCII 'k' and 's' under Unicode case rules
TWENTY_THREE = ["5c5d", "5h5s", "6c6d", "6h6s", "7c7d", "7h7s", "8c8d", "8h8s", "9c9d", "9h9s", "TcTd", "ThTs",
                "JcJd", "JhJs", "QcQd", "QhQs", "KcKd", "2d2h", "3d3h", "4d4h", "AcAd", "2s3s", "4sKs"]


def cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, timeout=300, **kw)


@pytest.fixture(scope="module")
def console(request, tmp_path_factory):
    """The console-script cases, three processes at a time (``ahead``): every case is still its own
    ``python -m jobs`` process (issue 10).  The result of case ``key`` is ``console(key)``: ``args``
    for CLI_REFUSALS, the index for PAYTABLE_REFUSALS (its file is written here)."""
    argv = {tuple(args): tuple(args) for args in selected(request, "test_cli_refuses_with_one_line", "args")}
    for case in selected(request, "test_cli_refuses_bad_paytable_files", "case"):
        path, data = PAYTABLE_REFUSALS[case][0](tmp_path_factory.mktemp("paytable"))
        path.write_bytes(data)
        argv[case] = ("videopoker", "--paytable", str(path))
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {key: pool.submit(cli, *args) for key, args in argv.items()}
        yield lambda key: futures[key].result()


def assert_refused(p, words):
    err = p.stderr.decode("utf-8", "replace") if isinstance(p.stderr, bytes) else p.stderr
    assert p.returncode == 2, (p.returncode, err)
    assert not p.stdout
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("pokerpipe: error: ") and words in lines[0], lines[0]


# ---------------------------------------------------------------------------
# The command line, case by case

CLI_REFUSALS = [
    # item 8: Unicode lookalikes are refused before any case folding, in every command
    (["equity", KELVIN + "hAh", "QsQd"], "U+212A KELVIN SIGN"),
    (["equity", "AhKh", "QsQd", "--board", "2" + LONG_S + "3h4h"], "U+017F"),
    (["equity", "AhKh", "QsQd", "--dead", KELVIN + "d"], "U+212A"),
    (["equity", "AK" + LONG_S, "QQ"], "U+017F"),
    (["range", KELVIN + KELVIN], "U+212A"),
    (["range", LONG_S + "uited And Connected"], "U+017F"),
    (["range", "\uff21\uff2b"], "U+FF21 FULLWIDTH LATIN CAPITAL LETTER A"),
    (["odds", KELVIN + "hAh"], "U+212A"),
    (["odds", "AhKh", "--board", "2c3c4" + LONG_S], "U+017F"),
    (["ehs", "Ad" + KELVIN + "c", "--board", "3h4cJh"], "U+212A"),
    (["ehs", "AdQc", "--board", "3h4cJ" + LONG_S], "U+017F"),
    (["outs", "AsAc", "--board", "Kd8h9" + LONG_S], "U+017F"),
    (["outs", "AsAc", "--board", "Kd8h9c", "--opponent", KELVIN + "h" + KELVIN + "d"], "U+212A"),
    # item 8: queries nested past Python's stack are refused, by name
    (["range", "(" * 247 + "Pair" + ")" * 247], f"nested more than {MAX_DEPTH} deep"),
    (["range", "(" * 5000], f"nested more than {MAX_DEPTH} deep"),
    (["equity", "(" * 300 + "AK" + ")" * 300, "QQ"], "nested more than"),
    # item 8: outs with opponents that leave no unseen hand (was an internal array message)
    (["outs", "AhKh", "--board", "2c3c4c"] + [x for h in TWENTY_THREE for x in ("--opponent", h)], "unseen"),
    (["outs", "AhKh", "--board", "2c3c4cAs"] + [x for h in TWENTY_THREE[:22] for x in ("--opponent", h)],
     "unseen"),
    # item 8: a negative seed
    (["equity", "AhKh", "QsQd", "--trials", "100", "--seed", "-1"], "seed"),
    (["odds", "AhKh", "--seed", "-1"], "--seed"),
    # item 9: the range that lost its combos is named, not a duplicate card
    (["equity", "77", "7hQh", "--board", "Qd3s7d", "--dead", "7c"], "range '77' has no combo left"),
    # item 9: weights that underflow
    (["equity", "AKs:1e-320", "QQ:1e-320"], "too small"),
    (["range", "AKs:5e-324"], "too small"),
    # item 5: pays beyond exact int64 arithmetic
    (["videopoker", "jacks-or-better-9-6", "--royal", "2000000000000"], "at most 1,000,000"),
    (["videopoker", "jacks-or-better-9-6", "--royal", str(2**70)], "at most 1,000,000"),
    (["videopoker", "jacks-or-better-9-6", "--royal", str(MAX_PAY + 1)], "at most 1,000,000"),
    (["videopoker", "deuces-wild-full-pay", "--royal", str(2**64 + 800)], "at most 1,000,000"),
]


@pytest.mark.slow
@pytest.mark.parametrize("args, words", CLI_REFUSALS)
def test_cli_refuses_with_one_line(console, args, words):
    assert_refused(console(tuple(args)), words)


def test_cli_refuses_undecodable_argv_bytes():
    """Bytes that are not UTF-8 reach Python as lone surrogates; the message escapes them."""
    p = subprocess.run([sys.executable, "-m", "jobs", "range", b"A\xffK"], capture_output=True, timeout=300)
    assert_refused(p, "U+DCFF")


@pytest.mark.slow
def test_equity_names_a_range_with_no_combo_left_in_the_library():
    with pytest.raises(CardError, match="player 1: range '77' has no combo left"):
        equity(["77", "7hQh"], board="Qd3s7d", dead="7c")
    # still a duplicate card when both were written as hands
    with pytest.raises(CardError, match="duplicate card 7h in 7h7s and 7hQh"):
        equity(["7h7s", "7hQh"], board="Qd3s2d")


def _toml(text):
    return lambda folder: (folder / "game.toml", text.encode() if isinstance(text, str) else text)


def _named(name):
    return lambda folder: (folder / name, _JOB96_TOML)


_JOB96_TOML = ('title = "Jacks or Better 9/6"\nfamily = "natural"\n[pays]\nroyal-flush = 800\nstraight-flush = 50\n'
               'four-of-a-kind = 25\nfull-house = 9\nflush = 6\nstraight = 4\nthree-of-a-kind = 3\ntwo-pair = 2\n'
               'jacks-or-better = 1\n').encode()


PAYTABLE_REFUSALS = [
    # item 4 (pay-table half): the stem names the dataset folder, so it must be a slug
    (_named("...toml"), "'..' is not a slug"),
    (_named("My_Game.toml"), "'My_Game' is not a slug"),
    (_named("-x.toml"), "not a slug"),
    (_named("caf\u00e9.toml"), "not a slug"),
    # item 8: bytes that are not UTF-8, nesting past Python's stack, a huge file
    (_toml(b'title = "Caf\xe9"\n[pays]\nroyal-flush = 800\n'), "not UTF-8"),
    (_toml("a = " + "[" * 100_000 + "]" * 100_000 + "\n"), "nested too deep"),
    (_toml("a = " + "{b = " * 5000 + "1" + "}" * 5000 + "\n"), "nested too deep"),
    (_toml("# " + "x" * (2 << 20) + "\n"), "larger than"),
    (_toml('family = "natural"\n[pays]\nroyal-flush = 18446744073709551616\n'), "at most 1,000,000"),
    (_toml('title = 5\n[pays]\nroyal-flush = 800\n'), "must be strings"),
]


@pytest.mark.parametrize("case", range(len(PAYTABLE_REFUSALS)))
def test_cli_refuses_bad_paytable_files(console, case):
    assert_refused(console(case), PAYTABLE_REFUSALS[case][1])


def test_paytable_slug_accepts_the_builtin_names():
    from pipeline.videopoker import builtin_names
    for name in builtin_names():
        assert slug(name) == name
    for bad in ("..", ".", "", "A", "a_b", "a/b", "a b", "-a", "x" * 101):
        with pytest.raises(PayTableError):
            slug(bad)


def test_valid_edge_inputs_still_work():
    """The limits refuse only what would break: these sit right at them and must succeed."""
    p = cli("range", "Not " * 1000 + "Pair", "--json")            # 1,000 Nots: the pairs again
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["combos"] == 13 * 6
    p = cli("range", "(" * MAX_DEPTH + "AK" + ")" * MAX_DEPTH, "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["combos"] == 16
    assert len(parse_query("Not " * 999 + "Pair")) == 1326 - 78


# ---------------------------------------------------------------------------
# Ctrl-C on a quick command (item 9)

_INTERRUPT_INSIDE = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)   # as in a terminal, even when started in the background
import pipeline.equity.calculator as calc
original = calc.parse_board
def interrupted(*args, **kw):            # Ctrl-C while the command is at work
    os.kill(os.getpid(), signal.SIGINT)
    return original(*args, **kw)
calc.parse_board = interrupted
sys.argv = ["pokerpipe", "equity", "AA", "KK"]
from jobs.main import entry
entry()
"""


def test_ctrl_c_prints_interrupted_and_exits_130():
    p = subprocess.run([sys.executable, "-c", _INTERRUPT_INSIDE], capture_output=True, text=True, timeout=300,
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert p.returncode == 130, p.stderr
    assert p.stderr == "pokerpipe: interrupted\n" and p.stdout == ""


def test_ctrl_c_in_process(monkeypatch):
    import pipeline.equity as pe

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(pe, "equity", interrupted)
    code, out, err = run_main(["equity", "AA", "KK"])
    assert (code, out, err) == (130, "", "pokerpipe: interrupted\n")


def test_a_run_interrupted_past_its_command_is_one_line_and_130(monkeypatch):
    """A batch run's Interrupted (Ctrl-C or SIGTERM, with what was kept) that its command does not catch."""
    import pipeline.equity as pe
    from pipeline.core.errors import Interrupted

    def interrupted(*a, **k):
        raise Interrupted("some-dataset: interrupted with 1 of 2 parts done; run the same command again to resume")
    monkeypatch.setattr(pe, "equity", interrupted)
    code, out, err = run_main(["equity", "AA", "KK"])
    assert (code, out) == (130, "")
    assert err == "pokerpipe: some-dataset: interrupted with 1 of 2 parts done; run the same command again to resume\n"


# ---------------------------------------------------------------------------
# The library API

@pytest.mark.parametrize("board_cards", [1, 2, 6, -1, 3.0, True])
def test_situation_cards_refuses_a_street_that_does_not_exist(board_cards):
    with pytest.raises(CardError, match="0, 3, 4 or 5 board cards"):
        situation_cards(0, board_cards)
    with pytest.raises(CardError, match="0, 3, 4 or 5 board cards"):
        street_size(board_cards)


def test_situation_cards_street_sizes_still_match_the_reference():
    assert [street_size(n) for n in (0, 3, 4, 5)] == [169, 1_286_792, 13_960_050, 123_156_254]


@pytest.mark.slow
def test_evaluate_unchecked_still_refuses_ids_outside_the_deck():
    """Was a segfault; run in a subprocess so that a regression fails this test, not the whole run."""
    code = ("import numpy as np\nfrom pipeline import CardError, evaluate\n"
            "for row in ([0, 1, 2, 3, 10**7], [0, 1, 2, 3, 52], [0, 1, 2, 3, -(10**9)], [4, 5, 6, 7, 8, 9, 2**40]):\n"
            "    try:\n        evaluate(np.array([row]), check=False)\n        print('accepted', row)\n"
            "    except CardError as e:\n        print('refused')\n"
            "print(int(evaluate(np.array([[48, 44, 40, 36, 32]]), check=False)[0]) >> 12)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["refused"] * 4 + ["8"]          # AKQJT of clubs: a straight flush (category 8)


@pytest.mark.parametrize("parse, text", [
    (parse_card, KELVIN + "h"), (parse_card, "A" + LONG_S), (parse_cards, "Ah" + KELVIN + "d"),
    (parse_range, KELVIN + KELVIN), (parse_range, "AK" + LONG_S), (parse_range, "A\u0130"),
    (parse_query, LONG_S + "uited"), (parse_query, "Group1 And " + KELVIN + "x"), (parse_query, "Pa\u0131r"),
])
def test_parsers_refuse_non_ascii_before_case_folding(parse, text):
    with pytest.raises(CardError, match="unexpected character"):
        parse(text)


@pytest.mark.slow
def test_underflowing_weights_refused_and_tiny_normal_weights_exact():
    with pytest.raises(CardError, match="too small"):
        parse_range("AKs:1e-320")
    # 1e-300 is a normal double but the product of two is not: equity scales each range, so the weights'
    # common size does not matter.  AKs vs QQ is 46.0485% (../shared/README.md).
    r = equity(["AKs:1e-300", "QQ:1e-300"])
    assert r.exact and round(100 * r.players[0].equity, 4) == 46.0485


def test_rescaled_keeps_ordinary_weights_and_lifts_tiny_ones_exactly():
    ordinary = parse_range("AKs:0.5,QQ:1e-30")
    assert ordinary.rescaled() is ordinary
    tiny = parse_range("AKs:3e-300,QQ:1e-300")
    up = tiny.rescaled()
    assert 0.5 <= up.weights.max() < 1.0
    assert (up.weights / tiny.weights == up.weights.max() / tiny.weights.max()).all()   # one power of two
    assert np.log2(up.weights[0] / tiny.weights[0]).is_integer()


def test_outs_refuses_opponents_that_leave_no_unseen_hand():
    with pytest.raises(CardError, match="unseen"):
        outs("AhKh", "2c3c4c", TWENTY_THREE)
    assert outs("AhKh", "2c3c4c", TWENTY_THREE[:22])["count"] >= 0   # 22 leave 3 unseen cards: allowed


def test_query_nesting_limit_is_a_clear_error():
    with pytest.raises(CardError, match=f"nested more than {MAX_DEPTH} deep"):
        parse_query("(" * (MAX_DEPTH + 1) + "AK" + ")" * (MAX_DEPTH + 1))
    assert len(parse_query("(" * MAX_DEPTH + "AK" + ")" * MAX_DEPTH)) == 16


# ---------------------------------------------------------------------------
# Video poker at the documented bound of pays (item 5)

@pytest.mark.slow
def test_hold_evs_are_exact_at_the_largest_pays():
    """The joker deck has the largest common denominator L; pays at MAX_PAY * 10**6 are what the break-even
    search feeds the kernel at the top of the range.  Every hold's EV of sampled deals must equal the
    same sum done in Python integers (no overflow anywhere)."""
    from pipeline.core.combinatorics import BINOM
    from pipeline.videopoker.analyzer import POPCOUNT, hold_counts, scales, solve_deals
    from pipeline.videopoker.subsets import family_tables

    ft = family_tables("joker")
    lcm, scale = scales(ft.deck)
    assert lcm == math.lcm(*(math.comb(48, k) for k in range(6))) == 8_561_520
    top = MAX_PAY * 10**6
    assert top * lcm < 2**63                       # the documented bound itself
    pays = {h: top - i for i, h in enumerate(["natural-royal-flush", "five-of-a-kind", "wild-royal-flush",
                                               "straight-flush", "four-of-a-kind", "full-house", "flush",
                                               "straight", "three-of-a-kind", "two-pair", "kings-or-better"])}
    pt = build("bound-test", "bound test", "joker", pays, max_pay=top)
    pay = [int(x) for x in pt.type_pay]
    rng = np.random.default_rng(10)
    pick = np.sort(rng.choice(len(ft.deals), 1500, replace=False))
    deals, weights = ft.deals[pick], ft.weights[pick]
    best = np.empty(len(pick), np.int64)
    ev = np.empty((len(pick), 32), np.int64)
    dist = np.zeros(len(ft.types), np.int64)
    solve_deals(deals, weights, ft.counts, ft.hand_types, ft.offsets, BINOM, pt.pay_vector, scale, POPCOUNT,
                best, ev, dist)
    hc = np.empty((32, len(ft.types)), np.int64)
    for d in range(len(pick)):
        hold_counts(deals[d], ft.counts, ft.hand_types, ft.offsets, BINOM, hc)
        want = [sum(int(c) * p for c, p in zip(hc[m].tolist(), pay)) * int(scale[bin(m).count("1")])
                for m in range(32)]
        assert ev[d].tolist() == want
        assert max(want) < 2**63


def test_pays_past_int64_are_refused_not_wrapped():
    pt = builtin("jacks-or-better-9-6")
    with pytest.raises(PayTableError, match="at most 1,000,000"):
        pt.with_royal(MAX_PAY + 1)
    lcm = 7_669_695
    over = (2**63 - 1) // lcm + 1                  # the first pay whose EV no longer fits in int64
    pays = dict(pt.pays, **{"royal-flush": over})
    huge = build(pt.name, pt.title, pt.family, pays, max_pay=2**80)
    with pytest.raises(PayTableError, match="overflows"):
        analyze(huge)


@pytest.mark.slow
def test_royal_at_the_bound_is_exact_and_published_figures_hold():
    """At --royal 1,000,000 the combinations still sum to C(52,5)*L and the return is their exact mean;
    the Wizard of Odds figures for Jacks or Better 9/6 still hold (../shared/README.md)."""
    p = cli("videopoker", "jacks-or-better-9-6", "--royal", str(MAX_PAY), "--json", text=True)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    total = math.comb(52, 5) * 7_669_695
    combos = {r["hand"]: r["combinations"] for r in doc["distribution"]}
    pays = {r["hand"]: r["pays"] for r in doc["distribution"]}
    assert sum(combos.values()) == total == 19_933_230_517_200
    assert pays["royal-flush"] == MAX_PAY
    assert doc["return"] == pytest.approx(sum(combos[h] * pays[h] for h in combos) / total, rel=1e-12)
    assert combos["royal-flush"] > 493_512_264        # chasing royals: more than under the 800 pay (WoO)
    a = analyze(builtin("jacks-or-better-9-6"))
    assert round(a.ret, 8) == 0.99543904 and round(a.variance, 6) == 19.514676


@pytest.mark.slow
def test_break_even_from_the_bound_agrees():
    """Newton started at the largest royal (pays carried at 10**12 per coin in the kernel) lands on the root."""
    from pipeline.videopoker import break_even_royal
    base = builtin("jacks-or-better-9-6")
    from_top = break_even_royal(base.with_royal(MAX_PAY))
    at = analyze(base.with_royal(round(from_top)))
    assert abs(at.ret - 1.0) < 1e-3
    assert from_top == pytest.approx(break_even_royal(base), abs=1e-5)


# ---------------------------------------------------------------------------
# Property: any string in any parsing argument gives exit 0 or (2 and one line), never a traceback

@pytest.fixture(scope="module", autouse=True)
def command_built_once():
    """``main`` builds the Click command from the Typer app on every call (~20 ms, most of an in-process
    run): a process calls it once, so the in-process runs here reuse one build, as a process would."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(typer.main, "get_command", functools.cache(typer.main.get_command))
        yield


def run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


_OUTSIDE_ALPHABET = re.compile(r"[^\x20-\x7e\t\n]")


def check_main(argv, fuzzed=""):
    """Exit 0, or exit 2 with one ``pokerpipe: error:`` line; a character outside printable ASCII is always 2."""
    code, out, err = run_main(argv)
    if _OUTSIDE_ALPHABET.search(fuzzed):
        assert code == 2, (argv, code, out, err)
    if code == 0:
        return
    assert code == 2, (argv, code, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerpipe: error: ") and "Traceback" not in err, (argv, err)
    assert out == "", (argv, out)


CARD_ALPHABET = "23456789TJQKAtjqkacdhsxo10 ,:+-.()"
PIECES = ["Not ", "And ", " Or ", "(", ")", "Suited", "Pair", "Connected", "Gap1", "Group1", " To ", "Group8",
          "Kx", ":0.5", ":1e-320", "random", "AKs", "QQ+", "A2s-A5s", "AhKh", "10h", KELVIN, LONG_S, "\u0130",
          "\u0131", "\uff21", "\u00df", "\x00", "\n", "\t", "\u2028", "\x85", "\udcff", "\U0001f0a1"]
VALID = ["AhKh", "QsQd", "As Kd", "10h9h", "AKs", "KK", "QQ+", "A2s-A5s", "KTo+", "TT-", "AKs:0.5,QQ", "random",
         "Suited And Connected", "Group2 To Group5", "Kx And Not Pair", "(Pair Or Suited)", "3h4cJh", "Kd8h9c",
         "2c3c4c5d", "jacks-or-better-9-6"]
# characters that Unicode case folding, float() or str.split() map onto what the parsers accept
LOOKALIKES = [KELVIN, LONG_S, "\u0130", "\u0131", "\u212b", "\ufb06", "\uff21", "\uff4b", "\u0660", "\u00b2",
              "\u1e9e", "\u2160", "\u00a0", "\u2009", "\ufeff", "\u200b"]


def _mutate(text: str, at: int, char: str, replace: bool) -> str:
    i = at % (len(text) + 1)
    return text[:i] + char + text[i + (1 if replace else 0):]


ANY_TEXT = st.text(st.characters(codec=None), max_size=16)
CARDISH = st.text(CARD_ALPHABET, max_size=14)
MIXED = st.lists(st.one_of(CARDISH, ANY_TEXT, st.sampled_from(PIECES)), max_size=6).map("".join)
MUTATED = st.builds(_mutate, st.sampled_from(VALID), st.integers(0, 40),
                    st.one_of(st.sampled_from(LOOKALIKES), st.characters(codec=None)), st.booleans())
ARG = st.one_of(ANY_TEXT, CARDISH, MIXED, MUTATED, MUTATED)
FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                database=None)

TEMPLATES = {
    "equity-hand1": ["equity", None, "QsQd", "--trials", "500"],
    "equity-hand2": ["equity", "AhKh", None, "--trials", "500"],
    "equity-board": ["equity", "AhKh", "QsQd", "--board", None, "--trials", "500"],
    "equity-dead": ["equity", "AhKh", "QsQd", "--dead", None, "--trials", "500"],
    "range": ["range", None],
    "odds-hole": ["odds", None, "--max-opponents", "1", "--trials", "500"],
    "odds-board": ["odds", "AhKh", "--board", None, "--max-opponents", "2", "--trials", "500"],
    "ehs-hole": ["ehs", None, "--board", "3h4cJh"],
    "ehs-board": ["ehs", "AdQc", "--board", None],
    "outs-hole": ["outs", None, "--board", "Kd8h9c"],
    "outs-board": ["outs", "AsAc", "--board", None],
    "outs-opponent": ["outs", "AsAc", "--board", "Kd8h9c", "--opponent", None],
    "videopoker-game": ["videopoker", None],
    "videopoker-paytable-path": ["videopoker", "--paytable", None],
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_any_string_in_any_argument(name):
    template = TEMPLATES[name]

    @FUZZ
    @given(ARG)
    def prop(text):
        check_main([text if x is None else x for x in template], text)

    prop()


_TOML_PIECES = ["[pays]\n", 'family = "natural"\n', 'family = "joker"\n', "royal-flush = ", "800\n", "-1\n",
                "1e3\n", "18446744073709551616\n", '"x"\n', "[[pays]]\n", "title = ", "{a = 1}\n", "[\n", "]\n",
                "\xff", "\x00", "\ud800", "four-aces = 400\n", "= ", "\n"]


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(_TOML_PIECES), st.text(max_size=10)), max_size=12).map("".join),
       st.sampled_from(["game.toml", "x.toml", "...toml", "G.toml", "caf\u00e9.toml"]))
def test_any_paytable_text(tmp_path_factory, text, filename):
    path = tmp_path_factory.mktemp("pt") / filename
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    check_main(["videopoker", "--paytable", str(path)])


@pytest.mark.slow
@settings(max_examples=4, deadline=None, database=None)
@given(st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=12))
def test_any_string_through_the_console_script(text):
    """The same promise through the real ``python -m jobs``, a few strings only (a process each)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    with ThreadPoolExecutor(max_workers=2) as pool:          # the two processes of an example at once
        runs = list(pool.map(lambda args: cli(*args, env=env),
                             (["range", text], ["equity", "AhKh", text, "--trials", "500"])))
    for p in runs:
        if p.returncode != 0:
            assert_refused(p, "")

