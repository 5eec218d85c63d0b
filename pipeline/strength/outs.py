"""Outs and draws by Keith Rule's rules (his C# Hold'em library, "More Texas Holdem Analysis in C#",
CodeProject 2007).

An unseen card is an **out** when, added to the board, it

1. improves the player's hand *and* moves it up a category (a better kicker is not an out),
2. leaves the player's category above the board's own (board plus that card), and
3. leaves no known opponent with a better hand.

**Discounted outs** weigh each out by how clean it is: the out counts as the
player's hand strength on the new board against one uniformly random unseen
hand (ties half).  An out that completes a hand nobody can beat counts 1; an
out that also gives many opponent hands something better counts less.

The draw functions count only draws that improve the player's hand beyond the
board (the player's cards must take part):

* ``straight_draw_count`` — unseen cards that give the player a straight (or a
  straight flush) the board does not make by itself;
* ``open_ended`` — four consecutive ranks, with a hole card among them, that
  either end can complete; ``gutshot`` — a straight draw that is not open-ended;
* ``flush_draw`` — four cards of one suit with at least one from the hole (and
  not five); ``flush_draw_count`` — unseen cards that complete it;
* ``backdoor_flush_draw`` — exactly three of a suit, at least one from the hole,
  with two cards to come;
* ``draw_count(type)`` — unseen cards that lift the player to that category or
  better, above the board's own category.

>>> r = outs("AsAc", "Kd8h9c")
>>> r["count"], r["by_hand"]["two pair"], r["by_hand"]["three of a kind"]
(11, ['Ks', 'Kh', 'Kc', '9s', '9h', '9d', '8s', '8d', '8c'], ['Ah', 'Ad'])
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import numpy as np

from ..core.cards import CardError, check_disjoint, format_card, parse_board, parse_cards, parse_hole
from ..evaluator import CATEGORY_NAMES, evaluate

STRAIGHT, FLUSH = 4, 5


def _value(cards: Sequence[int]) -> int:
    return int(evaluate(np.array([list(cards)]), check=False)[0])


def category_of(cards: Sequence[int]) -> int:
    """Category 0..8 of 1..7 cards; under five cards only pairs, trips and quads count."""
    if len(cards) >= 5:
        return _value(cards) >> 12
    shape = sorted(Counter(c >> 2 for c in cards).values(), reverse=True) + [0, 0]
    if shape[0] == 4:
        return 7
    if shape[0] == 3:
        return 3
    if shape[0] == 2:
        return 2 if shape[1] == 2 else 1
    return 0


def _unseen(known: set[int]) -> list[int]:
    return [c for c in range(51, -1, -1) if c not in known]


def outs_of(hole: list[int], board: list[int], opponents: Sequence[list[int]] = (),
            dead: Sequence[int] = ()) -> list[int]:
    """The out cards, strongest rank first; ``dead`` cards (folded, burnt, seen) are no outs."""
    before = _value(hole + board)
    known = set(hole) | set(board) | {c for o in opponents for c in o} | set(dead)
    found = []
    for c in _unseen(known):
        after = _value(hole + board + [c])
        cat = after >> 12
        if not (after > before and cat > before >> 12):
            continue
        if cat <= category_of(board + [c]):
            continue
        if any(_value(o + board + [c]) > after for o in opponents):
            continue
        found.append(c)
    return found


def _hand_strength(hole: list[int], board: list[int], dead: set[int]) -> float:
    mine = _value(hole + board)
    rest = [c for c in range(52) if c not in dead]
    hands = np.array([list(p) + board for p in combinations(rest, 2)])
    theirs = evaluate(hands, check=False)
    return float(((theirs < mine).sum() + (theirs == mine).sum() / 2) / len(theirs))


def straight_cards(hole: list[int], board: list[int], dead: Sequence[int] = ()) -> list[int]:
    """Unseen cards (not ``dead``) that give the player a straight or better the board alone lacks."""
    known = set(hole) | set(board) | set(dead)
    out = []
    for c in _unseen(known):
        mine = _value(hole + board + [c])
        if mine >> 12 not in (STRAIGHT, 8) or _value(hole + board) >> 12 in (STRAIGHT, 8):
            continue
        if len(board) + 1 >= 5 and _value(board + [c]) >= mine:
            continue
        out.append(c)
    return out


def _runs(ranks: set[int]) -> list[tuple[int, ...]]:
    """Four consecutive ranks present (the ace also plays low)."""
    ext = set(ranks) | ({-1} if 12 in ranks else set())
    return [tuple(range(lo, lo + 4)) for lo in range(-1, 10) if all(r in ext for r in range(lo, lo + 4))]


def open_ended(hole: list[int], board: list[int], dead: Sequence[int] = ()) -> bool:
    hole_ranks = {c >> 2 for c in hole} | ({-1} if any(c >> 2 == 12 for c in hole) else set())
    for run in _runs({c >> 2 for c in hole + board}):
        if set(run) & hole_ranks and run[0] - 1 >= -1 and run[-1] + 1 <= 12 and run[0] > -1:
            if straight_cards(hole, board, dead):
                return True
    return False


def flush_draw(hole: list[int], board: list[int]) -> bool:
    suits = Counter(c & 3 for c in hole + board)
    return any(n == 4 and any(c & 3 == s for c in hole) for s, n in suits.items())


def backdoor_flush_draw(hole: list[int], board: list[int]) -> bool:
    suits = Counter(c & 3 for c in hole + board)
    return len(board) == 3 and any(n == 3 and any(c & 3 == s for c in hole) for s, n in suits.items())


def draw_count(hole: list[int], board: list[int], category: int, dead: Sequence[int] = ()) -> int:
    """Unseen cards (not ``dead``) lifting the player to ``category`` or better, above the board's own."""
    known = set(hole) | set(board) | set(dead)
    now = _value(hole + board) >> 12
    n = 0
    for c in _unseen(known):
        cat = _value(hole + board + [c]) >> 12
        if cat >= category and cat > now and cat > category_of(board + [c]):
            n += 1
    return n


def outs(hole: str, board: str, opponents: Sequence[str] = (), dead: str = "") -> dict:
    """Outs, discounted outs and draws of ``hole`` on a 3- or 4-card ``board`` (see module doc);
    ``dead`` cards (folded or burnt, known to be out of the deck) are neither outs nor draw cards."""
    h = parse_hole(hole)
    b = parse_board(board, (3, 4), "outs need a flop or a turn")
    d = parse_cards(dead, what="dead cards") if dead.strip() else []
    opps = [parse_cards(o, what=f"opponent {i}") for i, o in enumerate(opponents, 1)]
    for i, o in enumerate(opps, 1):
        if len(o) != 2:
            raise CardError(f"opponent {i} ({opponents[i - 1]!r}) is not two cards")
    check_disjoint([("hole cards", h), ("board", b), ("dead cards", d)]
                   + [(f"opponent {i}", o) for i, o in enumerate(opps, 1)])
    unseen = 52 - 2 - len(b) - 2 * len(opps) - len(d)
    if unseen < 3:       # discounted outs pit each out against an unseen hand: an out and two more cards
        raise CardError(f"{len(opps)} opponents leave {unseen} unseen card{'s' if unseen != 1 else ''}; "
                        "outs need at least 3 (an out and an opponent hand)")
    found = outs_of(h, b, opps, d)
    by_hand: dict[str, list[str]] = {}
    for c in found:
        by_hand.setdefault(CATEGORY_NAMES[_value(h + b + [c]) >> 12], []).append(format_card(c))
    known = set(h) | set(b) | {c for o in opps for c in o} | set(d)
    discounted = sum(_hand_strength(h, b + [c], known | {c}) for c in found)
    straights = straight_cards(h, b, d)
    oe = open_ended(h, b, d)
    flush_cards = [c for c in _unseen(known) if flush_draw(h, b) and _value(h + b + [c]) >> 12 in (FLUSH, 8)
                   and _value(h + b) >> 12 < FLUSH]
    draws = {
        "straight_draw_count": len(straights),
        "open_ended_straight_draw": oe,
        "gutshot_straight_draw": bool(straights) and not oe,
        "flush_draw": flush_draw(h, b),
        "flush_draw_count": len(flush_cards),
        "backdoor_flush_draw": backdoor_flush_draw(h, b),
        **{f"draw_count_{CATEGORY_NAMES[k].replace(' ', '_')}": draw_count(h, b, k, d) for k in range(1, 9)},
    }
    return {"count": len(found), "outs": [format_card(c) for c in found], "by_hand": by_hand,
            "discounted": round(discounted, 6), "draws": draws,
            "unseen": unseen, "cards_to_come": 5 - len(b)}
