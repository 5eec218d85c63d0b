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

The loop's parts have their own modules: :mod:`.operators` (birth,
selection, crossover, mutation, a generation's offspring), :mod:`.fitness`
(the matches and the yardstick), :mod:`.state` (what a checkpoint holds),
:mod:`.folder` (the files under ``<out>/evolve/``, how they are written and
read back) and :mod:`.budget` (the work an evolution plans, refused beyond a
day).
"""
from __future__ import annotations

import contextlib
import json
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np
import pyarrow as pa

from ..core.files import Files
from ..holdem.player import Player
from ..holdem.weights import WeightSource
from ..holdem.work import workers_of
from . import checkpoint
from .budget import refuse_too_long
from .config import Config
from .fitness import evaluate, unpack_used, yardstick
from .folder import (
    FINAL_PLAYER,
    FOLDER,
    INDIVIDUAL_SCHEMA,
    PROGRESS_SCHEMA,
    EvolveError,
    about,
    make_folders,
    sweep,
    writing,
)
from .operators import newborns, offspring
from .state import State


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
    make_folders(files)
    st = State(cfg, files)
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
        st.write_parquet(pa.Table.from_pylist(st.progress, schema=PROGRESS_SCHEMA), "progress.parquet")
        if st.finished:
            _finish(st)
        st.commit()
        if force and done == 0:            # the new run stands: what the old one left can go
            sweep(files, st.digests)
        done += 1
        if on_generation is not None:
            on_generation(st.progress[-1])
    if st.finished and FINAL_PLAYER not in st.digests:    # finished by an older pokerpipe: record the final files
        _finish(st)
        st.commit()
    return Summary(files.url(FOLDER), st.generation, files.url(FOLDER, FINAL_PLAYER), st.progress, _mean(st.seconds),
                   resumed_at, st.finished)


def _generation(st: State, executor: Optional[Executor], weights: Optional[WeightSource]) -> None:
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
        op, kids = offspring(cfg, st.genes, st.used, st.fitness, st.ids, rng)
        n_parents = len(st.genes)
        cand_genes = list(st.genes) + [k.genes for k in kids]
        cand_used = list(st.used) + [k.used for k in kids]
        cand_ids = [int(i) for i in st.ids] + list(range(st.next_id, st.next_id + len(kids)))
        st.next_id += len(kids)
        origin = [("parent", False, -1, -1)] * n_parents + [(k.operator, k.mutated, k.parent_a, k.parent_b)
                                                             for k in kids]
    matches = evaluate(cfg, st.trainers, cand_genes, deal_seed, executor, weights)
    fit = np.array([m.bb_per_100 for m in matches])
    used = [u | unpack_used(m.used, cfg.layout.genes) for u, m in zip(cand_used, matches)]
    order = sorted(range(len(matches)), key=lambda i: (-fit[i], i))
    keep = order[:cfg.population]
    best = keep[0]
    t_units = np.sum([m.trainer_units for m in matches], axis=0)
    t_hands = np.sum([m.trainer_hands for m in matches], axis=0)
    t_fit = t_units / np.maximum(t_hands, 1)
    trainer_in, trainer_out = _coevolve(st, float(fit[best]), cand_genes[best], cand_ids[best], t_fit)
    yb, ys = yardstick(cfg, cand_genes[best], weights)
    survived = np.zeros(len(matches), np.bool_)
    survived[keep] = True
    share = np.array([u.mean() for u in used])
    rows = {"generation": [g] * len(matches), "phase": [st.phase] * len(matches), "individual": cand_ids,
            "fitness": fit, "stderr": [m.stderr for m in matches], "hands": [m.hands for m in matches],
            "units": [m.units for m in matches], "used_share": share, "operator": [o[0] for o in origin],
            "mutated": [o[1] for o in origin], "parent_a": [o[2] for o in origin],
            "parent_b": [o[3] for o in origin], "survived": survived}
    st.write_parquet(pa.table(rows, schema=INDIVIDUAL_SCHEMA), "generations", f"gen-{g:05d}.parquet")
    st.progress.append({"generation": g, "phase": st.phase, "operator": op, "evaluated": len(matches),
                        "best": int(cand_ids[best]), "best_fitness": float(fit[best]),
                        "best_stderr": float(matches[best].stderr), "mean_fitness": float(fit.mean()),
                        "best_used_share": float(share[best]), "best_trainer_fitness": float(t_fit.max()),
                        "trainer_in": trainer_in, "trainer_out": trainer_out, "yardstick_bb100": float(yb),
                        "yardstick_stderr": float(ys)})
    best_player = Player(cfg.layout, cand_genes[best], about(cfg, f"best-{g}", cand_ids[best], generation=g,
                                                             phase=st.phase, fitness_bb100=float(fit[best])))
    st.save_player(best_player, "best", f"gen-{g:05d}.json")
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


def _coevolve(st: State, best_fitness: float, best_genes: np.ndarray, best_id: int,
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


def _finish(st: State) -> None:
    """Write the final player, the trainer set and ``summary.json`` (committed with the last generation)."""
    cfg = st.cfg
    final = Player(cfg.layout, st.genes[0], about(cfg, "final-player", st.ids[0],
                                                  fitness_bb100=float(st.fitness[0]), generations=st.generation,
                                                  used_share=float(st.used[0].mean())))
    st.save_player(final, FINAL_PLAYER)
    for k, (genes, tid) in enumerate(zip(st.trainers, st.trainer_ids)):
        st.save_player(Player(cfg.layout, genes, {"name": f"trainer-{k}", "individual": int(tid),
                                                    "seed": cfg.seed}), "trainers", f"trainer-{k}.json")
    st.write(json.dumps({"config": cfg.to_dict(), "generations": st.generation, "final_player": FINAL_PLAYER,
                           "seconds_per_generation": _mean(st.seconds)}, indent=1).encode(), "summary.json")


def _mean(xs: list[float]) -> float:
    return float(np.mean(xs)) if xs else 0.0
