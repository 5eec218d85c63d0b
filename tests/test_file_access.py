"""Every file pokerpipe opens goes through the one helper of each job (issue 39): a floor plan, like test_layout.

Read from the source with :mod:`ast`, every module of ``pipeline/`` and ``jobs/``:

* a local path is opened, made or written only by :mod:`pipeline.core.files` (``open_regular``, which checks
  the kind of what it opens, ``atomic_writer``, ``make_folders``) — no ``open()``, ``os.open``,
  ``Path.read_bytes()``, ``.write_text()``, ``.mkdir()`` anywhere else;
* an array or Parquet file is parsed only from bytes already read (``io.BytesIO``, ``pa.BufferReader``): no
  ``np.load``, ``np.memmap``, ``pq.read_table`` or ``json.load`` of a path, so that a dataset's file is read
  only through :mod:`pipeline.batch.verified` (or the runner's own checked reads) — a new reader cannot
  skip the rules by opening the file itself.

The few places that must do otherwise are named below with the reason.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OPENERS = {"open", "os.open", "os.fdopen", "io.open", "mmap.mmap", "np.fromfile", "numpy.fromfile", "json.load",
           "tomllib.load"}
PARSERS = {"np.load", "numpy.load", "np.memmap", "numpy.memmap", "pq.read_table", "pq.ParquetFile"}
BUFFERS = {"io.BytesIO", "pa.BufferReader"}
PATH_READS = {"read_bytes", "read_text"}             # Path's take no argument; Storage's take the path's parts
PATH_WRITES = {"write_bytes", "write_text", "mkdir", "touch"}
ALLOWED = {
    "pipeline/core/files.py": "the one open, write and make of a local path",
    "pipeline/batch/verified.py:np.memmap": "maps a side output after its bytes were hashed and its header checked",
    "pipeline/core/cache.py:np.load": "parses a cache file opened by open_regular (and checked by its SHA-256)",
    "pipeline/equity/matchup_sums.py:np.load": "the package's own data file, shipped with it",
    "pipeline/ranges/omaha_ranking.py:np.load": "the package's own data file (the Omaha rankings), shipped with it",
    "pipeline/omaha/ranking.py:np.load":
        "the maintainers' tool that rewrites the shipped rankings reads their last version",
    "pipeline/abstraction/lookup.py:read_text": "the package's own data file (importlib.resources)",
    "pipeline/batch/trace.py:open": "this process's start time, from the kernel's /proc",
    "jobs/commands/tables.py:write_text": "click's help formatter writing the help's text (no file)",
}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def scan(path: Path, where: str) -> list[str]:
    """``where:line: call`` of every file access of the module at ``path`` that bypasses the helpers."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), where)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        attr = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name in OPENERS:
            bad = name
        elif name in PARSERS and not (node.args and isinstance(node.args[0], ast.Call)
                                      and _name(node.args[0].func) in BUFFERS):
            bad = name
        elif attr in PATH_READS and not node.args and not node.keywords:
            bad = attr
        elif attr in PATH_WRITES:
            bad = attr
        else:
            continue
        if f"{where}:{bad}" not in ALLOWED:
            found.append(f"{where}:{node.lineno}: {bad}")
    return found


@pytest.mark.slow
def test_every_file_access_goes_through_the_helpers():
    found = []
    for package in ("pipeline", "jobs"):
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where not in ALLOWED:
                found += scan(path, where)
    assert found == [], "open files through pipeline.core.files or pipeline.batch.verified"


def test_the_scan_finds_what_it_forbids(tmp_path):
    """The rule is not vacuous: each kind of raw access is reported, a parse of bytes read is not."""
    probe = tmp_path / "probe.py"
    probe.write_text("import numpy as np\nfrom pathlib import Path\n\n\ndef f(p, files):\n    open(p)\n"
                     "    np.load(p)\n    Path(p).read_bytes()\n    Path(p).mkdir()\n    np.load(io.BytesIO(b''))\n"
                     "    files.read_bytes('a', 'b')\n")
    assert scan(probe, "probe.py") == ["probe.py:6: open", "probe.py:7: np.load", "probe.py:8: read_bytes",
                                       "probe.py:9: mkdir"]
