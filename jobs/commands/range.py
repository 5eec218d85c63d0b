"""``pokerpipe range``: what a range or pocket query holds, as a count and a 13x13 grid."""
from __future__ import annotations

import typer

from jobs.app import app, fail, print_json


@app.command("range")
def range_(query: str = typer.Argument(..., help="a range or query, e.g. 'Group2 To Group5 And Suited'"),
           as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Combo count and the 13x13 grid of the classes a range or pocket query holds."""
    from pipeline.core.cards import CardError, format_cards
    from pipeline.core.hand_classes import CLASS_LABELS, hand_class, label_combos
    from pipeline.ranges.query import parse_query

    try:
        r = parse_query(query)
    except CardError as e:
        raise fail(str(e)) from None
    hands = [format_cards(c) for c in r.combos.tolist()]
    if as_json:
        print_json({"combos": len(hands), "hands": hands})
        return
    held: dict[str, int] = {}
    for a, b in r.combos.tolist():
        held[hand_class(a, b)] = held.get(hand_class(a, b), 0) + 1
    print(f"{query}: {len(hands)} combos ({100 * len(hands) / 1326:.1f}% of 1,326), {len(held)} classes "
          "(lower case: part of the class)")
    for i in range(13):
        row = []
        for label in CLASS_LABELS[13 * i:13 * i + 13]:
            full = len(label_combos(label))
            n = held.get(label, 0)
            row.append(f"{label:4s}" if n == full else f"{label.lower():4s}" if n else " .  ")
        print(" ".join(row))
