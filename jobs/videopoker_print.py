"""Printing for ``pokerpipe videopoker``: a whole game's table, and one hand's 32 holds."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.videopoker.analyzer import Analysis
    from pipeline.videopoker.hand import Hold
    from pipeline.videopoker.paytable import PayTable


def print_games(titles: dict[str, str]) -> None:
    for name, title in titles.items():
        print(f"{name:28s} {title}")


def print_game(a: Analysis, break_even: float | None = None) -> None:
    pt = a.paytable
    print(f"{pt.title} ({pt.name})")
    print(f"{'hand':24s} {'pays':>5s} {'combinations':>20s} {'probability':>12s} {'1 in':>12s} {'return':>9s}")
    for r in a.distribution():
        one_in = f"{r['one_in']:,.1f}" if r["one_in"] else "-"
        print(f"{r['hand']:24s} {r['pays']:5d} {r['combinations']:20,d} {r['probability']:12.8f} {one_in:>12s} "
              f"{r['return']:9.6f}")
    print(f"{'total':24s} {'':5s} {a.total:20,d}")
    print(f"return {a.ret:.8f}   variance {a.variance:.6f}   std {a.std:.6f}   hit frequency {a.hit_frequency:.6f}")
    if break_even is not None:
        print(f"break-even royal: {break_even:.2f} per coin ({5 * break_even:.0f} for 5 coins)")
    print()


def hand_text(pt: PayTable, hand: str, holds: list[Hold]) -> str:
    """The 32 holds, best first, the optimal one marked ``*``: EV per coin (decimal and exact) and
    how many draws make each paying hand."""
    lines = [f"{pt.title} ({pt.name}): {hand}   EV per coin, best first"]
    for i, h in enumerate(holds):
        mark = "*" if i == 0 else " "
        frac = f"{h.ev.numerator}/{h.ev.denominator}"
        dist = ", ".join(f"{name} {n:,}" for name, n in h.distribution)
        lines.append(f"{mark} {h.hold_text:16s} {float(h.ev):10.6f} {frac:>16s}   {dist}")
    return "\n".join(lines)


def hand_json(pt: PayTable, hand: str, holds: list[Hold]) -> dict:
    return {"game": pt.name, "hand": hand, "holds": [dict(h.to_json(), optimal=i == 0) for i, h in enumerate(holds)]}
