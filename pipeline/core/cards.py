"""Cards: ids, 64-bit masks, parsing and formatting.

A card id is ``4*rank + suit``: rank 0..12 stands for ``2..A`` and suit 0..3 for
``c, d, h, s``.  So ``2c`` is 0, ``2d`` is 1, ``As`` is 51.  A set of cards is a
64-bit mask with bit ``id`` set for each card.

Text uses ranks ``23456789TJQKA`` and suits ``cdhs``: ``As Kd`` or ``AsKd``;
lower-case ranks and ``10`` for ten are accepted.  Anything malformed, and any
card that appears twice, raises :class:`CardError` naming the culprit.  Text is
checked against the card alphabet before any case folding: Unicode folds
lookalikes onto ASCII (the Kelvin sign ``K`` onto ``k``, the long s ``ſ`` onto
``s``), so a character outside printable ASCII is refused by name and code point.

>>> parse_cards("AsKd")
[51, 45]
>>> format_cards([51, 45])
'AsKd'
>>> parse_card("10h") == parse_card("Th")
True
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any, Union

import numpy as np

from .errors import InputError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
              "Ten", "Jack", "Queen", "King", "Ace")
RANK_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights",
                "Nines", "Tens", "Jacks", "Queens", "Kings", "Aces")
DECK_SIZE = 52
BOARD_SIZES = (0, 3, 4, 5)   # preflop, flop, turn, river

_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE | re.ASCII)
_NOT_PRINTABLE_ASCII = re.compile(r"[^\x20-\x7e]")


class CardError(InputError):
    """A card, card list, hand or range that cannot be read or is inconsistent."""


def check_ascii(text: str, what: str = "cards") -> str:
    """Return ``text`` if it is printable ASCII (tab and newline allowed), else raise :class:`CardError`.

    Called before any ``upper()``/``lower()`` or case-insensitive match, which
    would turn U+212A (Kelvin sign) into ``k`` and U+017F (long s) into ``s``.

    >>> check_ascii("\u212ah")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pipeline.core.cards.CardError: unexpected character '\u212a' (U+212A KELVIN SIGN) in cards '\u212ah': ...
    """
    if not isinstance(text, str):
        raise CardError(f"{what} must be text, got {type(text).__name__}")
    m = _NOT_PRINTABLE_ASCII.search(text.replace("\t", " ").replace("\n", " "))
    if m:
        ch = m.group(0)
        shown = repr(ch) if ch.isprintable() else ascii(ch)
        name = unicodedata.name(ch, "")
        quoted = repr(text) if text.isprintable() else ascii(text)
        raise CardError(f"unexpected character {shown} (U+{ord(ch):04X}{' ' + name if name else ''}) in {what} "
                        f"{quoted}: cards, ranges and queries are plain ASCII")
    return text


def card_id(rank: int, suit: int) -> int:
    """The id of the card with ``rank`` (0..12) and ``suit`` (0..3)."""
    return 4 * rank + suit


def rank_of(card: int) -> int:
    """Rank 0..12 (2..A) of a card id."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit 0..3 (c, d, h, s) of a card id."""
    return card & 3


def parse_card(text: str) -> int:
    """Parse one card such as ``As``, ``td`` or ``10h``."""
    m = _TOKEN.fullmatch(check_ascii(text, "card").strip())
    if not m:
        raise CardError(f"unknown card {text!r} (expected rank 23456789TJQKA and suit cdhs, e.g. 'As')")
    r, s = m.group(1).upper(), m.group(2).lower()
    rank = 8 if r == "10" else RANKS.index(r)
    return card_id(rank, SUITS.index(s))


def parse_cards(text: str, *, what: str = "cards") -> list[int]:
    """Parse a list of cards written together or apart: ``AsKd``, ``As Kd``, ``As,Kd``.

    Raises :class:`CardError` for an unknown card or one given twice; ``what``
    names the list in the message (``board``, ``dead cards``, ...).
    """
    cleaned = re.sub(r"[\s,]+", "", check_ascii(text, what))
    cards: list[int] = []
    pos = 0
    while pos < len(cleaned):
        m = _TOKEN.match(cleaned, pos)
        if not m:
            bad = cleaned[pos:pos + 2] or cleaned[pos:]
            raise CardError(f"unknown card {bad!r} in {what} {text!r}")
        card = parse_card(m.group(0))
        if card in cards:
            raise CardError(f"duplicate card {format_card(card)} in {what} {text!r}")
        cards.append(card)
        pos = m.end()
    return cards


def card_id_of(card: Any, what: str = "card") -> int:
    """``card`` as an int if it is a card id: an integer (Python's or numpy's, not a bool) 0..51; else
    :class:`CardError` naming ``what``.

    >>> card_id_of(51), card_id_of(np.int8(3))
    (51, 3)
    >>> card_id_of(60, "hole cards")
    Traceback (most recent call last):
    ...
    pipeline.core.cards.CardError: hole cards: card id 60 is outside 0..51
    """
    if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
        raise CardError(f"{what}: a card id is an integer 0..51, got {_shown(card)}")
    if not 0 <= card < DECK_SIZE:
        raise CardError(f"{what}: card id {_shown(card)} is outside 0..51")
    return int(card)


def card_ids(cards: Any, what: str = "cards") -> list[int]:
    """``cards`` — a sequence of card ids (ints or numpy integers, a numpy array) — as a list of ints, each
    0..51 and none twice; else :class:`CardError` in one line naming ``what`` (text, a bool, a float, an id
    out of range, more than 52 cards)."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (Sequence, np.ndarray)):
        raise CardError(f"{what} must be card text or a sequence of card ids 0..51, got {_shown(cards)}")
    if isinstance(cards, np.ndarray) and cards.ndim != 1:
        raise CardError(f"{what} must be a flat sequence of card ids, got an array of shape {cards.shape}")
    ids = [card_id_of(c, what) for c in islice(iter(cards), DECK_SIZE + 1)]
    if len(ids) > DECK_SIZE:
        raise CardError(f"{what}: more than {DECK_SIZE} cards")
    if len(set(ids)) != len(ids):
        raise CardError(f"duplicate card {format_card(next(c for c in ids if ids.count(c) > 1))} in {what}")
    return ids


def cards_arg(cards: Union[str, Sequence[int]], what: str = "cards") -> list[int]:
    """Cards given as text (:func:`parse_cards`) or as card ids (:func:`card_ids`): what a library function
    taking ``"AhKh"`` or ``[50, 45]`` reads its argument with."""
    return parse_cards(cards, what=what) if isinstance(cards, str) else card_ids(cards, what)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def format_card(card: int) -> str:
    """``51`` -> ``'As'``."""
    card = card_id_of(card)
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: Iterable[int], sep: str = "") -> str:
    """``[51, 45]`` -> ``'AsKd'`` (or ``'As Kd'`` with ``sep=' '``)."""
    return sep.join(format_card(c) for c in cards)


_CARD_BYTES = np.array([list(format_card(c).encode()) for c in range(DECK_SIZE)], np.uint8)


def format_card_rows(cards: np.ndarray) -> np.ndarray:
    """Text of each row of an (n, k) array of card ids as an (n,) bytes array (``b'AsKd'``),
    by table look-up: the vectorized :func:`format_cards` for tables of millions of rows.

    >>> format_card_rows(np.array([[51, 45], [0, 1]]))
    array([b'AsKd', b'2c2d'], dtype='|S4')
    """
    chars = _CARD_BYTES[np.asarray(cards)].reshape(len(cards), -1)
    return np.ascontiguousarray(chars).view(f"S{chars.shape[1]}").ravel()


def _card_count(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def parse_hole(text: str) -> list[int]:
    """Parse a hold'em hand: exactly two cards.

    >>> parse_hole("AsAc")
    [51, 48]
    """
    cards = parse_cards(text, what="hole cards")
    if len(cards) != 2:
        raise CardError(f"hole {text!r} has {_card_count(len(cards))}; a hold'em hand has 2")
    return cards


def parse_board(text: str, sizes: Sequence[int] = BOARD_SIZES, need: str = "a board has 0, 3, 4 or 5") -> list[int]:
    """Parse a board and check it has one of ``sizes`` cards; ``need`` ends the message otherwise.

    >>> parse_board("Ah7c2d"), parse_board("")
    ([50, 20, 1], [])
    >>> parse_board("Ah7c")
    Traceback (most recent call last):
    ...
    pipeline.core.cards.CardError: board 'Ah7c' has 2 cards; a board has 0, 3, 4 or 5
    """
    cards = parse_cards(text, what="board") if text else []
    if len(cards) not in sizes:
        raise CardError(f"board {text!r} has {_card_count(len(cards))}; {need}")
    return cards


def mask_of(cards: Iterable[int]) -> int:
    """64-bit mask with bit ``id`` set for each card."""
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids of a mask, ascending."""
    return [c for c in range(DECK_SIZE) if mask >> c & 1]


def check_disjoint(groups: Sequence[tuple[str, Sequence[int]]]) -> None:
    """Raise :class:`CardError` naming the first card that two groups share.

    ``groups`` is a list of ``(label, cards)``, e.g. ``[("player 1", [51, 47]), ("board", ...)]``.
    """
    seen: dict[int, str] = {}
    for label, cards in groups:
        for c in cards:
            if c in seen:
                raise CardError(f"duplicate card {format_card(c)} in {seen[c]} and {label}")
            seen[c] = label
