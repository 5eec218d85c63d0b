"""``pokerpipe play``: the summary, --json, histories, and one-line errors with exit code 2."""
import json

import pytest

from jobs.main import main


def test_json_summary(capsys):
    assert main(["play", "--seats", "2", "--policies", "tag,station", "--hands", "2000", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["hands"] == 2000 and [s["policy"] for s in d["seats"]] == ["tag", "station"]
    assert set(d["seats"][0]) == {"seat", "policy", "bb_per_100", "ci95", "vpip", "pfr", "af", "wtsd", "wsd"}
    assert d["seats"][0]["bb_per_100"] == -d["seats"][1]["bb_per_100"]


def test_table_and_histories(capsys, tmp_path):
    assert main(["play", "-s", "3", "-p", "tag,maniac,random", "-n", "30", "--history", "phh",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "BB/100" in out and "maniac" in out
    assert len(list((tmp_path / "phh").glob("*.phh"))) == 30


@pytest.mark.parametrize("args, words", [
    (["--seats", "1", "--policies", "tag"], "--seats must be 2 to 10"),
    (["--policies", ""], "--policies names no policy"),          # not "--seats must be 2 to 10, got 0"
    (["--policies", " , "], "--policies names no policy"),
    (["--seats", "11", "--policies", ",".join(["tag"] * 11)], "--seats must be 2 to 10"),
    (["--seats", "3", "--policies", "tag,station"], "2 policies for 3 seats"),
    (["--seats", "2", "--policies", "tag,shark"], "unknown policy 'shark'"),
    (["--seats", "2", "--policies", "tag,station", "--hands", "0"], "--hands must be between 1 and "),
    (["--seats", "2", "--policies", "tag,station", "--rake", "120"], "rake must be a percentage"),
    (["--seats", "2", "--policies", "tag,station", "--stack", "0.2"], "stacks must be 1 to 1e9"),
    (["--seats", "2", "--policies", "tag,station", "--rake-cap", "-1"], "rake cap"),
    (["--seats", "2", "--policies", "tag,station", "--history", "pdf"], "--history must be one of"),
    (["--seats", "2", "--policies", "tag,station", "--hero", "3"], "--hero must be a seat 1 to 2"),
    (["--seats", "2", "--policies", "tag,station", "--hands", str(10**20)], "--hands must be between 1 and "),
    (["--seats", "2", "--policies", "tag,station", "--workers", "999"], "--workers must be 1 to"),
    (["--seats", "2", "--policies", "tag,station", "--scheduler", "localhost:1"], "expected an address"),
    (["--seats", "2", "--policies", "tag,station", "--seed", str(1 << 64)], "--seed must fit in 64 bits"),
    (["--seats", "2", "--policies", "tag,station", "--weights", "exact"], "--weights must be auto, tables or sampled"),
    (["--seats", "2", "--policies", "tag,station", "-n", "2", "--history", "phh", "--out", "/dev/null/x"],
     "cannot write hand histories to /dev/null/x"),
    (["--seats", "2", "--policies", "tag,station", "--history", "pokerstars", "--history-start", "yesterday"],
     "--history-start: history start 'yesterday': expected an ISO 8601 time"),
    (["--seats", "2", "--policies", "tag,station", "--history", "pokerstars", "--history-start", "1970-01-01"],
     "must lie from 2001-09-09"),
])
def test_bad_input_one_line_exit_2(capsys, args, words):
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokerpipe: error: ") and words in err and err.count("\n") == 1


def test_holdem_weights_bad_workers_one_line(capsys):
    assert main(["holdem-weights", "--workers", "999"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokerpipe: error: --workers must be 1 to") and err.count("\n") == 1


def test_an_interval_the_deals_cannot_give_is_n_a(capsys):
    """One deal (``-n 1`` heads-up: one duplicate deal of two hands) has no standard error, where the table
    printed ``[nan, nan]``; nor do deals that all come out alike: fold against fold, each deal the small
    blind lost in one seat and won back in the other, is 0 every deal.  Two deals or more that differ give
    numbers."""
    assert main(["play", "-p", "tag,random", "-n", "1"]) == 0
    out = capsys.readouterr().out
    rows = out.splitlines()[2:]
    assert len(rows) == 2 and all("n/a (1 deal)" in r for r in rows) and "nan" not in out, out
    assert main(["play", "-p", "tag,random", "-n", "1", "--no-duplicate"]) == 0
    assert capsys.readouterr().out.count("n/a (1 hand)") == 2
    assert main(["play", "-p", "tag,random", "-n", "1", "--json"]) == 0
    assert [s["ci95"] for s in json.loads(capsys.readouterr().out)["seats"]] == [[None, None]] * 2
    assert main(["play", "-p", "fold,fold", "-n", "100"]) == 0
    out = capsys.readouterr().out
    assert out.count("n/a (no spread)") == 2 and "0.00" in out, out
    assert main(["play", "-p", "tag,random", "-n", "200", "--json"]) == 0
    lo, hi = json.loads(capsys.readouterr().out)["seats"][0]["ci95"]
    assert lo < hi
