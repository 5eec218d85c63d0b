"""A run's manifest, read back and checked: whether it is a finished run of exactly this dataset.

Kept apart from the runner that writes it, so that a reader of finished datasets (each worker that reads a
run's inputs: :class:`pipeline.datasets.build.Reader`; the hand-weight tables; the abstraction's lookups)
imports these checks without the runner, its cluster session and their imports: the local cluster's fork
server unpickles every worker's reader before the first worker can start (issue 38: the cluster's start).
"""
from __future__ import annotations

from ..core.version import __version__
from . import hive
from .parquet import canonical_json
from .spec import Dataset
from .storage import Storage
from .verified import document, is_count, is_sha256, manifest_path, part_name, side_entries

__all__ = ["check_manifest", "manifest_matches", "read_manifest"]


def read_manifest(storage: Storage, name: str) -> dict | None:
    """The dataset's manifest if there is a readable one (a JSON object of bounded size and depth), else None."""
    return document(storage, *manifest_path(name))


def manifest_matches(manifest: dict | None, dataset: Dataset) -> bool:
    """Whether ``manifest`` is a run of exactly this dataset, parameters and version (its identity only:
    :func:`check_manifest` says whether it is a finished one).  Parameters are compared as JSON text, so
    that ``true`` is not ``1`` and ``1.0`` is not ``1``."""
    return (manifest is not None and manifest.get("job") == dataset.name
            and canonical_json(manifest.get("parameters")) == canonical_json(dataset.params)
            and manifest.get("version") == __version__ and isinstance(manifest.get("parts"), list))


def check_manifest(manifest: dict | None, dataset: Dataset, count: int, files: list[str] | None = None
                   ) -> str | None:
    """Why ``manifest`` is not a finished run of ``dataset`` with ``count`` parts, or None when it is one.

    Its own figures are checked: identity (:func:`manifest_matches`), exactly
    ``count`` part entries, entry ``i`` naming part ``i`` where the dataset's
    layout puts it (``files[i]`` when the partitions are at hand, else any
    well-formed place of part ``i``: :func:`.hive.is_file_of`) with whole rows
    and bytes and a SHA-256, the total rows their sum, well-formed side
    outputs.  The parts' bytes are checked by whoever reads them.
    """
    if manifest is None:
        return "no readable manifest"
    if not manifest_matches(manifest, dataset):
        return "built with other parameters or version"
    entries = manifest["parts"]
    if len(entries) != count:
        return f"its manifest lists {len(entries)} of {count} parts"
    for i, e in enumerate(entries):
        place = isinstance(e, dict) and (hive.is_file_of(dataset, e.get("file"), i) if files is None
                                         else e.get("file") == files[i])
        if not (place and is_count(e.get("rows")) and is_count(e.get("bytes")) and is_sha256(e.get("sha256"))):
            key = hive.key_of(dataset)
            where = files[i] if files is not None else f"{key}=<value>/{part_name(i)}" if key else part_name(i)
            return f"its manifest entry {i} is not {where} with rows, bytes and SHA-256"
    if not is_count(manifest.get("rows")) or manifest["rows"] != sum(e["rows"] for e in entries):
        return "its manifest's total rows are not the sum of its parts' rows"
    if side_entries(manifest, dataset.side_output_names) is None:
        return "its manifest's side outputs are damaged"
    return None
