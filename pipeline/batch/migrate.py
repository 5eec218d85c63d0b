"""Folders built by an earlier layout, carried over by the next run so that no finished part is computed twice.

Two earlier layouts are known (:mod:`.verified` has the current one):

* **Metadata among the parts** (pokerpipe 0.1 before issue 40): the manifest, the
  checksum records and the side outputs lay inside the parts folder.
  :func:`carry_records` copies the records beside it, so that the parts are kept
  after the same checks as any others; the runner's clean then leaves parts only.
* **Flat parts of a Hive-partitioned dataset** (before the dataset declared its
  :attr:`~pipeline.batch.spec.Dataset.partition_key`): ``part-NNNNN.parquet``
  directly in the folder, the key column in the file.  :func:`carry_flat_parts`
  rewrites each verified one into its key's folder without the column — the
  bytes the partition computed now would give, since a part's bytes are its
  table's alone (:mod:`.parquet`) — with its new checksum record; the runner's
  clean then removes the flat files.

Nothing is copied blind: every record is read bounded and parsed
(:func:`.verified.document`), every part hashed against its record and read
back as a Parquet file of this dataset's schema with its partition's rows.
"""
from __future__ import annotations

import json
from typing import Any

from . import hive
from .parquet import parquet_bytes, read_part, sha256
from .parts import checksum_record, params_digest, recorded_sha
from .spec import Dataset
from .storage import Storage, StorageError
from .verified import (
    document,
    legacy_paths,
    part_name,
    part_path,
    parts_folder,
    record_path,
    records_folder,
    staging_folder,
)


def carry_records(storage: Storage, dataset: Dataset) -> None:
    """Copy the checksum records an older layout left inside the parts folder (:func:`.verified.legacy_paths`)
    to the metadata folder, where no record of the part is yet: its parts are then kept as any other, after
    the same checks."""
    _, old_records = legacy_paths(dataset.name)
    for f in list(storage.files(*old_records)):
        if f.startswith("part-") and f.endswith(".json") and not storage.exists(*records_folder(dataset.name), f):
            record = document(storage, *old_records, f)
            if record is not None:
                storage.write_atomic(json.dumps(record).encode(), *records_folder(dataset.name), f)


def carry_flat_parts(storage: Storage, dataset: Dataset, partitions: list[Any], files: list[str]) -> int:
    """Rewrite the flat parts of a Hive-partitioned ``dataset`` (``files[i]`` is where part ``i`` now lies)
    into their key's folders; how many were carried over.

    A flat part is carried over only when its key-folder part is not there
    yet, its bytes hash to its checksum record's (this dataset, this index,
    these parameters, the flat file), it is a Parquet file of the dataset's
    full schema with the partition's rows, and every row holds the value of
    the partition's folder; anything else is left to be computed again.
    """
    name = dataset.name
    if hive.key_of(dataset) is None:
        return 0
    flat = set(storage.files(*parts_folder(name)))
    digest, schema = params_digest(dataset), dataset.full_schema
    carried = 0
    for i, (partition, file) in enumerate(zip(partitions, files)):
        old = part_name(i)
        if old not in flat or storage.exists(*part_path(name, file)):
            continue
        want = recorded_sha(document(storage, *record_path(name, old)), name, i, digest, old)
        try:
            data = storage.read_bytes(*part_path(name, old))
        except (OSError, StorageError):
            continue
        table = read_part(data, schema, dataset.rows(partition)) if want == sha256(data) else None
        if table is None:
            continue
        try:
            table = hive.stripped(dataset, table, file)
        except ValueError:                   # a row of another value: not this partition's part
            continue
        new = parquet_bytes(table)
        storage.makedirs(*part_path(name, file)[:-1])
        storage.write_atomic(new, *part_path(name, file), staging=staging_folder(name))
        record = checksum_record(name, i, digest, sha256(new), table.num_rows, len(new), file)
        storage.write_atomic(json.dumps(record).encode(), *record_path(name, old))
        carried += 1
    return carried
