"""``pokerpipe play``: bots play fixed-limit hold'em; a summary per seat, optionally hand histories."""
from __future__ import annotations

import math
from typing import Optional

import typer

from jobs.app import app, fail, print_json
from jobs.counts import count_option
from jobs.options import QUIET, SCHEDULER, TABLES, WEIGHTS, WORKERS, weight_source
from pipeline.holdem.histories import MAX_HISTORY_BYTES, MAX_PHH_FILES
from pipeline.holdem.seating import DEFAULT_STACK_BB
from pipeline.holdem.work import MAX_HANDS

HANDS = 10_000                 # a quick look; --hands for more
HISTORIES_OUT = "outputs/play"
HISTORY_HELP = (f"also write every hand: pokerstars, phh or ohh (at most {MAX_HISTORY_BYTES // 10**9} GB of "
                f"histories, and at most {MAX_PHH_FILES:,} PHH files, by a low estimate)")


@app.command()
def play(seats: Optional[int] = typer.Option(None, "--seats", "-s",
                                            help="players at the table (2..10; default: one per --policies entry)"),
         policies: str = typer.Option(..., "--policies", "-p",
                                      help="comma list, one per seat: random, station, maniac, tag, thesis-preflop, "
                                           "fold, or a player .json written by `pokerpipe evolve`"),
         hands_text: str = typer.Option(str(HANDS), "--hands", "-n", metavar="N",
                                        help="hands to play (whole duplicate deals); 1e6 is a million"),
         seed: int = typer.Option(0, "--seed", help="seed of the deals and the bots' random choices"),
         as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
         history: Optional[str] = typer.Option(None, "--history", help=HISTORY_HELP),
         out: str = typer.Option(HISTORIES_OUT, "--out", "-o", help="folder or URL for the hand histories"),
         hero: Optional[int] = typer.Option(None, "--hero", help="PokerStars text: show only this seat's hole cards"),
         history_start: Optional[str] = typer.Option(None, "--history-start", metavar="TIME",
                                                     help="when the histories' first hand was dealt (ISO 8601, "
                                                          "UTC unless a zone is given; default now): it dates and "
                                                          "numbers every hand, so the same TIME gives the same "
                                                          "files"),
         stack: float = typer.Option(DEFAULT_STACK_BB, "--stack", help="stack in big blinds, reset every hand"),
         rake: float = typer.Option(0.0, "--rake", help="rake in percent of the pot (none without a flop)"),
         rake_cap: float = typer.Option(0.0, "--rake-cap", help="rake cap in big blinds (0: no cap)"),
         no_duplicate: bool = typer.Option(False, "--no-duplicate", help="fresh cards every hand"),
         weights: str = WEIGHTS, tables: str = TABLES,
         workers: Optional[int] = WORKERS, scheduler: Optional[str] = SCHEDULER, quiet: bool = QUIET) -> None:
    """Bots play fixed-limit hold'em: BB/100 with a 95% interval, VPIP/PFR/AF and WTSD/W$SD per seat.

    Work estimated beyond a day, and hand histories beyond their limit, are refused before anything starts.
    """
    from pipeline.batch.session import local_processes
    from pipeline.holdem import Table, TableError, simulate
    from pipeline.holdem.histories import write_histories
    from pipeline.holdem.histories.stamps import RunStamp, StampError
    from pipeline.holdem.plan import PlayPlan

    hands = count_option(hands_text, "--hands", 1, MAX_HANDS)
    named = tuple(p.strip() for p in policies.split(",") if p.strip())
    plan = PlayPlan(len(named) if seats is None else seats, named, hands, seed, history, hero, stack, rake, rake_cap)
    names = plan.policies
    try:
        start = RunStamp.parse(history_start)        # stated now, before the hands are played
    except StampError as e:
        raise fail(f"--history-start: {e}") from None
    many = workers is not None and workers > 1 or scheduler is not None    # else one process: no cluster
    source = weight_source(weights, tables)           # None: sampled, several times slower for tag and players
    if scheduler is None:                  # workers beyond the cores take turns on them: they divide no more
        plan.refuse_work(local_processes(workers) if many else 1, source is None)
    from pipeline.datasets.solve import SolveError, resolve_policy

    try:
        players = [resolve_policy(n) for n in names]   # cfr:DIR: a solved strategy
        table = Table.make(players, stack_bb=stack, rake_percent=rake, rake_cap_bb=rake_cap)
    except (TableError, SolveError) as e:
        raise fail(str(e)) from None
    from pipeline.batch.errors import RunnerError
    from pipeline.batch.session import Session
    from pipeline.batch.storage import Storage, StorageError

    try:
        storage = Storage.open(out) if history else None     # checked before the hands are played
    except StorageError as e:
        raise fail(str(e)) from None
    try:
        with Session(workers, scheduler, quiet=quiet) as session:
            executor = session.executor("hands") if many else None
            if scheduler is not None:                 # the cluster's size is known once it is reached
                plan.refuse_work(max(1, int(getattr(executor, "workers", 1) or 1)), source is None)
            r = simulate(players, hands, seed, not no_duplicate, stack_bb=stack, rake_percent=rake,
                         rake_cap_bb=rake_cap, executor=executor, weights=source)
    except RunnerError as e:          # bad --workers, a scheduler that cannot be reached
        raise fail(str(e)) from None
    try:
        files = (write_histories(table, seed, r.hands, history, storage, not no_duplicate,
                                 None if hero is None else hero - 1, source, start) if history and storage else [])
    except StorageError as e:
        raise fail(f"--out: {e}") from None
    except OSError as e:
        raise fail(f"cannot write hand histories to {out}: {e.strerror or e}") from None

    def num(x: float) -> float | None:
        return round(x, 4) if math.isfinite(x) else None   # JSON has no inf/nan: an infinite AF is null

    def known(se: float) -> bool:
        """Whether the deals give a standard error: two at least, and not all alike (a sample without a
        spread says nothing of the error, where [x, x] would claim none)."""
        return math.isfinite(se) and se > 0

    why = ("n/a (1 hand)" if no_duplicate else "n/a (1 deal)") if r.deals < 2 else "n/a (no spread)"
    rows = [{"seat": s.seat, "policy": s.policy, "bb_per_100": round(s.bb_per_100, 3),
             "ci95": [num(s.ci95[0]), num(s.ci95[1])] if known(s.stderr) else [None, None],
             "vpip": num(s.stats["vpip"]),
             "pfr": num(s.stats["pfr"]), "af": num(s.stats["af"]), "wtsd": num(s.stats["wtsd"]),
             "wsd": num(s.stats["wsd"])} for s in r.seats]
    if as_json:
        print_json({"hands": r.hands, "seats": rows}, seed)
        return
    print(f"{r.hands:,} hands, {plan.seats} seats, seed {seed}{' (duplicate deals)' if not no_duplicate else ''}")
    print(f"{'seat':>4s}  {'policy':<15s} {'BB/100':>8s}  {'95% interval':>19s} {'VPIP':>6s} {'PFR':>6s} {'AF':>6s} "
          f"{'WTSD':>6s} {'W$SD':>6s}")
    for s in r.seats:
        af = "inf" if math.isinf(s.stats["af"]) else f"{s.stats['af']:.2f}"
        interval = f"[{s.ci95[0]:8.2f}, {s.ci95[1]:8.2f}]" if known(s.stderr) else f"{why:>20s}"
        print(f"{s.seat:4d}  {s.policy:<15s} {s.bb_per_100:8.2f}  {interval} "
              f"{100 * s.stats['vpip']:5.1f}% {100 * s.stats['pfr']:5.1f}% {af:>6s} "
              f"{100 * s.stats['wtsd']:5.1f}% {100 * s.stats['wsd']:5.1f}%")
    if files:
        print(f"histories: {len(files):,} file(s) under {files[0].rpartition('/')[0]}")
