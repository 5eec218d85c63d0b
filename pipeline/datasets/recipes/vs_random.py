"""``vs-random``: each of the 169 hands against k = 1..9 random hands.

Exact for one opponent (summed from ``matchups``'s integers) and for two (the
``two-opponents`` counts: every board, every unordered pair of disjoint
opponent hands, counted board first — :mod:`pipeline.equity.two_opponents`);
seeded Monte Carlo for three or more, each hand seeded from ``(seed, k, hand)``
alone so that a row never depends on how the work was split.  An exact row has
``stderr`` 0 and ``samples`` the deals it counts: 1,712,304 boards x 1,225
opponent hands per combo for k = 1 (summed over the class's combos), and
C(50,5) x C(45,2) x C(43,2) / 2 = 947,053,938,600 (board, opponent pair) deals
per combo for k = 2; ``tie`` is any shared pot, two- or three-way.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...batch.parquet import described, dictionary_type, labels_array
from ...batch.spec import Dataset, Inputs
from ...core.arrow import column
from ...core.errors import InputError
from ...core.inputs import amount, integer, shown
from ...evaluator.decks import Deck
from .matchups import Matchups, matchup_arrays
from .two_opponents import TwoOpponents, two_opponent_totals

DEFAULT_OPPONENTS = "1-9"
DEFAULT_TRIALS = 200_000
DEFAULT_SEED = 0
MAX_TRIALS = 10**9          # per hand: 169 hands x 1e9 trials is already hours per opponent count
MAX_OPPONENTS = 9
MAX_SEED = 2**64 - 1        # numpy's SeedSequence takes any size; a bound keeps the recorded parameters sane
EXACT_OPPONENTS = (1, 2)    # counted exactly; trials and seed apply to the rest


_COUNT_OR_SPAN = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", re.ASCII)


def parse_opponents(text: str) -> list[int]:
    """``'1-9'``, ``'3'`` or ``'1,2,5'`` -> sorted opponent counts, each 1..9 (InputError otherwise)."""
    out: set[int] = set()
    for part in text.split(","):
        m = _COUNT_OR_SPAN.fullmatch(part)
        if m is None:
            raise InputError(f"--opponents {shown(text)}: expected a number, a span like 1-9, or a list like 1,3,5")
        ends = [m[1], m[2] or m[1]]
        bad = [d for d in ends if len(d) > 2 or not 1 <= int(d) <= MAX_OPPONENTS]   # no int() of 5,000 digits
        if bad:
            raise InputError(f"--opponents {shown(text)}: opponents must be 1 to {MAX_OPPONENTS} "
                             f"(got {bad[0] if len(bad[0]) <= 12 else bad[0][:9] + '...'})")
        if int(ends[0]) > int(ends[1]):      # an empty span: refused, not read as no counts or skipped
            raise InputError(f"--opponents {shown(text)}: the span {ends[0]}-{ends[1]} is reversed and names "
                             f"no count (write {ends[1]}-{ends[0]})")
        out.update(range(int(ends[0]), int(ends[1]) + 1))
    return sorted(out)


def opponent_counts(value: Any, what: str = "vs-random.opponents") -> list[int]:
    """The ``opponents`` parameter (named ``what`` in messages) in any of its forms — text (``'1-9'``,
    ``'1,3'``), one count (``3``) or a list of counts — as sorted counts 1..9; InputError for anything else."""
    if isinstance(value, str):
        return parse_opponents(value)
    if isinstance(value, (list, tuple)) and value:
        return sorted({integer(k, what, lo=1, hi=MAX_OPPONENTS) for k in value})
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [integer(value, what, lo=1, hi=MAX_OPPONENTS)]
    raise InputError(f"{what} must be a count 1 to {MAX_OPPONENTS}, a span like \"1-9\" or a list "
                     f"like [1, 3], got {shown(value)}")


def opponents_of(partition: Any) -> int:
    """The opponent count of a ``vs-random`` (or ``shortdeck-vs-random``) partition: 1 and 2 for the exact
    parts, ``k`` for a Monte Carlo one (the value of its ``opponents`` column, and of its Hive folder)."""
    return {"exact": 1, "exact2": 2}.get(partition[0]) or int(partition[1])


VS_RANDOM_COLUMNS = {
    "hand": "the hero's hand class ('AKs', 'QQ', '72o'; 169 in hold'em, 81 in short deck)",
    "opponents": "how many random hands the hero faces (1 to 9)",
    "win": "the chance the hero wins the pot alone",
    "tie": "the chance the hero shares the pot (two- or more-way)",
    "equity": "the hero's expected share of the pot (a split pot counted as its fraction)",
    "stderr": "the Monte Carlo standard error of equity; 0 for an exact row",
    "samples": "the deals behind the row: Monte Carlo trials, or the (board, opponents) deals counted exactly",
    "exact": "true when the row is counted over every deal, false when it is seeded Monte Carlo",
}
VS_RANDOM_SCHEMA = described(pa.schema([("hand", dictionary_type()), ("opponents", pa.int64()),
                                        ("win", pa.float64()), ("tie", pa.float64()), ("equity", pa.float64()),
                                        ("stderr", pa.float64()), ("samples", pa.int64()), ("exact", pa.bool_())]),
                             VS_RANDOM_COLUMNS)


class VsRandom(Dataset):
    """One part for each of k = 1 and k = 2 (exact) and 13 parts of 13 hands for each k >= 3 (Monte Carlo).

    ``params`` records ``exact``, the opponent counts counted exactly, so a folder built when k = 2 was
    Monte Carlo is never taken for this recipe's (its parts have another identity and are recomputed)."""

    name = "vs-random"
    description = ("each of the 169 hands against 1 to 9 random hands: exact for one and two opponents, "
                   "seeded Monte Carlo with standard errors beyond")
    schema = VS_RANDOM_SCHEMA
    partition_key = "opponents"       # each part is one opponent count: opponents=3/part-00002.parquet

    def __init__(self, opponents: list[int] | int | str = DEFAULT_OPPONENTS, trials: int = DEFAULT_TRIALS,
                 seed: int = DEFAULT_SEED) -> None:
        ks = opponent_counts(opponents)
        trials = integer(trials, "vs-random.trials", lo=1)
        if trials > MAX_TRIALS:
            total = 169 * trials * sum(k not in EXACT_OPPONENTS for k in ks)
            raise InputError(f"vs-random.trials {amount(trials)} per hand means {amount(total)} trials in all, days "
                             f"of work at ~10 M trials/s per core; use at most {MAX_TRIALS:,}")
        seed = integer(seed, "vs-random.seed", lo=0, hi=MAX_SEED)
        self.opponents, self.trials, self.seed = ks, trials, seed
        self.params = {"opponents": ks, "trials": self.trials, "seed": self.seed,
                       "exact": [k for k in ks if k in EXACT_OPPONENTS]}

    def dependencies(self) -> Sequence[Dataset]:
        return ((Matchups(),) if 1 in self.opponents else ()) + ((TwoOpponents(),) if 2 in self.opponents else ())

    def seconds(self) -> float:
        """Every Monte Carlo trial of the 169 hands at the fastest rate measured, and more (exact counts: fixed)."""
        from ...equity.limits import MC_TRIALS_PER_SECOND

        return 169 * self.trials * sum(k not in EXACT_OPPONENTS for k in self.opponents) / MC_TRIALS_PER_SECOND

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        parts: list[Any] = []
        for k in self.opponents:
            if k == 1:
                from ...equity.matchups import class_grid, vs_random_exact
                grid = class_grid(*matchup_arrays(inputs.read(Matchups(), columns=["wins", "ties", "losses"])))
                parts.append(("exact", vs_random_exact(grid)))
            elif k == 2:
                parts.append(("exact2", two_opponent_totals(inputs.read(TwoOpponents()))))
            else:
                parts.extend(("mc", k, list(range(r, r + 13)), self.trials, self.seed) for r in range(0, 169, 13))
        return parts

    def planned_parts(self) -> int:
        return sum(1 if k in EXACT_OPPONENTS else 13 for k in self.opponents)

    def rows(self, partition: Any) -> int:
        return 169 if partition[0] in ("exact", "exact2") else len(partition[2])

    def partition_value(self, partition: Any) -> int:
        return opponents_of(partition)

    def compute(self, partition: Any) -> pa.Table:
        if partition[0] == "exact":
            return vs_random_exact_rows(partition[1])
        if partition[0] == "exact2":
            return vs_two_exact_rows(partition[1])
        _, k, classes, trials, seed = partition
        return vs_random_mc_rows(k, classes, trials, seed)


def vs_random_mc_rows(opponents: int, classes: list[int], trials: int, seed: int, labels: list[str] | None = None,
                      deck: Deck | None = None) -> pa.Table:
    """Arrow table: each class in ``classes`` (indices into ``labels``, the 169 of hold'em by default) against
    ``opponents`` random hands of ``deck`` (the 52-card deck by default), Monte Carlo.

    Class ``c`` is seeded from ``(seed, opponents, c)`` alone, so a row never
    depends on how the classes were split into partitions.
    """
    from ...core.hand_classes import CLASS_LABELS
    from ...equity.calculator import equity
    from ...evaluator.decks import STANDARD

    labels = CLASS_LABELS if labels is None else labels
    cols: dict[str, list] = {"win": [], "tie": [], "equity": [], "stderr": []}
    for c in classes:
        s = int(np.random.SeedSequence([seed, opponents, c]).generate_state(1)[0])
        r = equity([labels[c]] + ["random"] * opponents, trials=trials, seed=s, threads=1,
                   deck=STANDARD if deck is None else deck).players[0]
        for k in cols:
            cols[k].append(getattr(r, k))
    n = len(classes)
    return pa.table({
        "hand": labels_array(classes, labels),
        "opponents": column([opponents] * n, pa.int64()),
        **{k: column(v, pa.float64()) for k, v in cols.items()},
        "samples": column([trials] * n, pa.int64()),
        "exact": column([False] * n, pa.bool_()),
    })


def vs_random_exact_rows(wtl: np.ndarray, labels: list[str] | None = None) -> pa.Table:
    """Arrow table: each class against one random hand, exact, from (n, 3) counts of the ``n`` classes
    ``labels`` (the 169 of hold'em by default)."""
    from ...core.hand_classes import CLASS_LABELS
    from ...equity.scoring import equity_fraction

    labels = CLASS_LABELS if labels is None else labels
    n = len(labels)
    wtl = np.asarray(wtl, np.int64)
    total = wtl.sum(axis=1)
    return pa.table({
        "hand": labels_array(np.arange(n), labels),
        "opponents": column(np.ones(n, np.int64), pa.int64()),
        "win": column(wtl[:, 0] / total, pa.float64()),
        "tie": column(wtl[:, 1] / total, pa.float64()),
        "equity": column(equity_fraction(wtl[:, 0], wtl[:, 1], total, unit=2), pa.float64()),
        "stderr": column(np.zeros(n), pa.float64()),
        "samples": column(total, pa.int64()),
        "exact": column(np.ones(n, bool), pa.bool_()),
    })


def vs_two_exact_rows(counts: np.ndarray, labels: list[str] | None = None) -> pa.Table:
    """Arrow table: each class against two random hands, exact, from (n, 4) counts of sole wins, two-way
    ties, three-way ties and losses of the ``n`` classes ``labels`` (the 169 of hold'em by default; ``tie``
    is both kinds; equity one division of integers)."""
    from ...core.hand_classes import CLASS_LABELS
    from ...equity.two_opponents import outcome_fractions

    labels = CLASS_LABELS if labels is None else labels
    n = len(labels)
    win, tie, equity, deals = outcome_fractions(counts)
    return pa.table({
        "hand": labels_array(np.arange(n), labels),
        "opponents": column(np.full(n, 2, np.int64), pa.int64()),
        "win": column(win, pa.float64()),
        "tie": column(tie, pa.float64()),
        "equity": column(equity, pa.float64()),
        "stderr": column(np.zeros(n), pa.float64()),
        "samples": column(deals, pa.int64()),
        "exact": column(np.ones(n, bool), pa.bool_()),
    })


ORDER = 30


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"vs-random": VsRandom}
