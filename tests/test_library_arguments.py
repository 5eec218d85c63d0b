"""Every public library function that takes card ids, indices, sizes or counts checks their type and range (issue 39).

The public functions are found, not listed: every callable a package exports (``__all__`` of ``pipeline`` and of
each of its packages).  Each must have a valid example call below — or be named, with the reason, among those
that take no such argument — so a new public function cannot skip the rule.  Each example names its numeric
arguments by kind; the test replaces one at a time with values no caller can mean (a bool, a float, text, a
negative, an id past the deck, a count beyond a day's work or any memory) and asks for a ``ValueError`` or
``TypeError`` that is one of pokerpipe's errors, in one line naming the argument — never a wrong answer, a raw
``IndexError``, ``MemoryError`` or ``OverflowError``, or work that starts (each call has seconds to refuse).
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import signal
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest

import pipeline
import pipeline.abstraction
import pipeline.datasets
import pipeline.equity
import pipeline.exploit
import pipeline.holdem
import pipeline.isomorphism
import pipeline.omaha
import pipeline.strength
from pipeline.core.errors import PokerpipeError
from pipeline.datasets.solve_plan import SolvePlan
from pipeline.ga.assessment.plan import EvaluatePlan

BAD = {
    # card ids: in a list of them, one id replaced
    "card": [-1, 52, 60, True, 2.5, "As", None, np.float64(3.0)],
    # an index into something of known size
    "index": [-1, 10**10, 10**30, True, 2.5, "3", None],
    # a count of things to do or to hold (hands, trials, bins, ...): none of these is one
    "count": [-1, 10**15, 10**30, True, 2.5, "3", None, float("nan")],
    # the same where None means the default
    "count?": [-1, 10**15, 10**30, True, 2.5, "3", float("nan")],
    # a seed: any integer of 64 bits, nothing else
    "seed": [True, 2.5, "3", 10**30],
}


@dataclass
class Example:
    """A valid call: ``call(*args, **kwargs)``; ``checked`` maps an argument (position or keyword) to its kind and the
    words its error must contain (the argument's name as the message says it).  A list argument of card ids is
    named ``(position_or_keyword, element)``."""

    call: Callable[..., Any]
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    checked: dict = field(default_factory=dict)


def _abstraction() -> Any:
    from pipeline.abstraction.lookup import Abstraction, StreetBuckets
    from pipeline.isomorphism.situations import street_size

    def mapped(n: int) -> Callable[[], np.ndarray]:
        return lambda: np.zeros(n, np.uint16)

    return Abstraction({s: StreetBuckets(s, 8, {}, mapped(street_size(n)))
                        for s, n in (("flop", 3), ("turn", 4), ("river", 5))}, "memory")


def _method(name: str) -> Callable[..., Any]:
    return lambda *a, **k: getattr(_abstraction(), name)(*a, **k)


POINTS = np.arange(40, dtype=np.float64).reshape(20, 2)
HAND7 = np.array([[48, 49, 50, 51, 0, 4, 8]])

EXAMPLES: dict[str, Example] = {
    "pipeline.format_card": Example(pipeline.format_card, (51,), checked={0: ("card", "card")}),
    "pipeline.format_cards": Example(pipeline.format_cards, ([51, 45],), checked={(0, 1): ("card", "card")}),
    "pipeline.situation_index": Example(pipeline.situation_index, ([51, 47], [0, 4, 8]),
                                        checked={(0, 1): ("card", "hole cards"), (1, 2): ("card", "board")}),
    "pipeline.situation_cards": Example(pipeline.situation_cards, (5, 3),
                                        checked={0: ("index", "situation index"), 1: ("index", "board cards")}),
    "pipeline.describe": Example(pipeline.describe, (7000,), checked={0: ("index", "value")}),
    "pipeline.isomorphism.situation_text": Example(lambda i, n: pipeline.isomorphism.situation_text(i, n), (5, 4),
                                                   checked={0: ("index", "situation index"),
                                                            1: ("index", "board cards")}),
    "pipeline.isomorphism.street_size": Example(lambda n: pipeline.isomorphism.street_size(n), (4,),
                                                checked={0: ("index", "board cards")}),
    "pipeline.isomorphism.canonical_boards": Example(lambda k: pipeline.isomorphism.canonical_boards(k), (3,),
                                                     checked={0: ("count", "k")}),
    "pipeline.isomorphism.all_card_sets": Example(lambda n, k: pipeline.isomorphism.all_card_sets(n, k), (10, 2),
                                                  checked={0: ("count", "n"), 1: ("count", "k")}),
    "pipeline.omaha.low_ranks": Example(lambda v: pipeline.omaha.low_ranks(v), (163,),
                                        checked={0: ("index", "value")}),
    "pipeline.abstraction.situation": Example(
        lambda *a, **k: pipeline.abstraction.situation(*a, **k), ([51, 47], [0, 4, 8, 12]), {"bins": 10},
        checked={(0, 0): ("card", "hole cards"), (1, 3): ("card", "board"), "bins": ("count", "bins")}),
    "pipeline.abstraction.Abstraction.bucket_of_index": Example(
        _method("bucket_of_index"), ("turn", 12), checked={1: ("index", "situation index")}),
    "pipeline.abstraction.Abstraction.bucket": Example(
        _method("bucket"), ([51, 47], [0, 4, 8, 12]), checked={(0, 1): ("card", "hole cards"),
                                                                 (1, 0): ("card", "board")}),
    "pipeline.abstraction.fit": Example(lambda *a, **k: pipeline.abstraction.fit(*a, **k), (POINTS, 3),
                                        {"seed": 1, "max_iterations": 5},
                                        checked={1: ("count", "k"), "seed": ("seed", "seed"),
                                                 "max_iterations": ("count", "max_iterations")}),
    "pipeline.abstraction.plusplus": Example(lambda *a, **k: pipeline.abstraction.plusplus(*a, **k), (POINTS, 3),
                                             {"metric": "l2", "seed": 1},
                                             checked={1: ("count", "k"), "seed": ("seed", "seed")}),
    "pipeline.equity.equity": Example(lambda *a, **k: pipeline.equity.equity(*a, **k), (["AhKh", "QsQd"],),
                                      {"trials": 10_000, "seed": 1, "threads": 1},
                                      checked={"trials": ("count?", "trials"), "seed": ("seed", "seed"),
                                               "threads": ("count?", "threads")}),
    "pipeline.strength.hand_strength": Example(lambda *a: pipeline.strength.hand_strength(*a), ("AhKh", "Qh7h2c", 1),
                                               checked={2: ("count", "opponents")}),
    "pipeline.strength.hand_strength_vs": Example(lambda *a: pipeline.strength.hand_strength_vs(*a),
                                                  ("AhKh", "Qh7h2c", "QQ+", 1), checked={3: ("count", "opponents")}),
    "pipeline.strength.hit_chances": Example(lambda *a: pipeline.strength.hit_chances(*a), (9, 47, 2),
                                             checked={0: ("count", "outs"), 1: ("count", "unseen"),
                                                      2: ("count", "cards to come")}),
    "pipeline.strength.outs_row": Example(lambda n: pipeline.strength.outs_row(n), (9,),
                                          checked={0: ("count", "outs")}),
    "pipeline.strength.pot_odds": Example(lambda *a: pipeline.strength.pot_odds(*a), (9, 47, 1, 100, 10),
                                          checked={0: ("count", "outs"), 1: ("count", "unseen"),
                                                   2: ("count", "cards to come")}),
    "pipeline.strength.win_odds": Example(lambda *a, **k: pipeline.strength.win_odds(*a, **k), ("AhKh", ""),
                                          {"max_opponents": 2, "trials": 1000, "seed": 1},
                                          checked={"max_opponents": ("count", "opponents"),
                                                   "trials": ("count", "trials"), "seed": ("seed", "seed")}),
    "pipeline.holdem.simulate": Example(lambda *a, **k: pipeline.holdem.simulate(*a, **k), (["tag", "station"], 10),
                                        {"seed": 1, "samples": 8},
                                        checked={1: ("count", "hands"), "seed": ("seed", "seed"),
                                                 "samples": ("count", "samples")}),
    "pipeline.exploit.local_best_response": Example(lambda *a, **k: pipeline.exploit.local_best_response(*a, **k),
                                                    ("fold", 10), {"seed": 1},
                                                    checked={1: ("count", "hands"), "seed": ("seed", "seed")}),
    "pipeline.datasets.load_abstraction": Example(lambda *a, **k: pipeline.datasets.load_abstraction(*a, **k),
                                                  ("nowhere",), {"k": 8, "bins": 10, "seed": 0},
                                                  checked={"k": ("count", "k"), "bins": ("count", "bins"),
                                                           "seed": ("seed", "seed")}),
    "pipeline.abstraction.preflop_situation": Example(lambda h: pipeline.abstraction.preflop_situation(h), ([51, 47],),
                                                      checked={(0, 0): ("card", "hole cards")}),
    "pipeline.datasets.load_waugh_buckets": Example(lambda *a, **k: pipeline.datasets.load_waugh_buckets(*a, **k),
                                                    ("nowhere", "flop"), {"k": 8, "bins": 10, "seed": 0},
                                                    checked={"k": ("count", "k"), "bins": ("count", "bins"),
                                                             "seed": ("seed", "seed")}),
    "pipeline.datasets.built_clusters": Example(lambda *a, **k: pipeline.datasets.built_clusters(*a, **k),
                                                ("nowhere",), {"seed": 0}, checked={"seed": ("seed", "seed")}),
    # the plans of the commands whose options they check (not exported by a package: the commands build them)
    "pipeline.ga.assessment.EvaluatePlan": Example(
        lambda *a, **k: EvaluatePlan(*a, **k).refuse_work(), ("p.json", ("tag", "rlcard-rule")),
        {"hands": 1_000, "rlcard_hands": 1_000, "samples": 8, "seats": 2},
        checked={"hands": ("count", "--hands"), "rlcard_hands": ("count", "--rlcard-hands"),
                 "samples": ("count", "--samples"), "seats": ("count?", "--seats")}),
    "pipeline.datasets.solve_plan.SolvePlan": Example(
        lambda *a, **k: SolvePlan(*a, **k).refuse_work(), ("leduc",), {"iterations": 1_000, "workers": 2},
        checked={"iterations": ("count", "--iterations"), "workers": ("count?", "--workers")}),
}

# Public callables that take no card id, index, size or count of their own (or only through another entry point
# checked above), with the reason.
NO_NUMBERS = {
    "pipeline.parse_card": "text", "pipeline.parse_cards": "text",
    "pipeline.evaluate": "an array of card ids, checked row by row (tests/evaluator)",
    "pipeline.category": "values from evaluate", "pipeline.CardError": "an error",
    "pipeline.ranges.parse_query": "text", "pipeline.ranges.parse_range": "text",
    "pipeline.ranges.Range": "a parsed range's arrays (made by the parsers)",
    "pipeline.strength.outs": "text", "pipeline.strength.HandStrength": "a result",
    "pipeline.videopoker.analyze": "a pay table, checked when made (tests/videopoker)",
    "pipeline.videopoker.break_even_royal": "a pay table", "pipeline.videopoker.builtin": "a name",
    "pipeline.videopoker.builtin_names": "none", "pipeline.videopoker.load": "a file (core.inputs)",
    "pipeline.videopoker.PayTable": "made by load/builtin, every pay checked (tests/cli/test_bad_input)",
    "pipeline.videopoker.Analysis": "a result", "pipeline.omaha.evaluate_omaha": "arrays checked row by row",
    "pipeline.omaha.evaluate_omaha_low": "arrays checked row by row",
    "pipeline.isomorphism.situation_index": "the root's", "pipeline.isomorphism.situation_cards": "the root's",
    "pipeline.isomorphism.suit_canonical_codes": "an array of card ids (the builders')",
    "pipeline.abstraction.Abstraction": "made by load_abstraction; its methods are checked above",
    "pipeline.abstraction.Clustering": "a result", "pipeline.abstraction.Situation": "a result",
    "pipeline.abstraction.assign": "arrays and a metric",
    "pipeline.equity.EquityResult": "a result", "pipeline.equity.PlayerEquity": "a result",
    "pipeline.evaluator.evaluate": "the root's", "pipeline.evaluator.category": "the root's",
    "pipeline.evaluator.describe": "the root's", "pipeline.exploit.LBRResult": "a result",
    "pipeline.holdem.SeatResult": "a result", "pipeline.holdem.SimResult": "a result",
    "pipeline.holdem.Table": "Table.make: policies by name, checked (tests/holdem)",
    "pipeline.holdem.Layout": "every field checked by type and range (tests/cli/test_reliability_holdem)",
    "pipeline.holdem.Player": "a layout and a gene table checked against it",
    "pipeline.ga.Config": "every field checked by type and range (ConfigError, tests/ga)",
    "pipeline.ga.Summary": "a result", "pipeline.ga.best_of": "a generation of a checked checkpoint",
    "pipeline.ga.evolve": "a Config (checked) and a folder",
    "pipeline.plots.heatmap_png": "draws data it is given", "pipeline.plots.line_chart": "draws data",
    "pipeline.plots.odds_png": "draws data", "pipeline.plots.threshold_map": "draws data",
    "pipeline.plots.convergence_png": "draws data (a solve's curve, written by pokerpipe solve)",
    "pipeline.batch.Dataset": "a base class", "pipeline.batch.Inputs": "a protocol",
    "pipeline.batch.ProgressExecutor": "made by Session", "pipeline.batch.RunReport": "a result",
    "pipeline.batch.Session": "--workers checked by the session (tests/batch)",
    "pipeline.batch.Storage": "a location", "pipeline.batch.run_dataset": "a dataset (its recipe checks)",
    "pipeline.datasets.dataset": "every parameter of every recipe: tests/datasets/test_parameters_property",
    "pipeline.datasets.EhsTable": "a recipe (ditto)", "pipeline.datasets.HoldemWeights": "a recipe (ditto)",
    "pipeline.datasets.Matchups": "a recipe (ditto)", "pipeline.datasets.OddsTable": "a recipe (ditto)",
    "pipeline.datasets.PreflopGrid": "a recipe (ditto)", "pipeline.datasets.Strategy": "a recipe (ditto)",
    "pipeline.datasets.VsRandom": "a recipe (ditto)",
    "pipeline.datasets.HandWeightTables": "its limits are the recipes' (ditto)",
    "pipeline.datasets.build": "a dataset (ditto) and --workers (Session)",
    "pipeline.datasets.build_many": "datasets (ditto)", "pipeline.datasets.catalog": "a folder",
    "pipeline.datasets.is_built": "a dataset (ditto)", "pipeline.datasets.matchup_arrays": "a table read verified",
    "pipeline.datasets.names": "none", "pipeline.datasets.open_storage": "a location",
    "pipeline.datasets.parameters": "a name", "pipeline.datasets.read": "a dataset (ditto)",
    "pipeline.datasets.registry": "none", "pipeline.datasets.update_catalog": "reports of a run",
    "pipeline.abstraction.WaughBuckets": "made by load_waugh_buckets from a file read verified (tests/abstraction)",
    "pipeline.evaluator.Deck": "a deck's description: the module's constants (STANDARD, SHORT_DECK, ...)",
    "pipeline.shortdeck.deck_of": "a ranking's name",
    "pipeline.shortdeck.describe": "pipeline.evaluator.describe (checked) with the short deck",
    "pipeline.shortdeck.equity": "pipeline.equity.equity (checked above) with the short deck",
    "pipeline.shortdeck.evaluate": "the root's evaluate with the short deck (its ids checked against the deck)",
    "pipeline.datasets.figures": "a name, checked as dataset() checks it", "pipeline.datasets.Measured": "a result",
}


def public_callables() -> list[str]:
    """Every callable exported by ``pipeline`` or one of its packages (errors, constants and protocols aside)."""
    found = []
    packages = [m.name for m in pkgutil.iter_modules(pipeline.__path__)]
    modules = [pipeline, *(importlib.import_module(f"pipeline.{name}") for name in packages)]
    for module in modules:
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if not callable(obj) or (inspect.isclass(obj) and issubclass(obj, BaseException) and name != "CardError"):
                continue
            found.append(f"{module.__name__}.{name}")
    return found


def test_every_public_callable_has_an_example_or_a_reason():
    examples = {name.rsplit(".", 1)[0] if name.count(".") > 2 and name.split(".")[-2][0].isupper() else name
                for name in EXAMPLES}
    missing = [n for n in public_callables() if n not in examples and n not in NO_NUMBERS]
    assert not missing, f"public callables with neither an example nor a reason: {missing}"


def _mutations() -> list[tuple[str, Any, Any]]:
    out = []
    for name, ex in EXAMPLES.items():
        for where, (kind, _) in ex.checked.items():
            for bad in BAD[kind]:
                out.append((name, where, bad))
    return out


class _Slow(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Slow


@pytest.mark.parametrize("name, where, bad", _mutations(), ids=lambda v: repr(v)[:30])
def test_bad_arguments_are_one_clear_error(name, where, bad):
    ex = EXAMPLES[name]
    args, kwargs = list(ex.args), dict(ex.kwargs)
    kind, words = ex.checked[where]
    if isinstance(where, tuple):                  # one card id inside a list argument
        key, element = where
        target = args if isinstance(key, int) else kwargs
        cards = list(target[key])
        cards[element] = bad
        target[key] = cards
    elif isinstance(where, int):
        args[where] = bad
    else:
        kwargs[where] = bad
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(10)
    try:
        got = ex.call(*args, **kwargs)
    except _Slow:
        pytest.fail(f"{name} started work with {where}={bad!r} instead of refusing it")
    except PokerpipeError as e:
        assert isinstance(e, (ValueError, TypeError)), type(e)
        message = str(e)
        assert "\n" not in message and len(message) < 400, message
        assert words in message, f"{name}: {where}={bad!r}: {message!r} does not name {words!r}"
        return
    except Exception as e:                        # noqa: BLE001  (what the test is about)
        pytest.fail(f"{name} with {where}={bad!r} raised {type(e).__name__}: {e}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    pytest.fail(f"{name} accepted {where}={bad!r} and answered {got!r:.80}")
