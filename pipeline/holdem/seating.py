"""A table of policies and its rules' parameters, checked once and held as the arrays the kernels take."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Sequence

import numpy as np

from ..core.errors import InputError
from ..core.inputs import did_you_mean
from .policies import CFR, DEFAULT_SAMPLES, EVOLVED, KINDS, default_params, group_of_class, needs_weight
from .settle import BB
from .strategy import StrategyArrays, absent

MAX_SEATS = 10


DEFAULT_STACK_BB = 200.0     # every seat's stack, reset at each hand


class TableError(InputError):
    """A table that cannot be played: unknown policy, seat count, stack or rake out of range."""


class Seats(NamedTuple):
    """A table as the betting kernel takes it (:meth:`Table.arrays`): the seats' policies and the stakes."""

    kinds: np.ndarray         # (n,) int64: policy kind of each seat (.policies)
    params: np.ndarray        # (n, N_PARAMS) float64: each seat's parameter row
    needs_weight: np.ndarray  # (n,) bool: the seat's policy reads the hand weight
    genes: np.ndarray         # (n, genes, 2) int8: the gene tables of evolved seats (.genes)
    layout: np.ndarray        # the evolved seats' layout array (.player.Layout.array)
    group_tab: np.ndarray     # (169,) int64: Sklansky-Malmuth group of each hand class
    stacks: np.ndarray        # (n,) int64: stacks in units at the start of each hand
    rake_bp: int              # rake in basis points of the pot
    rake_cap: int             # rake cap in units
    strategy: StrategyArrays = absent()   # the solved strategy a ``cfr`` seat plays (.strategy)


@dataclass(frozen=True)
class Table:
    """Seats' policies (names, kinds, parameter rows) and the stakes: stacks and rake in units."""

    names: tuple[str, ...]
    kinds: np.ndarray
    params: np.ndarray
    needs_weight: np.ndarray
    group_tab: np.ndarray
    stacks: np.ndarray
    rake_bp: int
    rake_cap: int
    genes: np.ndarray = field(default_factory=lambda: np.zeros((1, 1, 2), np.int8))   # (seats, genes, 2)
    layout: np.ndarray = field(default_factory=lambda: np.ones(7, np.float64))       # .genes' layout array
    source: Any = None        # the .strategy.StrategySource of the table's ``cfr`` seats, mapped by arrays()

    @property
    def seats(self) -> int:
        return len(self.names)

    def arrays(self) -> Seats:
        """The table as the kernels take it."""
        return Seats(self.kinds, self.params, self.needs_weight, self.genes, self.layout, self.group_tab,
                     self.stacks, self.rake_bp, self.rake_cap,
                     absent() if self.source is None else self.source.load())

    @classmethod
    def make(cls, policies: Sequence[Any], *, stack_bb: float | Sequence[float] = DEFAULT_STACK_BB,
             rake_percent: float = 0.0, rake_cap_bb: float = 0.0, samples: int = DEFAULT_SAMPLES) -> "Table":
        """Check and build a table; :class:`TableError` names the first bad value.

        A policy is a built-in name (:data:`.policies.KINDS`), an evolved
        player (:class:`pipeline.holdem.player.Player`) or the path of a saved
        player's ``.json`` file.  Evolved players at one table share a layout.
        """
        from .player import Player, PlayerFileError

        if not 2 <= len(policies) <= MAX_SEATS:
            raise TableError(f"a table seats 2 to {MAX_SEATS} players, got {len(policies)}")
        players: dict[int, Player] = {}
        solved: dict[int, Any] = {}
        names_list = []
        for k, p in enumerate(policies):
            if hasattr(p, "load") and hasattr(p, "name") and not isinstance(p, (str, Player)):
                solved[k] = p                  # a solved strategy (.strategy.StrategySource): cfr:DIR
                names_list.append(str(p.name))
                continue
            if isinstance(p, Player):
                players[k] = p
                names_list.append(str(p.about.get("name", "evolved")))
                continue
            name = str(p).strip()
            if name.lower() in KINDS:
                names_list.append(name.lower())
            elif name.lower().endswith(".json"):
                try:
                    players[k] = Player.load(name)
                except PlayerFileError as e:
                    raise TableError(str(e)) from None
                names_list.append(Path(name).stem)
            else:
                raise TableError(f"unknown policy {name!r}{did_you_mean(name, KINDS)} (choose from {', '.join(KINDS)}, "
                                 "or a player .json file)")
        names = tuple(names_list)
        layouts = {pl.layout for pl in players.values()}
        if len(layouts) > 1:
            raise TableError("evolved players at one table must share a chromosome layout")
        stacks_bb = np.broadcast_to(np.asarray(stack_bb, np.float64), (len(names),))
        # at least one big blind: every blind is posted whole (a partial big blind is played
        # differently by different rule books, pokerkit included)
        if not np.all(np.isfinite(stacks_bb)) or np.any(stacks_bb < 1) or np.any(stacks_bb > 1e9):
            raise TableError(f"stacks must be 1 to 1e9 big blinds, got {stack_bb}")
        if not (0.0 <= rake_percent <= 100.0):
            raise TableError(f"rake must be a percentage 0..100, got {rake_percent}")
        if not (0.0 <= rake_cap_bb <= 1e6) or rake_cap_bb != rake_cap_bb:
            raise TableError(f"rake cap must be 0 or more big blinds, got {rake_cap_bb}")
        if isinstance(samples, (bool, np.bool_)) or not isinstance(samples, (int, np.integer)) \
                or not 1 <= samples <= 100_000:
            raise TableError(f"hand-weight samples must be 1 to 100000, got {samples!r}")
        if solved:
            if len(names) != 2:
                raise TableError("a solved strategy (cfr:DIR) plays heads-up only")
            if len({id(s) for s in solved.values()}) > 1 and len({s.name for s in solved.values()}) > 1:
                raise TableError("one solved strategy a table: both cfr seats must play the same cfr:DIR")
            if np.any(stacks_bb < 24):
                raise TableError("a solved strategy needs stacks of at least 24 big blinds (heads-up limit betting "
                                 "puts in at most 24)")
        kinds = np.array([CFR if k in solved else EVOLVED if k in players else KINDS[p]
                          for k, p in enumerate(names)], np.int64)
        params = np.stack([default_params(int(k), samples) for k in kinds])
        cap = int(round(rake_cap_bb * BB)) if rake_cap_bb > 0 else 1 << 62   # 0: no cap
        if players:
            layout = layouts.pop()
            genes = np.zeros((len(names), layout.genes, 2), np.int8)
            for k, pl in players.items():
                genes[k] = pl.genes
            extra: dict[str, Any] = {"genes": genes, "layout": layout.array()}
        else:
            extra = {}
        if solved:
            extra["source"] = next(iter(solved.values()))
        return cls(names, kinds, params, needs_weight(kinds), group_of_class(),
                   np.round(stacks_bb * BB).astype(np.int64), int(round(rake_percent * 100)), cap, **extra)
