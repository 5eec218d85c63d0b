"""Where a built dataset's files lie, as local paths for tests: one place, from the layout the runner uses
(:mod:`pipeline.batch.verified`), so that a test names the manifest, a record or a side output, never a path.

>>> from pathlib import Path
>>> manifest(Path("out"), "ehs-table/flop").as_posix()
'out/ehs-table/flop.meta/_manifest.json'
>>> record(Path("out"), "odds-table", 0).as_posix()
'out/odds-table.meta/_checksums/part-00000.parquet.json'
"""
from __future__ import annotations

import os
from pathlib import Path

from pipeline.batch import verified
from pipeline.batch.parts import part_name
from pipeline.batch.storage import LOCK


def parts(out: str | os.PathLike[str], name: str) -> Path:
    """``<out>/<name>``: the dataset's folder of Parquet parts (the table every reader opens)."""
    return Path(out, *verified.parts_folder(name))


def part(out: str | os.PathLike[str], name: str, index: int) -> Path:
    """Part ``index`` of the dataset: where its manifest (or, before there is one, the part's checksum record)
    says it lies — in a ``<key>=<value>`` folder for a Hive-partitioned dataset — else where a flat one lies."""
    import json

    for doc, get in ((manifest(out, name), lambda d: d["parts"][index]["file"]),
                     (record(out, name, index), lambda d: d["file"])):
        try:
            return Path(out, *verified.part_path(name, get(json.loads(doc.read_text()))))
        except (OSError, ValueError, LookupError, TypeError):
            continue
    return Path(out, *verified.part_path(name, part_name(index)))


def meta(out: str | os.PathLike[str], name: str) -> Path:
    """``<out>/<name>.meta``: the folder beside the parts with the manifest, records, side outputs and lock."""
    return Path(out, *verified.meta_folder(name))


def manifest(out: str | os.PathLike[str], name: str) -> Path:
    """The dataset's manifest."""
    return Path(out, *verified.manifest_path(name))


def records(out: str | os.PathLike[str], name: str) -> Path:
    """The folder of the dataset's checksum records."""
    return Path(out, *verified.records_folder(name))


def record(out: str | os.PathLike[str], name: str, index: int) -> Path:
    """The checksum record of part ``index``."""
    return Path(out, *verified.record_path(name, part_name(index)))


def side(out: str | os.PathLike[str], name: str, file: str) -> Path:
    """The dataset's side output ``file`` (``_heatmap.png``)."""
    return Path(out, *verified.side_path(name, file))


def lock(out: str | os.PathLike[str], name: str) -> Path:
    """The lock a run holds while it writes the dataset."""
    return meta(out, name) / LOCK


def key(name: str, *file: str) -> str:
    """The same places as object-store keys under the root: ``key(name)`` the parts' prefix, ``key(name,
    "_manifest.json")`` a file of the metadata folder."""
    return "/".join(verified.meta_folder(name) + file) if file else "/".join(verified.parts_folder(name))


def beside(folder: str | os.PathLike[str]) -> Path:
    """The metadata folder beside the parts folder ``folder`` (``<out>/vs-random`` -> ``<out>/vs-random.meta``)."""
    folder = Path(folder)
    return meta(folder.parent, folder.name)


def copy_dataset(folder: str | os.PathLike[str], to: str | os.PathLike[str]) -> None:
    """Copy the dataset whose parts are in ``folder`` to the parts folder ``to``: its parts and its metadata."""
    import shutil

    shutil.copytree(folder, to)
    shutil.copytree(beside(folder), beside(to))
