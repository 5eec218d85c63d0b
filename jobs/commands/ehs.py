"""``pokerpipe ehs``: hand strength, potential and EHS of one hole on one board."""
from __future__ import annotations

import typer

from jobs.app import app, fail, print_json


@app.command()
def ehs(hole: str = typer.Argument(..., help="two hole cards, e.g. AdQc"),
        board: str = typer.Option(..., "--board", "-b", help="3, 4 or 5 board cards"),
        opponents: int = typer.Option(1, "--opponents", "-k", help="opponents for HS^N (1..9)"),
        vs: str | None = typer.Option(None, "--vs", help="the opponent's range or query, weights allowed "
                                      "(QQ+,AK:0.5; Group1 Suited); default a random hand"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """HS, the 3x3 potential table, PPOT, NPOT and EHS against uniformly random opponent hands,
    or against the weighted combos of a range (--vs)."""
    from pipeline.core.cards import CardError
    from pipeline.strength.hand_strength import hand_strength
    from pipeline.strength.vs_range import hand_strength_vs

    try:
        r = hand_strength(hole, board, opponents) if vs is None else hand_strength_vs(hole, board, vs, opponents)
    except CardError as e:
        raise fail(str(e)) from None
    if as_json:
        print_json(r.to_json())
        return
    total = r.ahead + r.tied + r.behind
    against = "opponent hands" if vs is None else f"weighted combos of {vs!r}"
    print(f"{hole} on {board}: ahead {_n(r.ahead)}  tied {_n(r.tied)}  behind {_n(r.behind)}  "
          f"(of {_n(total)} {against})")
    print(f"HS {r.hs:.4f}   HS^{opponents} {r.hs_n:.4f}")
    if any(any(row) for row in r.potential):
        cases = sum(map(sum, r.potential))
        print(f"potential ({_n(cases)} cases)   {'ahead':>10s} {'tied':>10s} {'behind':>10s}   (at the river)")
        for name, row in zip(("ahead", "tied", "behind"), r.potential, strict=True):
            print(f"  now {name:8s}          {_n(row[0]):>10s} {_n(row[1]):>10s} {_n(row[2]):>10s}")
    print(f"PPOT {r.ppot:.4f}   NPOT {r.npot:.4f}" + (f"   one card ahead: PPOT1 {r.ppot1:.4f}  NPOT1 {r.npot1:.4f}"
                                                     if r.ppot1 is not None else ""))
    plural = "s" if opponents > 1 else ""
    print(f"EHS {r.ehs:.4f}   EHS' (optimistic, {opponents} opponent{plural}) {r.ehs_optimistic:.4f}")


def _n(x: object) -> str:
    """A count: ``1,234`` for an integer (or a whole fraction), ``n/d`` for a weighted fraction."""
    from fractions import Fraction

    if isinstance(x, Fraction) and x.denominator != 1:
        return str(x)
    return f"{int(x):,}" if isinstance(x, (int, Fraction)) else str(x)
