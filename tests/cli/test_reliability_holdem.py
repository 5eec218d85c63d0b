"""Issue 20, the hold'em part: player files, layouts, hand histories and ``play`` itself, through the console script.

Every case of the issue's reliability pass for the hold'em engine is here, run
as a real ``python -m jobs`` process: refusals are one ``pokerpipe: error:``
line and exit code 2, data cases check bytes (SHA-256 computed here with
:mod:`hashlib`, counts made here from the written hand histories), Ctrl-C is a
real SIGINT.  The slow processes run three at a time ahead of the tests that
check them (:mod:`support.ahead`).  A property test then feeds random JSON
documents to the player-file and layout readers.
"""
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.ahead import selected

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
    "layout-relative-1": ({"l.json": json.dumps({"relative_weight": 1})}, ["evolve", "--layout", "{d}/l.json"],
                          "relative_weight must be true or false, got 1"),
    "layout-deep": ({"l.json": DEEP}, ["evolve", "--layout", "{d}/l.json"], "nests deeper than 32 levels"),
    "layout-folder": ({}, ["evolve", "--layout", "{d}"], "is a folder"),
    "player-deep": ({"p.json": DEEP}, ["play", "-s", "2", "-p", "{d}/p.json,tag"],
                    "{d}/p.json is not a player file (its text nests deeper than 32 levels)"),
    "player-about-text": ({"p.json": json.dumps(player_doc(about="me"))}, ["play", "-s", "2", "-p", "tag,{d}/p.json"],
                          "about must be a JSON object, got \"me\""),
    "player-about-list": ({"p.json": json.dumps(player_doc(about=[1]))}, ["play", "-s", "2", "-p", "tag,{d}/p.json"],
                          "about must be a JSON object, got [1]"),
    "player-seats-50": ({"p.json": json.dumps(player_doc(about={"seats": 50}))},
                        ["play", "-s", "2", "-p", "tag,{d}/p.json"], "about.seats must be between 2 and 10, got 50"),
    "player-seats-x": ({"p.json": json.dumps(player_doc(about={"seats": "x"}))},
                       ["play", "-s", "2", "-p", "tag,{d}/p.json"], "about.seats must be an integer, got \"x\""),
    "player-layout-true": ({"p.json": json.dumps(player_doc(layout={**Layout().to_dict(), "positions": True}))},
                           ["play", "-s", "2", "-p", "tag,{d}/p.json"], "positions must be 1 to 10 buckets, got true"),
    "player-version-text": ({"p.json": json.dumps(player_doc(version="1"))},
                            ["play", "-s", "2", "-p", "tag,{d}/p.json"], "version must be an integer, got \"1\""),
    "evaluate-about-text": ({"p.json": json.dumps(player_doc(about="me"))},
                            ["evaluate", "{d}/p.json", "--against", "random"], "about must be a JSON object"),
}


@pytest.fixture(scope="module")
def refused(request, tmp_path_factory):
    """The selected refusal cases, three console-script processes at a time: case -> (process, folder)."""
    runs = {}
    with ThreadPoolExecutor(max_workers=3) as pool:
        for case in selected(request, "test_refused_with_one_line", "case"):
            files, args, _ = REFUSALS[case]
            d = tmp_path_factory.mktemp(case)
            for name, text in files.items():
                (d / name).write_text(text)
            runs[case] = (pool.submit(cli, *[a.format(d=d) for a in args]), d)
        return {case: (f.result(), d) for case, (f, d) in runs.items()}


def one_error_line(p):
    """The one stderr line of a refused run, after checking it is one line, exit 2 and no traceback."""
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerpipe: error: "), err
    return lines[0]


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_refused_with_one_line(refused, case):
    """Cases 12, 16 and 17: every layout and player-file field checked by type and range, deep documents
    and folders refused before parsing, all in one line."""
    p, d = refused[case]
    assert REFUSALS[case][2].format(d=d) in one_error_line(p)


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
