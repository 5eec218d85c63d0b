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
  raise from 1.55–1.7: ``tag``'s before issue 40 retuned it, ``thesis-preflop``'s
  after the flop still; the layout's figures below are against that bot).
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
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np

from ..core.errors import InputError
from ..core.files import make_folders, write_atomic
from ..core.inputs import boolean, integer, parse_json, read_local, real, shown

GENE_MIN, GENE_MAX = -99, 99          # thresholds lie in the open interval (-100, 100)
N_AXES = 7
AXES = ("category", "street", "raises_before", "position", "raises", "pot_odds", "weight")
LAYOUT_KEYS = ("raises_before", "positions", "raises", "pot_odds_edges", "weight_edges", "relative_weight")
MAX_BUCKETS = 10                      # raise counts and positions
MAX_EDGES = 20                        # cuts of the pot-odds and weight axes
PLAYER_FORMAT = "pokerpipe-evolved-player"
PLAYER_VERSION = 1
PLAYER_KEYS = ("format", "version", "layout", "genes", "about")
# the gene table's encoding, in version 1's fixed wording: it names the module gene_index lived in when the
# format was set (it is pipeline.holdem.genes.gene_index now); files keep these bytes, so old and new compare equal
GENES_ENCODING = "base64 of int8 (u0, u1) pairs, row-major, gene index as pipeline.ga.chromosome.gene_index"
_SHA256 = re.compile(r"[0-9a-f]{64}")
# What the code reads from a player's free-form ``about`` (pipeline.ga writes these): each is checked when
# present; any other key is kept as it is (the document's size and nesting are bounded when it is parsed).
ABOUT_TEXT = {"name": None, "weights": ("tables", "sampled"), "format": ("table", "heads-up")}
ABOUT_INTEGERS: dict[str, tuple[Optional[int], Optional[int]]] = {
    "seats": (2, 10), "seed": (-(1 << 63), (1 << 63) - 1), "individual": (None, None), "generation": (0, None),
    "generations": (0, None), "phase": (1, 2)}
ABOUT_NUMBERS = ("fitness_bb100", "used_share")
MAX_NAME = 64


class LayoutError(InputError):
    """A chromosome layout with a field of the wrong type or out of range (also a ``ValueError``)."""


class PlayerFileError(InputError):
    """A player file that cannot be read: missing, not JSON, wrong format or damaged genes."""


@dataclass(frozen=True)
class Layout:
    """Bucket counts of the chromosome's axes; pot odds and weight are cut at the given edges.

    A value ``x`` falls in bucket ``#{edges e : x > e}``, so with pot-odds
    edges ``(0, .2)`` a free check is bucket 0 and pot odds of .25 bucket 2.
    ``relative_weight`` buckets ``weight × players in`` (edges in 0..10)
    instead of the weight itself (edges in 0..1).  Raise counts and positions above the last bucket fall in the last.
    Every field is checked by type as well as range (:class:`LayoutError`): ``True`` is not one bucket.
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
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_BUCKETS:
                raise LayoutError(f"layout: {name} must be 1 to {MAX_BUCKETS} buckets, got {shown(v)}")
        object.__setattr__(self, "relative_weight", boolean(self.relative_weight, "layout: relative_weight",
                                                            LayoutError))
        for name, top in (("pot_odds_edges", 1.0), ("weight_edges", 10.0 if self.relative_weight else 1.0)):
            v = getattr(self, name)
            wrong = LayoutError(f"layout: {name} must be at most {MAX_EDGES} increasing numbers in 0..{top:g}, "
                                f"got {shown(list(v) if isinstance(v, tuple) else v)}")
            if not isinstance(v, (tuple, list)) or len(v) > MAX_EDGES:
                raise wrong
            try:
                e = tuple(real(x, f"layout: {name}", error=LayoutError) for x in v)
            except LayoutError:
                raise wrong from None
            if any(not 0.0 <= x <= top for x in e) or list(e) != sorted(set(e)):
                raise wrong
            object.__setattr__(self, name, e)

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
    def from_dict(cls, d: Any) -> "Layout":
        """The layout a player file or checkpoint records (:meth:`to_dict`): the five bucket fields required,
        ``relative_weight`` false when absent (files older than it); :class:`LayoutError` for anything else."""
        values = _layout_values(d)
        missing = [k for k in LAYOUT_KEYS[:5] if k not in values]
        if missing:
            raise LayoutError(f"layout: {missing[0]} is missing")
        return cls(**{"relative_weight": False, **values}).agreeing(d)

    @classmethod
    def from_values(cls, d: Any) -> "Layout":
        """A layout from a ``--layout`` object: any of :data:`LAYOUT_KEYS`, the others the defaults."""
        return cls(**_layout_values(d))

    def agreeing(self, d: dict[str, Any]) -> "Layout":
        """This layout, read from the player file's ``d``, once the ``axes`` and ``shape`` that ``d`` records
        (where it does) are the ones its fields give: a file whose shape disagrees with its fields was edited by
        hand or damaged, and which of the two its genes were laid out by cannot be told.  (A ``--layout``
        object, :meth:`from_values`, lays out genes still to come: there they are only not read.)"""
        for key, given in (("axes", list(AXES)), ("shape", list(self.shape))):
            if key in d and d[key] != given:
                raise LayoutError(f"layout: {key} {shown(d[key])} disagrees with the layout's fields, which give "
                                  f"{given}")
        return self


def _layout_values(d: Any) -> dict[str, Any]:
    """The layout fields of the JSON object ``d`` (edges as tuples), after refusing unknown keys; ``axes`` and
    ``shape``, which :meth:`Layout.to_dict` writes for readers, follow from the fields (:meth:`Layout.agreeing`
    checks them in a player file)."""
    if not isinstance(d, dict):
        raise LayoutError(f"layout must be a JSON object, got {shown(d)}")
    unknown = sorted(set(d) - set(LAYOUT_KEYS) - {"axes", "shape"}, key=str)
    if unknown:
        raise LayoutError(f"unknown key {unknown[0]!r} in the layout (known: {', '.join(LAYOUT_KEYS)})")
    return {k: tuple(d[k]) if k.endswith("_edges") and isinstance(d[k], list) else d[k]
            for k in LAYOUT_KEYS if k in d}


def read_json_file(path: str | os.PathLike[str], what: str, error: type[InputError]) -> Any:
    """The JSON document in the local file ``path`` (a regular file of bounded size and nesting), parsed;
    else ``error``: ``no <what> PATH``, or the file named with what is wrong with it."""
    if not os.path.lexists(path):
        raise error(f"no {what} {path}")
    data = read_local(path, what, error=error)
    try:
        return parse_json(data, "its text", error=error)
    except error as e:
        raise error(f"{path} is not a {what} ({e})") from None


def load_layout(path: str | os.PathLike[str]) -> Layout:
    """The layout of a ``--layout`` file: a layout object (:meth:`Layout.from_values`: missing keys take the
    defaults) or a player file, whose layout is taken; :class:`LayoutError` in one line."""
    d = read_json_file(path, "layout file", LayoutError)
    if isinstance(d, dict) and isinstance(d.get("layout"), dict):
        d = d["layout"]                                   # a player file: evolve more players of its layout
    if not isinstance(d, dict):
        raise LayoutError(f"{path} must hold a JSON object")
    try:
        return Layout.from_values(d)
    except LayoutError as e:
        raise LayoutError(f"{path}: {e}") from None


def check_about(about: Any, where: str = "player file") -> dict[str, Any]:
    """A player's ``about`` (a JSON object; null or absent: empty) with the fields the code reads checked
    by type and range (:data:`ABOUT_TEXT`, :data:`ABOUT_INTEGERS`, :data:`ABOUT_NUMBERS`)."""
    if about is None:
        return {}
    if not isinstance(about, dict):
        raise PlayerFileError(f"{where}: about must be a JSON object, got {shown(about)}")
    for key, choices in ABOUT_TEXT.items():
        if key in about:
            v = about[key]
            if not isinstance(v, str) or not 0 < len(v) <= MAX_NAME or not v.isprintable() or \
                    (choices is not None and v not in choices):
                allowed = " or ".join(choices) if choices else f"text of 1 to {MAX_NAME} printable characters"
                raise PlayerFileError(f"{where}: about.{key} must be {allowed}, got {shown(v)}")
    for key, (lo, hi) in ABOUT_INTEGERS.items():
        if key in about:
            integer(about[key], f"{where}: about.{key}", lo, hi, error=PlayerFileError)
    for key in ABOUT_NUMBERS:
        if key in about:
            real(about[key], f"{where}: about.{key}", error=PlayerFileError)
    return dict(about)


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
        make_folders(path.parent, error=PlayerFileError)
        write_atomic(path, self.to_json().encode())
        return path

    @classmethod
    def load(cls, path: str | Path) -> "Player":
        """Read a local player file (a regular file of bounded size and nesting); :class:`PlayerFileError`
        says in one line what is wrong."""
        return cls.from_document(read_json_file(path, "player file", PlayerFileError), str(path))

    @classmethod
    def from_json(cls, data: str | bytes, where: str = "player file") -> "Player":
        """A player from the text of its file, verified (every field by type and range, its gene table
        against its SHA-256); ``where`` names the file in :class:`PlayerFileError`'s one line."""
        try:
            d = parse_json(data, "its text", error=PlayerFileError)
        except PlayerFileError as e:
            raise PlayerFileError(f"{where} is not a player file ({e})") from None
        return cls.from_document(d, where)

    @classmethod
    def from_document(cls, d: Any, where: str = "player file") -> "Player":
        """A player from its file's parsed JSON ``d``, checked as :meth:`from_json` does."""
        if not isinstance(d, dict) or d.get("format") != PLAYER_FORMAT:
            raise PlayerFileError(f"{where} is not a {PLAYER_FORMAT} file")
        unknown = sorted(set(d) - set(PLAYER_KEYS), key=str)
        if unknown:
            raise PlayerFileError(f"{where}: unknown key {unknown[0]!r} (a player file has {', '.join(PLAYER_KEYS)})")
        if integer(d.get("version"), f"{where}: version", error=PlayerFileError) != PLAYER_VERSION:
            raise PlayerFileError(f"{where}: player file version {d['version']} (this pokerpipe reads version "
                                  f"{PLAYER_VERSION})")
        try:
            layout = Layout.from_dict(d.get("layout"))
        except LayoutError as e:
            raise PlayerFileError(f"{where}: damaged player file ({e})") from None
        genes = _gene_table(d.get("genes"), layout, where)
        return cls(layout, genes, check_about(d.get("about"), where))


def _gene_table(g: Any, layout: Layout, where: str) -> np.ndarray:
    """The ``genes`` record of a player file decoded and verified: its encoding, size, SHA-256 and range."""
    def damaged(why: str) -> PlayerFileError:
        return PlayerFileError(f"{where}: damaged player file ({why})")

    if not isinstance(g, dict) or set(g) != {"encoding", "sha256", "data"}:
        raise damaged("genes must be an object of encoding, sha256 and data")
    if g["encoding"] != GENES_ENCODING:
        raise damaged(f"unknown gene encoding {shown(g['encoding'])}")
    digest, data = g["sha256"], g["data"]
    if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
        raise damaged(f"genes.sha256 must be 64 hexadecimal digits, got {shown(digest)}")
    if not isinstance(data, str) or len(data) != 4 * -(-2 * layout.genes // 3):     # checked before decoding
        size = len(data) if isinstance(data, str) else shown(data)
        raise damaged(f"genes.data must be base64 of {2 * layout.genes} thresholds, got {size} characters")
    try:
        raw = base64.b64decode(data, validate=True)
    except ValueError as e:                     # binascii.Error
        raise damaged(f"genes.data is not base64: {e}") from None
    if hashlib.sha256(raw).hexdigest() != digest:
        raise damaged("gene table does not match its SHA-256")
    genes = np.frombuffer(raw, np.int8)
    if genes.size != 2 * layout.genes:
        raise damaged(f"{genes.size} thresholds for {layout.genes} genes")
    if genes.min(initial=0) < GENE_MIN or genes.max(initial=0) > GENE_MAX:
        raise damaged("a threshold outside -99..99")
    return genes.reshape(layout.genes, 2).copy()
