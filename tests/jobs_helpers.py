"""Tiny jobs for runner tests; importable by Dask workers started from this folder."""
import os
import time

import pyarrow as pa

SCHEMA = pa.schema([("i", pa.int64()), ("square", pa.int64()), ("label", pa.string())])


def compute(part):
    i, delay = part
    if delay:
        time.sleep(delay)
    return pa.table({"i": pa.array([i, i + 1], pa.int64()), "square": pa.array([i * i, (i + 1) ** 2], pa.int64()),
                     "label": pa.array([f"n{i}", f"n{i + 1}"])})


def job(n=20, delay=0.0, name="squares"):
    from pipeline.runner import Job
    return Job(name, {"n": n}, SCHEMA, [(2 * i, delay) for i in range(n)], compute, rows=lambda p: 2)


def pid():
    return os.getpid()
