"""Every path a build opens, made the wrong kind of thing, is one line or a clean rebuild (issue 39, case 6 and kin).

The paths are found, not listed: a small build (a dataset with parts, checksum records, an array and a document
beside them, a manifest, and the run's catalog) is made once, and every file and folder it left — plus the
writer lock, which lives only while a run does — is in turn replaced in a copy by the wrong kind (a file by a
folder and by a FIFO, a folder by a file).  The same build again must end with the clean bytes written again or
with one line naming that path (before any cluster is started), and the readers of a finished build
(``is_built``, ``catalog``, ``read``) with an answer or one line — never a traceback, or a hang (a FIFO read
waits for ever).  One helper decides every path's kind (pipeline.core.files.check_kind, through Storage); a
file a build writes is walked here as soon as it writes it.  ``pokerpipe tables odds-table`` with a folder at
``_catalog.json`` (the issue's case) is tests/cli/test_reliability_readers.py's.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from support.bounded import Slow, bounded
from support.layout import key
from support.tiny_datasets import WithSides

from pipeline import datasets
from pipeline.batch.session import Session
from pipeline.core.errors import InputError, PokerpipeError


def written(out: Path) -> list[str]:
    """Every file and folder the build left under ``out``, and the lock it held while it ran."""
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) + [key("sides", "_lock")]


def _bounded(call, seconds=30):
    return bounded(call, seconds)


def _make(target: Path, kind: str) -> None:
    if target.is_dir():
        shutil.rmtree(target)
    elif target.exists():
        target.unlink()
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.write_bytes(b"")


def _cases(built: Path) -> list[tuple[str, str]]:
    cases = []
    for rel in written(built):
        cases += [(rel, "file")] if (built / rel).is_dir() else [(rel, "folder"), (rel, "fifo")]
    return cases


@pytest.mark.slow
def test_every_path_of_a_build_in_the_wrong_kind(built_sides, tmp_path):
    cases = _cases(built_sides)
    assert {("_catalog.json", "folder"), (key("sides", "_manifest.json"), "fifo"), (key("sides", "_a.npy"), "fifo"),
            (key("sides", "_checksums"), "file"), ("sides/part-00000.parquet", "folder"), ("sides", "file"),
            (key("sides"), "file")} <= set(cases)
    refused = set()
    for i, (rel, kind) in enumerate(cases):
        out = tmp_path / str(i)
        shutil.copytree(built_sides, out)
        _make(out / rel, kind)
        session = Session(1, None, True)
        try:
            _bounded(lambda out=out, session=session: datasets.build_many([WithSides()], out, session,
                                                                           write_catalog=True))
        except Slow:
            pytest.fail(f"{rel} as a {kind}: the build hung")
        except PokerpipeError as e:
            assert "\n" not in str(e) and Path(rel).name in str(e), (rel, kind, str(e))
            refused.add((rel, kind))
        finally:
            session.close()
            assert session._client is None, f"{rel} as a {kind}: a cluster was started for a refusal"
        for reader in (lambda out=out: datasets.is_built(WithSides(), out), lambda out=out: datasets.catalog(out),
                       lambda out=out: datasets.read(WithSides(), out)):
            try:
                _bounded(reader)
            except Slow:
                pytest.fail(f"{rel} as a {kind}: a reader hung")
            except InputError as e:
                assert "\n" not in str(e), str(e)
    # nothing is written over what is not pokerpipe's kind of file there: each such path is refused by name
    # (a checksum record is read only when the manifest is not a finished run's, and this one is)
    assert {case for case in cases if "_checksums/" not in case[0]} <= refused, sorted(set(cases) - refused)
