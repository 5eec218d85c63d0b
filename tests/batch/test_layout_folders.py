"""Issue 40: a dataset's folder holds its Parquet parts and nothing else; everything else lies beside it.

Any reader opens ``<out>/<name>/`` as one table with no glob only if nothing but parts is there — not the
manifest, not the checksum records, not a picture, not the lock while a run holds it.  A folder built in the
older layout (all of it among the parts) is carried over by the next run: its parts are kept, verified, and
the folder is left with parts only.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pyarrow.dataset as pads
import pytest
from support.layout import beside, manifest, meta, parts, record
from support.tiny_datasets import WithSides

from pipeline.datasets import build, read

NAME = "sides"


def _parts_only(folder: Path) -> bool:
    return sorted(p.name for p in folder.iterdir()) == [f"part-{i:05d}.parquet" for i in range(4)]


@pytest.mark.slow
def test_parts_alone_in_the_folder_and_the_rest_beside_it(tmp_path):
    report = build(WithSides(), tmp_path, workers=1)
    assert report.location == str(parts(tmp_path, NAME)) and _parts_only(parts(tmp_path, NAME))
    assert sorted(p.name for p in meta(tmp_path, NAME).iterdir()) == ["_a.npy", "_b.json", "_checksums",
                                                                        "_manifest.json"]   # the lock released
    assert beside(parts(tmp_path, NAME)) == meta(tmp_path, NAME) == tmp_path / "sides.meta"
    assert pads.dataset(parts(tmp_path, NAME)).to_table().num_rows == 8     # no glob, no ignore rules needed


def _older_layout(out: Path) -> None:
    """What a build before issue 40 left: manifest, records and side outputs among the parts."""
    for f in meta(out, NAME).iterdir():
        shutil.move(str(f), parts(out, NAME) / f.name)
    meta(out, NAME).rmdir()


@pytest.mark.slow
def test_an_older_layout_is_carried_over_without_recomputing(tmp_path):
    build(WithSides(), tmp_path, workers=1)
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in parts(tmp_path, NAME).iterdir()}
    _older_layout(tmp_path)
    assert not _parts_only(parts(tmp_path, NAME))
    report = build(WithSides(), tmp_path, workers=1)
    assert report.computed == 0 and report.rows == 8                 # kept through their carried-over records
    assert _parts_only(parts(tmp_path, NAME)) and manifest(tmp_path, NAME).is_file()
    assert record(tmp_path, NAME, 3).is_file()
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in parts(tmp_path, NAME).iterdir()} == before
    assert read(WithSides(), tmp_path).num_rows == 8


@pytest.mark.slow
def test_a_damaged_part_of_an_older_layout_is_recomputed(tmp_path):
    build(WithSides(), tmp_path, workers=1)
    _older_layout(tmp_path)
    part = parts(tmp_path, NAME) / "part-00002.parquet"
    part.write_bytes(part.read_bytes()[:-5])
    report = build(WithSides(), tmp_path, workers=1)
    assert report.computed == 1 and _parts_only(parts(tmp_path, NAME))
