"""Genetic operators of the thesis (García Pérez, §3.3.5): tournament selection, four crossovers, mutation.

Two of the crossovers and the mutation work on *used* genes: the genes an
individual consulted while it was evaluated (marked by the betting kernel).
Most of a chromosome is never consulted, so focusing change there moves the
play, and lets unused regions come into use later (the thesis, after Rochet et
al., 1996).  A child inherits each gene's used mark from the parent that gave it
the gene.  All operators draw from the ``numpy`` generator they are given, so a
generation is reproduced exactly from its seed.

=====================  =========================================================
``half-individual``    one cut point at random; the children swap the tails
``half-used``          the cut at the middle of the first parent's used genes
``random-genes``       each gene swapped with probability ½
``used-genes``         each of the first parent's used genes swapped with prob. ½
=====================  =========================================================

Mutation picks ``share`` of an individual's used genes (at least one) and
moves both thresholds of each by a uniform amount in ``±variance × 200`` (200
is the width of the thresholds' range), clipped to -99..99.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..holdem.player import GENE_MAX, GENE_MIN, Layout
from .config import Config

CROSSOVERS = ("half-individual", "half-used", "random-genes", "used-genes")


def random_genes(layout: Layout, rng: np.random.Generator) -> np.ndarray:
    """A newborn chromosome: both thresholds of every gene uniform in -99..99."""
    return rng.integers(GENE_MIN, GENE_MAX + 1, size=(layout.genes, 2), dtype=np.int8)


def tournament(fitness: np.ndarray, picks: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of ``picks`` winners of tournaments among ``size`` individuals drawn with replacement.

    The fittest entrant wins; among equal fitness the lower index (a stable order).
    """
    entrants = rng.integers(0, len(fitness), size=(picks, size))
    order = np.lexsort((entrants, -fitness[entrants]), axis=1)
    return entrants[np.arange(picks), order[:, 0]]


def _swap_mask(operator: str, genes: int, used_a: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Which genes the children take from the *other* parent."""
    mask = np.zeros(genes, np.bool_)
    if operator == "half-individual":
        mask[int(rng.integers(1, genes)):] = True
    elif operator == "half-used":
        idx = np.flatnonzero(used_a)
        cut = int(idx[len(idx) // 2]) if len(idx) else genes // 2
        mask[max(cut, 1):] = True
    elif operator == "random-genes":
        mask = rng.random(genes) < 0.5
    elif operator == "used-genes":
        idx = np.flatnonzero(used_a)
        mask[idx[rng.random(len(idx)) < 0.5]] = True
    else:
        raise ValueError(f"unknown crossover {operator!r} (choose from {', '.join(CROSSOVERS)})")
    return mask


def crossover(operator: str, a: np.ndarray, b: np.ndarray, used_a: np.ndarray, used_b: np.ndarray,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Two children of parents ``a``, ``b`` (gene tables) and their inherited used marks.

    Returns ``(child_a, child_b, used_child_a, used_child_b)``; every gene of a
    child is its parents' gene at the same index, whole (both thresholds).
    """
    mask = _swap_mask(operator, len(a), used_a, rng)
    ca, cb = a.copy(), b.copy()
    ca[mask], cb[mask] = b[mask], a[mask]
    ua, ub = used_a.copy(), used_b.copy()
    ua[mask], ub[mask] = used_b[mask], used_a[mask]
    return ca, cb, ua, ub


def mutate(genes: np.ndarray, used: np.ndarray, share: float, variance: float,
           rng: np.random.Generator) -> np.ndarray:
    """A mutated copy of ``genes``: ``share`` of the used genes moved by ``±variance × 200`` each.

    An individual with no used gene is returned unchanged (a copy).
    """
    out = genes.copy()
    idx = np.flatnonzero(used)
    if len(idx) == 0:
        return out
    k = max(1, int(round(share * len(idx))))
    chosen = rng.choice(idx, size=min(k, len(idx)), replace=False)
    step = variance * (GENE_MAX - GENE_MIN + 2)            # the thresholds' range (-100, 100) is 200 wide
    delta = np.rint(rng.uniform(-step, step, size=(len(chosen), 2))).astype(np.int64)
    out[chosen] = np.clip(out[chosen].astype(np.int64) + delta, GENE_MIN, GENE_MAX).astype(np.int8)
    return out


def newborns(cfg: Config, generation: int) -> list[np.ndarray]:
    """The random population a phase starts with at ``generation`` (drawn from the key ``(seed, generation)``)."""
    rng = np.random.default_rng([cfg.seed, generation])
    rng.integers(0, 1 << 62)                      # the generation's deal seed comes first
    return [random_genes(cfg.layout, rng) for _ in range(cfg.population)]


@dataclass
class Child:
    """A child that differs from its parents: genes, inherited used marks, how it was made, its parents' ids."""

    genes: np.ndarray
    used: np.ndarray
    operator: str          # the crossover that made it, '' if it was only mutated
    mutated: bool
    parent_a: int
    parent_b: int          # -1 when not crossed


def offspring(cfg: Config, genes: np.ndarray, used: np.ndarray, fitness: np.ndarray, ids: np.ndarray,
              rng: np.random.Generator) -> tuple[str, list[Child]]:
    """The generation's crossover operator and its children that differ from their parents.

    The population is ``genes`` with its ``used`` marks, ``fitness`` and ``ids``: one operator is drawn for
    the generation, ``cfg.population`` parents are picked by tournaments and paired, a pair is crossed with
    ``crossover_percent`` chance and each child mutated with ``mutation_percent`` chance.
    """
    op = CROSSOVERS[int(rng.integers(len(CROSSOVERS)))]
    picks = tournament(fitness, cfg.population, cfg.tournament, rng)
    children = []
    for i in range(0, len(picks), 2):
        a = int(picks[i])
        b = int(picks[i + 1]) if i + 1 < len(picks) else -1
        if b >= 0 and rng.random() * 100 < cfg.crossover_percent:
            ca, cb, ua, ub = crossover(op, genes[a], genes[b], used[a], used[b], rng)
            kids = [(ca, ua, op, a, b), (cb, ub, op, b, a)]
        else:
            kids = [(genes[k], used[k], "", k, -1) for k in (a, b) if k >= 0]
        for child, marks, how, p, q in kids:
            mutated = rng.random() * 100 < cfg.mutation_percent
            if mutated:
                child = mutate(child, marks, cfg.mutation_share, cfg.variance, rng)
            if how or mutated:
                children.append(Child(child, marks.copy(), how, mutated, int(ids[p]), int(ids[q]) if q >= 0 else -1))
    return op, children
