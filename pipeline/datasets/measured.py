"""What each dataset costs with its default parameters, measured: rows, size on disk, time on 2 cores.

``pokerpipe datasets`` and ``pokerpipe tables --help`` show these figures for a
dataset not built yet, so that an overnight ``tables --all`` can be planned
without building anything.  Each was measured on this project's 2-core machine
(AMD EPYC, Zen 5, AVX2 and AVX-512, shared with other jobs: the load is given),
kernels compiled, the dataset's inputs already built:

* ``rows`` — the rows of the table (exact for the enumerations);
* ``bytes`` — on disk: its Parquet parts and its side outputs (``None``: not measured);
* ``seconds`` — wall seconds of its own build on 2 workers, as its manifest
  records them (``None``: not measured);
* ``how`` — where the figure comes from: the command and the load, or the
  documentation page that measured it;
* ``estimated`` — the size and time were not measured whole but scaled from a
  smaller build of the same dataset (fewer trials, hands or rows: ``how``
  says which), so they are shown with ``~``.

``benchmarks/bench_dataset_figures.py`` measures them again and prints the
entries of :data:`FIGURES` (a build's own figures are in its manifest).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Measured:
    """One dataset's measured figures with its default parameters."""

    rows: int                  # rows of the table
    bytes: Optional[int]       # on disk, parts and side outputs
    seconds: Optional[float]   # wall seconds on 2 workers, inputs built, kernels compiled
    how: str                   # the measurement: command and load, or the page that gives it
    estimated: bool = False    # bytes and seconds scaled from a smaller build (how says which)


_EHS = "docs/measured.md, benchmarks/bench_ehs_table.py (parts only)"
_ABSTRACTION = "docs/abstraction.md, benchmarks/bench_abstraction.py, k = 256, machine shared (size not measured)"

_ABSTRACTION_SIZE = (_ABSTRACTION.replace(" (size not measured)", "") + "; size (parts and side outputs) from a "
                     "build with limit=20, 2026-12-05: {}")
_RUN = "benchmarks/bench_dataset_figures.py, 2 workers, AMD EPYC, 2 cores, AVX-512, load average 7.8, 2026-12-04"
_RUN_WEIGHTS = _RUN.replace("load average 7.8", "load average 5.9")
_ROWS = "rows: the recipe's exact count; size and time not measured yet"
_WAUGH = ("pokerpipe tables abstraction/{{flop,turn,preflop}}-waugh -p abstraction/flop-waugh.limit=20 -p "
          "abstraction/turn-waugh.limit=20 --workers 2 (load 6-9, 2026-12-05): {}")
_WAUGH_BYTES = ("size: the flat export, 2 bytes an index (as written), and the parts about 1 byte an index (k = 256 "
                "buckets as uint16 after compression; estimated)")
_LIMITED = ("the export's own time on an abstraction built with limit=20 (it indexes every situation either way); "
            + _WAUGH_BYTES)
_SCALED = ("scaled from a smaller build, benchmarks/bench_scaling.py --workers 2 {}; AMD EPYC, 2 cores, AVX-512, "
           "load average 9-11 (task CPU seconds, not wall, carry the load), 2026-12-05")

FIGURES: dict[str, Measured] = {
    "matchups": Measured(47_008, 1_126_142, 90.689, _RUN),
    "preflop-grid": Measured(28_561, 1_381_615, 6.119, _RUN),
    "two-opponents": Measured(5_408, 252_437, 43.08, _RUN),
    "vs-random": Measured(1_521, 465_067, 17.493, _RUN),
    "odds-table": Measured(20, 5_504, 0.018, _RUN),
    "shortdeck-matchups": Measured(10_215, 221_922, 3.954, _RUN),
    "shortdeck-preflop-grid": Measured(6_561, 375_651, 0.272, _RUN),
    "shortdeck-vs-random": Measured(729, 311_312, 13.276, _RUN),
    "videopoker/aces-and-faces-8-5": Measured(134_459, 3_346_988, 2.407, _RUN),
    "videopoker/bonus-poker-7-5": Measured(134_459, 3_753_847, 2.784, _RUN),
    "videopoker/bonus-poker-8-5": Measured(134_459, 3_749_434, 2.569, _RUN),
    "videopoker/bonus-poker-deluxe-8-6": Measured(134_459, 3_283_980, 2.276, _RUN),
    "videopoker/bonus-poker-deluxe-9-6": Measured(134_459, 3_291_172, 2.475, _RUN),
    "videopoker/deuces-wild-full-pay": Measured(134_459, 3_978_852, 3.974, _RUN),
    "videopoker/deuces-wild-illinois": Measured(134_459, 3_967_729, 2.489, _RUN),
    "videopoker/deuces-wild-nsu": Measured(134_459, 3_970_213, 2.257, _RUN),
    "videopoker/double-bonus-10-7": Measured(134_459, 3_783_613, 4.334, _RUN),
    "videopoker/double-bonus-9-6-5": Measured(134_459, 3_696_771, 3.969, _RUN),
    "videopoker/double-bonus-9-7": Measured(134_459, 3_774_297, 2.31, _RUN),
    "videopoker/double-double-bonus-10-6": Measured(134_459, 3_746_609, 3.272, _RUN),
    "videopoker/double-double-bonus-9-6": Measured(134_459, 3_745_658, 3.631, _RUN),
    "videopoker/jacks-or-better-6-5": Measured(134_459, 3_346_510, 3.633, _RUN),
    "videopoker/jacks-or-better-7-5": Measured(134_459, 3_344_446, 5.258, _RUN),
    "videopoker/jacks-or-better-8-5": Measured(134_459, 3_345_461, 3.062, _RUN),
    "videopoker/jacks-or-better-8-6": Measured(134_459, 3_288_638, 3.208, _RUN),
    "videopoker/jacks-or-better-9-5": Measured(134_459, 3_345_248, 2.726, _RUN),
    "videopoker/jacks-or-better-9-6": Measured(134_459, 3_295_748, 3.483, _RUN),
    "videopoker/joker-poker-kings": Measured(150_891, 4_176_868, 3.045, _RUN),
    "videopoker/tens-or-better-6-5": Measured(134_459, 3_359_797, 1.879, _RUN),
    "videopoker/triple-double-bonus-9-7": Measured(134_459, 3_847_152, 2.255, _RUN),
    "ehs-table/flop": Measured(1_286_792, 65_000_000, 157.0, _EHS),
    "ehs-table/turn": Measured(13_960_050, 324_000_000, 79.0, _EHS),
    "ehs-table/river": Measured(123_156_254, 756_000_000, 72.5, _EHS),
    "abstraction/preflop": Measured(169, 46_419, 40.6, _ABSTRACTION_SIZE.format("as built, parts and side outputs")),
    "abstraction/river-centroids": Measured(256, 15_459, 257.2, _ABSTRACTION_SIZE.format(
        "as a limited build wrote its 256 centroids"), True),
    "abstraction/river": Measured(123_156_254, 1_800_000_000, 411.7, _ABSTRACTION.replace(" (size not measured)", "")),
    "abstraction/turn-centroids": Measured(256, 12_517, 145.6, _ABSTRACTION_SIZE.format(
        "as a limited build wrote its 256 centroids"), True),
    "abstraction/turn": Measured(13_960_050, 191_700_000, 149.0, _ABSTRACTION_SIZE.format(
        "133,675 B for the 11,419 rows of a limited build, x rows, + its dense arrays, 28,282,980 B"), True),
    "abstraction/flop-centroids": Measured(256, 34_745, 727.7, _ABSTRACTION_SIZE.format(
        "as a limited build wrote its 256 centroids"), True),
    "abstraction/flop": Measured(1_286_792, 69_130_000, 332.3, _ABSTRACTION_SIZE.format(
        "692,468 B for the 13,607 rows of a limited build, x rows, + its dense arrays, 3,638,928 B"), True),
    "abstraction/report": Measured(2 * 4 * 256, 66_602, 110.3, _ABSTRACTION_SIZE.format(
        "as a limited build wrote its 2,048 rows, report and pictures"), True),
    "matchups-3way": Measured(13_763_646, 401_000_000, 6_200.0, _SCALED.format(
        "-p matchups-3way.limit=20000: its tasks' 18.0 CPU s x 688 rows over 2 workers, bytes x 688"), True),
    "holdem-weights/flop": Measured(1_286_792, 67_914_737, 71.883, _RUN_WEIGHTS),
    "holdem-weights/turn": Measured(13_960_050, 546_964_085, 45.204, _RUN_WEIGHTS),
    "holdem-weights/river": Measured(123_156_254, 795_232_821, 71.036, _RUN_WEIGHTS),
    "preflop-3way": Measured(818_480, 59_600_000, 290.0, "rows: the dealable triples of classes c1 <= c2 <= c3 "
                             "(818,805 triples, 325 need five cards of one rank), counted by brute force; size and "
                             "time scaled from a build on the first 40,000 rows of matchups-3way (375,847 B for "
                             "5,160 rows; 0.85 s, x 344 for the whole input), load 2, 2026-12-05", True),
    "exploitability-exact": Measured(7 * 2 * 1_755, 260_600_000, 49_670.0,
                                     "pipeline.datasets.recipes.exploitability_exact.FLOP_SECONDS: 56.6 CPU s a "
                                     "canonical flop "
                                     "against tag "
                                     "(benchmarks/bench_exact_br.py --policy tag --flops 3, load 2-3) x 1,755 over 2 "
                                     "workers; not run in full; size: 24,570 rows of 1,326 float64 (Parquet keeps "
                                     "distinct floats at about their 8 bytes)", True),
    "exploitability": Measured(70, 394_720, 806.0, _SCALED.format(
        "-p exploitability.hands=5000: its tasks' 80.1 CPU s x 20 over 2 workers, + 5 s of cluster start; bytes: "
        "39,472 for the 7 parts of hands=2000, x 10 parts"), True),
    "abstraction/preflop-waugh": Measured(169, 3_137, 0.034, _WAUGH.format("as built")),
    "abstraction/flop-waugh": Measured(1_286_792, 3_860_000, 2.0, _WAUGH.format(_LIMITED), True),
    "abstraction/turn-waugh": Measured(13_960_050, 41_900_000, 4.0, _WAUGH.format(_LIMITED), True),
    "abstraction/river-waugh": Measured(123_156_254, 369_500_000, 35.0, _WAUGH.format(
        "scaled from turn-waugh's 4.0 s by the indices (x 8.8); not built; " + _WAUGH_BYTES), True),
    "omaha-vs-random": Measured(16_432 * 5, 2_529_499, 281.0, _SCALED.format(
        "-p omaha-vs-random.trials=230000: its tasks' 55.0 CPU s x 10 over 2 workers, + 6 s of cluster start; "
        "bytes as built in opponents=K/ folders with trials=23000 (the rows do not depend on the trials)"), True),
    "omaha5-vs-random": Measured(134_459 * 5, 16_299_632, 2_770.0, _SCALED.format(
        "-p omaha5-vs-random.trials=23000: its tasks' 55.3 CPU s x 100 over 2 workers, + 6 s of cluster start; "
        "bytes as built in opponents=K/ folders with trials=2300 (the rows do not depend on the trials)"), True),
}


def measured(name: str) -> Optional[Measured]:
    """The recorded figures of dataset ``name`` with its default parameters, or None where none were measured."""
    return FIGURES.get(name)
