"""One ``solve`` run as asked, checked before anything starts: the game, when to stop, its parameters, its cores.

:class:`SolvePlan` checks every option of a run once, in one line naming the
option (:class:`SolveOptionError`, a :class:`.solve.SolveError`): the game
(:data:`GAMES`), one stopping rule (``--iterations`` or ``--hours``), the
``-p KEY=VALUE`` parameters over the game's defaults (:func:`parameters`), and
the threads: a solve shares its tables between the threads of one process, so
it runs on this machine's cores, never on a Dask cluster.
:meth:`SolvePlan.refuse_work` refuses a run that cannot end within a day at
the fastest an iteration was measured (:data:`LOW_SECONDS`), and
:meth:`SolvePlan.solver` makes the game (a hold'em game reads its card
abstraction where ``-p abstraction=`` says it is built) and its solver.  The
run itself, checkpointed and resumable, is :func:`.solve.solve`.

>>> plan = SolvePlan("leduc", iterations=1_000, param=("seed=7",))
>>> plan.params, plan.least_seconds
({'seed': 7, 'checkpoint_seconds': 300.0}, 0.5)
>>> SolvePlan("leduc", iterations=1_000, hours=2.0)
Traceback (most recent call last):
    ...
pipeline.datasets.solve_plan.SolveOptionError: give --iterations N or --hours H (one of them)
>>> SolvePlan("leduc", hours=1.0, param=("k=8",))          # k: hold'em's buckets
Traceback (most recent call last):
    ...
pipeline.datasets.solve_plan.SolveOptionError: -p 'k=8': expected KEY=VALUE with KEY one of checkpoint_seconds, seed
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ..core.budget import refuse_beyond
from ..core.errors import InputError
from ..core.inputs import integer, parse_json, real
from .solve import MODULO, SolveError

GAMES = ("leduc", "hulhe")
# seconds an iteration takes on one core, on the fast side of what was measured (docs/solver.md), so that only
# a run certainly beyond a day is refused: Leduc 3.9 ms loaded; hold'em 0.35 s CPU at k=64 on a loaded machine
LOW_SECONDS = {"leduc": 0.0005, "hulhe": 0.1}
DEFAULTS: dict[str, dict[str, Any]] = {
    "leduc": {"seed": 0, "checkpoint_seconds": 300.0},
    "hulhe": {"seed": 0, "checkpoint_seconds": 300.0, "k": 256, "abstraction": "outputs"},
}
MAX_ITERATIONS = 10**12
MAX_HOURS = 1e6
MAX_WORKERS = 256          # threads of one process


class SolveOptionError(SolveError):
    """An option of a ``solve`` run out of range; the message names it (``--hours``, ``-p k``, ...)."""


def parameters(game: str, items: Sequence[str] = ()) -> dict[str, Any]:
    """The parameters of a solve of ``game`` (a name of :data:`GAMES`): its :data:`DEFAULTS` with each
    ``KEY=VALUE`` of ``items`` over them (the value read as JSON when it parses, else taken as text; ``-`` in
    a key reads as ``_``), every one checked: ``seed`` (64 bits), ``checkpoint_seconds`` (0 to a day) and, for
    hold'em, ``k`` (1 to 50,000 buckets a postflop street) and ``abstraction`` (where it is built, or
    ``modulo``).  A key the game does not take, or a value out of range, is :class:`SolveOptionError`.

    >>> parameters("hulhe", ["k=64", "abstraction=modulo"])["k"]
    64
    """
    out = dict(DEFAULTS[game])
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or key not in out:
            raise SolveOptionError(f"-p {item!r}: expected KEY=VALUE with KEY one of {', '.join(sorted(out))}")
        try:
            v: Any = parse_json(value, f"-p {key}")
        except InputError:
            v = value
        out[key] = v
    out["seed"] = integer(out["seed"], "-p seed", 0, (1 << 63) - 1, error=SolveOptionError)
    out["checkpoint_seconds"] = real(out["checkpoint_seconds"], "-p checkpoint_seconds", 0.0, 86400.0,
                                     error=SolveOptionError)
    if game == "hulhe":
        out["k"] = integer(out["k"], "-p k", 1, 50_000, error=SolveOptionError)
        out["abstraction"] = str(out["abstraction"])
    return out


@dataclass(frozen=True)
class SolvePlan:
    """What a ``solve`` run asks for, every field checked (:class:`SolveOptionError` names the first that is
    wrong, in the order the command line has always checked them); :attr:`params` are the checked parameters
    (:func:`parameters`)."""

    game: str
    iterations: Optional[int] = None     # CFR+ iterations in all, a resumed run counting those done ...
    hours: Optional[float] = None        # ... or run this long in all: exactly one of the two
    param: tuple[str, ...] = ()          # ``KEY=VALUE`` items over the game's defaults
    workers: Optional[int] = None        # threads of this process; None: every core
    scheduler: Optional[str] = None      # a Dask scheduler: refused (the tables are shared between threads)
    params: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise SolveOptionError(f"unknown game {self.game!r} (choose from {', '.join(GAMES)})")
        if (self.iterations is None) == (self.hours is None):
            raise SolveOptionError("give --iterations N or --hours H (one of them)")
        if self.iterations is not None:
            integer(self.iterations, "--iterations", 1, MAX_ITERATIONS, error=SolveOptionError, strict=True)
        if self.hours is not None:
            if isinstance(self.hours, bool) or not isinstance(self.hours, (int, float)):
                raise SolveOptionError(f"--hours must be a number, got {self.hours!r}")
            if not 0 < self.hours <= MAX_HOURS:
                raise SolveOptionError(f"--hours must be positive, got {self.hours}")
        if self.scheduler is not None:
            raise SolveOptionError("solve shares its tables between the threads of one process: it runs on this "
                                   "machine's cores (--workers), not on a Dask cluster")
        if self.workers is not None:
            integer(self.workers, "--workers", error=SolveOptionError, strict=True)
            if not 1 <= self.workers <= MAX_WORKERS:
                raise SolveOptionError(f"--workers must be 1 to {MAX_WORKERS}, got {self.workers}")
        object.__setattr__(self, "params", parameters(self.game, self.param))

    @property
    def least_seconds(self) -> float:
        """The least time the run takes on one core: ``--iterations`` at :data:`LOW_SECONDS` each, or
        ``--hours``."""
        if self.iterations is not None:
            return self.iterations * LOW_SECONDS[self.game]
        return 3600.0 * (self.hours or 0.0)

    @property
    def recorded(self) -> dict[str, Any]:
        """The parameters a checkpoint and the manifest record, and a resumed run must match (all but
        ``checkpoint_seconds``, which changes no byte of the result)."""
        return {k: v for k, v in self.params.items() if k != "checkpoint_seconds"}

    def refuse_work(self) -> None:
        """Refuse (:class:`~pipeline.core.budget.TooMuchWork`), before anything starts, a run beyond a day
        (:attr:`least_seconds`)."""
        asked = f"--iterations {self.iterations:,}" if self.iterations is not None else f"--hours {self.hours:g}"
        refuse_beyond(self.least_seconds, f"solve {self.game} {asked}", "fewer --iterations or --hours")

    def make_game(self) -> Any:
        """The game to solve: Leduc, or hold'em with ``k`` buckets a postflop street from the card abstraction
        built where ``-p abstraction=`` says (``modulo``: a stand-in for smoke tests, no build needed); an
        abstraction that is not built there is :class:`SolveOptionError` saying how to build it."""
        if self.game == "leduc":
            from ..solver.leduc import leduc

            return leduc()
        from ..abstraction import AbstractionError
        from ..solver.hulhe import HULHE, ModuloBuckets
        from .abstraction_lookup import load_abstraction

        k, where = self.params["k"], self.params["abstraction"]
        if where == MODULO:
            return HULHE(k, ModuloBuckets(k))
        try:
            source = load_abstraction(where, k=k)
        except AbstractionError as e:
            raise SolveOptionError(f"{e} (hold'em needs the card abstraction: pokerpipe tables abstraction -p "
                                   f"abstraction/flop.k={k} ... --out {where})") from None
        return HULHE(k, source)

    def solver(self) -> Any:
        """A :class:`pipeline.solver.cfr.Solver` of :meth:`make_game` seeded by ``-p seed``, its kernels compiled
        or loaded (one iteration of a throw-away solver, and its exploitability's best response), so that the
        run's clock counts iterations only: on an empty cache the best response's compilation (23 s) would
        otherwise land in the first checkpoint's recorded seconds."""
        from ..solver.cfr import Solver

        solver = Solver(self.make_game(), seed=self.params["seed"])
        warm = Solver(solver.game, seed=self.params["seed"])
        warm.run(1)
        self.measure(warm)
        return solver

    @staticmethod
    def measure(solver: Any) -> Optional[float]:
        """The exploitability a checkpoint records: exact where every iteration walks the whole game
        (Leduc), else None (not measured)."""
        return float(solver.exploitability()) if solver.game.full_traversal else None


__all__ = ["DEFAULTS", "GAMES", "LOW_SECONDS", "MAX_WORKERS", "SolveOptionError", "SolvePlan", "parameters"]
