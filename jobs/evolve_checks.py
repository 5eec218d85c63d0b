"""Input checks and the time estimate of ``pokerpipe evolve``."""
from __future__ import annotations

from typing import Any

from jobs.app import fail


def make_config(**values: Any) -> Any:
    """The evolution's :class:`pipeline.ga.config.Config`, or one line and exit 2 naming the bad option."""
    from pipeline.ga.config import Config, ConfigError

    try:
        return Config(**values)
    except ConfigError as e:
        raise fail(str(e)) from None


def read_layout(path: str | None) -> Any:
    """The chromosome :class:`~pipeline.holdem.player.Layout` of ``--layout FILE`` (default layout without one).

    The file is JSON: a layout object (any of :data:`pipeline.holdem.player.LAYOUT_KEYS`; missing keys take
    the defaults) or a player file, whose layout is taken; read by :func:`pipeline.holdem.player.load_layout`
    (a regular file of bounded size and nesting, every field checked by type and range).
    """
    from pipeline.holdem.player import Layout, LayoutError, load_layout

    if path is None:
        return Layout()
    try:
        return load_layout(path)
    except LayoutError as e:
        raise fail(f"--layout: {e}") from None


def resolve_weights(weights: str, tables: str, files: Any) -> tuple[str, Any]:
    """``(mode, source)`` for ``--weights``: ``tables`` or ``sampled``, and the hand-weight tables to play with
    (None when sampled).  ``auto`` keeps a checkpoint's own mode (under ``files``), else tables when built."""
    from jobs.options import weight_source
    from pipeline.ga.checkpoint import CheckpointError, load_state

    if weights == "auto":
        try:
            config = load_state(files).get("config")
            mode = config.get("weights") if isinstance(config, dict) else None
            if mode in ("tables", "sampled"):
                weights = mode
        except (CheckpointError, OSError):
            pass                                  # no (usable) checkpoint: the run's own check reports damage
    source = weight_source(weights, tables)
    return ("sampled" if source is None else "tables"), source


def local_workers(workers: int | None, scheduler: str | None) -> int:
    """The processes a run on this machine plays on (``--workers``, else every core); 1 before a cluster at
    ``scheduler`` is reached, whose size is then :func:`cluster_workers`."""
    from pipeline.core.combinatorics import available_cores

    if scheduler is not None:
        return 1
    return max(1, min(workers or available_cores(), available_cores()))


def cluster_workers(session: Any) -> int:
    """The worker threads of the session's cluster (reached)."""
    return max(1, sum(session.client().nthreads().values()))


def report_seconds(cfg: Any, report_hands: int, rlcard_hands: int, lbr_hands: int = 0) -> float:
    """The least time the evolution's report takes (one process), for the refusal of runaway work
    (:func:`pipeline.ga.assessment.report.report_seconds`, which the report applies itself too)."""
    from pipeline.ga.assessment.report import report_seconds as seconds

    seats = cfg.trainers + 1 if cfg.format == "table" else 2
    return seconds(seats, cfg.yardstick, report_hands, rlcard_hands, lbr_hands, tables=cfg.weights == "tables")


RLCARD_RATE = 1_500      # rlcard hands per second here (measured 1,000-2,200: rlcard plays in Python)


def estimate(cfg: Any, session: Any, weights: Any = None, report_hands: int = 0, rlcard_hands: int = 0) -> str:
    """One line: the hands the evolution and its report play at most and the time that takes at the rate
    measured now (the report's engine matches at the evolution's rate, one process; rlcard's at its own)."""
    from pipeline.core.budget import duration
    from pipeline.ga.assessment.report import report_opponents
    from pipeline.ga.assessment.yardsticks import RLCARD
    from pipeline.ga.budget import hand_rate, planned_hands

    hands = planned_hands(cfg)
    workers = cluster_workers(session) if session.scheduler is not None else local_workers(session.workers, None)
    rate = hand_rate(cfg, weights=weights)
    seconds = hands / rate / workers
    line = f"pokerpipe: evolve plays up to {hands:,} hands: about {duration(seconds)} on {workers} worker(s)"
    if report_hands:
        opponents = report_opponents(cfg.yardstick, rlcard_hands)
        engine = sum(o not in RLCARD for o in opponents) * report_hands
        rlcard = sum(o in RLCARD for o in opponents) * rlcard_hands
        line += (f", then its report {engine + rlcard:,} more: about "
                 f"{duration(engine / rate + rlcard / RLCARD_RATE)}")
    return line + " (measured here; resumable: rerun the same command after an interruption)"
