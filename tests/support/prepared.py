"""A local build in a process of its own, and how long each part's worker spent preparing the dataset.

Its own process: a test process's fork server may be serving a module's shared cluster (tests/conftest.py),
whose workers still run, and is then kept, so that new workers prepare for themselves.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# matchups, from a module that only the client's own sys.path finds (when given a folder holding it)
MODULE = """
from pipeline.datasets.recipes.matchups import Matchups


class Mine(Matchups):
    '''matchups, from a module only the client's sys.path finds'''
"""

RUN = """
import json, sys
if len(sys.argv) > 2:
    sys.path.insert(0, sys.argv[2])      # the client's own addition: not in PYTHONPATH, so not the server's
    from mine import Mine as Matchups
else:
    from pipeline.datasets.recipes.matchups import Matchups
from pipeline.datasets import build
report = build(Matchups(limit=300), sys.argv[1], workers=2)
print(json.dumps([t.prepare for t in report.trace.parts]))
"""


def preparing_seconds(out: Path, folder: Path | None = None) -> list[float]:
    """``build(Matchups(limit=300), out, workers=2)`` in a fresh process (the dataset's class ``Mine`` of
    :data:`MODULE` written into ``folder``, which only that process adds to its path, when given); each part's
    preparation seconds in its worker (0 where the fork server had prepared it)."""
    args = [str(out)]
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "mine.py").write_text(MODULE)
        args.append(str(folder))
    return _last_json(RUN, out, args)


def _last_json(script: str, out: Path, args: list[str]) -> Any:
    """Run ``script`` with ``args`` in a fresh process beside ``out``; the JSON of its last line."""
    got = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=600,
                         cwd=out.parent, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout.splitlines()[-1])


RUN_MANY = """
import json, sys
from pipeline.batch.session import Session
from pipeline.datasets import build_many, dataset
from pipeline.datasets.recipes.matchups import Matchups
with Session(2, None, True) as session:
    reports = build_many([Matchups(limit=300), dataset("ehs-table/river", limit=4)], sys.argv[1], session,
                         write_catalog=False)
print(json.dumps({r.name: [t.prepare for t in r.trace.parts] for r in reports}))
"""


def preparing_seconds_of_a_run(out: Path) -> dict[str, list[float]]:
    """One ``build_many`` of two datasets that do not read each other (``matchups`` limited to 300 rows, then
    ``ehs-table/river`` to 4 boards) on a local 2-worker session, in a fresh process; each dataset's parts'
    preparation seconds in their workers."""
    return _last_json(RUN_MANY, out, [str(out)])
