"""``pokerpipe bucket``: the abstraction bucket of one hole on one board (or preflop), and its exact features."""
from __future__ import annotations

import sys

import typer

from jobs.app import app, fail, print_json
from jobs.counts import COUNT
from jobs.options import DEFAULT_OUT


def _defaults() -> tuple[int, int]:
    from pipeline.abstraction.features import DEFAULT_BINS
    from pipeline.abstraction.streets import DEFAULT_K

    return DEFAULT_K, DEFAULT_BINS


@app.command()
def bucket(hole: str = typer.Argument(..., help="two hole cards, e.g. AsKd"),
           board: str = typer.Option("", "--board", "-b", help="3, 4 or 5 board cards; none: preflop"),
           out: str = typer.Option(DEFAULT_OUT, "--out", "-o",
                                   help="local folder holding the abstraction (`pokerpipe tables abstraction --out`)"),
           k: int = typer.Option(_defaults()[0], "--k", parser=COUNT,
                                 help="buckets per street of the abstraction to read"),
           bins: int = typer.Option(_defaults()[1], "--bins", parser=COUNT, help="histogram bins (flop, turn)"),
           seed: int = typer.Option(0, "--seed", help="k-means++ seed of the abstraction to read"),
           as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """The street, canonical index, Waugh index, bucket, equity against a random hand, and the histogram (flop,
    turn) or OCHS vector (river) of HOLE on --board; the features are computed from the cards, the bucket read
    from the abstraction built in --out (null, with a line on stderr, when it is not built there).  With no
    --board, preflop: the class, whose grid index (0 AA .. 168 22) is its lossless bucket, needing no build."""
    from pipeline.abstraction.lookup import AbstractionError, AbstractionNotBuilt, situation, street_of
    from pipeline.core.cards import CardError, parse_cards
    from pipeline.core.errors import InputError
    from pipeline.datasets.abstraction_lookup import built_clusters, check_lookup, load_abstraction

    if not board.strip():
        _preflop(hole, as_json)
        return
    try:
        k, bins, seed = check_lookup(k, bins, seed, ("--k", "--bins", "--seed"))
        street = street_of(parse_cards(board, what="board"))
        clusters = built_clusters(out, seed) if street == "river" else None
        s = situation(hole, board, bins, clusters)
        value: int | None = None
        try:
            value = load_abstraction(out, k, bins, seed, streets=(street,)).bucket_of_index(street, s.index)
            if value is None:
                print(f"bucket: the {street} abstraction in {out} is a limited build that did not reach this "
                      "situation", file=sys.stderr)
        except AbstractionNotBuilt as e:
            print(f"bucket: {e}", file=sys.stderr)
    except (CardError, AbstractionError, InputError) as e:
        raise fail(str(e)) from None
    if as_json:
        print_json({"street": s.street, "index": s.index, "waugh_index": s.waugh, "bucket": value,
                    "buckets": k, "equity": s.equity, "histogram": s.histogram, "ochs": s.ochs}, seed)
        return
    print(f"street    {s.street}")
    print(f"index     {s.index:,}")
    print(f"waugh     {s.waugh:,}   (hand_index_last, boards as sets: the key of _buckets.waugh)")
    print(f"bucket    {'not built' if value is None else f'{value} of {k}'}")
    print(f"equity    {s.equity:.6f}   (against a random hand, all in)")
    if s.histogram is not None:
        print(f"histogram {' '.join(str(x) for x in s.histogram)}   ({sum(s.histogram)} runouts in {bins} bins)")
    if s.ochs is not None:
        print(f"ochs      {' '.join(f'{x:.4f}' for x in s.ochs)}   (equity against each opponent cluster)")


def _preflop(hole: str, as_json: bool) -> None:
    """Preflop: lossless, so the class is the bucket; nothing is read from --out."""
    from pipeline.abstraction.lookup import AbstractionError, preflop_situation
    from pipeline.core.cards import CardError

    try:
        s = preflop_situation(hole)
    except (CardError, AbstractionError) as e:
        raise fail(str(e)) from None
    if as_json:
        print_json({"street": s.street, "class": s.hand_class, "index": s.index, "waugh_index": s.waugh,
                    "bucket": s.bucket, "buckets": 169, "equity": s.equity})
        return
    print("street    preflop")
    print(f"class     {s.hand_class}")
    print(f"index     {s.index}")
    print(f"waugh     {s.waugh}   (hand_index_last of hand_indexer_init(1, {{2}}))")
    print(f"bucket    {s.bucket} of 169   (lossless: the class's grid index, 0 AA .. 168 22)")
    print(f"equity    {s.equity:.6f}   (against a random hand, all in)")
