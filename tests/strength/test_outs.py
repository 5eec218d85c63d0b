"""Outs and draws: Keith Rule's example, brute-force rules, draw flags."""
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from oracles.reference import best_hand

from pipeline import CardError, parse_cards
from pipeline.strength.outs import draw_count, flush_draw, outs


def test_rule_example_aces_on_k98():
    r = outs("AsAc", "Kd8h9c")
    assert r["count"] == 11
    assert sorted(r["by_hand"]["two pair"]) == sorted("Ks Kh Kc 9s 9h 9d 8s 8d 8c".split())
    assert sorted(r["by_hand"]["three of a kind"]) == ["Ad", "Ah"]
    assert "Qs" not in r["outs"]          # a better kicker is no out
    assert 0 < r["discounted"] < 11


def _category(cards):
    """Category with the reference evaluator; under five cards only pairs/trips/quads."""
    if len(cards) >= 5:
        return best_hand(cards)[0]
    counts = sorted((sum(1 for c in cards if c // 4 == r) for r in range(13)), reverse=True)
    return {4: 7, 3: 3}.get(counts[0], 2 if counts[:2] == [2, 2] else 1 if counts[0] == 2 else 0)


@pytest.mark.parametrize("hole, board, opps", [
    ("9h8h", "7h6c2h", []), ("AsKs", "Qs7s2d", ["JhJd"]), ("7c7d", "Kh7hKs", []), ("QcJd", "Th9s3c4h", ["AcAd"]),
])
def test_outs_follow_the_rules(hole, board, opps):
    h, b = parse_cards(hole), parse_cards(board)
    os_ = [parse_cards(o) for o in opps]
    known = set(h) | set(b) | {c for o in os_ for c in o}
    want = set()
    for c in range(52):
        if c in known:
            continue
        before, after = best_hand(h + b), best_hand(h + b + [c])
        if after > before and after[0] > before[0] and after[0] > _category(b + [c]) \
                and all(best_hand(o + b + [c]) <= after for o in os_):
            want.add(c)
    assert set(parse_cards(" ".join(outs(hole, board, opps)["outs"]))) == want


def test_draw_flags():
    d = outs("9h8h", "7h6c2h")["draws"]
    assert d["open_ended_straight_draw"] and d["flush_draw"] and d["flush_draw_count"] == 9
    assert d["straight_draw_count"] == 6            # T and 5 not of hearts
    g = outs("9h8h", "Th6c2d")["draws"]
    assert g["gutshot_straight_draw"] and not g["open_ended_straight_draw"] and g["straight_draw_count"] == 4
    assert g["backdoor_flush_draw"]
    assert not flush_draw(parse_cards("AsKd"), parse_cards("2h3h4h5h"))   # the board's draw is not the player's
    assert draw_count(parse_cards("AsAc"), parse_cards("Kd8h9c"), 3) == 2


@pytest.mark.parametrize("args", [["AsAc", "--board", "Kd"], ["AsAc", "--board", "Kd8h9c7s2d"],
                                  ["AsAc", "--board", "Kd8h9c", "--opponent", "As9d"]])
def test_cli_bad_input(args):
    p = subprocess.run([sys.executable, "-m", "jobs", "outs", *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_cli_json():
    p = subprocess.run([sys.executable, "-m", "jobs", "outs", "AsAc", "--board", "Kd8h9c", "--json"],
                       capture_output=True, text=True, timeout=300)
    doc = json.loads(p.stdout)
    assert {"count", "outs", "by_hand", "discounted", "draws"} <= set(doc) and doc["count"] == 11


def test_bad_hole():
    with pytest.raises(CardError):
        outs("As", "Kd8h9c")


# --- Pot odds (seed 001: outs turned into the call decision) -------------------------------------

def _brute_hit(hole, board, opps=()):
    """Chance that one of the outs comes next, and by the river, by listing every unseen run-out."""
    from itertools import combinations

    r = outs(hole, board, opps)
    out_ids = set(parse_cards(" ".join(r["outs"]))) if r["outs"] else set()
    known = set(parse_cards(hole)) | set(parse_cards(board)) | {c for o in opps for c in parse_cards(o)}
    unseen = [c for c in range(52) if c not in known]
    nxt = Fraction(sum(c in out_ids for c in unseen), len(unseen))
    runs = list(combinations(unseen, 5 - len(parse_cards(board))))
    by_river = Fraction(sum(bool(out_ids & set(run)) for run in runs), len(runs))
    return r, nxt, by_river


@pytest.mark.parametrize("hole, board, opps", [("AhKh", "Qh7h2c", []), ("9h8h", "7h6c2h", []),
                                                ("AhKh", "Qh7h2c3d", []), ("AsKs", "Qs7s2d", ["JhJd"])])
def test_hit_chances_against_listing_the_run_outs(hole, board, opps):
    from pipeline.strength.hit_odds import pot_odds

    r, nxt, by_river = _brute_hit(hole, board, opps)
    got = pot_odds(r["count"], r["unseen"], r["cards_to_come"], Fraction(100), Fraction(25))
    assert got["hit_next_card"] == pytest.approx(float(nxt), abs=1e-15)
    assert got["hit_by_river"] == pytest.approx(float(by_river), abs=1e-15)


def test_pot_odds_by_hand():
    """15 outs on the flop, 100 in the pot, 50 to call: p = 15/47; EV = 15/47*100 - 32/47*50 = -100/47;
    break-even 50/150; implied needed 32*50/15 - 100 = 20/3."""
    from pipeline.strength.hit_odds import pot_odds

    got = pot_odds(15, 47, 2, Fraction(100), Fraction(50))
    assert got["break_even_equity"] == pytest.approx(1 / 3)
    assert got["pot_odds"] == 2.0 and got["pot_odds_text"] == "2.00 : 1"
    assert got["call_ev"] == pytest.approx(-100 / 47) and got["profitable"] is False
    assert got["implied_needed"] == pytest.approx(20 / 3)
    assert got["hit_next_card_odds"] == ["2.13 : 1", "1 : 2.13"]      # 32 misses to 15 hits
    cheap = pot_odds(15, 47, 2, Fraction(100), Fraction(20))
    assert cheap["profitable"] is True and cheap["implied_needed"] == 0
    assert cheap["call_ev"] == pytest.approx((15 * 100 - 32 * 20) / 47)


@pytest.mark.parametrize("pot, to_call", [(10, 20), (0, 5), (Fraction(1999, 100), 20)])
def test_a_pot_below_the_call_is_refused(pot, to_call):
    """The pot holds the bet being called, so it is never less than the call: 10 into a call of 20 has no
    break-even to give."""
    from pipeline.core.errors import InputError
    from pipeline.strength.hit_odds import pot_odds

    with pytest.raises(InputError, match="the pot includes the bet to call"):
        pot_odds(15, 47, 2, Fraction(pot), Fraction(to_call))
    assert pot_odds(15, 47, 2, Fraction(20), Fraction(20))["break_even_equity"] == 0.5     # a bet into nothing


def test_outs_cli_pot_odds_json():
    p = subprocess.run([sys.executable, "-m", "jobs", "outs", "AhKh", "--board", "Qh7h2c", "--pot", "100",
                        "--to-call", "50", "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    for key in ("pot", "to_call", "pot_odds", "break_even_equity", "hit_next_card", "hit_by_river", "call_ev",
                "profitable"):
        assert key in doc
    assert doc["hit_next_card"] == pytest.approx(15 / 47) and doc["profitable"] is False


@pytest.mark.parametrize("args", [["--pot", "-1", "--to-call", "5"], ["--pot", "10", "--to-call", "-5"],
                                  ["--pot", "10"], ["--pot", "nan", "--to-call", "1"]])
def test_outs_cli_bad_pot(args):
    p = subprocess.run([sys.executable, "-m", "jobs", "outs", "AhKh", "--board", "Qh7h2c", *args],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "error" in p.stderr


@pytest.mark.parametrize("hole, board, dead", [("AhKh", "Qh7h2c", "Jh Th 3h"), ("9h8h", "7h6c2h", "Ts 5d 5c Ah"),
                                                ("AsAc", "Kd8h9c", "Ks 9d 2c")])
def test_dead_cards_are_no_outs_and_no_draw_cards(hole, board, dead):
    """A dead card leaves the deck: it stops being an out or a draw card, every other card keeps its
    role (an out depends only on the known hands), and the odds count the smaller deck."""
    from pipeline.strength.outs import straight_cards

    live, gone = outs(hole, board), outs(hole, board, dead=dead)
    d = set(dead.split())
    assert gone["outs"] == [c for c in live["outs"] if c not in d]
    h, b, dd = parse_cards(hole), parse_cards(board), parse_cards(dead)
    assert straight_cards(h, b, dd) == [c for c in straight_cards(h, b) if c not in dd]
    for cat in range(1, 9):
        lifts = _lifts(h, b, cat)
        assert draw_count(h, b, cat) == len(lifts)
        assert draw_count(h, b, cat, dd) == len(lifts - set(dd))
    assert gone["unseen"] == live["unseen"] - len(dd)


def _lifts(h, b, cat):
    """Cards that lift hole+board to ``cat`` or better above the board's own category (plain rule)."""
    known = set(h) | set(b)
    now = best_hand(h + b)[0] if len(h + b) >= 5 else -1
    return {c for c in range(52) if c not in known and best_hand(h + b + [c])[0] >= cat
            and best_hand(h + b + [c])[0] > now and best_hand(h + b + [c])[0] > _category(b + [c])}


def test_dead_card_twice_is_one_line_exit_2():
    p = subprocess.run([sys.executable, "-m", "jobs", "outs", "AhKh", "--board", "Qh7h2c", "--dead", "Ah"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
