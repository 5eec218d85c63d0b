"""The strategy dataset of ``pokerpipe videopoker --out``: deal classes partitioned across workers."""
from __future__ import annotations

from pathlib import Path

PARTS = 16
STRATEGY_TEXT = "_strategy.txt"


def strategy_job(pt):
    import pyarrow as pa

    from pipeline.runner import Job
    from pipeline.videopoker.strategy import strategy_params
    from pipeline.videopoker.tables import family_tables

    n = len(family_tables(pt.family).deals)
    bounds = [round(i * n / PARTS) for i in range(PARTS + 1)]
    parts = [(pt.family, pt.type_pay, bounds[i], bounds[i + 1]) for i in range(PARTS)]
    schema = pa.schema([("deal", pa.string()), ("weight", pa.int64()), ("best_hold", pa.string()),
                        ("best_mask", pa.int8()), ("ev", pa.float64()), ("ev_units", pa.int64()),
                        ("hold_ev", pa.list_(pa.float64(), 32))])
    return Job(f"videopoker/{pt.name}", strategy_params(pt), schema, parts, _compute, rows=lambda p: p[3] - p[2])


def _compute(part):
    from pipeline.videopoker.strategy import strategy_rows
    return strategy_rows(*part)


def write_strategy_table(folder: Path, pt) -> None:
    """Write the hold-ranking table beside the dataset (``_strategy.txt``)."""
    import pyarrow.dataset as ds

    from pipeline.store import write_atomic
    from pipeline.videopoker.strategy import strategy_table

    rows = strategy_table(ds.dataset(folder, format="parquet").to_table(columns=["best_hold", "ev", "weight"]), pt)
    lines = [f"{pt.title}: holds by mean EV where they are the best play (per coin)",
             f"{'rank':>4}  {'hold':20s} {'mean EV':>9s} {'min EV':>9s} {'deals':>10s}"]
    for i, (pattern, mean, low, n) in enumerate(rows, 1):
        lines.append(f"{i:4d}  {pattern:20s} {mean:9.4f} {low:9.4f} {n:10,d}")
    write_atomic(folder / STRATEGY_TEXT, ("\n".join(lines) + "\n").encode())
