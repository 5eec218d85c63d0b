"""The evolved player and its file: a table of genes indexed by the betting situation (its :class:`Layout`).

After García Pérez's thesis on a genetic fixed-limit hold'em player (§3.3.1):
the chromosome is an n-dimensional table whose axes describe the situation a
player acts in, and each cell (a *gene*) holds two integer thresholds
``u0, u1`` in (-100, 100), random at birth.  Facing a decision the player
computes ``d = weight - pot odds`` on the same ±100 scale and

* raises (bets) when ``d > u0``,
* calls (checks) when ``u1 < d <= u0``,
* folds otherwise — and checks instead when checking is free, since folding a
  free hand only gives up equity (the engine turns a fold facing no bet into a
  check for every policy).

When ``u1 >= u0`` the call band is empty and the gene only raises or folds.
Preflop is not in the chromosome: as in the thesis the player follows the
fixed preflop tables (the ``thesis-preflop`` policy).

The axes, in order (the thesis names them but its figure with the bucket
counts is missing; these buckets are our choice and a :class:`Layout`
parameter):

==================  =====================================================
hand category       9: high card .. straight flush (the evaluator's)
street              3: flop, turn, river
raises last street  2: none, one or more (preflop's count leaves the big
                    blind's bet out)
position            2: the button (last to act after the flop), any other
                    seat — counted as seats left of the button
raises this street  3: none, one (a bet counts as the first), two or more
pot odds            3: to call ÷ (pot + to call): 0 (free), (0, .2], above .2
hand weight         5: the win chance ``w`` (:mod:`pipeline.holdem.weights`)
                    against the opponents still in, *relative to an average
                    hand*: ``w × players in`` (1 = a fair share of the pot),
                    cut at .7, 1.1, 1.6 and 2.2
==================  =====================================================

That is 4,860 genes.  Why these:

* **The weight is bucketed relative to the players in.**  A win chance of .3
  is a monster ten-handed and a fold heads-up; bucketing ``w`` itself (in
  tenths, our first layout) lets one gene stand for both, and the evolved
  players lost to the rule bot by 10–15 BB/100 at ten seats.  The decision
  still compares the thesis's ``d = w - pot odds``, so calling stays a pot-odds
  rule.  The cuts bracket the rule bot's own thresholds (call from 1.1,
  raise from 1.55–1.7).
* **Few buckets.**  Each gene must be visited often enough for a noisy
  fitness to tell a better threshold from a worse one.  With 48,600 genes
  (tenths of ``w``, five pot-odds buckets, four positions, three raise
  counts before) a 30 × 60-generation run ended at -7.1 ± 2.5 BB/100 against
  nine rule bots; these 4,860 at +0.1 ± 2.4 on the same budget and seed.  A
  gene table written by hand from the rule bot's thresholds beats nine rule
  bots by about +20 BB/100 in either layout, so the coarser one loses nothing
  the bot knows.

Other layouts are one :class:`Layout` away (``relative_weight=False``
buckets ``w`` itself, edges in 0..1); player files record their layout.

Pot odds are the break-even share ``to call / (pot + to call)``, so that
``d = 0`` is exactly the break-even call: a gene's thresholds then read as
"how much better than break-even must the hand be to call, to raise".

The decision itself runs inside the betting kernel, as the ``evolved`` policy
kind (:mod:`pipeline.holdem.genes`), which reads :meth:`Layout.array`.
"""
from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import InputError
from ..core.files import write_atomic

GENE_MIN, GENE_MAX = -99, 99          # thresholds lie in the open interval (-100, 100)
N_AXES = 7
AXES = ("category", "street", "raises_before", "position", "raises", "pot_odds", "weight")
PLAYER_FORMAT = "pokerpipe-evolved-player"
PLAYER_VERSION = 1
# the gene table's encoding, in version 1's fixed wording: it names the module gene_index lived in when the
# format was set (it is pipeline.holdem.genes.gene_index now); files keep these bytes, so old and new compare equal
GENES_ENCODING = "base64 of int8 (u0, u1) pairs, row-major, gene index as pipeline.ga.chromosome.gene_index"


class PlayerFileError(InputError):
    """A player file that cannot be read: missing, not JSON, wrong format or damaged genes."""


@dataclass(frozen=True)
class Layout:
    """Bucket counts of the chromosome's axes; pot odds and weight are cut at the given edges.

    A value ``x`` falls in bucket ``#{edges e : x > e}``, so with pot-odds
    edges ``(0, .2)`` a free check is bucket 0 and pot odds of .25 bucket 2.
    ``relative_weight`` buckets ``weight × players in`` (edges in 0..10)
    instead of the weight itself (edges in 0..1).  Raise counts and positions above the last bucket fall in the last.
    """

    raises_before: int = 2
    positions: int = 2
    raises: int = 3
    pot_odds_edges: tuple[float, ...] = (0.0, 0.2)
    weight_edges: tuple[float, ...] = (0.7, 1.1, 1.6, 2.2)
    relative_weight: bool = True
    categories: int = field(default=9, init=False)
    streets: int = field(default=3, init=False)

    def __post_init__(self) -> None:
        for name in ("raises_before", "positions", "raises"):
            v = getattr(self, name)
            if not isinstance(v, int) or not 1 <= v <= 10:
                raise ValueError(f"layout: {name} must be 1 to 10 buckets, got {v!r}")
        for name, top in (("pot_odds_edges", 1.0), ("weight_edges", 10.0 if self.relative_weight else 1.0)):
            e = tuple(float(x) for x in getattr(self, name))
            if len(e) > 20 or any(not 0.0 <= x <= top for x in e) or list(e) != sorted(set(e)):
                raise ValueError(f"layout: {name} must be at most 20 increasing numbers in 0..{top:g}, got {e}")
            object.__setattr__(self, name, e)
        object.__setattr__(self, "relative_weight", bool(self.relative_weight))

    @property
    def shape(self) -> tuple[int, ...]:
        """Buckets per axis, in the order of :data:`AXES`."""
        return (self.categories, self.streets, self.raises_before, self.positions, self.raises,
                len(self.pot_odds_edges) + 1, len(self.weight_edges) + 1)

    @property
    def genes(self) -> int:
        """Number of genes (cells of the table)."""
        return int(np.prod(self.shape))

    def array(self) -> np.ndarray:
        """The layout as the kernel reads it: the seven bucket counts, the weight scale (1 = relative), the edges."""
        return np.array([*self.shape, float(self.relative_weight), *self.pot_odds_edges, *self.weight_edges],
                        np.float64)

    def to_dict(self) -> dict[str, Any]:
        return {"axes": list(AXES), "shape": list(self.shape), "raises_before": self.raises_before,
                "positions": self.positions, "raises": self.raises,
                "pot_odds_edges": list(self.pot_odds_edges), "weight_edges": list(self.weight_edges),
                "relative_weight": self.relative_weight}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Layout":
        return cls(int(d["raises_before"]), int(d["positions"]), int(d["raises"]),
                   tuple(d["pot_odds_edges"]), tuple(d["weight_edges"]), bool(d.get("relative_weight", False)))


@dataclass
class Player:
    """An evolved player: its layout, gene table and where it came from (free-form ``about``)."""

    layout: Layout
    genes: np.ndarray
    about: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.genes = np.ascontiguousarray(self.genes, np.int8)
        if self.genes.shape != (self.layout.genes, 2):
            raise PlayerFileError(f"gene table has shape {self.genes.shape}, the layout needs "
                                  f"({self.layout.genes}, 2)")

    def to_json(self) -> str:
        raw = self.genes.tobytes()
        return json.dumps({"format": PLAYER_FORMAT, "version": PLAYER_VERSION, "layout": self.layout.to_dict(),
                           "genes": {"encoding": GENES_ENCODING,
                                     "sha256": hashlib.sha256(raw).hexdigest(),
                                     "data": base64.b64encode(raw).decode("ascii")},
                           "about": self.about}, indent=1)

    def save(self, path: str | Path) -> Path:
        """Write the player to the local file ``path`` atomically (:func:`pipeline.core.files.write_atomic`)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, self.to_json().encode())
        return path

    @classmethod
    def load(cls, path: str | Path) -> "Player":
        """Read a local player file; :class:`PlayerFileError` says in one line what is wrong."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise PlayerFileError(f"no player file {path}") from None
        except OSError as e:
            raise PlayerFileError(f"{path} is not a player file ({type(e).__name__})") from None
        return cls.from_json(data, str(path))

    @classmethod
    def from_json(cls, data: str | bytes, where: str = "player file") -> "Player":
        """A player from the text of its file, verified (its gene table against its SHA-256); ``where`` names
        the file in :class:`PlayerFileError`'s one line."""
        try:
            d = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise PlayerFileError(f"{where} is not a player file ({type(e).__name__})") from None
        if not isinstance(d, dict) or d.get("format") != PLAYER_FORMAT:
            raise PlayerFileError(f"{where} is not a {PLAYER_FORMAT} file")
        try:
            layout = Layout.from_dict(d["layout"])
            raw = base64.b64decode(d["genes"]["data"], validate=True)
            digest = d["genes"]["sha256"]
        except (KeyError, TypeError, ValueError) as e:
            raise PlayerFileError(f"{where}: damaged player file ({e})") from None
        if hashlib.sha256(raw).hexdigest() != digest:
            raise PlayerFileError(f"{where}: damaged player file (gene table does not match its SHA-256)")
        genes = np.frombuffer(raw, np.int8)
        if genes.size != 2 * layout.genes:
            raise PlayerFileError(f"{where}: damaged player file ({genes.size} thresholds for {layout.genes} genes)")
        if genes.min(initial=0) < GENE_MIN or genes.max(initial=0) > GENE_MAX:
            raise PlayerFileError(f"{where}: damaged player file (a threshold outside -99..99)")
        return cls(layout, genes.reshape(layout.genes, 2).copy(), dict(d.get("about") or {}))
