"""``pokerpipe solve``'s files: checkpoints every few minutes and the solved strategy, through the batch storage.

A solve writes into its own folder (``--out DIR``, local or an object store,
:class:`pipeline.batch.storage.Storage`):

* ``_checkpoint.json`` and ``checkpoint-<h>.npz``: the CFR+ tables (regrets and
  the average strategy's sums, float64) in a file named after the first 16 hex
  digits of its SHA-256, and the commit document naming it with its digest,
  the iterations done, the seconds spent and the exploitability curve; the
  document carries the SHA-256 of its own canonical JSON.  The arrays are
  written first, the document last (both atomically, flushed): a ``kill -9`` at
  any moment leaves the old checkpoint or the new one whole, and the next run
  continues from it bit for bit (the iterations' boards come from the stream
  of ``(seed, iteration)``), so the final bytes are those of an uninterrupted
  run.
* ``strategy.parquet``: the average strategy, one row per information set:
  ``street``, ``bucket`` (a card, a hand class or a bucket number), ``history``
  (the ACPC betting string), ``node``, ``row`` and the probabilities ``fold``,
  ``call``, ``raise`` (0 where an answer is not legal);
* ``_strategy.npy``: the same probabilities as the kernels read them (float32,
  rows x 3; the engine's ``cfr:DIR`` policy maps it);
* ``_convergence.png``: the curve, exploitability in mbb/g at each checkpoint
  against iterations and against hours, log-log (:mod:`pipeline.plots.convergence`),
  redrawn at each checkpoint so that a long run shows its progress;
* ``_manifest.json`` last: the job (``solve/leduc``, ``solve/hulhe``), its
  parameters, the package version, every file with its bytes and SHA-256, the
  iterations, the final exploitability and the curve.

Everything read back is checked against the SHA-256 its document records.
"""
from __future__ import annotations

import hashlib
import io
import json
import time
import zipfile
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np
import pyarrow as pa

from ..batch.parquet import canonical_json, parquet_bytes, sha256, with_metadata
from ..batch.storage import Storage
from ..core.arrow import arrow_table, text
from ..core.errors import InputError
from ..core.inputs import parse_json
from ..core.version import __version__
from ..solver.cfr import Solver, average_policy
from ..solver.game import row_labels

FORMAT = "pokerpipe-solve-checkpoint"
VERSION = 1
STATE = "_checkpoint.json"
MANIFEST = "_manifest.json"
STRATEGY = "strategy.parquet"
ARRAYS = "_strategy.npy"
CURVE = "_convergence.png"   # leading underscore: a reader of the folder's Parquet skips it, like _manifest.json
MODULO = "modulo"         # -p abstraction=modulo: buckets by situation index modulo k (smoke tests, no build)
SCHEMA = pa.schema([("street", pa.int8()), ("bucket", pa.string()), ("history", pa.string()), ("node", pa.int32()),
                    ("row", pa.int64()), ("fold", pa.float64()), ("call", pa.float64()), ("raise", pa.float64())])


class SolveError(InputError):
    """A solve folder that cannot be used: a damaged checkpoint, one of other parameters, a missing strategy."""


def _digest(doc: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json({k: v for k, v in doc.items() if k != "sha256"}).encode()).hexdigest()


@dataclass
class Checkpoint:
    """What a solve has done: the iterations, the seconds spent, the exploitability after each checkpoint."""

    t: int = 0
    seconds: float = 0.0
    curve: list[dict[str, Any]] = field(default_factory=list)


def save_checkpoint(storage: Storage, params: dict[str, Any], solver: Solver, done: Checkpoint) -> None:
    """Commit the solver's tables and ``done`` (arrays first, the document last; both flushed to disk)."""
    buf = io.BytesIO()
    np.savez(buf, regret=solver.regret, avg=solver.avg)
    data = buf.getvalue()
    digest = sha256(data)
    name = f"checkpoint-{digest[:16]}.npz"
    storage.write_atomic(data, name, sync=True)
    doc = {"format": FORMAT, "version": VERSION, "parameters": params, "arrays": name, "arrays_sha256": digest,
           "t": done.t, "seconds": round(done.seconds, 3), "curve": done.curve}
    doc["sha256"] = _digest(doc)
    storage.write_atomic(json.dumps(doc, indent=1).encode(), STATE, sync=True)
    for f in list(storage.files()):
        if f.startswith("checkpoint-") and f != name:
            storage.remove(f)
    storage.write_atomic(curve_png(solver, done), CURVE)


def curve_png(solver: Solver, done: Checkpoint) -> bytes:
    """The convergence curve of ``done`` as a PNG: mbb/g with the big blind of the game's betting (Leduc: its
    ante, 1 chip)."""
    from ..plots.convergence import convergence_png

    big = float(max(solver.game.tree.rules.blinds))
    return convergence_png(done.curve, big, f"{solver.game.name}: exploitability of the average strategy, "
                           f"{done.t:,} iterations, {done.seconds:,.1f} s (CFR+, log-log)")


def load_checkpoint(storage: Storage, params: dict[str, Any], solver: Solver) -> Optional[Checkpoint]:
    """Load the committed checkpoint into ``solver`` (None if there is none); :class:`SolveError` if it is
    damaged or was written for other parameters."""
    where = storage.url(STATE)
    if not storage.exists(STATE):
        return None
    try:
        doc = parse_json(storage.read_bytes(STATE), where, error=SolveError)
    except OSError as e:
        raise SolveError(f"damaged checkpoint {where}: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("sha256") != _digest(doc):
        raise SolveError(f"damaged checkpoint {where} (edited or cut); use --force to start over")
    if doc.get("parameters") != json.loads(json.dumps(params)):
        raise SolveError(f"{storage.url()} holds a solve with other parameters ({canonical_json(doc.get('parameters'))}"
                         "); use another --out, or --force to start over")
    try:
        data = storage.read_bytes(str(doc["arrays"]))
    except OSError:
        raise SolveError(f"damaged checkpoint {where}: {doc['arrays']} is missing") from None
    if sha256(data) != doc.get("arrays_sha256"):
        raise SolveError(f"damaged checkpoint {where}: {doc['arrays']} does not match its SHA-256")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            regret, avg = z["regret"], z["avg"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        raise SolveError(f"damaged checkpoint {where}: {doc['arrays']} is not an array file") from None
    if regret.shape != solver.regret.shape or avg.shape != solver.avg.shape:
        raise SolveError(f"damaged checkpoint {where}: tables of shape {regret.shape}, the game has "
                         f"{solver.regret.shape}")
    solver.regret[:] = regret
    solver.avg[:] = avg
    solver.t = int(doc["t"])
    return Checkpoint(int(doc["t"]), float(doc["seconds"]), list(doc["curve"]))


def strategy_table(solver: Solver, params: dict[str, Any]) -> tuple[pa.Table, np.ndarray]:
    """The average strategy as the Parquet table and the kernels' array (float32 rows x 3)."""
    game = solver.game
    street, bucket, history, node = row_labels(game)
    probs = average_policy(solver.avg, (game.tree.child[node] >= 0).astype(np.float64))
    names = [game.bucket_name(int(s), int(b)) for s, b in zip(street, bucket)]
    schema = with_metadata(SCHEMA, f"solve/{game.name}", params)
    table = arrow_table({"street": street, "bucket": text(names), "history": text(history), "node": node,
                         "row": np.arange(len(node)), "fold": probs[:, 0], "call": probs[:, 1], "raise": probs[:, 2]},
                        schema)
    return table, probs.astype(np.float32)


def write_outputs(storage: Storage, params: dict[str, Any], solver: Solver, done: Checkpoint,
                  exploitability: Optional[float]) -> dict[str, Any]:
    """Write the strategy (Parquet and the kernels' array) and, last, the manifest; return the manifest."""
    table, probs = strategy_table(solver, params)
    storage.makedirs()
    files = []
    buf = io.BytesIO()
    np.save(buf, probs, allow_pickle=False)
    for name, data in ((STRATEGY, parquet_bytes(table)), (ARRAYS, buf.getvalue()), (CURVE, curve_png(solver, done))):
        storage.write_atomic(data, name)
        files.append({"file": name, "bytes": len(data), "sha256": sha256(data)})
    doc = {"job": f"solve/{solver.game.name}", "parameters": params, "version": __version__, "files": files,
           "rows": table.num_rows, "iterations": done.t, "exploitability": exploitability, "curve": done.curve,
           "seconds": round(done.seconds, 3), "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    storage.write_atomic((json.dumps(doc, indent=1) + "\n").encode(), MANIFEST, sync=True)
    return doc


def read_strategy(storage: Storage) -> tuple[dict[str, Any], np.ndarray]:
    """A finished solve's manifest and its strategy array, verified against the manifest's SHA-256."""
    where = storage.url()
    try:
        doc = parse_json(storage.read_bytes(MANIFEST), storage.url(MANIFEST), error=SolveError)
    except OSError:
        raise SolveError(f"no finished solve at {where} (run `pokerpipe solve ... --out {where}`)") from None
    if not isinstance(doc, dict) or not str(doc.get("job", "")).startswith("solve/"):
        raise SolveError(f"{storage.url(MANIFEST)} is not the manifest of a solve")
    sha = {f.get("file"): f.get("sha256") for f in doc.get("files", []) if isinstance(f, dict)}
    try:
        data = storage.read_bytes(ARRAYS)
    except OSError:
        raise SolveError(f"{storage.url(ARRAYS)} is missing; run the solve again") from None
    if sha256(data) != sha.get(ARRAYS):
        raise SolveError(f"{storage.url(ARRAYS)} is damaged (SHA-256 differs from the manifest); run the solve again")
    probs = np.load(io.BytesIO(data), allow_pickle=False)
    return doc, probs


def solve(storage: Storage, solver: Solver, params: dict[str, Any], *, iterations: Optional[int],
          hours: Optional[float], checkpoint_seconds: float, measure: Callable[[Solver], Optional[float]],
          progress: Optional[Callable[[int, Optional[int], Optional[float]], None]] = None,
          force: bool = False, executor: Any = None) -> tuple[dict[str, Any], Checkpoint]:
    """Run (or resume) the solve until ``iterations`` are done or ``hours`` are spent, committing a checkpoint
    (with ``measure(solver)``, the exploitability, on its curve) every ``checkpoint_seconds``; write the
    outputs.  ``progress(t, total, exploitability)`` is told after every iteration; ``executor`` (threads)
    spreads each iteration's subtrees (the same bytes with any number of threads)."""
    storage.makedirs()
    with storage.lock():
        done = None if force else load_checkpoint(storage, params, solver)
        done = done or Checkpoint()
        limit = None if hours is None else hours * 3600.0
        last = time.monotonic()
        start = last - done.seconds
        latest = done.curve[-1]["exploitability"] if done.curve else None

        def over() -> bool:
            return (iterations is not None and solver.t >= iterations) or \
                (limit is not None and time.monotonic() - start >= limit)

        while not over():
            solver.run(1, executor)
            now = time.monotonic()
            if now - last >= checkpoint_seconds or over():
                done.t, done.seconds = solver.t, now - start
                latest = measure(solver)
                done.curve.append({"iteration": solver.t, "seconds": round(done.seconds, 3),
                                   "exploitability": latest})
                save_checkpoint(storage, params, solver, done)
                last = time.monotonic()
            if progress is not None:
                progress(solver.t, iterations, latest)
        done.t, done.seconds = solver.t, max(done.seconds, time.monotonic() - start)
        if not done.curve or done.curve[-1]["iteration"] != solver.t:
            latest = measure(solver)
            done.curve.append({"iteration": solver.t, "seconds": round(done.seconds, 3), "exploitability": latest})
            save_checkpoint(storage, params, solver, done)
        manifest = write_outputs(storage, params, solver, done, latest)
    return manifest, done




class SolvedStrategy:
    """The strategy of a finished hold'em solve as the engine's ``cfr`` policy (a
    :class:`pipeline.holdem.strategy.StrategySource`): picklable, each process maps the arrays itself, verified
    against the solve's manifest and the abstraction's."""

    def __init__(self, folder: str) -> None:
        self.folder = str(folder)
        self.name = f"cfr:{self.folder}"
        self._arrays: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"folder": self.folder, "name": self.name, "_arrays": None}

    def check(self) -> dict[str, Any]:
        """The solve's manifest (:class:`SolveError` if it is not a finished hold'em solve)."""
        doc, _ = read_strategy(Storage.open(self.folder))
        if doc.get("job") != "solve/hulhe":
            raise SolveError(f"{self.folder} holds a {doc.get('job')} solve; cfr:DIR plays hold'em solves")
        return doc

    def load(self) -> Any:
        if self._arrays is None:
            from ..holdem.strategy import StrategyArrays
            from ..isomorphism.situations import block_table
            from ..solver.hulhe import HULHE

            doc, probs = read_strategy(Storage.open(self.folder))
            p = doc["parameters"]
            k = int(p["k"])
            if p["abstraction"] == MODULO:          # the smoke-test stand-in: index modulo k, made here
                from ..isomorphism.situations import street_size

                streets = [(np.arange(street_size(m), dtype=np.int64) % k).astype(np.uint16) for m in (3, 4, 5)]
            else:
                from .abstraction_lookup import load_abstraction

                ab = load_abstraction(p["abstraction"], k=k)
                streets = [ab.streets[s].array for s in ("flop", "turn", "river")]
            game = HULHE(k, None)
            if probs.shape != (game.rows, 3):
                raise SolveError(f"{self.folder}: its strategy has {probs.shape[0]} rows, the game {game.rows}")
            self._arrays = StrategyArrays(probs, game.arrays.row_base, streets[0], streets[1], streets[2],
                                          block_table(3), block_table(4), block_table(5))
        return self._arrays


def resolve_policy(policy: Any) -> Any:
    """``policy`` with a ``cfr:DIR`` name turned into its :class:`SolvedStrategy` (checked now: one
    :class:`SolveError` line if DIR holds no finished hold'em solve); anything else as it is."""
    if isinstance(policy, str) and policy.strip().lower().startswith("cfr:"):
        s = SolvedStrategy(policy.strip()[4:])
        s.check()
        return s
    return policy


__all__ = ["CURVE", "Checkpoint", "SolveError", "SolvedStrategy", "curve_png", "load_checkpoint", "read_strategy",
           "resolve_policy", "save_checkpoint", "solve", "strategy_table", "write_outputs"]
