"""``pokerpipe evolve``: the co-evolutionary GA player, one generation's fitness at a time on Dask, resumable."""
from __future__ import annotations

import sys

import typer

from jobs.app import app, fail
from jobs.counts import COUNT
from jobs.options import DEFAULT_OUT, QUIET, SCHEDULER, TABLES, WORKERS, weight_source
from pipeline.ga.assessment.report import LBR_HANDS, REPORT_HANDS
from pipeline.ga.assessment.yardsticks import DEFAULT_RLCARD_HANDS
from pipeline.ga.budget import Estimate
from pipeline.ga.config import Config

DEFAULTS = Config()


@app.command()
def evolve(population: int = typer.Option(DEFAULTS.population, "--population", parser=COUNT,
                                          help="individuals per generation"),
           generations: int = typer.Option(DEFAULTS.generations, "--generations", parser=COUNT,
                                           help="generations in all (both phases)"),
           hands_per_match: int = typer.Option(DEFAULTS.hands_per_match, "--hands-per-match", parser=COUNT,
                                               help="hands of each evaluation (table session or heads-up match)"),
           seed: int = typer.Option(DEFAULTS.seed, "--seed", help="seed of every random choice and deal"),
           out: str = typer.Option(DEFAULT_OUT, "--out", "-o",
                                   help="folder or URL (s3://, gs://); the evolution writes <out>/evolve/"),
           fmt: str = typer.Option(DEFAULTS.format, "--format",
                                   help="table (individual + all trainers) or heads-up"),
           trainers: int = typer.Option(DEFAULTS.trainers, "--trainers", help="size of the trainer set"),
           trainer_generations: int = typer.Option(DEFAULTS.trainer_generations, "--trainer-generations",
                                                   parser=COUNT, help="generations of phase 1 (default: half)"),
           crossover: float = typer.Option(DEFAULTS.crossover_percent, "--crossover",
                                           help="chance (0-100) that a pair is crossed"),
           mutation: float = typer.Option(DEFAULTS.mutation_percent, "--mutation",
                                          help="chance (0-100) that a child is mutated"),
           mutation_share: float = typer.Option(DEFAULTS.mutation_share, "--mutation-share",
                                                help="share of used genes a mutation moves"),
           variance: float = typer.Option(DEFAULTS.variance, "--variance",
                                          help="a mutated threshold moves up to ±variance×200"),
           tournament: int = typer.Option(DEFAULTS.tournament, "--tournament",
                                          help="entrants per selection tournament"),
           patience: int = typer.Option(DEFAULTS.patience, "--patience",
                                        help="end a phase after K generations without progress"),
           samples: int = typer.Option(DEFAULTS.samples, "--samples", parser=COUNT,
                                       help="hand-weight samples per decision after the flop"),
           weights: str = typer.Option("auto", "--weights",
                                       help="hand weight after the flop: tables (`pokerpipe holdem-weights` into "
                                            "--tables), sampled, or auto (tables when built; a resumed run keeps its "
                                            "own)"),
           tables: str = TABLES,
           yardstick: str = typer.Option(DEFAULTS.yardstick, "--yardstick",
                                         help="fixed opponent of the progress curve"),
           layout: str | None = typer.Option(None, "--layout", help="chromosome layout: a JSON file of bucket "
                                             "counts and edges, or a player file (default: 4,860 genes)"),
           report_hands: int = typer.Option(REPORT_HANDS, "--report-hands", parser=COUNT,
                                            help="hands per engine yardstick in the report (0: no report)"),
           rlcard_hands: int = typer.Option(DEFAULT_RLCARD_HANDS, "--rlcard-hands", parser=COUNT,
                                            help="hands per rlcard opponent in the report (0: skip them)"),
           lbr_hands: int = typer.Option(LBR_HANDS, "--lbr-hands", parser=COUNT,
                                         help="heads-up hands of local best response against the final player in "
                                              "the report (0: skip it)"),
           workers: int | None = WORKERS, scheduler: str | None = SCHEDULER, quiet: bool = QUIET,
           force: bool = typer.Option(False, "--force", help="start over: the new run replaces <out>/evolve as it "
                                      "goes, and removes the old run's other files once its first generation is "
                                      "saved (a damaged checkpoint is never replaced without it)")
           ) -> None:
    """Evolve a fixed-limit player from random play against co-evolving trainers; write it and a report."""
    from pipeline.batch.errors import RunnerError
    from pipeline.batch.session import Session, local_processes
    from pipeline.batch.storage import Storage, StorageError
    from pipeline.core.budget import TooMuchWork
    from pipeline.ga.budget import estimate, refuse_report, refuse_too_long
    from pipeline.ga.checkpoint import CheckpointError, saved_weights
    from pipeline.ga.config import read_layout
    from pipeline.ga.evolve import evolve as run_evolution
    from pipeline.ga.folder import EvolveError, writing
    from pipeline.holdem.player import PlayerFileError

    try:
        files = Storage.open(out)
    except StorageError as e:
        raise fail(str(e)) from None
    if weights == "auto":
        weights = saved_weights(files) or weights     # a resumed run keeps its own; else tables when built
    source = weight_source(weights, tables)
    mode = "sampled" if source is None else "tables"
    cfg = Config(population=population, generations=generations, hands_per_match=hands_per_match, seed=seed,
                      format=fmt, trainers=trainers, trainer_generations=trainer_generations,
                      crossover_percent=crossover, mutation_percent=mutation, mutation_share=mutation_share,
                      variance=variance, tournament=tournament, patience=patience, samples=samples,
                 weights=mode, yardstick=yardstick, layout=read_layout(layout))
    report = refuse_report(cfg, report_hands, rlcard_hands, lbr_hands)      # beyond a day: refused
    refuse_too_long(cfg, local_processes(workers, scheduler), report)

    def line(row: dict) -> None:
        if not quiet:
            swap = f", trainer {row['trainer_out']} -> {row['trainer_in']}" if row["trainer_in"] >= 0 else ""
            print(f"generation {row['generation'] + 1}/{generations} (phase {row['phase']}, {row['operator']}): "
                  f"best {row['best_fitness']:+.2f} ± {row['best_stderr']:.2f}, mean {row['mean_fitness']:+.2f} "
                  f"BB/100; vs {yardstick} {row['yardstick_bb100']:+.2f}{swap}", file=sys.stderr)

    report_path = None
    try:
        with Session(workers, scheduler, quiet) as session:
            executor = session.executor_or_none("matches")           # one worker: no cluster to start
            if scheduler is not None:                                # the cluster reached: its size is known
                refuse_too_long(cfg, session.processes(), report)
            if not quiet:
                print(estimate_line(estimate(cfg, session.processes(), source, report_hands, rlcard_hands)),
                      file=sys.stderr)
            with writing(files):              # one writer of <out>/evolve, for the evolution and its report
                summary = run_evolution(cfg, files, executor=executor, weights=source, force=force,
                                        on_generation=line, locked=True)
                fresh = summary.resumed_at < summary.generations or not files.exists("report.md")
                if report_hands and summary.finished and fresh:       # a finished run's report is not made again
                    from pipeline.ga.assessment.report import build_report

                    report_path = build_report(files, report_hands, rlcard_hands, executor=executor,
                                               samples=samples, seed=seed, weights=source, lbr_hands=lbr_hands)
    except (CheckpointError, EvolveError, PlayerFileError, RunnerError, StorageError, TooMuchWork) as e:
        raise fail(f"{e}") from None
    if report_path is not None:
        print(f"report: {report_path}")
    print(f"final player: {summary.final_player} ({summary.generations} generations, "
          f"{summary.seconds_per_generation:.1f} s per generation)")


def estimate_line(e: Estimate) -> str:
    """One line: the hands the evolution and its report play at most and the time that takes (:func:`estimate`)."""
    from pipeline.core.budget import duration

    line = f"pokerpipe: evolve plays up to {e.hands:,} hands: about {duration(e.seconds)} on {e.workers} worker(s)"
    if e.report_hands:
        line += f", then its report {e.report_hands:,} more: about {duration(e.report_seconds)}"
    return line + " (measured here; resumable: rerun the same command after an interruption)"

