"""The population, the trainers and the bookkeeping of an evolution: what its checkpoint holds.

:class:`State` is one evolution between two generations: the population
(genes, used marks, fitness, ids), the trainer set, the phase and its stall
count, the progress rows and the SHA-256 of every file written so far.  It
writes through :mod:`.folder` (recording each file's digest), is saved as the
checkpoint's arrays and document (:meth:`State.arrays`, :meth:`State.doc`),
and restored from a verified checkpoint field by field
(:meth:`State.restore`), each checked for type and range first.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np
import pyarrow as pa

from ..core.files import Files
from ..core.inputs import boolean, integer, real
from ..holdem.player import Player
from . import folder
from .checkpoint import CheckpointError
from .config import Config
from .folder import FOLDER, PROGRESS_SCHEMA
from .operators import random_genes


class State:
    """The population, the trainers and the bookkeeping a checkpoint holds."""

    def __init__(self, cfg: Config, files: Files) -> None:
        self.cfg = cfg
        self.files = files
        L = cfg.layout
        rng = np.random.default_rng([cfg.seed, 1 << 40])
        self.trainers = np.stack([random_genes(L, rng) for _ in range(cfg.trainers)])
        self.trainer_ids = np.arange(-cfg.trainers, 0, dtype=np.int64)      # random trainers: ids -T..-1
        self.genes = np.zeros((0, L.genes, 2), np.int8)
        self.used = np.zeros((0, L.genes), np.bool_)
        self.fitness = np.zeros(0, np.float64)
        self.ids = np.zeros(0, np.int64)
        self.next_id = 0
        self.generation = 0               # the next generation to run
        self.phase = 1
        self.phase_start = 0
        self.stall = 0
        self.best_seen = -np.inf
        self.finished = False
        self.progress: list[dict[str, Any]] = []
        self.seconds: list[float] = []
        self.digests: dict[str, str] = {}    # SHA-256 of every file written so far, by path under evolve/

    def arrays(self) -> dict[str, np.ndarray]:
        return {"genes": self.genes, "used": np.packbits(self.used, axis=1), "fitness": self.fitness,
                "ids": self.ids, "trainers": self.trainers, "trainer_ids": self.trainer_ids}

    def doc(self) -> dict[str, Any]:
        return {"config": self.cfg.to_dict(), "next_id": self.next_id, "generation": self.generation,
                "phase": self.phase, "phase_start": self.phase_start, "stall": self.stall,
                "best_seen": None if self.best_seen == -np.inf else self.best_seen, "finished": self.finished,
                "rng": {"generator": "numpy PCG64", "key": "(seed, generation)", "next_generation": self.generation},
                "progress": self.progress, "seconds": self.seconds, "digests": self.digests}

    def restore(self, arrays: dict[str, np.ndarray], doc: dict[str, Any]) -> None:
        """Take the state of a checkpoint (verified by :mod:`.checkpoint`), every field checked for type and
        range first; :class:`~.checkpoint.CheckpointError` names the first that is wrong."""
        cfg, E = self.cfg, CheckpointError
        where = f"damaged checkpoint in {self.files.url(FOLDER)}:"
        gen = integer(doc.get("generation"), f"{where} generation", 0, cfg.generations, E)
        self.generation = gen
        self.next_id = integer(doc.get("next_id"), f"{where} next_id", 0, None, E)
        self.phase = integer(doc.get("phase"), f"{where} phase", 1, 2, E)
        self.phase_start = integer(doc.get("phase_start"), f"{where} phase_start", 0, gen, E)
        self.stall = integer(doc.get("stall"), f"{where} stall", 0, gen, E)
        self.finished = boolean(doc.get("finished"), f"{where} finished", E)
        best = doc.get("best_seen")
        self.best_seen = -np.inf if best is None else real(best, f"{where} best_seen", error=E)
        self.progress = _checked_progress(doc.get("progress"), gen, where)
        seconds = doc.get("seconds")
        if not isinstance(seconds, list) or len(seconds) != gen:
            raise E(f"{where} seconds must list one time per generation")
        self.seconds = [real(x, f"{where} seconds", 0.0, None, E) for x in seconds]
        digests = doc.get("digests") or {}
        if not isinstance(digests, dict) or not all(isinstance(k, str) and isinstance(v, str) and _SHA256.fullmatch(v)
                                                    for k, v in digests.items()):
            raise E(f"{where} digests must map file names to SHA-256 digests")
        self.digests = dict(digests)
        L, T = cfg.layout.genes, cfg.trainers
        n = 0 if gen == 0 else cfg.population
        expected = {"genes": (np.int8, (n, L, 2)), "used": (np.uint8, (n, -(-L // 8))),
                    "fitness": (np.float64, (n,)), "ids": (np.int64, (n,)),
                    "trainers": (np.int8, (T, L, 2)), "trainer_ids": (np.int64, (T,))}
        if set(arrays) != set(expected):
            raise E(f"{where} its arrays are {', '.join(sorted(arrays))}, expected {', '.join(sorted(expected))}")
        for name, (dtype, shape) in expected.items():
            a = arrays[name]
            if a.dtype != dtype or a.shape != shape:
                raise E(f"{where} array {name} is {a.dtype}{list(a.shape)}, expected {np.dtype(dtype)}{list(shape)}")
        self.genes, self.fitness, self.ids = arrays["genes"], arrays["fitness"], arrays["ids"]
        self.used = np.unpackbits(arrays["used"], axis=1, count=L).astype(np.bool_)
        self.trainers, self.trainer_ids = arrays["trainers"], arrays["trainer_ids"]

    def write(self, data: bytes, *parts: str) -> str:
        """Write ``data`` at ``<out>/evolve/<parts>``, its SHA-256 recorded (:func:`.folder.write`)."""
        return folder.write(self.files, self.digests, data, *parts)

    def write_parquet(self, table: pa.Table, *parts: str) -> None:
        """Write ``table`` as a Parquet file at ``<out>/evolve/<parts>`` (:func:`.folder.write_parquet`)."""
        folder.write_parquet(self.files, self.digests, table, *parts)

    def save_player(self, player: Player, *parts: str) -> str:
        """Write a player file at ``<out>/evolve/<parts>`` (:func:`.folder.save_player`)."""
        return folder.save_player(self.files, self.digests, player, *parts)

    def commit(self) -> None:
        """The checkpoint of the state: the commit of every file written since the last one."""
        folder.commit(self.files, self.arrays(), self.doc())


_SHA256 = re.compile(r"[0-9a-f]{64}")
_INTEGER_TYPES = (pa.int8(), pa.int32(), pa.int64())


def _checked_progress(rows: Any, generations: int, where: str) -> list[dict[str, Any]]:
    """A checkpoint's progress rows: one per generation, each with the fields of :data:`PROGRESS_SCHEMA`
    and values of their types (integers, numbers — NaN allowed —, the operator's name)."""
    E = CheckpointError
    if not isinstance(rows, list) or len(rows) != generations:
        raise E(f"{where} progress must have one row per generation ({generations})")
    names = PROGRESS_SCHEMA.names
    for g, row in enumerate(rows):
        if not isinstance(row, dict) or sorted(row) != sorted(names):
            raise E(f"{where} progress row {g} must have the fields {', '.join(names)}")
        for f in PROGRESS_SCHEMA:
            v, what = row[f.name], f"{where} progress row {g} {f.name}"
            if f.type in _INTEGER_TYPES:
                integer(v, what, -(1 << 62), 1 << 62, E)
            elif f.type == pa.float64():
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise E(f"{what} must be a number")
            elif not isinstance(v, str) or len(v) > 64:
                raise E(f"{what} must be an operator's name")
        if row["generation"] != g:
            raise E(f"{where} progress row {g} is for generation {row['generation']}")
    return rows
