"""Pay tables as data: TOML files, one per game, that users can copy and edit.

A file names its deck ``family`` (``natural``, ``deuces`` or ``joker``) and its
``[pays]``, per coin at the 5-coin maximum bet::

    title = "Jacks or Better 9/6"
    family = "natural"
    [pays]
    royal-flush = 800
    straight-flush = 50
    four-of-a-kind = 25
    ...

Each hand name stands for a set of final-hand types (:mod:`.hands`).  Where
names overlap, the most specific wins: with ``four-aces`` and
``four-of-a-kind`` both listed, four aces pay ``four-aces`` and every other
four of a kind pays ``four-of-a-kind``.  Unknown names, negative or
non-integer pays, and a table that leaves a required hand unpaid are errors.

**Range of pays.**  A pay lies in 0..:data:`MAX_PAY` (1,000,000 coins per coin).
The analyzer weighs every hold exactly in int64: a hold's EV in its units is at
most ``max pay * L`` where ``L`` = lcm of the draw counts (7,669,695 for 52 cards,
8,561,520 for the joker deck), and the break-even search carries pays in
millionths of a coin, so ``MAX_PAY * 10**6 * L`` must stay below ``2**63``
(9.22e18): 1e6 * 1e6 * 8,561,520 = 8.56e18 does.  A larger pay would overflow
silently, so it is refused.

**Names.**  A game's name is its file's stem and names its dataset folder, so
it must be a slug (:func:`slug`): lower-case letters, digits and ``-``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ..core.errors import InputError
from ..core.inputs import parse_toml, read_local
from .hands import FAMILIES

_NATURAL_QUADS = {11, 12, 13, 14, 15, 16}
HAND_NAMES: dict[str, dict[str, set[int]]] = {
    "natural": {
        "royal-flush": {18}, "straight-flush": {17},
        "four-of-a-kind": _NATURAL_QUADS, "four-aces": {15, 16}, "four-aces-with-2-4": {15},
        "four-aces-with-5-k": {16}, "four-2-4": {13, 14}, "four-2-4-with-a-4": {13},
        "four-5-k": {11, 12}, "four-j-k": {12}, "four-2-10": {11, 13, 14}, "four-5-10": {11},
        "full-house": {10}, "flush": {9}, "straight": {8}, "three-of-a-kind": {7}, "two-pair": {6},
        "tens-or-better": {2, 3, 4, 5}, "jacks-or-better": {3, 4, 5}, "queens-or-better": set(),
        "kings-or-better": {4, 5}, "aces": {5},
    },
    "deuces": {
        "natural-royal-flush": {10}, "four-deuces": {9}, "wild-royal-flush": {8}, "five-of-a-kind": {7},
        "straight-flush": {6}, "four-of-a-kind": {5}, "full-house": {4}, "flush": {3}, "straight": {2},
        "three-of-a-kind": {1},
    },
    "joker": {
        "natural-royal-flush": {11}, "five-of-a-kind": {10}, "wild-royal-flush": {9}, "straight-flush": {8},
        "four-of-a-kind": {7}, "full-house": {6}, "flush": {5}, "straight": {4}, "three-of-a-kind": {3},
        "two-pair": {2}, "kings-or-better": {1},
    },
}
HAND_NAMES["natural"].pop("queens-or-better")
# types that every table of the family must pay (pairs and two pair may pay nothing)
REQUIRED = {"natural": {18, 17, 11, 12, 13, 14, 15, 16, 10, 9, 8, 7},
            "deuces": set(range(1, 11)), "joker": set(range(3, 12))}


MAX_PAY = 1_000_000              # coins per coin; see "Range of pays" above
MAX_FILE_BYTES = 1 << 20         # a pay table is a few hundred bytes; refuse anything past 1 MiB
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*", re.ASCII)


class PayTableError(InputError):
    """A pay table that cannot be used, with the reason."""


def slug(name: str) -> str:
    """Return ``name`` if it is a slug (``[a-z0-9][a-z0-9-]*``), else raise :class:`PayTableError`.

    A game's name becomes a folder of its dataset; a name such as ``..`` (the stem of
    a file called ``...toml``) would write outside it.

    >>> slug("jacks-or-better-9-6")
    'jacks-or-better-9-6'
    >>> slug("..")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pipeline.videopoker.paytable.PayTableError: game name '..' is not a slug: use lower-case letters, digits and '-' ...
    """
    if not isinstance(name, str) or not _SLUG.fullmatch(name) or len(name) > 100:
        raise PayTableError(f"game name {name!a} is not a slug: use "
                            "lower-case letters, digits and '-' (e.g. my-game.toml), starting with a letter or digit")
    return name


@dataclass(frozen=True)
class PayTable:
    name: str
    title: str
    family: str
    pays: dict[str, int]                 # as written, highest first
    type_hand: tuple[str, ...]           # hand name paid for each final-hand type ("nothing" if none)
    type_pay: tuple[int, ...]            # pay for each final-hand type

    def with_royal(self, royal: int) -> PayTable:
        """The same game with another royal-flush pay (``--royal``): a whole number of coins per coin, 0 to
        :data:`MAX_PAY`, else :class:`PayTableError` naming the option."""
        if isinstance(royal, bool) or not isinstance(royal, int) or not 0 <= royal <= MAX_PAY:
            got = f"{royal:,}" if isinstance(royal, int) and not isinstance(royal, bool) else repr(royal)
            raise PayTableError(f"--royal must be 0 to {MAX_PAY:,} per coin (pays are at most {MAX_PAY:,} coins per "
                                f"coin, for exact int64 arithmetic), got {got}")
        key = "royal-flush" if self.family == "natural" else "natural-royal-flush"
        pays = dict(self.pays, **{key: royal})
        return build(self.name, self.title, self.family, pays)

    @property
    def pay_vector(self) -> np.ndarray:
        return np.array(self.type_pay, np.int64)

    @property
    def royal_key(self) -> str:
        return "royal-flush" if self.family == "natural" else "natural-royal-flush"


def build(name: str, title: str, family: str, pays: dict, *, max_pay: int = MAX_PAY) -> PayTable:
    """A checked pay table: a slug name, a known family, known hand names, pays in 0..``max_pay``."""
    slug(name)
    if family not in FAMILIES:
        raise PayTableError(f"{name}: unknown family {family!r} (natural, deuces or joker)")
    names = HAND_NAMES[family]
    for hand, pay in pays.items():
        if hand not in names:
            raise PayTableError(f"{name}: unknown hand {hand!r} for a {family} game "
                                f"(known: {', '.join(sorted(names))})")
        if not isinstance(pay, int) or isinstance(pay, bool) or pay < 0:
            raise PayTableError(f"{name}: pay for {hand} must be a whole number >= 0, got {pay!r}")
        if pay > max_pay:
            raise PayTableError(f"{name}: pay for {hand} is {pay:,}; pays are at most {max_pay:,} coins per coin "
                                "(exact int64 arithmetic)")
    ntypes = len(FAMILIES[family][1])
    type_hand = ["nothing"] * ntypes
    type_pay = [0] * ntypes
    size = [99] * ntypes
    for hand, pay in pays.items():
        for t in names[hand]:
            if len(names[hand]) < size[t]:
                size[t], type_hand[t], type_pay[t] = len(names[hand]), hand, pay
            elif len(names[hand]) == size[t]:
                raise PayTableError(f"{name}: {hand} and {type_hand[t]} both pay the same hands")
    missing = [FAMILIES[family][1][t] for t in sorted(REQUIRED[family]) if type_hand[t] == "nothing"]
    if missing:
        raise PayTableError(f"{name}: no pay given for {', '.join(missing)}")
    return PayTable(name, title, family, dict(pays), tuple(type_hand), tuple(type_pay))


def load(path: Path | str) -> PayTable:
    """Read a pay-table TOML file (UTF-8, at most 1 MiB); its stem, a slug, is the game's name."""
    path = Path(path)
    shown = ascii(str(path))[1:-1]       # escaped: a file name may hold newlines or undecodable bytes
    try:
        slug(path.stem)
    except PayTableError as e:
        raise PayTableError(f"{shown}: {e}") from None
    raw = read_local(path, "pay table", MAX_FILE_BYTES, PayTableError)   # a regular file, bounded
    data = parse_toml(raw, shown, max_bytes=MAX_FILE_BYTES, error=PayTableError)
    if not isinstance(data.get("pays"), dict) or not data["pays"]:
        raise PayTableError(f"{shown}: no [pays] table")
    title, family = data.get("title", path.stem), data.get("family", "natural")
    if not isinstance(title, str) or not isinstance(family, str):
        raise PayTableError(f"{shown}: title and family must be strings")
    return build(path.stem, title, family, data["pays"])


def builtin_names() -> list[str]:
    """Names of the built-in games, sorted."""
    folder = resources.files(__package__) / "paytables"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def builtin(name: str) -> PayTable:
    """A built-in game by name, e.g. ``jacks-or-better-9-6``."""
    if name not in builtin_names():
        raise PayTableError(f"unknown game {name!r}; see pokerpipe videopoker --list")
    with resources.as_file(resources.files(__package__) / "paytables" / f"{name}.toml") as p:
        return load(p)
