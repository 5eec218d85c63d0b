"""The ``two-opponents`` recipe and ``vs-random``'s exact k = 2 rows, without the half-minute full build
(tests/cli/test_cli_jobs.py builds it and checks the rows against Monte Carlo)."""
import numpy as np
import pyarrow as pa
import pytest

from pipeline.batch.parquet import labels_array
from pipeline.core.errors import InputError
from pipeline.core.hand_classes import CLASS_LABELS
from pipeline.datasets.recipes.two_opponents import CHUNKS, COLUMNS, TwoOpponents, two_opponent_totals
from pipeline.datasets.recipes.vs_random import VsRandom, vs_two_exact_rows
from pipeline.equity.two_opponents import DEALS_PER_COMBO, chunk_counts, class_combo_counts


def _table(counts_per_chunk):
    ds = TwoOpponents()
    return pa.concat_tables([
        pa.table({"chunk": pa.array(np.full(169, i, np.int64)),
                  "hand": labels_array(np.arange(169), CLASS_LABELS),
                  **{c: pa.array(counts[:, k], pa.int64()) for k, c in enumerate(COLUMNS)}}, schema=ds.schema)
        for i, counts in enumerate(counts_per_chunk)])


@pytest.mark.slow
def test_partitions_and_one_part():
    ds = TwoOpponents()
    parts = ds.partitions(None)
    assert len(parts) == ds.planned_parts() == CHUNKS
    i, a, b = parts[3]
    t = ds.compute(parts[3])
    assert t.schema.equals(ds.schema) and t.num_rows == ds.rows(parts[3]) == 169
    assert (np.stack([t.column(c).to_numpy() for c in COLUMNS], axis=1) == chunk_counts(a, b)).all()
    assert (t.column("chunk").to_numpy() == i).all()


def test_totals_summed_and_checked():
    full = np.zeros((169, 4), np.int64)
    full[:, 3] = class_combo_counts() * DEALS_PER_COMBO          # every deal a loss: totals right
    per_chunk = [full // CHUNKS] * (CHUNKS - 1) + [full - (CHUNKS - 1) * (full // CHUNKS)]
    assert (two_opponent_totals(_table(per_chunk)) == full).all()
    with pytest.raises(InputError, match="expected"):
        two_opponent_totals(_table(per_chunk[:-1]))
    bad = [c.copy() for c in per_chunk]
    bad[0][0, 0] += 1
    with pytest.raises(InputError, match="do not add up"):
        two_opponent_totals(_table(bad))


def test_exact_rows():
    counts = np.zeros((169, 4), np.int64)
    counts[:] = [6, 2, 3, 1]
    t = vs_two_exact_rows(counts)
    assert t.schema.equals(VsRandom.schema)
    d = t.to_pydict()
    assert d["opponents"] == [2] * 169 and all(d["exact"]) and d["stderr"] == [0.0] * 169
    assert d["samples"][0] == 12 and d["win"][0] == 0.5 and d["tie"][0] == 5 / 12 and d["equity"][0] == 8 / 12


def test_vs_random_parts_and_parameters():
    ds = VsRandom(opponents="1-3", trials=100)
    assert ds.params["exact"] == [1, 2] and ds.planned_parts() == 1 + 1 + 13
    assert VsRandom(opponents="3").params["exact"] == []
