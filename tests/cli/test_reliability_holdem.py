"""Issue 20, the hold'em part: player files, layouts, hand histories and ``play`` itself, through the console script.

Every case of the issue's reliability pass for the hold'em engine is here, run
as a real ``python -m jobs`` process: refusals are one ``pokerpipe: error:``
line and exit code 2, data cases check bytes (SHA-256 computed here with
:mod:`hashlib`, counts made here from the written hand histories), Ctrl-C is a
real SIGINT.  The slow processes run three at a time ahead of the tests that
check them (:mod:`support.ahead`).  A property test then feeds random JSON
documents to the player-file and layout readers.
"""
import hashlib
import importlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.ahead import selected

from jobs.main import main
from pipeline.batch.storage import Storage
from pipeline.holdem.histories import MANIFEST, check_histories
from pipeline.holdem.player import Layout, LayoutError, Player, PlayerFileError, load_layout

PLAYER = Player(Layout(), np.zeros((Layout().genes, 2), np.int8), {"name": "p", "seats": 2})
DEEP = "[" * 5000 + "]" * 5000


def player_doc(**change):
    """A valid player file's document with ``change`` applied (a value of None removes the key)."""
    d = json.loads(PLAYER.to_json())
    for k, v in change.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


def cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, timeout=300, **kw)


# case -> (files to write: name -> text, args with {d} for the folder, words the one stderr line must hold)
REFUSALS = {
    "layout-positions-true": ({"l.json": json.dumps({"positions": True})}, ["evolve", "--layout", "{d}/l.json"],
                              "--layout: {d}/l.json: layout: positions must be 1 to 10 buckets, got true"),
    "layout-deep": ({"l.json": DEEP}, ["evolve", "--layout", "{d}/l.json"], "nested too deep (more than 32 levels)"),
    "player-deep": ({"p.json": DEEP}, ["play", "-s", "2", "-p", "{d}/p.json,tag"],
                    "{d}/p.json is not a player file (its text: nested too deep (more than 32 levels))"),
    "player-about-text": ({"p.json": json.dumps(player_doc(about="me"))}, ["play", "-s", "2", "-p", "tag,{d}/p.json"],
                          "about must be a JSON object, got \"me\""),
    "player-seats-50": ({"p.json": json.dumps(player_doc(about={"seats": 50}))},
                        ["play", "-s", "2", "-p", "tag,{d}/p.json"], "about.seats must be between 2 and 10, got 50"),
    "evaluate-about-text": ({"p.json": json.dumps(player_doc(about="me"))},
                            ["evaluate", "{d}/p.json", "--against", "random"], "about must be a JSON object"),
    "hands-1e12": ({}, ["play", "-s", "2", "-p", "tag,station", "-n", "1e12"],
                   "--hands 1,000,000,000,000 on 1 process "),      # (with the hand weights sampled) would take
    "hands-1e11-phh": ({}, ["play", "-s", "2", "-p", "tag,station", "-n", "1e11", "--history", "phh"],
                       "--hands 100,000,000,000 --history phh would write at least"),
}
# the same checks' other fields, through the command line's entry in this process (jobs.main.main)
IN_PROCESS = {
    "layout-relative-1": ({"l.json": json.dumps({"relative_weight": 1})}, ["evolve", "--layout", "{d}/l.json"],
                          "relative_weight must be true or false, got 1"),
    "layout-folder": ({}, ["evolve", "--layout", "{d}"], "a folder, not a file"),
    "player-about-list": ({"p.json": json.dumps(player_doc(about=[1]))}, ["play", "-s", "2", "-p", "tag,{d}/p.json"],
                          "about must be a JSON object, got [1]"),
    "player-seats-x": ({"p.json": json.dumps(player_doc(about={"seats": "x"}))},
                       ["play", "-s", "2", "-p", "tag,{d}/p.json"], "about.seats must be an integer, got \"x\""),
    "player-layout-true": ({"p.json": json.dumps(player_doc(layout={**Layout().to_dict(), "positions": True}))},
                           ["play", "-s", "2", "-p", "tag,{d}/p.json"], "positions must be 1 to 10 buckets, got true"),
    "player-version-text": ({"p.json": json.dumps(player_doc(version="1"))},
                            ["play", "-s", "2", "-p", "tag,{d}/p.json"], "version must be an integer, got \"1\""),
    "hands-2.5": ({}, ["play", "-s", "2", "-p", "tag,station", "-n", "2.5"], "--hands must be an integer, got 2.5"),
}


@pytest.fixture(scope="module")
def ahead(request, tmp_path_factory):
    """Every selected console-script case, three processes at a time, started when the first is needed:
    key -> future.  Refusal cases give (process, folder); scenarios (a few runs in order) their result."""
    pool = ThreadPoolExecutor(max_workers=3)
    futures = {name: pool.submit(SCENARIOS[name], tmp_path_factory.mktemp(name))
               for name in sorted(selected(request, "test_scenario", "name"), key=lambda n: n != "sigint-group")}
    for case in selected(request, "test_refused_with_one_line", "case"):
        files, args, _ = REFUSALS[case]
        d = tmp_path_factory.mktemp(case)
        for name, text in files.items():
            (d / name).write_text(text)
        futures[case] = pool.submit(lambda a, d: (cli(*a), d), [a.format(d=d) for a in args], d)
    yield futures
    pool.shutdown()


def one_error_line(p):
    """The one stderr line of a refused run, after checking it is one line, exit 2 and no traceback."""
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerpipe: error: "), err
    return lines[0]


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_refused_with_one_line(ahead, case):
    """Cases 12, 16 and 17: every layout and player-file field checked by type and range, deep documents
    refused before parsing, all in one line; case 14: work beyond a day and histories beyond their limit."""
    p, d = ahead[case].result()
    assert REFUSALS[case][2].format(d=d) in one_error_line(p)


@pytest.mark.parametrize("case", sorted(IN_PROCESS))
def test_refused_in_process(case, tmp_path, capsys):
    files, args, words = IN_PROCESS[case]
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert main([a.format(d=tmp_path) for a in args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pokerpipe: error: ") and words.format(d=tmp_path) in err, err


def test_valid_player_file_and_layout_still_read(tmp_path):
    """What pokerpipe writes reads back (player files of older builds without relative_weight too)."""
    path = PLAYER.save(tmp_path / "p.json")
    back = Player.load(path)
    assert back.layout == PLAYER.layout and np.array_equal(back.genes, PLAYER.genes) and back.about == PLAYER.about
    older = Layout(weight_edges=(0.3, 0.6))
    old = json.loads(Player(older, np.ones((older.genes, 2), np.int8)).to_json())
    del old["layout"]["relative_weight"]
    (tmp_path / "old.json").write_text(json.dumps(old))
    assert Player.load(tmp_path / "old.json").layout.relative_weight is False
    (tmp_path / "l.json").write_text(json.dumps({"positions": 3, "weight_edges": [0.5, 1]}))
    assert load_layout(tmp_path / "l.json") == Layout(positions=3, weight_edges=(0.5, 1.0))
    assert load_layout(path) == PLAYER.layout


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
                    | st.text(max_size=8), lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=12)
FIELD_VALUES = st.one_of(JSON, st.integers(-3, 12), st.lists(st.floats(-1, 11, allow_nan=False), max_size=22))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(doc=JSON, layout_field=st.sampled_from(["raises_before", "positions", "raises", "pot_odds_edges",
                                               "weight_edges", "relative_weight"]),
       value=FIELD_VALUES, player_field=st.sampled_from(["format", "version", "layout", "genes", "about", "extra"]),
       about_field=st.sampled_from(["name", "seats", "seed", "weights", "format", "generation", "fitness_bb100"]))
def test_readers_give_a_value_or_their_own_error(doc, layout_field, value, player_field, about_field):
    """Random documents and random field values: a Layout/Player, or LayoutError/PlayerFileError; nothing else."""
    for d in (doc, {**Layout().to_dict(), layout_field: value}, {layout_field: value}):
        try:
            Layout.from_values(d)
            Layout.from_dict(d)
        except LayoutError:
            pass
    for d in (doc, player_doc(**{player_field: value}), player_doc(about={about_field: value}),
              player_doc(layout={**Layout().to_dict(), layout_field: value})):
        for read in (Player.from_document, lambda x: Player.from_json(json.dumps(x))):
            try:
                read(d)
            except PlayerFileError:
                pass


# ---- hand histories (cases 11 and 21): one run per folder, committed whole, a manifest written last

def play_into(out, fmt, hands, seed=0):
    p = cli("play", "-s", "3", "-p", "tag,station,maniac", "-n", str(hands), "--seed", str(seed),
            "--history", fmt, "-o", str(out), "--json")
    assert p.returncode == 0, p.stderr
    return p


def interrupt_when(args, ready, timeout=120):
    """Start ``pokerpipe ARGS``, wait until ``ready()``, send it SIGINT; (process, seconds it took to stop)."""
    p = subprocess.Popen([sys.executable, "-m", "jobs", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    end = time.monotonic() + timeout
    while not ready() and p.poll() is None and time.monotonic() < end:
        time.sleep(0.02)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return p, out, err, time.monotonic() - sent


def everything(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def rerun(tmp):
    """40 PHH hands, then 12 with another seed, then PokerStars text of 12: each time exactly one run."""
    out = tmp / "h"
    play_into(out, "phh", 40)
    play_into(out, "phh", 12, seed=1)
    after_phh = everything(out)
    manifest = json.loads((out / MANIFEST).read_text())
    bodies = [(out / "phh" / f"hand_{k:08d}.phh").read_bytes() for k in range(12)]
    play_into(out, "pokerstars", 12, seed=1)
    return after_phh, manifest, bodies, everything(out), out


def interrupted_phh(tmp):
    out = tmp / "h"
    p, _, err, took = interrupt_when(["play", "-s", "3", "-p", "tag,station,maniac", "-n", "30000", "--history",
                                      "phh", "-o", str(out)], lambda: (out / "phh" / "hand_00000100.phh").exists())
    return p, err, took, out


def interrupted_text(tmp):
    out = tmp / "h"
    p, _, err, took = interrupt_when(["play", "-s", "3", "-p", "tag,station,maniac", "-n", "20000", "--history",
                                      "pokerstars", "-o", str(out)],
                                     lambda: out.is_dir() and any(n.endswith(".tmp") for n in os.listdir(out)))
    return p, err, took, out


TEN_TAGS = ["play", "-s", "10", "-p", ",".join(["tag"] * 10), "-n", "1e8", "--quiet"]


def sigint_in_kernel(tmp):
    """Case 13: ten seats, 10^8 hands (hours of work) in one process (``--workers 1``); SIGINT to its process
    group, as Ctrl-C sends it, after a second of hands."""
    p = subprocess.Popen([sys.executable, "-m", "jobs", *TEN_TAGS, "--workers", "1"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(2.5)                 # start-up (about 1.5 s), then a second of hands
    sent = time.monotonic()
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    return p, err, time.monotonic() - sent


def sigint_to_group(tmp):
    """Case 15: SIGINT to the whole process group of ``play --workers 2`` (workers included), as Ctrl-C does."""
    p = subprocess.Popen([sys.executable, "-m", "jobs", *TEN_TAGS, "--workers", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(8)                   # start-up, the local cluster's start, then hands on both workers
    sent = time.monotonic()
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    return p, err, time.monotonic() - sent


def statistics(tmp):
    """Case 21: --json and the text carry WTSD and W$SD; case 14: --hands 3e2 is --hands 300."""
    out = tmp / "h"
    j = cli("play", "-s", "3", "-p", "tag,station,maniac", "-n", "3e2", "--seed", "4", "--json", "--history",
            "pokerstars", "-o", str(out))
    text = cli("play", "-s", "3", "-p", "tag,station,maniac", "-n", "300", "--seed", "4", "--quiet")
    return j, text, (out / "hands.txt").read_text()


SCENARIOS = {"rerun": rerun, "interrupted-phh": interrupted_phh, "interrupted-text": interrupted_text,
             "sigint-kernel": sigint_in_kernel, "sigint-group": sigint_to_group, "statistics": statistics}


def check_rerun(result):
    after_phh, manifest, bodies, after_text, out = result
    assert after_phh == [MANIFEST, "phh"] + [f"phh/hand_{k:08d}.phh" for k in range(12)]     # not 40 files
    digest = hashlib.sha256(b"".join(hashlib.sha256(b).hexdigest().encode() + b"\n" for b in bodies)).hexdigest()
    assert manifest["written"] == {"folder": "phh", "files": 12, "bytes": sum(map(len, bodies)), "sha256": digest,
                                   "digest": manifest["written"]["digest"]}
    assert (manifest["hands"], manifest["seed"], manifest["history"]) == (12, 1, "phh")
    assert after_text == [MANIFEST, "hands.txt"]                                             # the PHH run is gone
    text = (out / "hands.txt").read_bytes()
    assert json.loads((out / MANIFEST).read_text())["written"] == {
        "file": "hands.txt", "bytes": len(text), "sha256": hashlib.sha256(text).hexdigest()}
    assert check_histories(Storage.open(out))["history"] == "pokerstars"
    (out / "hands.txt").write_bytes(text[:-1])
    with pytest.raises(ValueError, match="does not match"):
        check_histories(Storage.open(out))


def check_interrupted(p, err, took):
    assert p.returncode == 130, err
    assert err.decode().splitlines() == ["pokerpipe: interrupted"] and took < 5


def check_interrupted_phh(result):
    p, err, took, out = result
    check_interrupted(p, err, took)
    names = everything(out)
    assert MANIFEST not in names and "_lock" not in names                 # visibly unfinished, lock released
    assert not any(n.rpartition("/")[2].startswith(".") for n in names)  # no temporary file
    phh = sorted((out / "phh").iterdir())
    assert len(phh) >= 100 and all(f.stat().st_size > 0 for f in phh)    # no empty file
    with pytest.raises(ValueError, match="no finished hand histories"):
        check_histories(Storage.open(out))


def check_interrupted_text(result):
    p, err, took, out = result
    check_interrupted(p, err, took)
    assert everything(out) == []                                          # no hands.txt, no hands.txt.tmp


def check_sigint(result):
    p, err, took = result
    check_interrupted(p, err, took)
    assert took < 2


def showdown_counts(text):
    """Per player name: hands that saw the flop, went to showdown, won money at showdown (counted from the text)."""
    counts = {}
    for hand in text.split("PokerStars Hand #")[1:]:
        lines = hand.splitlines()
        players = [m.group(1) for m in map(re.compile(r"Seat \d+: (\S+) \(").match, lines) if m]
        players = players[:len(players) // 2]          # the seat lines, not the summary's
        folded_at = {}
        street = 0
        for line in lines:
            if line.startswith("*** FLOP ***"):
                street = 1
            m = re.match(r"(\S+): folds", line)
            if m:
                folded_at[m.group(1)] = street
        showdown = "*** SHOW DOWN ***" in hand
        for name in players:
            c = counts.setdefault(name, [0, 0, 0])
            saw = street == 1 and folded_at.get(name, 1) >= 1
            c[0] += saw
            if saw and showdown and name not in folded_at:
                c[1] += 1
                c[2] += any(line.startswith(f"{name} collected") for line in lines)
    return counts


def check_statistics(result):
    j, text, hands = result
    for p in (j, text):
        assert p.returncode == 0 and p.stderr == b"", p.stderr
    assert json.loads(j.stdout)["hands"] == 300        # 3e2 is 300; the text of -n 300 shows the same numbers
    counts = showdown_counts(hands)
    seats = json.loads(j.stdout)["seats"]
    for s in seats:
        flop, wtsd, wsd = counts[f"{s['policy']}_{s['seat']}"]
        assert 0 < wtsd <= flop
        assert (s["wtsd"], s["wsd"]) == (round(wtsd / flop, 4), round(wsd / wtsd, 4))
    header, *rows = text.stdout.decode().splitlines()[1:]
    assert header.split()[-2:] == ["WTSD", "W$SD"]
    for s, row in zip(seats, rows):
        assert row.split()[-2:] == [f"{100 * s['wtsd']:.1f}%", f"{100 * s['wsd']:.1f}%"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario(ahead, name):
    """Case 11: a rerun with fewer hands leaves exactly its own files, with a manifest (sizes, SHA-256) written
    last; an interrupted run leaves no manifest, no empty or temporary file.  Case 21: Ctrl-C while the
    PokerStars text is written leaves nothing behind; WTSD and W$SD agree with a count made from the hand
    histories.  Cases 13 and 15: SIGINT in the middle of hours of hands, to the process or to its whole
    group with workers, ends it within 2 s with one line and exit 130."""
    {"rerun": check_rerun, "interrupted-phh": check_interrupted_phh, "interrupted-text": check_interrupted_text,
     "sigint-kernel": check_sigint, "sigint-group": check_sigint,
     "statistics": check_statistics}[name](ahead[name].result())


def test_chunks_do_not_change_the_numbers(monkeypatch):
    """Case 13: the kernel runs in chunks (Ctrl-C is seen between them); any chunk size gives the same sums."""
    sim = importlib.import_module("pipeline.holdem.simulate")    # the package's simulate is the function

    one = sim.simulate(["tag", "station", "maniac"], 900, 5)
    monkeypatch.setattr(sim, "CHUNK_HANDS", 7)
    many = sim.simulate(["tag", "station", "maniac"], 900, 5)
    assert one.units_won.tolist() == many.units_won.tolist() and one.seats == many.seats
