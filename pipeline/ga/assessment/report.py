"""``<out>/report.md`` of an evolution: its progress, its trainers, the final player's style and results.

Pictures (PNG, beside the report): best and mean fitness per generation, the
best individual against the yardstick with its 95% band, the used share of the
chromosome, and the final player's mean raise/call thresholds by hand category
and street.  The style figures (VPIP, PFR, aggression by street) come from the
final player's own hands at the trainer table.
"""
from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import Any, Optional, Sequence

import numpy as np

from ...core.arrow import values
from ...core.budget import refuse_beyond
from ...core.files import Files
from ...core.inputs import integer
from ...evaluator.classes import CATEGORY_NAMES
from ...holdem.engine import A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE
from ...holdem.player import Player
from ...holdem.policies import DEFAULT_SAMPLES
from ...holdem.record import record
from ...holdem.seating import Table
from ...holdem.simulate import play_deals
from ...holdem.weights import WeightSource, preflop_table
from ...holdem.work import workers_of
from ...plots.evolution import line_chart, threshold_map
from .. import checkpoint
from ..folder import FINAL_PLAYER, FOLDER, EvolveError, best_of, load_player, read_parquet
from .yardsticks import YardstickResult, trainers_in

STREETS = ("preflop", "flop", "turn", "river")
STYLE_HANDS = 4_000
REPORT_HANDS = 200_000       # hands per engine yardstick in the report of `pokerpipe evolve`
LBR_HANDS = 20_000           # heads-up hands of local best response against the final player: about ±30 mbb
MAX_REPORT_HANDS = 10**12    # a range check only: the report's estimate refuses far fewer


def style(player: Player, trainers: Sequence[Player], hands: int = STYLE_HANDS, seed: int = 11,
          samples: int = DEFAULT_SAMPLES, weights: Optional[WeightSource] = None) -> dict[str, Any]:
    """VPIP, PFR and per-street aggression of ``player`` (seat 1) at the trainer table, and the genes it used."""
    table = Table.make([player, *trainers], samples=samples)
    n = table.seats
    counts = np.zeros((4, 5), np.int64)          # street x (bet/raise, call, check, fold, decisions)
    vpip = pfr = played = 0
    step = 500
    deals = -(-hands // n)
    for first in range(0, deals * n, step):
        for hand in record(table, seed, first, min(step, deals * n - first), weights=weights):
            played += 1
            put_in = raised = False
            for street, seat, action, _amount, _level in hand.actions:
                if seat != 0 or action < A_FOLD:
                    continue
                col = {A_BET: 0, A_RAISE: 0, A_CALL: 1, A_CHECK: 2, A_FOLD: 3}[int(action)]
                counts[street, col] += 1
                counts[street, 4] += 1
                if street == 0 and action in (A_CALL, A_BET, A_RAISE):
                    put_in = True
                    raised |= action in (A_BET, A_RAISE)
            vpip += put_in
            pfr += raised
    used = play_deals(table, seed, 0, deals, True, preflop_table(), weights)[4][0].astype(np.bool_)
    return {"hands": played, "vpip": vpip / max(played, 1), "pfr": pfr / max(played, 1), "counts": counts,
            "used": used}


def thresholds(player: Player, used: np.ndarray) -> dict[str, np.ndarray]:
    """Mean raise (u0) and call (u1) thresholds over used genes, by category (rows) and street (columns)."""
    shape = player.layout.shape
    g = player.genes.reshape(*shape, 2).astype(np.float64)
    u = used.reshape(shape)
    axes = tuple(range(2, len(shape)))
    n = u.sum(axis=axes)
    out = {}
    for k, name in ((0, "raise threshold u0"), (1, "call threshold u1")):
        s = np.where(u, g[..., k], 0.0).sum(axis=axes)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name] = np.where(n > 0, s / np.maximum(n, 1), np.nan)
    return out


def _fmt(x: float) -> str:
    return f"{x:+.2f}" if math.isfinite(x) else "n/a"


def write_report(files: Files, results: Sequence[YardstickResult], samples: int = DEFAULT_SAMPLES,
                 weights: Optional[WeightSource] = None, curve: Sequence[tuple[int, int, YardstickResult]] = (),
                 lbr: Optional[Any] = None) -> str:
    """Write ``report.md`` and its PNGs beside the evolution under ``files`` (from its ``evolve/`` folder);
    return the report's location.

    ``curve`` holds ``(phase, generation, result)``: a generation's best
    re-measured against the yardstick (see :func:`remeasure`).
    """
    state = checkpoint.load_state(files)
    digests = state.get("digests") or {}
    prog = read_parquet(files, "progress.parquet", digests=digests).to_pylist()
    player = load_player(files, FINAL_PLAYER, digests=digests)
    trainers = trainers_in(files, FOLDER, digests=digests)
    gens = [r["generation"] for r in prog]
    mean_used = []
    for g in gens:
        t = read_parquet(files, "generations", f"gen-{g:05d}.parquet", digests=digests).select(["used_share"])
        mean_used.append(float(np.mean(values(t.column("used_share")))))
    pngs = {
        "report-fitness.png": line_chart(gens, {"best": [r["best_fitness"] for r in prog],
                                                "mean": [r["mean_fitness"] for r in prog],
                                                "best trainer": [r["best_trainer_fitness"] for r in prog]},
                                         "Fitness against the trainers (BB/100)", "BB/100"),
        "report-yardstick.png": line_chart(
            gens, {"best vs yardstick": [r["yardstick_bb100"] for r in prog]},
            "Best individual against the fixed yardstick, 95% band (BB/100)", "BB/100",
            band=([r["yardstick_bb100"] - 1.96 * r["yardstick_stderr"] for r in prog],
                  [r["yardstick_bb100"] + 1.96 * r["yardstick_stderr"] for r in prog])),
        "report-used.png": line_chart(gens, {"best": [100 * r["best_used_share"] for r in prog],
                                             "mean": [100 * m for m in mean_used]},
                                      "Used share of the chromosome (%)", "%"),
    }
    st = style(player, trainers, samples=samples, weights=weights)
    th = thresholds(player, st["used"])
    pngs["report-thresholds.png"] = threshold_map(th, CATEGORY_NAMES, STREETS[1:],
                                                  "Final player's thresholds by hand category and street")
    for name, data in pngs.items():
        _put(files, data, name)
    cfg = state["config"]
    first, last = prog[0], prog[-1]
    swaps = [r for r in prog if r["trainer_in"] >= 0]
    lines = [
        "# Evolution report", "",
        f"Population {cfg['population']}, {len(prog)} generations ({sum(r['phase'] == 1 for r in prog)} in phase 1), "
        f"{cfg['hands_per_match']:,} hands per match, format `{cfg['format']}`, {cfg['trainers']} trainers, "
        f"seed {cfg['seed']}. Fitness is BB/100 against the trainer set on the generation's duplicate deals.", "",
        "![fitness](report-fitness.png)", "",
        f"## Against the yardstick (`{cfg['yardstick']}`, at the format's table, the same deals every generation)",
        "",
        "![yardstick](report-yardstick.png)", "",
        "| generation | BB/100 | 95% interval |", "|---|---|---|",
    ]
    for r in (first, last):
        half = 1.96 * r["yardstick_stderr"]
        lo, hi = r["yardstick_bb100"] - half, r["yardstick_bb100"] + half
        lines.append(f"| {r['generation']} | {_fmt(r['yardstick_bb100'])} | [{_fmt(lo)}, {_fmt(hi)}] |")
    if curve:
        lines += ["", f"Each phase's first and last best, re-measured over {curve[0][2].hands:,} hands of other "
                      "deals:", "", "| phase | generation | BB/100 | 95% interval |", "|---|---|---|---|"]
        for phase, g, y in curve:
            lo, hi = y.ci95
            lines.append(f"| {phase} | {g} | {_fmt(y.bb_per_100)} | [{_fmt(lo)}, {_fmt(hi)}] |")
    lines += ["", f"## Trainer replacements ({len(swaps)})", ""]
    if swaps:
        lines += ["| generation | joined (individual) | left | its fitness | best trainer's |", "|---|---|---|---|---|"]
        lines += [f"| {r['generation']} | {r['trainer_in']} | {r['trainer_out']} | {_fmt(r['best_fitness'])} | "
                  f"{_fmt(r['best_trainer_fitness'])} |" for r in swaps]
    else:
        lines.append("No individual beat the best trainer with positive winnings.")
    lines += ["", "## Used share of the chromosome", "", "![used](report-used.png)", "",
              f"The final player consulted {100 * float(st['used'].mean()):.2f}% of its "
              f"{player.layout.genes:,} genes in {st['hands']:,} hands at the trainer table.", "",
              "## The final player's style (at the trainer table)", "",
              f"VPIP {100 * st['vpip']:.1f}%, PFR {100 * st['pfr']:.1f}%.", "",
              "| street | decisions | bet/raise | call | check | fold | aggression (bets+raises)/calls |",
              "|---|---|---|---|---|---|---|"]
    for s, name in enumerate(STREETS):
        c = st["counts"][s]
        af = c[0] / c[1] if c[1] else math.inf
        lines.append(f"| {name} | {c[4]:,} | {c[0]:,} | {c[1]:,} | {c[2]:,} | {c[3]:,} | {af:.2f} |")
    lines += ["", "![thresholds](report-thresholds.png)", "", "## Win rate against the yardsticks", "",
              "Engine bots: the player and copies of the bot at the table size it was evolved for; "
              "trainers: the player at the trainer table; rlcard: heads-up in rlcard's environment.", "",
              "| opponent | seats | hands | BB/100 | 95% interval |", "|---|---|---|---|---|"]
    for y in results:
        lo, hi = y.ci95
        lines.append(f"| {y.opponent} | {y.seats} | {y.hands:,} | {_fmt(y.bb_per_100)} | [{_fmt(lo)}, {_fmt(hi)}] |")
    if lbr is not None:
        lines += ["", "## How exploitable: local best response", "",
                  "Local best response (Lisý & Bowling 2017; `pokerpipe exploit`, docs/exploit.md) against the final "
                  "player heads-up: a lower bound on its exploitability (the `fold` baseline gives 750).", "",
                  "| hands | LBR wins, mbb/hand | 95% interval |", "|---|---|---|",
                  f"| {lbr.hands:,} | {lbr.mbb_per_hand:.1f} | [{lbr.ci95[0]:.1f}, {lbr.ci95[1]:.1f}] |"]
    _put(files, ("\n".join(lines) + "\n").encode(), "report.md")
    return files.url("report.md")


def _put(files: Files, data: bytes, name: str) -> None:
    """Write one of the report's files beside the evolution; :class:`~..folder.EvolveError` if it cannot be."""
    try:
        files.write_atomic(data, name)
    except OSError as e:
        raise EvolveError(f"cannot write {files.url(name)}: {getattr(e, 'strerror', None) or type(e).__name__}") \
            from None


def report_opponents(yardstick: str, rlcard_hands: int) -> list[str]:
    """The opponents the evolution's report plays, one match each: every engine yardstick and the trainers,
    the ``yardstick`` again for up to four re-measured generations, and the rlcard opponents unless
    ``rlcard_hands`` is 0."""
    from .yardsticks import REPORTED, RLCARD

    return [y for y in REPORTED if rlcard_hands or y not in RLCARD] + [yardstick] * 4


def report_seconds(seats: int, yardstick: str, hands: int, rlcard_hands: int, lbr_hands: int = 0,
                   workers: int = 1, tables: bool = False, sampled: bool = False) -> float:
    """The least time the report takes: ``hands`` against each engine opponent at ``seats`` seats and
    ``rlcard_hands`` against each rlcard one (:func:`.yardsticks.fastest`; ``sampled``: the hand weights
    sampled, not read from the weight tables), and ``lbr_hands`` of local best response against the final
    player (:func:`pipeline.exploit.lbr.lbr_seconds`; ``tables``: its weights read from the hand-weight
    tables), on ``workers`` processes: what a refusal of a report beyond a day rests on."""
    from ...exploit.lbr import lbr_seconds
    from .yardsticks import fastest

    seconds = fastest(report_opponents(yardstick, rlcard_hands), hands, rlcard_hands, seats, workers,
                      sampled) if hands else 0.0
    return seconds + (lbr_seconds("evolved player", lbr_hands, workers, tables) if lbr_hands else 0.0)


def build_report(files: Files, hands: int, rlcard_hands: int, *, executor: Optional[Executor] = None,
                 samples: int = DEFAULT_SAMPLES, seed: int = 0, weights: Optional[WeightSource] = None,
                 lbr_hands: int = 0) -> str:
    """Measure the final player under ``files`` against every yardstick, then :func:`write_report`.

    The rlcard opponents are skipped (and the report says so) when rlcard is
    not installed or ``rlcard_hands`` is 0.  With ``lbr_hands`` the report also
    gives the final player's local best response figure (:mod:`pipeline.exploit`)
    over that many heads-up hands.
    """
    from .yardsticks import REPORTED, against

    hands = integer(hands, "hands", 1, MAX_REPORT_HANDS, error=EvolveError, strict=True)
    rlcard_hands = integer(rlcard_hands, "rlcard_hands", 0, MAX_REPORT_HANDS, error=EvolveError, strict=True)
    lbr_hands = integer(lbr_hands, "lbr_hands", 0, MAX_REPORT_HANDS, error=EvolveError, strict=True)
    state = checkpoint.load_state(files)
    digests = state.get("digests") or {}
    player = load_player(files, FINAL_PLAYER, digests=digests)
    trainers = trainers_in(files, FOLDER, digests=digests)
    config: dict = state.get("config") if isinstance(state.get("config"), dict) else {}  # type: ignore[assignment]
    refuse_beyond(report_seconds(len(trainers) + 1 if config.get("format") == "table" else 2,
                                 str(config.get("yardstick", "tag")), hands, rlcard_hands, lbr_hands,
                                 workers_of(executor), weights is not None, weights is None),
                  f"the report ({hands:,} hands a yardstick, {lbr_hands:,} of local best response)",
                  "fewer report hands or LBR hands")
    results = []
    for name in REPORTED:
        if name.startswith("rlcard"):
            if not rlcard_hands or not rlcard_available():
                continue
            results.append(against(player, name, rlcard_hands, seed, samples=samples, weights=weights))
        else:
            results.append(against(player, name, hands, seed, executor=executor, samples=samples, trainers=trainers,
                                   weights=weights))
    lbr = None
    if lbr_hands:
        from ...exploit import local_best_response

        lbr = local_best_response(player, lbr_hands, seed, executor=executor, weights=weights)
    return write_report(files, results, samples, weights, remeasure(files, hands, executor=executor, samples=samples,
                                                                     seed=seed, weights=weights), lbr)


def remeasure(files: Files, hands: int, *, executor: Optional[Executor] = None, samples: int = DEFAULT_SAMPLES,
              seed: int = 0, weights: Optional[WeightSource] = None) -> list[tuple[int, int, YardstickResult]]:
    """Each phase's first and last best (:func:`~..folder.best_of`) against the run's yardstick over ``hands`` hands.

    The per-generation yardstick match is only a match long, too short to
    show a trend between neighbours; this measures the ends of the curve at
    the report's length.  Generations whose best is not kept are skipped.
    """
    from .yardsticks import against

    state = checkpoint.load_state(files)
    yardstick = state["config"]["yardstick"]
    prog = read_parquet(files, "progress.parquet", digests=state.get("digests") or {}).select(
        ["generation", "phase"]).to_pylist()
    out = []
    for phase in (1, 2):
        gens = [r["generation"] for r in prog if r["phase"] == phase]
        for g in sorted(set(gens[:1] + gens[-1:])):
            try:
                best = best_of(files, g)
            except EvolveError:
                continue
            out.append((phase, g, against(best, yardstick, hands, seed + 1, executor=executor, samples=samples,
                                          weights=weights)))
    return out


def rlcard_available() -> bool:
    """Whether the optional rlcard extra is installed."""
    import importlib.util

    return importlib.util.find_spec("rlcard") is not None
