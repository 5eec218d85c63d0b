"""ProPokerTools' generic range syntax for Omaha, read into a small tree (:mod:`.omaha` evaluates it).

The grammar, lowest precedence first (whitespace is ignored)::

    range    := term ("," term)*                 union
    term     := expr ("@" weight)?               a relative weight for the term's hands
    expr     := unary ((":" | "!") unary)*       ":" keeps hands in both, "!" drops the right's
    unary    := "!" unary | primary              a leading "!": every hand but these
    primary  := "(" range ")" | percent | "$" macro | "random" | "any" | label | pattern
    percent  := N "%" ("-" N "%")? "6h"?         15%, 5%-10%, 15%6h
    label    := k ranks + suffix                 AAKKds, 8877ss, AKQJr (the omaha_class labels)
    pattern  := items ("-" items | "+" | "-")?   a pattern, or a span of patterns
    items    := (item | "{" item+ "}")+          braces: those items take different ranks
    item     := rank suit? | suit
    rank     := A K Q J T 9..2 | "*" | variable | "[" list "]" | "$" B M Z L N W R F
    suit     := s h d c | w x y z | "[" suits "]"

Letters are read without regard to case: ``a k q j t`` are ranks, ``s h d c`` suits, ``w x y z``
suit variables and every other letter a rank variable (``R``, ``O``, ``N``: ``rron`` is
``RRON``).  Macros are case-sensitive only where two would collide: ``$r`` is rainbow,
``$R`` the broadway ranks.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..core.cards import CardError
from .omaha_hands import SUFFIXES

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_VARS = "wxyz"
# PPT's rank macros: card sets by rank (ranks 0..12 for 2..A)
RANK_MACROS = {"B": "AKQJ", "M": "T987", "Z": "65432", "L": "A2345678", "N": "KQJT9", "W": "A2345",
               "R": "AKQJT", "F": "KQJ"}
# hand macros: suit shapes (named as the class labels) and rank shapes
HAND_MACROS = {**{s: f"suit shape {s}" for s in SUFFIXES}, "np": "no pair", "nt": "no three of a rank"}
_PERCENT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)%(?:-(\d+(?:\.\d*)?|\.\d+)%)?(6h)?", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z0-9]+")
_STOP = ",:!)@"


def cut(text: str, most: int = 40) -> str:
    """``text`` quoted for a one-line message, cut short past ``most`` characters (a range may be pages long)."""
    return repr(text if len(text) <= most else text[:most - 3] + "...")


@dataclass(frozen=True)
class Item:
    """One card of a pattern: allowed cards (52-bit ``cards``), an explicit ``rank`` (-1: none) that a span
    shifts, rank and suit variables (``rvar``, ``svar``; '' for none) and a no-pair ``group`` (-1: none)."""

    cards: int
    rank: int = -1
    suit: int = -1
    suits: int = 0xF
    rvar: str = ""
    svar: str = ""
    group: int = -1


@dataclass(frozen=True)
class Pattern:
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Label:
    ranks: tuple[int, ...]
    suffix: str


@dataclass(frozen=True)
class Macro:
    name: str


@dataclass(frozen=True)
class Percent:
    lo: float
    hi: float
    six_handed: bool


@dataclass(frozen=True)
class Deck:
    pass


@dataclass(frozen=True)
class Op:
    """``op`` is ``,`` (union), ``:`` (both), ``!`` (left without right) or ``~`` (complement of ``left``)."""

    op: str
    left: "Node"
    right: "Node | None" = None


Node = Pattern | Label | Macro | Percent | Deck | Op


@dataclass
class Term:
    node: Node
    weight: float
    text: str


def rank_cards(ranks: int) -> int:
    """The 52-bit card set of a 13-bit rank set."""
    return sum(0xF << (4 * r) for r in range(13) if ranks >> r & 1)


def suit_cards(suits: int) -> int:
    """The 52-bit card set of a 4-bit suit set."""
    return sum(0x1111111111111 << s for s in range(4) if suits >> s & 1)


ALL = (1 << 52) - 1


@dataclass
class _Reader:
    text: str           # whitespace removed
    k: int
    pos: int = 0
    groups: int = 0
    part_start: int = 0
    terms: list[Term] = field(default_factory=list)

    # -- helpers ------------------------------------------------------------------------------------------
    def peek(self, n: int = 0) -> str:
        i = self.pos + n
        return self.text[i] if i < len(self.text) else ""

    def fail(self, why: str) -> CardError:
        part = self.current_part()
        rest = self.text[self.pos:]
        where = f" at {rest[:12]!r}" if rest and self.pos > self.part_start else ""
        return CardError(f"cannot read Omaha range part {cut(part)}{where}: {why}")

    def current_part(self) -> str:
        depth, end = 0, len(self.text)
        for i in range(self.part_start, len(self.text)):
            ch = self.text[i]
            depth += (ch in "([{") - (ch in ")]}")
            if ch == "," and depth <= 0:
                end = i
                break
        return self.text[self.part_start:end]

    # -- grammar ------------------------------------------------------------------------------------------
    def read(self) -> list[Term]:
        while True:
            self.part_start = self.pos
            if self.peek() in (",", ""):
                raise CardError(f"empty part in range {cut(self.text)}")
            node = self.expr(top=True)
            weight = 1.0
            if self.peek() == "@":
                self.pos += 1
                weight = self.weight()
            self.terms.append(Term(node, weight, self.text[self.part_start:self.pos]))
            if self.peek() == ",":
                self.pos += 1
                continue
            if self.peek():
                raise self.fail(f"unexpected {self.peek()!r}")
            return self.terms

    def weight(self) -> float:
        m = _NUMBER.match(self.text, self.pos)
        if not m:
            raise self.fail("@ takes a weight, a number like @0.5")
        self.pos = m.end()
        w = float(m.group())
        if not math.isfinite(w) or w < 0:
            raise self.fail(f"weight {m.group()} must be a finite number >= 0")
        if 0 < w < 2.2250738585072014e-308:
            raise self.fail(f"weight {m.group()} is too small (below the smallest normal double)")
        return w

    def expr(self, top: bool = False) -> Node:
        node = self.unary()
        while self.peek() in (":", "!") and self.peek() or self._macro_ahead():
            op = self.peek() if self.peek() != "$" else ":"     # AAKK$ds: a macro right after a pattern filters
            self.pos += self.peek() != "$"
            if op == ":" and top and self._legacy_weight():
                raise self.fail(f"':' is ProPokerTools' filter (AA:$ds): weight a part with @, "
                                f"e.g. @{self._legacy_weight()}")
            node = Op(op, node, self.unary())
        return node

    def _legacy_weight(self) -> str:
        """The number after ':' when it can only be a weight of the old ``:w`` notation ('' otherwise: ``AA:22``
        is aces with two deuces)."""
        m = _NUMBER.match(self.text, self.pos)
        if m and self.text[m.end():m.end() + 1] in ("", ",") and not set(m.group()) <= set("23456789"):
            return m.group()
        return ""

    def union(self) -> Node:
        node = self.expr()
        while self.peek() == ",":
            self.pos += 1
            node = Op(",", node, self.expr())
        return node

    def unary(self) -> Node:
        if self.peek() == "!":
            self.pos += 1
            return Op("~", self.unary())
        return self.primary()

    def primary(self) -> Node:
        ch = self.peek()
        if ch == "":
            raise self.fail("a range part is missing")
        if ch in _STOP:
            raise self.fail(f"a range part is missing before {ch!r}")
        if ch == "(":
            self.pos += 1
            node = self.union()
            if self.peek() == "@":
                raise self.fail("a weight (@) follows a whole comma part, outside the parentheses")
            if self.peek() != ")":
                raise self.fail("'(' is never closed")
            self.pos += 1
            return node
        m = _PERCENT.match(self.text, self.pos)
        if m and self._ends(m.end()):
            self.pos = m.end()
            lo, hi = (0.0, float(m[1])) if m[2] is None else (float(m[1]), float(m[2]))
            if not 0 <= lo <= hi <= 100:
                raise self.fail(f"percentages run from 0% to 100%, low to high, not {m.group()}")
            return Percent(lo, hi, bool(m[3]))
        word = _WORD.match(self.text, self.pos)
        if word and word.group().lower() in ("random", "any") and self._ends(word.end()):
            self.pos = word.end()
            return Deck()
        if ch == "$":
            name = _WORD.match(self.text, self.pos + 1)
            macro = self._hand_macro(name.group() if name else "")
            if macro:
                self.pos += 1 + len(name.group() if name else "")
                return Macro(macro)
        label = self._label()
        if label:
            return label
        return self.pattern()

    def _ends(self, i: int) -> bool:
        return i >= len(self.text) or self.text[i] in _STOP or self.text[i] == "$"

    def _hand_macro(self, word: str) -> str:
        """The hand macro ``$word`` names ('' when it names a rank macro); unknown names fail."""
        if word in HAND_MACROS or (len(word) > 1 and word.isupper() and word.lower() in HAND_MACROS):
            return word.lower()
        first, rest = word[:1], word[1:].lower()
        suits_only = set(rest) <= set(SUIT_CHARS + SUIT_VARS)
        if first.upper() in RANK_MACROS and word != "r" and (first.isupper() or suits_only):
            return ""      # a rank macro ($B, $bx): an item of the pattern
        known = ", ".join("$" + n for n in HAND_MACROS) + "; ranks " + ", ".join("$" + n for n in RANK_MACROS)
        raise self.fail(f"unknown macro ${word}: known are {known}")

    def _label(self) -> Label | None:
        m = _label_pattern(self.k).match(self.text, self.pos)
        if not m or not self._ends(m.end()):
            return None
        self.pos = m.end()
        return Label(tuple(sorted((RANK_CHARS.index(c.upper()) for c in m[1]), reverse=True)), m[2].lower())

    # -- patterns and spans -------------------------------------------------------------------------------
    def pattern(self) -> Node:
        first = self.items()
        if self.peek() == "+" or (self.peek() == "-" and self._ends(self.pos + 1)):
            up = self.peek() == "+"
            self.pos += 1
            return _open_span(first, up, self)
        if self.peek() == "-":
            self.pos += 1
            return _closed_span(first, self.items(), self)
        return Pattern(tuple(first))

    def items(self) -> list[Item]:
        out: list[Item] = []
        while self.peek() and self.peek() not in _STOP + "-+" and not self._macro_ahead():
            if self.peek() == "{":
                self.pos += 1
                g = self.groups
                self.groups += 1
                inner = []
                while self.peek() not in ("}", ""):
                    inner.append(replace(self.item(), group=g))
                if self.peek() != "}":
                    raise self.fail("'{' is never closed")
                self.pos += 1
                if len(inner) < 2:
                    raise self.fail("braces hold the cards that must not pair: two cards or more")
                out += inner
            else:
                out.append(self.item())
        if not out:
            raise self.fail("expected a rank (A..2, *, a variable like R), a card (As) or a suit (s, x)")
        return out

    def _macro_ahead(self) -> bool:
        if self.peek() != "$":
            return False
        name = _WORD.match(self.text, self.pos + 1)
        return bool(self._hand_macro(name.group() if name else ""))

    def item(self) -> Item:
        ch = self.peek()
        low = ch.lower()
        cards, rank, rvar = ALL, -1, ""
        if ch == "*":
            self.pos += 1
        elif ch.isdigit() or (low and low in "akqjt"):
            if ch not in RANK_CHARS[:8] and low not in "akqjt":
                raise self.fail(f"{ch!r} is not a rank (ranks are A K Q J T 9 .. 2)")
            rank = RANK_CHARS.index(ch.upper())
            cards = rank_cards(1 << rank)
            self.pos += 1
        elif ch == "[":
            cards = self.bracket()
        elif ch == "$":
            name = _WORD.match(self.text, self.pos + 1)
            letter = name.group()[0].upper() if name else ""
            if letter not in RANK_MACROS:
                raise self.fail("unknown macro")
            cards = rank_cards(sum(1 << RANK_CHARS.index(r) for r in RANK_MACROS[letter]))
            self.pos += 2
        elif ch.isalpha() and low not in SUIT_CHARS + SUIT_VARS:
            rvar = ch.upper()
            self.pos += 1
        elif low in SUIT_CHARS + SUIT_VARS:
            return self.suit(Item(ALL))
        else:
            raise self.fail(f"{ch!r} is not a rank, suit or card")
        return self.suit(Item(cards, rank=rank, rvar=rvar))

    def suit(self, item: Item) -> Item:
        ch = self.peek().lower()
        if ch and ch in SUIT_CHARS:
            self.pos += 1
            s = SUIT_CHARS.index(ch)
            return replace(item, cards=item.cards & suit_cards(1 << s), suit=s, suits=1 << s)
        if ch and ch in SUIT_VARS:
            self.pos += 1
            return replace(item, svar=ch)
        if ch == "[" and self._suit_list_ahead():
            suits = self.bracket()
            return replace(item, cards=item.cards & suits)
        return item

    def _suit_list_ahead(self) -> bool:
        end = self.text.find("]", self.pos)
        body = self.text[self.pos + 1:end] if end > 0 else ""
        return bool(body) and all(c.lower() in SUIT_CHARS + "," for c in body)

    def bracket(self) -> int:
        """A bracketed list of ranks, spans (K-T), cards (Ks) or suits ([s,h]), as the 52-bit set of its cards."""
        self.pos += 1
        cards = 0
        while self.peek() not in ("]", ""):
            ch = self.peek()
            if ch == ",":
                self.pos += 1
                continue
            if ch.upper() in RANK_CHARS:
                r = RANK_CHARS.index(ch.upper())
                self.pos += 1
                if self.peek() == "-" and self.peek(1).upper() in RANK_CHARS and self.peek(1):
                    r2 = RANK_CHARS.index(self.peek(1).upper())
                    self.pos += 2
                    ranks = sum(1 << q for q in range(min(r, r2), max(r, r2) + 1))
                else:
                    ranks = 1 << r
                got = rank_cards(ranks)
                if self.peek().lower() in SUIT_CHARS and self.peek():
                    got &= suit_cards(1 << SUIT_CHARS.index(self.peek().lower()))
                    self.pos += 1
                cards |= got
            elif ch.lower() in SUIT_CHARS:
                cards |= suit_cards(1 << SUIT_CHARS.index(ch.lower()))
                self.pos += 1
            else:
                raise self.fail(f"{ch!r} cannot stand in a bracketed list (ranks, spans like K-T, cards, suits)")
        if self.peek() != "]":
            raise self.fail("'[' is never closed")
        self.pos += 1
        if not cards:
            raise self.fail("an empty bracketed list")
        return cards


@lru_cache(maxsize=4)
def _label_pattern(k: int) -> re.Pattern[str]:
    """k ranks and a class-label suffix (longest suffixes tried first)."""
    return re.compile(rf"([2-9TJQKA]{{{k}}})({'|'.join(sorted(SUFFIXES, key=len, reverse=True))})", re.IGNORECASE)


def _shifted(items: list[Item], by: dict[int, int]) -> Pattern:
    """The pattern with item ``i``'s explicit rank moved by ``by[i]`` ranks."""
    out = []
    for i, it in enumerate(items):
        if i in by and by[i]:
            r = it.rank + by[i]
            out.append(replace(it, rank=r, cards=rank_cards(1 << r) & suit_cards(it.suits)))
        else:
            out.append(it)
    return Pattern(tuple(out))


def _union(patterns: list[Pattern]) -> Node:
    node: Node = patterns[0]
    for p in patterns[1:]:
        node = Op(",", node, p)
    return node


def _open_span(items: list[Item], up: bool, reader: _Reader) -> Node:
    """``P+`` (or ``P-``): P with its explicit ranks raised (lowered) together one rank at a time, until the
    highest reaches A (the lowest reaches 2).  Aces stay put when other ranks are named: ``AT+`` is AT..AK."""
    ranked = [i for i, it in enumerate(items) if it.rank >= 0]
    if not ranked:
        raise reader.fail("a span (+ or -) needs ranks to move, like JJ+ or 664-")
    ranks = [items[i].rank for i in ranked]
    moving = [i for i in ranked if items[i].rank != 12] if any(r != 12 for r in ranks) else ranked
    fixed_ace = len(moving) < len(ranked)
    steps = (11 if fixed_ace else 12) - max(items[i].rank for i in moving) if up else \
        min(items[i].rank for i in moving)
    sign = 1 if up else -1
    return _union([_shifted(items, dict.fromkeys(moving, sign * t)) for t in range(steps + 1)])


def _closed_span(lo: list[Item], hi: list[Item], reader: _Reader) -> Node:
    """``P1-P2``: the patterns from P1 to P2, every rank that differs moving one step at a time together;
    everything but the ranks (suits, variables, wildcards, braces) must match on both sides."""
    if len(lo) != len(hi):
        raise reader.fail("both ends of a span (KK-TT) need the same number of cards")
    diffs = set()
    for a, b in zip(lo, hi):
        if replace(a, rank=-1, cards=0) != replace(b, rank=-1, cards=0) or (a.rank < 0) != (b.rank < 0) or \
                (a.rank < 0 and a.cards != b.cards):
            raise reader.fail("the two ends of a span must differ in ranks only (suits and the rest must match)")
        if a.rank != b.rank:
            diffs.add(b.rank - a.rank)
    if len(diffs) > 1:
        raise reader.fail("every rank of a span must move by the same number of steps (KQ-JT, not KQ-T9 with AK)")
    d = diffs.pop() if diffs else 0
    moving = [i for i, (a, b) in enumerate(zip(lo, hi)) if a.rank != b.rank]
    sign = 1 if d > 0 else -1
    return _union([_shifted(lo, dict.fromkeys(moving, sign * t)) for t in range(abs(d) + 1)])


def read_range(text: str, k: int) -> list[Term]:
    """The weighted terms of a range (the module doc's grammar); one :class:`CardError` line on bad text."""
    return _Reader("".join(text.split()), k).read()
