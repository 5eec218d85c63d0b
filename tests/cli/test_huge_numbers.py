"""Every numeric option given a huge number: refused in one short line that names the option.

Found by sweeping each command's numeric options with 10**300, -10**300, 5,000 nines and 1e300: the
refusals quoted 10**300 in its 301 digits (or 400 with thousands separators, or the float's 301 digits), and
the parser's own message echoed 5,000 nines whole: one line, but 5,100 characters of it.  Such a number is now
shown by its magnitude (``jobs.app.one_line``).  In-process, each case building the command afresh (a cached
build holds only the commands registered when it was made).
"""
import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from jobs.main import main

HUGE = ["1" + "0" * 300, "-1" + "0" * 300, "9" * 5000, "1e300", "-1e300"]
NUMBER_OPTIONS = [["equity", "AhKh", "QsQd", "--trials"], ["equity", "AhKh", "QsQd", "--time"],
                  ["equity", "AhKh", "QsQd", "--seed"], ["odds", "AhKh", "--trials"], ["ehs", "AdQc", "--board",
                  "3h4cJh", "--opponents"], ["evolve", "--population"], ["evolve", "--generations"],
                  ["evolve", "--hands-per-match"], ["evolve", "--trainer-generations"], ["evolve", "--report-hands"],
                  ["evolve", "--lbr-hands"], ["evolve", "--seed"], ["matchups", "--workers"],
                  ["vs-random", "--trials"], ["videopoker", "jacks-or-better-9-6", "--royal"],
                  ["play", "-p", "tag,random", "--seats"], ["play", "-p", "tag,random", "--hands"]]


@pytest.mark.parametrize("argv", NUMBER_OPTIONS, ids=lambda a: " ".join(a[::len(a) - 1]))
def test_a_huge_number_is_refused_in_a_short_line(argv, tmp_path):
    for value in HUGE:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main([*argv, value, *(["-o", str(tmp_path)] if argv[0] in ("evolve", "matchups",
                                                                                      "vs-random") else [])])
        out, err = out.getvalue(), err.getvalue()
        assert code == 2 and not out, (argv, value, code, out[:200], err[:200])
        (line,) = err.splitlines()
        assert line.startswith("pokerpipe: error: ") and len(line) < 300, (argv, value, line[:300])
        # the option's own refusal (a bare --workers takes no negative value: "-1e300" is another option)
        assert argv[-1].lstrip("-") in line or "No such option: -1" in line, (argv, value, line)
