"""Every SIMD path this machine can run (AVX-512, AVX2: pipeline.core.cpu) against the scalar kernels: the same
values for seven-card arrays and prebuilt hands, of the 52-card deck and the short deck, and the first bad row named
wherever it falls in a block of eight or in the tail.  A path the CPU lacks is skipped (CI runs whichever its
machine has)."""
import numpy as np
import pytest

from pipeline import CardError, evaluate
from pipeline.core.cpu import PATHS, runnable_paths
from pipeline.evaluator import SHORT_DECK, SHORT_DECK_TRIPS, category
from pipeline.evaluator.hands import CHUNK, _evaluate_chunks, _evaluate_keys, evaluate_keys, hand_keys
from pipeline.evaluator.kernels import evaluate_into
from pipeline.evaluator.simd import evaluate_hands7, offsets32
from pipeline.evaluator.tables import tables

VECTOR_PATHS = [pytest.param(p, marks=pytest.mark.skipif(p not in runnable_paths(), reason=f"this CPU lacks {p}"))
                for p in PATHS[1:]]
FLUSHES = np.array([[0, 4, 8, 12, 16, 30, 41], [48, 44, 40, 36, 32, 1, 2], [3, 7, 11, 19, 27, 35, 51],
                    [2, 6, 10, 14, 22, 0, 1], [1, 5, 9, 13, 17, 21, 25], [51, 47, 43, 39, 35, 31, 27],
                    [50, 46, 42, 38, 34, 30, 26], [49, 45, 41, 37, 33, 29, 25]], np.uint8)   # every suit, flushes


def _hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)


def _chunks(keys: np.ndarray, suited: np.ndarray, deck=None) -> np.ndarray:
    """The vector paths' prebuilt-hand kernel, called directly."""
    T = tables() if deck is None else tables(deck)
    out = np.zeros(len(keys), np.int32)
    _evaluate_chunks(keys, suited, out, offsets32() if deck is None else offsets32(deck), T.rank_values,
                     T.flush_values)
    return out


def _plain(hands: np.ndarray) -> np.ndarray:
    out = np.empty(len(hands), np.int32)
    evaluate_into(hands, out, tables())
    return out


@pytest.fixture(params=PATHS)
def path(request, monkeypatch):
    """Each path this CPU runs, forced through POKERPIPE_SIMD (scalar included: the reference's own route)."""
    if request.param not in runnable_paths():
        pytest.skip(f"this CPU lacks {request.param}")
    monkeypatch.setenv("POKERPIPE_SIMD", request.param)
    return request.param


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 7, 8, 9, 24, 8_195, 20_003])
def test_values_equal_the_kernel(n, path):
    hands = np.concatenate([_hands(n, n), FLUSHES, _hands(11, 2), FLUSHES[::-1]])
    plain = _plain(hands)
    assert (evaluate(hands) == plain).all() and (evaluate(hands.view(np.int8)) == plain).all()
    assert (plain[n:n + 8] >> 12 >= 5).all()          # flushes or better
    if path != "scalar":
        out = np.zeros(len(hands), np.int32)
        assert evaluate_hands7(hands, out, tables(), tables().rank_values, offsets32(), PATHS.index(path)) == -1
        assert (out == plain).all()


@pytest.mark.parametrize("row", [0, 3, 7, 8, 15, 40, 41])
@pytest.mark.parametrize("fault", ["repeat", "past 51", "negative", "pad"])
def test_the_first_bad_row_is_named(row, fault, path):
    hands = _hands(42, 7)
    i, j = [(0, 6), (2, 3), (5, 1)][row % 3]
    if fault == "repeat":
        hands[row, j] = hands[row, i]
    elif fault == "past 51":
        hands[row, j] = 52 + row
    elif fault == "negative":
        hands.view(np.int8)[row, j] = -1
    else:       # 255: the byte the AVX2 path pads each row with
        hands[row, j] = 255
    hands[row + 1:, 0] = hands[row + 1:, 1]        # later rows are bad too: the first one is named
    for cards in (hands, hands.view(np.int8)):
        with pytest.raises(CardError, match=f"row {row} "):
            evaluate(cards)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 24, 8_195, 20_003])
def test_prebuilt_hands_equal_the_scalar_lookups(n, path):
    """evaluate_keys (flushes valued in their lanes, from the joined table) against the scalar loop, on random
    hands and on blocks made of flushes of every suit, five to seven cards."""
    hands = np.concatenate([_hands(n, n + 1), FLUSHES, FLUSHES[::-1]])
    for k in (5, 6, 7):
        keys, suited = hand_keys(hands[:, :k])
        plain = np.empty(len(hands), np.int32)
        _evaluate_keys(keys, suited, plain, tables())
        assert (evaluate_keys(keys, suited) == plain).all()
        assert (_plain(hands[:, :k]) == plain).all()
        assert (_chunks(keys, suited) == plain).all()


@pytest.mark.parametrize("n", [CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5])
def test_flushes_at_every_place_of_a_chunk_and_its_tail(n):
    """The vector paths' prebuilt kernel takes a chunk's flushes from one mask: a lone flush at each of the
    n places (each of a chunk's 64 bits, and in the tail after the last whole chunk), then all n flushes."""
    rng = np.random.default_rng(n)
    base = _hands(n, n)
    base = base[category(_plain(base)) < 5]               # none a flush (or better) to start with
    base = np.resize(base, (n, 7))
    for place in range(n):
        hands = base.copy()
        hands[place] = FLUSHES[place % len(FLUSHES)]
        keys, suited = hand_keys(hands)
        assert (_chunks(keys, suited) == _plain(hands)).all(), place
    every = FLUSHES[rng.integers(0, len(FLUSHES), n)]
    keys, suited = hand_keys(every)
    assert (_chunks(keys, suited) == _plain(every)).all()


@pytest.mark.slow
@pytest.mark.parametrize("path", VECTOR_PATHS)
def test_every_flush_of_every_suit_in_every_lane(path):
    """All 1,287 suited rank sets of five cards beside two cards of other suits, each suit, each of the eight
    lanes of a seven-card block (the flush suit is read per lane on both paths), and on the prebuilt kernel."""
    from itertools import combinations

    level = PATHS.index(path)
    rows = []
    for ranks in combinations(range(13), 5):
        for suit in range(4):
            other = (suit + 1) % 4
            rows.append([4 * r + suit for r in ranks] + [4 * ranks[0] + other, 4 * ranks[1] + (other + 1) % 4])
    hands = np.array(rows, np.uint8)
    for shift in range(8):
        h = np.ascontiguousarray(np.roll(hands, shift, axis=0))
        plain = _plain(h)
        out = np.zeros(len(h), np.int32)
        assert evaluate_hands7(h, out, tables(), tables().rank_values, offsets32(), level) == -1
        assert (out == plain).all()
        keys, suited = hand_keys(h)
        assert (_chunks(keys, suited) == plain).all()


@pytest.mark.slow       # a fresh process compiling the evaluator's kernels for another target: ~30 s the first time
@pytest.mark.skipif("avx2" not in runnable_paths(), reason="this CPU lacks AVX2")
def test_the_avx2_path_compiled_for_a_cpu_without_avx512():
    """In a process whose numba target is x86-64-v3 (AVX2, no AVX-512: what an AVX2-only CPU compiles), the
    default path is avx2, its values equal the scalar kernel's, and avx512 is refused by name: the AVX-512
    blocks compile there to a trap that is never reached."""
    import os
    import subprocess
    import sys

    script = """
import numpy as np
from pipeline import evaluate
from pipeline.core.cpu import SimdError, simd_path, target_cpu
from pipeline.evaluator.hands import evaluate_keys, hand_keys
from pipeline.evaluator.kernels import evaluate_into
from pipeline.evaluator.tables import tables
rng = np.random.default_rng(5)
hands = np.argsort(rng.random((4099, 52)), axis=1)[:, :7].astype(np.uint8)
plain = np.empty(len(hands), np.int32)
evaluate_into(hands, plain, tables())
assert target_cpu()[0] == "x86-64-v3" and simd_path() == "avx2", target_cpu()
assert (evaluate(hands) == plain).all() and (evaluate_keys(*hand_keys(hands)) == plain).all()
import os
os.environ["POKERPIPE_SIMD"] = "avx512"
try:
    simd_path()
except SimdError as e:
    print("refused:", e)
"""
    env = {**os.environ, "NUMBA_CPU_NAME": "x86-64-v3", "NUMBA_CPU_FEATURES": "+avx2"}
    env.pop("POKERPIPE_SIMD", None)
    got = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert got.returncode == 0, got.stderr
    assert "refused: POKERPIPE_SIMD=avx512 needs avx512f, avx512bw" in got.stdout


# The short deck (issue 44): the same paths read the deck's tables and refuse the ids below its first card in the
# same vector checks as the ids past 51 (``lowest``), exactly as the scalar checked kernel does.
SHORT_FLUSHES = np.array([[16, 20, 24, 28, 48, 33, 42], [49, 45, 41, 37, 33, 16, 18], [50, 46, 42, 38, 22, 17, 19],
                          [51, 47, 43, 39, 35, 31, 27], [19, 23, 27, 31, 35, 16, 17], [18, 22, 26, 30, 34, 38, 42],
                          [17, 21, 25, 29, 33, 37, 41], [48, 44, 40, 36, 16, 20, 24]], np.uint8)


def _short_hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (16 + np.argsort(rng.random((n, 36)), axis=1)[:, :7]).astype(np.uint8)


@pytest.mark.parametrize("deck", [SHORT_DECK, SHORT_DECK_TRIPS], ids=lambda d: d.name)
@pytest.mark.parametrize("n", [1, 9, 20_003])
def test_short_deck_values_equal_the_kernel_on_every_path(n, deck, path):
    hands = np.concatenate([_short_hands(n, n), SHORT_FLUSHES, _short_hands(11, 3), SHORT_FLUSHES[::-1]])
    plain = np.empty(len(hands), np.int32)
    evaluate_into(hands, plain, tables(deck))
    assert (category(plain[n:n + 8], deck) >= 5).all()            # flushes or better, in every lane
    assert (evaluate(hands, deck=deck) == plain).all() and (evaluate(hands.view(np.int8), deck=deck) == plain).all()
    assert not (evaluate(hands) == plain).all()                   # the 52-card deck's values differ: not a no-op
    keys, suited = hand_keys(hands, deck)
    assert (evaluate_keys(keys, suited, deck=deck) == plain).all()
    if path != "scalar":
        level = PATHS.index(path)
        out = np.zeros(len(hands), np.int32)
        assert evaluate_hands7(hands, out, tables(deck), tables(deck).rank_values, offsets32(deck), level,
                               deck.first_card) == -1
        assert (out == plain).all()
        assert (_chunks(keys, suited, deck) == plain).all()


@pytest.mark.parametrize("row", [0, 3, 7, 8, 15, 40, 41])
@pytest.mark.parametrize("fault", ["below the six", "deuce", "repeat", "past 51", "negative", "pad"])
def test_the_first_bad_row_of_a_short_deck_is_named(row, fault, path):
    """An id below the deck's first card (16: the six of clubs) is refused on every path, in a block of eight or
    in the tail, as are the 52-card deck's faults; the 52-card deck takes the same cards below the six."""
    hands = _short_hands(42, 9)
    i, j = [(0, 6), (2, 3), (5, 1)][row % 3]
    low = {"below the six": 15, "deuce": 0}
    if fault in low:
        hands[row, j] = low[fault]
    elif fault == "repeat":
        hands[row, j] = hands[row, i]
    elif fault == "past 51":
        hands[row, j] = 52 + row
    elif fault == "negative":
        hands.view(np.int8)[row, j] = -1
    else:
        hands[row, j] = 255
    hands[row + 1:, 0] = hands[row + 1:, 1]        # later rows are bad too: the first one is named
    for cards in (hands, hands.view(np.int8)):
        with pytest.raises(CardError, match=f"row {row} .*16..51"):
            evaluate(cards, deck=SHORT_DECK)
    if path != "scalar":
        out = np.zeros(len(hands), np.int32)
        assert evaluate_hands7(hands, out, tables(SHORT_DECK), tables(SHORT_DECK).rank_values, offsets32(SHORT_DECK),
                               PATHS.index(path), SHORT_DECK.first_card) == row
    if fault in low:
        hands[row + 1:, 0] = _short_hands(42, 9)[row + 1:, 0]
        assert (evaluate(hands) > 0).all()            # the 52-card deck holds those cards


@pytest.mark.parametrize("row", list(range(8)) + [16, 41])
def test_a_lone_card_below_a_short_deck_is_refused_in_every_lane(row, path):
    """One card below the six in an otherwise good array, in each lane of a block and in the tail: no other fault
    lets the block's own check go unexercised."""
    hands = _short_hands(42, 11)
    hands[row, row % 7] = 4 * (row % 4) + 3          # a three, four, five or two
    with pytest.raises(CardError, match=f"row {row} "):
        evaluate(hands, deck=SHORT_DECK)
    assert (evaluate(hands) > 0).all()
