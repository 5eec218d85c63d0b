"""The pocket query language (after Keith Rule's C# Hold'em library, "More Texas Holdem Analysis
in C#", CodeProject 2007): ranges with words and logic.

Everything a range accepts (``AKs``, ``QQ+``, ``A2s-A5s``, ``AhKh``, ``random``,
comma lists) plus:

=====================  =================================================
``Kx``, ``Ax``, ...    every hand holding that rank
``Suited``             both cards one suit;  ``Offsuit`` (Rule also writes ``Offset``) two suits, not a pair
``Pair``               a pocket pair
``Connected``          adjacent ranks (A2 too);  ``Gap1``..``Gap3`` one to three ranks between
``Group1``..``Group8`` Sklansky–Malmuth groups;  ``Group2 To Group5`` the span
``And``, ``Or``, ``Not``, ``( )``   intersection, union, complement; a comma is a union
words side by side     And, as Keith Rule's examples write it: ``Connected Suited``
=====================  =================================================

Words may run together as in Rule's operator table: ``Group2ToGroup5``,
``Group3AndOffset``, ``Group1OrGroup3``, ``NotOffsuit``.  ``Ac Kd`` (two cards and a
space) is one hand.

Words are case-insensitive (ASCII only: a query with any other character is
refused before case folding); ``Not`` binds tightest, then ``And`` (written or
implied by adjacency), then ``Or``
and commas.  Parentheses nest at most :data:`MAX_DEPTH` deep and a run of
``Not`` is folded by its parity, so no query exhausts Python's stack.  Errors
name the offending token and its column.

>>> len(parse_query("Group1"))
28
>>> len(parse_query("Suited And Connected")), len(parse_query("Kx")), len(parse_query("Not Pair"))
(52, 198, 1248)
"""
from __future__ import annotations

import re

import numpy as np

from ..core.cards import RANKS, CardError, check_ascii
from .syntax import Range, parse_range

GROUPS = {
    1: "AA, KK, QQ, JJ, AKs",
    2: "TT, AQs, AJs, KQs, AKo",
    3: "99, JTs, QJs, KJs, ATs, AQo",
    4: "T9s, KQo, 88, QTs, 98s, J9s, AJo, KTs",
    5: "77, 87s, Q9s, T8s, KJo, QJo, JTo, 76s, 97s, A2s-A9s, 65s",
    6: "66, ATo, 55, 86s, KTo, QTo, 54s, K9s, J8s, 75s",
    7: "44, J9o, 64s, T9o, 53s, 33, 98o, 43s, 22, K2s-K8s, T7s, Q8s",
    8: "87o, A9o, Q9o, 76o, 42s, 32s, 96s, 85s, J8o, J7s, 65o, 54o, 74s, K9o, T8o",
}
ALL = {(a, b) for a in range(52) for b in range(a)}
_WORDS = r"group[1-8]|suited|offsuit|offset|pair|connected|gap[1-3]|and|or|not|to"
# A word ends at a non-alphanumeric or where another word starts: Rule runs words together
# ("Group2ToGroup5", "Group3AndOffset", "NotOffsuit").
_WORD_END = rf"(?![0-9a-z])|(?=(?:{_WORDS}|[2-9tjqka]x(?![0-9a-z])))"
_TOKEN = re.compile(rf"\s*(?:(?P<punct>[(),])|(?P<word>{_WORDS})(?:{_WORD_END})|"
                    r"(?P<anyrank>[2-9tjqka]x)(?![0-9a-z])|"
                    r"(?P<hand>[2-9tjqka][cdhs]\s+[2-9tjqka][cdhs])(?![0-9a-z])|"
                    r"(?P<atom>[0-9a-z+\-:.]+))", re.IGNORECASE | re.ASCII)
MAX_DEPTH = 50          # parentheses nested deeper than this are refused (each level costs 4 Python frames)


def _gap(a: int, b: int) -> int:
    """Ranks strictly between two cards' ranks, the ace also counting low; -1 for a pair."""
    ra, rb = a >> 2, b >> 2
    if ra == rb:
        return -1
    d = abs(ra - rb) - 1
    if 12 in (ra, rb):
        low = min(ra, rb) if max(ra, rb) == 12 else max(ra, rb)
        d = min(d, low)          # ace low: A-2 connected, A-3 one gap
    return d


def _predicate(word: str) -> set[tuple[int, int]]:
    w = word.lower()
    if w.startswith("group"):
        return _combos(GROUPS[int(w[5])])
    if w == "suited":
        return {c for c in ALL if c[0] & 3 == c[1] & 3}
    if w in ("offsuit", "offset"):          # "Offset" is Rule's spelling
        return {c for c in ALL if c[0] & 3 != c[1] & 3 and c[0] >> 2 != c[1] >> 2}
    if w == "pair":
        return {c for c in ALL if c[0] >> 2 == c[1] >> 2}
    if w == "connected":
        return {c for c in ALL if _gap(*c) == 0}
    return {c for c in ALL if _gap(*c) == int(w[3])}           # gapN


def _combos(text: str) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for a, b in parse_range(text).combos}


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise CardError(f"query {text!r}: cannot read {text[pos:].strip()[:12]!r} at column {pos + 1}")
            kind = m.lastgroup
            assert kind is not None          # every alternative of _TOKEN is a named group
            self.tokens.append((kind, m.group(kind), m.start(kind) + 1))
            pos = m.end()
        self.i = 0
        self.depth = 0

    def peek(self, word: str | None = None) -> tuple[str, str, int] | None:
        if self.i >= len(self.tokens):
            return None
        tok = self.tokens[self.i]
        if word is None or tok[1].lower() == word:
            return tok
        return None

    def error(self, what: str) -> CardError:
        if self.i >= len(self.tokens):
            return CardError(f"query {self.text!r}: {what} at the end")
        kind, val, col = self.tokens[self.i]
        return CardError(f"query {self.text!r}: {what} {val!r} at column {col}")

    def union(self) -> set:
        out = self.conj()
        while self.peek("or") or self.peek(","):
            self.i += 1
            out |= self.conj()
        return out

    def conj(self) -> set:
        out = self.neg()
        while True:
            if self.peek("and"):
                self.i += 1
            elif not self.starts_operand():      # words side by side mean And ("Connected Suited")
                return out
            out &= self.neg()

    def starts_operand(self) -> bool:
        tok = self.peek()
        if tok is None:
            return False
        kind, val, _ = tok
        if kind == "punct":
            return val == "("
        return not (kind == "word" and val.lower() in ("and", "or", "to"))

    def neg(self) -> set:
        nots = 0
        while self.peek("not"):              # a loop, not recursion: any run of Nots folds to its parity
            self.i += 1
            nots += 1
        out = self.primary()
        return ALL - out if nots % 2 else out

    def primary(self) -> set:
        tok = self.peek()
        if tok is None:
            raise self.error("expected a hand, a range or a word")
        kind, val, col = tok
        low = val.lower()
        if val == "(":
            if self.depth >= MAX_DEPTH:
                raise self.error(f"parentheses nested more than {MAX_DEPTH} deep at")
            self.i += 1
            self.depth += 1
            out = self.union()
            self.depth -= 1
            if not self.peek(")"):
                raise self.error("expected ')' instead of")
            self.i += 1
            return out
        self.i += 1
        if kind == "word" and low.startswith("group") and self.peek("to"):
            self.i += 1
            nxt = self.peek()
            if nxt is None or not re.fullmatch(r"group[1-8]", nxt[1], re.IGNORECASE):
                raise self.error("'To' needs a group after it, not")
            self.i += 1
            lo, hi = sorted((int(low[5]), int(nxt[1][5])))
            return set().union(*(_combos(GROUPS[g]) for g in range(lo, hi + 1)))
        if kind == "word" and low in ("and", "or", "not", "to"):
            self.i -= 1
            raise self.error("unexpected")
        if kind == "word":
            return _predicate(val)
        if kind == "anyrank":
            r = RANKS.index(val[0].upper())
            return {c for c in ALL if c[0] >> 2 == r or c[1] >> 2 == r}
        if kind == "hand":                      # "Ac Kd": one hand written with a space
            return _combos("".join(val.split()))
        if kind == "atom":
            if ":" in val:
                self.i -= 1
                raise self.error("weights are for plain ranges, not queries:")
            try:
                return _combos(val)
            except CardError as e:
                self.i -= 1
                raise self.error(f"unknown item ({e}):") from None
        self.i -= 1
        raise self.error("unexpected")


# No plain range item starts with a query word, so a word at the start of an item marks a query
# (and a misspelt run-together form, "NotPairs", gets the query parser's column-pointing error).
_QUERY_WORDS = re.compile(rf"(?<![0-9a-z])(?:{_WORDS}|[2-9tjqka]x(?![0-9a-z]))|[()]", re.IGNORECASE | re.ASCII)


def is_query(text: str) -> bool:
    """Does ``text`` use the query language (rather than plain range syntax)?"""
    check_ascii(text, "query")
    return bool(_QUERY_WORDS.search(text))


def parse_query(text: str) -> Range:
    """The combos a query selects, as a :class:`~pipeline.ranges.syntax.Range` with unit weights."""
    check_ascii(text, "query")
    if not is_query(text):
        return parse_range(text)
    p = _Parser(text)
    combos = p.union()
    if p.i < len(p.tokens):
        raise p.error("unexpected")
    if not combos:
        raise CardError(f"query {text!r} selects no hand")
    arr = np.array(sorted(combos, key=lambda c: (-c[0], -c[1])), np.int64).reshape(-1, 2)
    return Range(text.strip(), arr, np.ones(len(arr)))
