"""Every count option takes counts as users write them (1e6, 1_000_000) and refuses what is not a whole
number in one line naming the option (issue 20: `play --hands 1e8` parsed, `evaluate --hands 1e15` did not)."""
import pytest

from jobs.counts import parse_count
from jobs.main import main

COUNT_OPTIONS = [
    ["equity", "AhKh", "QsQd", "--trials"],
    ["odds", "AhKh", "--trials"],
    ["evaluate", "p.json", "--hands"], ["evaluate", "p.json", "--rlcard-hands"], ["evaluate", "p.json", "--samples"],
    ["evolve", "--population"], ["evolve", "--generations"], ["evolve", "--hands-per-match"],
    ["evolve", "--report-hands"], ["evolve", "--rlcard-hands"], ["evolve", "--samples"],
    ["evolve", "--trainer-generations"],
    ["matchups", "--limit"], ["vs-random", "--trials"], ["ehs-table", "flop", "--limit"], ["holdem-weights", "--limit"],
    ["play", "-s", "2", "-p", "tag,random", "--hands"],
]


@pytest.mark.parametrize("text, value", [("1e8", 10**8), ("1_000", 1000), (" 42 ", 42), ("-3", -3), ("1E3", 1000),
                                         ("2.5", None), ("1e400", None), ("nan", None), ("inf", None),
                                         ("true", None), ("", None), ("0x10", None)])
def test_parse_count(text, value):
    assert parse_count(text) == value


@pytest.mark.parametrize("args", COUNT_OPTIONS, ids=lambda a: f"{a[0]} {a[-1]}")
@pytest.mark.parametrize("bad", ["2.5", "1e400", "abc"])
def test_not_a_whole_number_is_one_line_naming_the_option(args, bad, capsys):
    assert main([*args, bad]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("pokerpipe: error: ") and args[-1] in err[0], err


def test_scientific_notation_is_a_count(capsys):
    assert main(["equity", "AhKh", "QsQd", "--trials", "2e4", "--json"]) == 0
    assert '"trials": 20000' in capsys.readouterr().out
