"""The command line's conventions (issue 40, item 7): ``--version``, ``-h`` everywhere, shell completion, the
players' names for the Omaha games, and "did you mean" for a misspelt game."""
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from pipeline.core.cards import CardError
from pipeline.omaha.games import game

ROOT = Path(__file__).parents[2]


def pokerpipe(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env=env)


@pytest.mark.slow
def test_version_is_the_installed_package_version():
    got = pokerpipe("--version")
    assert got.returncode == 0 and got.stdout == f"pokerpipe {version('pokerpipe')}\n", got
    assert pokerpipe("-V").stdout == got.stdout


@pytest.mark.slow
@pytest.mark.parametrize("args", [["-h"], ["equity", "-h"], ["tables", "-h"], ["play", "-h"]])
def test_h_is_help(args):
    got = pokerpipe(*args)
    assert got.returncode == 0 and got.stdout.startswith("Usage: pokerpipe"), got.stderr
    assert got.stdout == pokerpipe(*args[:-1], "--help").stdout


@pytest.mark.slow
def test_the_shell_completes_commands_and_options():
    env = {**os.environ, "_POKERPIPE_COMPLETE": "complete_bash"}
    got = pokerpipe(env={**env, "COMP_WORDS": "pokerpipe eq", "COMP_CWORD": "1"})
    assert got.returncode == 0 and got.stdout.split() == ["equity"], got
    got = pokerpipe(env={**env, "COMP_WORDS": "pokerpipe tables --wo", "COMP_CWORD": "2"})
    assert got.stdout.split() == ["--workers"], got
    assert "complete -o default -F" in pokerpipe("--show-completion", "bash").stdout


@pytest.mark.parametrize("alias, name", [("plo", "omaha"), ("PLO5", "omaha5"), ("plo6", "omaha6"),
                                         ("plo8", "omaha-hilo"), ("o8", "omaha-hilo")])
def test_players_names_for_the_omaha_games(alias, name):
    assert game(alias) == game(name) and game(name).name == name


def test_a_misspelt_game_gets_a_suggestion():
    with pytest.raises(CardError, match=r"did you mean omaha-hilo\?"):
        game("omaha-hlo")
    got = pokerpipe("equity", "AAKK", "random", "--game", "plx")
    assert got.returncode == 2 and "did you mean plo?" in got.stderr and len(got.stderr.splitlines()) == 1, got


@pytest.mark.slow
def test_json_answers_say_what_made_them():
    """Every ``--json`` answer starts with the version that computed it, and a seeded one with its seed."""
    import json

    got = pokerpipe("equity", "AhKh", "QsQd", "--board", "2c3d4h", "--trials", "2000", "--seed", "7", "--json")
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    assert list(doc)[:2] == ["pokerpipe", "seed"] and doc["pokerpipe"] == version("pokerpipe") and doc["seed"] == 7
    doc = json.loads(pokerpipe("range", "AKs", "--json").stdout)
    assert doc["pokerpipe"] == version("pokerpipe") and doc["combos"] == 4 and "seed" not in doc


@pytest.mark.slow
def test_seats_follow_the_policies_and_names_get_suggestions():
    """``--seats`` defaults to one seat per policy; a misspelt policy or dataset gets a "did you mean"."""
    got = pokerpipe("play", "-p", "tag,station,maniac", "-n", "60", "--seed", "2")
    assert got.returncode == 0 and "60 hands, 3 seats, seed 2" in got.stdout, got.stderr
    assert got.stdout == pokerpipe("play", "-s", "3", "-p", "tag,station,maniac", "-n", "60", "--seed", "2").stdout
    bad = pokerpipe("play", "-p", "tag,staton", "-n", "60")
    assert bad.returncode == 2 and "did you mean station?" in bad.stderr and len(bad.stderr.splitlines()) == 1
    bad = pokerpipe("tables", "matchup", "--out", "nowhere")
    assert bad.returncode == 2 and "did you mean matchups?" in bad.stderr and len(bad.stderr.splitlines()) == 1


@pytest.mark.slow
def test_commands_say_where_their_pictures_are(tmp_path, capsys):
    """``odds --plot`` and every batch command print a ``picture: PATH`` line for each picture written."""
    from types import SimpleNamespace

    from jobs.options import print_pictures

    png = tmp_path / "odds.png"
    got = pokerpipe("odds", "AdQc", "--board", "3h4cJh", "--max-opponents", "2", "--trials", "1000", "--plot",
                    str(png))
    assert got.returncode == 0 and got.stdout.splitlines()[-1] == f"picture: {png}" and png.exists(), got.stderr
    report = SimpleNamespace(name="preflop-grid", location="out/preflop-grid",
                             manifest={"side_outputs": [{"file": "_heatmap.png"}, {"file": "_grid.npy"}]})
    print_pictures([report, SimpleNamespace(name="matchups", location="out/matchups", manifest={})])
    assert capsys.readouterr().out == "picture: out/preflop-grid.meta/_heatmap.png\n"      # beside the parts


@pytest.mark.slow
@pytest.mark.parametrize("args, head", [
    (["AhKh", "QsQd", "--board", "2c3d4h"], "(exact, 990 boards)"),
    (["AKs", "QQ", "--board", "2c3d4h"], "(exact, 23,760 deals: 24 hand assignments × 990 boards)"),
])
def test_the_equity_header_counts_deals_not_boards(args, head):
    """For ranges an exact run counts hand assignments times boards: the header says so (AKs has 4 combos, QQ 6,
    all disjoint: 24 assignments; C(45, 2) = 990 boards each)."""
    got = pokerpipe("equity", *args)
    assert got.returncode == 0 and got.stdout.splitlines()[0].endswith(head), got.stdout


@pytest.mark.slow
def test_batch_commands_answer_in_json(tmp_path):
    """``tables --json`` and a dataset's own command with ``--json``: one JSON object on stdout, each dataset's
    rows, parts, bytes, seconds, folder and pictures, the version first; a second run keeps every part."""
    import json

    got = pokerpipe("tables", "odds-table", "--out", str(tmp_path), "--quiet", "--json")
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    (row,) = doc["datasets"]
    assert doc["pokerpipe"] == version("pokerpipe") and doc["catalog"] == f"{tmp_path}/_catalog.json"
    assert row["dataset"] == "odds-table" and row["rows"] > 0 and row["pictures"] == []
    assert row["location"].endswith("odds-table") and row["bytes"] > 0 and row["parts"] >= 1
    again = json.loads(pokerpipe("odds-table", "--out", str(tmp_path), "--quiet", "--json").stdout)
    assert again["datasets"][0]["computed"] == 0 and again["datasets"][0]["rows"] == row["rows"]   # kept
