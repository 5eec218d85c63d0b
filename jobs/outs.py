"""``pokerpipe outs``: outs grouped by the hand they make, discounted outs, and draws."""
from __future__ import annotations

import json

import typer

from .app import app, fail


@app.command()
def outs(hole: str = typer.Argument(..., help="two hole cards, e.g. AsAc"),
         board: str = typer.Option(..., "--board", "-b", help="a flop or a turn"),
         opponent: list[str] = typer.Option([], "--opponent", help="a known opponent hand (repeatable)"),
         as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Cards that improve the hand a category, beat the board alone and every known opponent."""
    from pipeline.cards import CardError
    from pipeline.outs import outs as find

    try:
        r = find(hole, board, opponent)
    except CardError as e:
        raise fail(str(e))
    if as_json:
        print(json.dumps(r))
        return
    print(f"{hole} on {board}: {r['count']} outs (discounted {r['discounted']:.2f})")
    for hand, cards in r["by_hand"].items():
        print(f"  {hand:16s} {len(cards):2d}  {' '.join(cards)}")
    print("draws: " + ", ".join(f"{k} {v}" for k, v in r["draws"].items() if v))
