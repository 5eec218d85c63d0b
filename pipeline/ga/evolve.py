"""The co-evolutionary genetic algorithm (García Pérez's thesis, §3.3): two phases, one generation at a time.

**Phase 1** produces the trainers from random play: the trainer set starts as
random chromosomes; after each generation, if the best individual's winnings
are above zero and above the best trainer's (trainers are scored by what they
won in the same matches), it joins the trainers and the worst trainer leaves
(§3.3.4).  **Phase 2** evolves a fresh random population against the trainer
set phase 1 left, held fixed so fitness means the same thing in every
generation; its best individual is the final player.

One generation (seed ``(seed, generation)``, so a resumed run draws exactly
what an uninterrupted one draws):

1. one crossover operator is chosen for the generation; ``population``
   parents are picked by tournaments and paired; a pair is crossed with
   ``crossover_percent`` chance, each child mutated with ``mutation_percent``
   chance (:mod:`.operators`);
2. parents and the children that differ from them play the *same* deals
   against the trainers (:mod:`.fitness`; on the workers of the ``executor`` if one is given);
3. elitist replacement: the best ``population`` of parents and children
   survive (ties: parents first, then by order), so the best is never lost;
4. co-evolution (phase 1), the yardstick match (the best survivor against a
   fixed rule bot on fixed deals: the curve of real progress), the
   generation's Parquet file and the checkpoint.

Files under ``<out>/evolve/``: ``generations/gen-NNNNN.parquet`` (one row per
evaluated individual), ``progress.parquet`` (one row per generation),
``best/gen-NNNNN.json`` (each generation's best as a player file, so any
point of the curve can be re-measured at length), the checkpoint
(:mod:`.checkpoint`: ``checkpoint.json`` and the arrays it names), and at the
end ``final-player.json``, ``trainers/trainer-K.json`` and ``summary.json``.

How the folder is written:

* **One writer.**  The run holds the folder's writer lock
  (:meth:`~pipeline.core.files.Files.lock`, :func:`writing`) from before it
  reads the checkpoint to after its last write; a second run into the same
  folder is refused while the first lives.
* **One commit per generation.**  Every file is written atomically and its
  SHA-256 recorded; the checkpoint, written last, is the commit: it names
  every file of the generations it holds (the final files included, once the
  run is finished), and what is read back later is checked against it.
* **Nothing deleted first.**  Starting over (``force``) deletes nothing up
  front: the new run writes its files over the old run's as it goes, and
  removes the old run's other files only once its own first generation is
  committed.  Until then the old checkpoint stands (a file the new run has
  already replaced no longer matches it, and is refused when read).
* **Write errors are one line.**  A folder that cannot be written (read-only,
  a file in the way, a full disk) raises :class:`EvolveError` naming the
  path; the last committed generation stays whole, and the same run resumes
  from it.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Optional

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..core.budget import refuse_beyond
from ..core.errors import InputError
from ..core.files import Files
from ..core.inputs import boolean, integer, real
from ..holdem.player import Player
from ..holdem.weights import WeightSource
from ..holdem.work import workers_of
from . import checkpoint
from .checkpoint import CheckpointError
from .config import Config
from .fitness import Match, fastest_seconds, play_match, unpack_used
from .operators import CROSSOVERS, crossover, mutate, random_genes, tournament

FOLDER = "evolve"          # the evolution's files, under the output folder

INDIVIDUAL_SCHEMA = pa.schema([
    ("generation", pa.int32()), ("phase", pa.int8()), ("individual", pa.int64()),
    ("fitness", pa.float64()),          # BB/100 against the trainers
    ("stderr", pa.float64()),           # its standard error (over deals)
    ("hands", pa.int64()), ("units", pa.int64()),
    ("used_share", pa.float64()),       # share of the chromosome's genes it has consulted
    ("operator", pa.string()),          # birth, parent, or the crossover that made it ('' if only mutated)
    ("mutated", pa.bool_()), ("parent_a", pa.int64()), ("parent_b", pa.int64()),
    ("survived", pa.bool_()),
])
PROGRESS_SCHEMA = pa.schema([
    ("generation", pa.int32()), ("phase", pa.int8()), ("operator", pa.string()),
    ("evaluated", pa.int32()), ("best", pa.int64()), ("best_fitness", pa.float64()),
    ("best_stderr", pa.float64()), ("mean_fitness", pa.float64()), ("best_used_share", pa.float64()),
    ("best_trainer_fitness", pa.float64()),     # the best trainer's BB/100 in this generation's matches
    ("trainer_in", pa.int64()), ("trainer_out", pa.int64()),   # -1: no replacement
    ("yardstick_bb100", pa.float64()), ("yardstick_stderr", pa.float64()),
])


FINAL_PLAYER = "final-player.json"


class EvolveError(InputError):
    """The output folder holds an evolution that cannot be continued (other parameters)."""


@dataclass
class Summary:
    """How an evolution ended: where its files are and its last generation's figures."""

    folder: str              # <out>/evolve, as the user wrote <out>
    generations: int
    final_player: str
    progress: list[dict[str, Any]]
    seconds_per_generation: float
    resumed_at: int
    finished: bool


def _seed_of(*key: int) -> int:
    return int(np.random.default_rng(list(key)).integers(0, 1 << 62))


class _State:
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


@dataclass
class _Child:
    """A child that differs from its parents: genes, inherited used marks, how it was made, its parents' ids."""

    genes: np.ndarray
    used: np.ndarray
    operator: str          # the crossover that made it, '' if it was only mutated
    mutated: bool
    parent_a: int
    parent_b: int          # -1 when not crossed


def _offspring(st: _State, rng: np.random.Generator) -> tuple[str, list[_Child]]:
    """The generation's crossover operator and its children that differ from their parents."""
    cfg = st.cfg
    op = CROSSOVERS[int(rng.integers(len(CROSSOVERS)))]
    picks = tournament(st.fitness, cfg.population, cfg.tournament, rng)
    children = []
    for i in range(0, len(picks), 2):
        a = int(picks[i])
        b = int(picks[i + 1]) if i + 1 < len(picks) else -1
        if b >= 0 and rng.random() * 100 < cfg.crossover_percent:
            ca, cb, ua, ub = crossover(op, st.genes[a], st.genes[b], st.used[a], st.used[b], rng)
            kids = [(ca, ua, op, a, b), (cb, ub, op, b, a)]
        else:
            kids = [(st.genes[k], st.used[k], "", k, -1) for k in (a, b) if k >= 0]
        for genes, used, how, p, q in kids:
            mutated = rng.random() * 100 < cfg.mutation_percent
            if mutated:
                genes = mutate(genes, used, cfg.mutation_share, cfg.variance, rng)
            if how or mutated:
                children.append(_Child(genes, used.copy(), how, mutated, int(st.ids[p]),
                                       int(st.ids[q]) if q >= 0 else -1))
    return op, children


def _evaluate(st: _State, genes: list[np.ndarray], seed: int, executor: Optional[Executor],
              weights: Optional[WeightSource]) -> list[Match]:
    """Play every gene table against the trainers on the deals of ``seed`` (on ``executor``'s workers if any)."""
    from ..holdem.weights import preflop_table

    cfg = st.cfg
    play = partial(play_match, trainers=st.trainers, layout=cfg.layout, fmt=cfg.format, hands=cfg.hands_per_match,
                   seed=seed, samples=cfg.samples, pre_weight=preflop_table(), weights=weights)
    return list((executor.map if executor is not None else map)(play, genes))


def _yardstick(cfg: Config, genes: np.ndarray, weights: Optional[WeightSource]) -> tuple[float, float]:
    """The player's BB/100 and standard error against the yardstick, on deals fixed for the run.

    At the format's table: the player and ``trainers`` copies of the
    yardstick bot (``table``), or heads-up (``heads-up``).
    """
    from ..holdem.simulate import simulate

    others = cfg.trainers if cfg.format == "table" else 1
    r = simulate([Player(cfg.layout, genes, {"name": "best"})] + [cfg.yardstick] * others, cfg.hands_per_match,
                 seed=_seed_of(cfg.seed, 2 << 40), samples=cfg.samples, weights=weights)
    return r.seats[0].bb_per_100, r.seats[0].stderr


def _coevolve(st: _State, best_fitness: float, best_genes: np.ndarray, best_id: int,
              trainer_fitness: np.ndarray) -> tuple[int, int]:
    """The thesis's trainer rule (phase 1) and the stall count; returns ``(joined, left)`` ids or ``(-1, -1)``.

    In phase 1 the best individual joins the trainers when it won chips and
    beat the best trainer, replacing the worst; a generation without a
    replacement counts toward ``patience``.  In phase 2 a generation whose
    best does not beat the best fitness seen so far does.
    """
    if st.phase == 2:
        if best_fitness > st.best_seen:
            st.best_seen, st.stall = best_fitness, 0
        else:
            st.stall += 1
        return -1, -1
    if not (best_fitness > 0 and best_fitness > trainer_fitness.max()):
        st.stall += 1
        return -1, -1
    worst = int(np.argmin(trainer_fitness))
    left = int(st.trainer_ids[worst])
    st.trainers = st.trainers.copy()
    st.trainers[worst] = best_genes
    st.trainer_ids = st.trainer_ids.copy()
    st.trainer_ids[worst] = best_id
    st.stall = 0
    return int(best_id), left


def _generation(st: _State, executor: Optional[Executor], weights: Optional[WeightSource]) -> None:
    """Run generation ``st.generation`` and leave the state at the next one."""
    cfg, g = st.cfg, st.generation
    rng = np.random.default_rng([cfg.seed, g])
    deal_seed = int(rng.integers(0, 1 << 62))
    if g == st.phase_start:                       # a phase begins with a random population
        op = "birth"
        n = cfg.population
        cand_genes = newborns(cfg, g)
        cand_used = [np.zeros(cfg.layout.genes, np.bool_) for _ in range(n)]
        cand_ids = list(range(st.next_id, st.next_id + n))
        st.next_id += n
        origin = [("birth", False, -1, -1)] * n
        n_parents = 0
    else:
        op, kids = _offspring(st, rng)
        n_parents = len(st.genes)
        cand_genes = list(st.genes) + [k.genes for k in kids]
        cand_used = list(st.used) + [k.used for k in kids]
        cand_ids = [int(i) for i in st.ids] + list(range(st.next_id, st.next_id + len(kids)))
        st.next_id += len(kids)
        origin = [("parent", False, -1, -1)] * n_parents + [(k.operator, k.mutated, k.parent_a, k.parent_b)
                                                             for k in kids]
    matches = _evaluate(st, cand_genes, deal_seed, executor, weights)
    fit = np.array([m.bb_per_100 for m in matches])
    used = [u | unpack_used(m.used, cfg.layout.genes) for u, m in zip(cand_used, matches)]
    order = sorted(range(len(matches)), key=lambda i: (-fit[i], i))
    keep = order[:cfg.population]
    best = keep[0]
    t_units = np.sum([m.trainer_units for m in matches], axis=0)
    t_hands = np.sum([m.trainer_hands for m in matches], axis=0)
    t_fit = t_units / np.maximum(t_hands, 1)
    trainer_in, trainer_out = _coevolve(st, float(fit[best]), cand_genes[best], cand_ids[best], t_fit)
    yb, ys = _yardstick(cfg, cand_genes[best], weights)
    survived = np.zeros(len(matches), np.bool_)
    survived[keep] = True
    share = np.array([u.mean() for u in used])
    rows = {"generation": [g] * len(matches), "phase": [st.phase] * len(matches), "individual": cand_ids,
            "fitness": fit, "stderr": [m.stderr for m in matches], "hands": [m.hands for m in matches],
            "units": [m.units for m in matches], "used_share": share, "operator": [o[0] for o in origin],
            "mutated": [o[1] for o in origin], "parent_a": [o[2] for o in origin],
            "parent_b": [o[3] for o in origin], "survived": survived}
    _write_parquet(st, pa.table(rows, schema=INDIVIDUAL_SCHEMA), "generations", f"gen-{g:05d}.parquet")
    st.progress.append({"generation": g, "phase": st.phase, "operator": op, "evaluated": len(matches),
                        "best": int(cand_ids[best]), "best_fitness": float(fit[best]),
                        "best_stderr": float(matches[best].stderr), "mean_fitness": float(fit.mean()),
                        "best_used_share": float(share[best]), "best_trainer_fitness": float(t_fit.max()),
                        "trainer_in": trainer_in, "trainer_out": trainer_out, "yardstick_bb100": float(yb),
                        "yardstick_stderr": float(ys)})
    best_player = Player(cfg.layout, cand_genes[best], _about(cfg, f"best-{g}", cand_ids[best], generation=g,
                                                              phase=st.phase, fitness_bb100=float(fit[best])))
    _save_player(st, best_player, "best", f"gen-{g:05d}.json")
    st.genes = np.stack([cand_genes[i] for i in keep])
    st.used = np.stack([used[i] for i in keep])
    st.fitness = fit[keep]
    st.ids = np.array([cand_ids[i] for i in keep], np.int64)
    st.generation = g + 1
    phase_len = cfg.phase1 if st.phase == 1 else cfg.generations - st.phase_start
    stop = st.generation - st.phase_start >= phase_len or (cfg.patience and st.stall >= cfg.patience)
    if stop and st.phase == 1 and st.generation < cfg.generations:
        st.phase, st.phase_start, st.stall, st.best_seen = 2, st.generation, 0, -np.inf
    elif stop or st.generation >= cfg.generations:
        st.finished = True


def _reason(e: OSError) -> str:
    """What went wrong with a file operation, in a few words (pyarrow's messages can span lines)."""
    text = getattr(e, "strerror", None) or str(e) or type(e).__name__
    return text.splitlines()[0] if text.strip() else type(e).__name__


def _cannot_write(files: Files, e: OSError, *parts: str) -> EvolveError:
    return EvolveError(f"cannot write {files.url(FOLDER, *parts)}: {_reason(e)}")


@contextlib.contextmanager
def writing(files: Files) -> Iterator[None]:
    """Hold the writer lock of ``<files>/evolve/`` (made if missing) for the block: one evolution writes a
    folder at a time.  A folder that cannot be made or written raises :class:`EvolveError`; one another
    live run holds, the storage's own input error (a :class:`~pipeline.core.errors.InputError`)."""
    try:
        files.makedirs(FOLDER)
    except OSError as e:
        raise _cannot_write(files, e) from None
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(files.lock(FOLDER))
        except OSError as e:
            raise _cannot_write(files, e) from None
        yield


def _write(st: _State, data: bytes, *parts: str) -> str:
    """Write ``data`` at ``<out>/evolve/<parts>`` and record its SHA-256 for the checkpoint; its location."""
    try:
        st.files.write_atomic(data, FOLDER, *parts)
    except OSError as e:
        raise _cannot_write(st.files, e, *parts) from None
    st.digests["/".join(parts)] = hashlib.sha256(data).hexdigest()
    return st.files.url(FOLDER, *parts)


def _write_parquet(st: _State, table: pa.Table, *parts: str) -> None:
    """``table`` as a Parquet file at ``<out>/evolve/<parts>`` (pyarrow's default writer options)."""
    buf = io.BytesIO()
    pq.write_table(table, buf)
    _write(st, buf.getvalue(), *parts)


def _save_player(st: _State, player: Player, *parts: str) -> str:
    """Write a player file at ``<out>/evolve/<parts>``; its location."""
    return _write(st, player.to_json().encode(), *parts)


def _commit(st: _State) -> None:
    """The checkpoint of the state: the commit of every file written since the last one."""
    try:
        checkpoint.save(st.files, st.arrays(), st.doc())
    except OSError as e:
        raise EvolveError(f"cannot write the checkpoint in {st.files.url(FOLDER)}: {_reason(e)}") from None


SUBFOLDERS = ("generations", "best", "trainers")


def _sweep(st: _State) -> None:
    """Remove the files under ``evolve/`` that the committed checkpoint does not name: what an old run left
    when this one started over.  The checkpoint itself and the storage's own files (``_lock``) stay, and so
    does anything in folders the evolution does not write."""
    keep = set(st.digests)
    for sub in ("", *SUBFOLDERS):
        parts = (FOLDER, sub) if sub else (FOLDER,)
        for name in list(st.files.files(*parts)):
            path = f"{sub}/{name}" if sub else name
            ours = name == checkpoint.STATE or checkpoint.ARRAYS.fullmatch(name)
            if path not in keep and not name.startswith("_") and not (not sub and ours):
                st.files.remove(*parts, name)


def _digests(files: Files) -> dict[str, str]:
    """The SHA-256 of every file the checkpoint under ``files`` names (empty for runs that predate them)."""
    return dict(checkpoint.load_state(files).get("digests") or {})


def _verified(files: Files, digests: dict[str, str], *parts: str, kind: str = "file",
              error: type[InputError] = EvolveError) -> bytes:
    """The bytes of ``<out>/evolve/<parts>`` (a ``kind``), checked against ``digests`` when it names the file;
    ``error`` if the file is missing, cannot be read or differs."""
    where = files.url(FOLDER, *parts)
    try:
        data = files.read_bytes(FOLDER, *parts)
    except FileNotFoundError:
        raise error(f"no {kind} {where}") from None
    except OSError as e:
        raise error(f"{where} cannot be read ({_reason(e)})") from None
    name = "/".join(parts)
    if name in digests and hashlib.sha256(data).hexdigest() != digests[name]:
        raise error(f"{where} is damaged (its SHA-256 differs from the checkpoint's)")
    return data


def read_parquet(files: Files, *parts: str, digests: Optional[dict[str, str]] = None) -> pa.Table:
    """The Parquet file at ``<out>/evolve/<parts>``, its bytes checked against the SHA-256 the checkpoint
    recorded (``digests``, read from it when not given; files of runs that predate the record are read as
    they are).  :class:`EvolveError` for a missing or damaged file."""
    data = _verified(files, _digests(files) if digests is None else digests, *parts)
    try:
        return pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as e:
        raise EvolveError(f"{files.url(FOLDER, *parts)} is not a Parquet file ({_reason(e)})") from None


def load_player(files: Files, *parts: str, digests: Optional[dict[str, str]] = None) -> Player:
    """The player file at ``<out>/evolve/<parts>``, checked against ``digests`` (the checkpoint's SHA-256
    of it, when given) and as a player file (:class:`~pipeline.holdem.player.PlayerFileError`)."""
    from ..holdem.player import PlayerFileError

    data = _verified(files, digests or {}, *parts, kind="player file", error=PlayerFileError)
    return Player.from_json(data, files.url(FOLDER, *parts))


def _finish(st: _State) -> None:
    """Write the final player, the trainer set and ``summary.json`` (committed with the last generation)."""
    cfg = st.cfg
    final = Player(cfg.layout, st.genes[0], _about(cfg, "final-player", st.ids[0],
                                                   fitness_bb100=float(st.fitness[0]), generations=st.generation,
                                                   used_share=float(st.used[0].mean())))
    _save_player(st, final, FINAL_PLAYER)
    for k, (genes, tid) in enumerate(zip(st.trainers, st.trainer_ids)):
        _save_player(st, Player(cfg.layout, genes, {"name": f"trainer-{k}", "individual": int(tid),
                                                    "seed": cfg.seed}), "trainers", f"trainer-{k}.json")
    _write(st, json.dumps({"config": cfg.to_dict(), "generations": st.generation, "final_player": FINAL_PLAYER,
                           "seconds_per_generation": _mean(st.seconds)}, indent=1).encode(), "summary.json")


def _seats(cfg: Config) -> int:
    return cfg.trainers + 1 if cfg.format == "table" else 2


def _about(cfg: Config, name: str, individual: int, **figures: Any) -> dict[str, Any]:
    """A player file's ``about``: its name and individual, its own figures, then the run's seed, format and seats."""
    return {"name": name, "individual": int(individual), **figures, "seed": cfg.seed, "format": cfg.format,
            "seats": _seats(cfg), "weights": cfg.weights}


def newborns(cfg: Config, generation: int) -> list[np.ndarray]:
    """The random population a phase starts with at ``generation`` (drawn from the key ``(seed, generation)``)."""
    rng = np.random.default_rng([cfg.seed, generation])
    rng.integers(0, 1 << 62)                      # the generation's deal seed comes first
    return [random_genes(cfg.layout, rng) for _ in range(cfg.population)]


def best_of(files: Files, generation: int) -> Player:
    """The best individual of ``generation`` of the evolution under ``files`` (its ``evolve/`` folder).

    Read from ``best/gen-NNNNN.json`` (checked against the checkpoint); for a
    run written before those files existed, the last generation's is the
    final player and a phase's first generation is rebuilt from its seed (the
    newborns in the order ``generations/gen-NNNNN.parquet`` lists them).
    """
    doc = checkpoint.load_state(files)
    digests = doc.get("digests") or {}
    name = f"gen-{generation:05d}.json"
    if files.is_file(FOLDER, "best", name):
        return load_player(files, "best", name, digests=digests)
    if doc["finished"] and generation == doc["generation"] - 1 and files.is_file(FOLDER, FINAL_PLAYER):
        return load_player(files, FINAL_PLAYER, digests=digests)   # the last generation's best is the final player
    cfg = Config.from_dict(doc["config"])
    rows = read_parquet(files, "generations", f"gen-{generation:05d}.parquet", digests=digests).to_pylist()
    if rows[0]["operator"] != "birth":
        raise EvolveError(f"{files.url(FOLDER, 'best', name)} is missing and generation {generation} is not a "
                          "phase's first")
    best = max(range(len(rows)), key=lambda i: (rows[i]["fitness"], -i))
    return Player(cfg.layout, newborns(cfg, generation)[best],
                  _about(cfg, f"best-{generation}", rows[best]["individual"], generation=generation,
                         phase=rows[best]["phase"], fitness_bb100=rows[best]["fitness"]))


def _mean(xs: list[float]) -> float:
    return float(np.mean(xs)) if xs else 0.0


def evolve(cfg: Config, files: Files, *, executor: Optional[Executor] = None, weights: Optional[WeightSource] = None,
           force: bool = False, stop_after: Optional[int] = None,
           on_generation: Optional[Callable[[dict[str, Any]], None]] = None, locked: bool = False) -> Summary:
    """Run (or resume) the evolution ``cfg`` under ``files`` (its ``evolve/`` folder); return its :class:`Summary`.

    ``files`` is a folder, local or an object store (:class:`pipeline.batch.storage.Storage`).
    A checkpoint of the same parameters is continued from its last finished
    generation; one of other parameters, or a damaged one, raises
    (:class:`EvolveError`, :class:`~.checkpoint.CheckpointError`) unless
    ``force`` starts over (deleting nothing before its first generation is
    committed).  ``executor`` plays each generation's matches on its
    workers; ``weights`` is where the hand-weight tables come from when
    ``cfg.weights`` is ``"tables"``.  ``stop_after`` ends the call after that
    many new generations (as an interruption would).  ``on_generation`` gets
    each generation's progress row.  The folder's writer lock is held for the
    call (:func:`writing`) unless ``locked`` says the caller holds it.
    """
    if (cfg.weights == "tables") != (weights is not None):
        raise EvolveError(f"the evolution plays with {cfg.weights} hand weights: "
                          + ("it needs the hand-weight tables" if weights is None else "give it no tables"))
    refuse_too_long(cfg, workers_of(executor))        # work beyond a day: refused before anything is written
    with contextlib.nullcontext() if locked else writing(files):
        return _evolve(cfg, files, executor, weights, force, stop_after, on_generation)


def _evolve(cfg: Config, files: Files, executor: Optional[Executor], weights: Optional[WeightSource], force: bool,
            stop_after: Optional[int], on_generation: Optional[Callable[[dict[str, Any]], None]]) -> Summary:
    for sub in SUBFOLDERS:
        try:
            files.makedirs(FOLDER, sub)
        except OSError as e:
            raise _cannot_write(files, e, sub) from None
    st = _State(cfg, files)
    if not force and checkpoint.exists(files):
        arrays, doc = checkpoint.load(files)
        if doc.get("config") != json.loads(json.dumps(cfg.to_dict())):
            raise EvolveError(f"{files.url(FOLDER)} holds an evolution with other parameters; use --force to start "
                              "over or another --out")
        st.restore(arrays, doc)
    resumed_at = st.generation
    done = 0
    while not st.finished and (stop_after is None or done < stop_after):
        t = time.perf_counter()
        _generation(st, executor, weights)
        st.seconds.append(time.perf_counter() - t)
        _write_parquet(st, pa.Table.from_pylist(st.progress, schema=PROGRESS_SCHEMA), "progress.parquet")
        if st.finished:
            _finish(st)
        _commit(st)
        if force and done == 0:            # the new run stands: what the old one left can go
            _sweep(st)
        done += 1
        if on_generation is not None:
            on_generation(st.progress[-1])
    if st.finished and FINAL_PLAYER not in st.digests:    # finished by an older pokerpipe: record the final files
        _finish(st)
        _commit(st)
    return Summary(files.url(FOLDER), st.generation, files.url(FOLDER, FINAL_PLAYER), st.progress, _mean(st.seconds),
                   resumed_at, st.finished)


def planned_hands(cfg: Config) -> int:
    """Hands an evolution plays at most: parents and children of every generation, and the yardstick matches."""
    evaluations = cfg.generations * cfg.population * (1 + cfg.crossover_percent / 100)
    return int(evaluations * cfg.hands_per_match * (1 if cfg.format == "table" else cfg.trainers)
               + cfg.generations * cfg.hands_per_match)


def fastest(cfg: Config, workers: int = 1) -> float:
    """The least time the evolution ``cfg`` can take on ``workers`` processes (:func:`.fitness.fastest_seconds`):
    what a refusal of too much work rests on."""
    evaluations = cfg.generations * cfg.population * (1 + cfg.crossover_percent / 100)
    matches = evaluations * (1 if cfg.format == "table" else cfg.trainers)
    return fastest_seconds(planned_hands(cfg), _seats(cfg), matches, workers)


def refuse_too_long(cfg: Config, workers: int = 1, more_seconds: float = 0.0) -> None:
    """Refuse (:class:`~pipeline.core.budget.TooMuchWork`) an evolution that cannot end within a day on
    ``workers`` processes, even at the fastest the kernel plays (plus ``more_seconds`` of other work, the
    report's); the message gives the estimate."""
    refuse_beyond(fastest(cfg, workers) + more_seconds,
                  f"evolve of {planned_hands(cfg):,} hands on {workers} worker(s)",
                  "fewer --generations, --population or --hands-per-match")


def hand_rate(cfg: Config, hands: int = 2_000, weights: Optional[WeightSource] = None) -> float:
    """Hands per second of one evaluation on this machine (one process), measured on a random individual."""
    from ..holdem.weights import preflop_table

    rng = np.random.default_rng(0)
    genes = random_genes(cfg.layout, rng)
    trainers = np.stack([random_genes(cfg.layout, rng) for _ in range(cfg.trainers if cfg.format == "table" else 1)])
    pre = preflop_table()
    play_match(genes, trainers, cfg.layout, cfg.format, 20, 1, cfg.samples, pre, weights)   # compile / load
    t = time.perf_counter()
    m = play_match(genes, trainers, cfg.layout, cfg.format, hands, 1, cfg.samples, pre, weights)
    return m.hands / max(time.perf_counter() - t, 1e-9)
