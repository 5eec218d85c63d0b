"""``--out ""`` is refused in one line, exit 2, by every command that writes, before anything is written: it was
taken for the current folder (``Path("")``), where ``tables`` wrote its datasets and then reported its catalog at
``/_catalog.json``, and ``play --history`` its hand histories."""
import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from jobs.main import main

REFUSED = "pokerpipe: error: --out is empty: give a folder ('.' for the current one) or a URL\n"


@pytest.mark.parametrize("args", [["tables", "odds-table", "--quiet"],
                                  ["play", "--policies", "random,random", "--hands", "10", "--history", "ohh"],
                                  ["solve", "leduc", "-n", "10", "--quiet"],
                                  ["evolve", "--population", "4", "--generations", "1"],
                                  ["datasets"]])
def test_an_empty_out_is_refused_and_nothing_written(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([*args, "--out", ""])
    assert (code, out.getvalue(), err.getvalue()) == (2, "", REFUSED)
    assert not any(tmp_path.iterdir())
