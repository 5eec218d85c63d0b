"""A Monte Carlo trial's card indexes drawn at once (``dealing.card_indexes``, one 16-lane multiply) are the
card-by-card draws' own: the same indexes and rejections as Lemire's test on each 16-bit draw, and the same
deal, block for block, from the same generator state (the at-once path falls back to the card-by-card
draw for a trial with a rejected draw), whether the at-once path then takes each card by ``nth_set_bit`` on
the live mask or ranks them all at once (``dealing.live_ranks``, where ``pdep`` is slow)."""
import numpy as np
import pytest
from numba import njit

from pipeline.equity import dealing
from pipeline.equity.plan import plan_deal
from pipeline.evaluator.tables import tables
from pipeline.ranges.query import parse_query


@njit(cache=True)
def _indexes(words: np.ndarray, lanes: np.ndarray, into: np.ndarray) -> np.uint64:
    return dealing.card_indexes(words[0], words[1], words[2], words[3], lanes, into)


def test_indexes_and_rejections_equal_lemire_on_each_draw():
    rng = np.random.default_rng(41)
    lanes = dealing.card_lanes(45, 13)
    n = lanes[:dealing.LANES].astype(np.int64)
    limit = lanes[dealing.LANES:].astype(np.int64)
    assert list(n[:13]) == list(range(45, 32, -1)) and not n[13:].any()
    assert list(limit[:13]) == [65536 % k for k in range(45, 32, -1)] and not limit[13:].any()
    into = np.zeros(dealing.LANES, np.uint32)
    rejected_seen = 0
    for t in range(20_000):
        words = rng.integers(0, 2**63, 4, dtype=np.uint64) * np.uint64(2) + np.uint64(t & 1)
        if t < 16:      # draws whose low product bits fall below the threshold: rejected, lane by lane
            words[t // 4] = np.uint64(0)
        bad = int(_indexes(words, lanes, into))
        draws = [(int(words[k // 4]) >> (16 * (k % 4))) & 0xFFFF for k in range(dealing.LANES)]
        products = [d * int(c) for d, c in zip(draws, n)]
        assert into.tolist() == [m >> 16 for m in products]
        assert bad == sum(1 << k for k, m in enumerate(products) if (m & 0xFFFF) < limit[k])
        rejected_seen += bad != 0
    assert rejected_seen > 16           # the rare case happens beyond the forced ones


def _bits(x) -> int:
    return bin(int(x)).count("1")


CASES = [(("AA", "random", "random", "random", "random", "random"), []),
         (("QQ+,AK", "TT+,AQ+", "77+,AT+,KQ", "random", "random", "random"), []),
         (("AK:0.5,AQ", "random", "random"), [48, 44, 0]),
         (("22+", "random", "random", "random"), [48, 44, 0, 5]),
         (("AK,AQ", "AK,KQ", "AQ,KQ"), [])]          # a board alone: at once from two cards where pdep is slow


@pytest.mark.parametrize("players,board", CASES)
def test_the_deal_at_once_equals_the_deal_card_by_card(players, board):
    plan = plan_deal([parse_query(t) for t in players], board, sum(1 << c for c in board))
    assert plan.bits
    T = tables()
    bit_keys = np.zeros(64, np.uint64)
    for c in range(52):
        bit_keys[16 * (c & 3) + (c >> 2)] = T.card_keys[c]
    P, B, D = len(players), 4096, plan.dplayers.size
    missing = 5 - len(board)
    lanes = dealing.card_lanes(_bits(plan.live) - 2 * (plan.listed.size + plan.alone.size), missing + 2 * D)
    got = []
    by_rank = dealing.rank_bits(plan.live)
    for given, ranks in ((lanes, None), (lanes, by_rank), (None, None)):     # at once (two ways), card by card
        out = [np.zeros(B, np.uint64), np.zeros(B, np.uint64), np.zeros((P, B), np.uint64),
               np.zeros((P, B), np.uint64)]
        state = dealing.deal_bits_block(
            B, np.uint64(7), np.uint64(11), plan.rplayers, plan.roffsets, plan.alias_prob, plan.alias_idx,
            plan.requal, plan.ckeys, plan.csuited, plan.listed, plan.rows, plan.row_mask, plan.row_prob,
            plan.row_alias, plan.row_cut, plan.row_total, plan.alone, plan.reject, plan.choices, plan.choice_count,
            plan.live, missing, plan.dplayers, np.uint64(0), np.uint64(0), *out, bit_keys,
            np.zeros((1 + plan.alone.size, B), np.int64), np.zeros((D, B), np.uint64), np.zeros((D, B), np.uint64),
            given, np.zeros(dealing.LANES, np.uint32), ranks)
        got.append((state, out))
    (state1, out1) = got[0]
    for state2, out2 in got[1:]:
        assert state1 == state2
        for a, b in zip(out1, out2):
            assert np.array_equal(a, b)
    dealt = out1[3][plan.dplayers] if D else np.zeros((0, B), np.uint64)
    assert all(_bits(x) == 2 for x in dealt.ravel())                  # two cards each
    assert all(_bits(x) == missing for x in out1[1])                  # the board's missing cards


def _ranks_by_list(drawn: np.ndarray, cards: int, live0: int, taken: int) -> list[int]:
    """Each card's rank among ``live0`` by the law itself, in plain Python (no code of the package): card ``k`` is
    the ``drawn[k]``-th of the sorted live cards less the taken ones and those dealt before, taken out of the
    list as it is dealt."""
    everyone = [b for b in range(64) if live0 >> b & 1]
    left = [b for b in everyone if not taken >> b & 1]
    return [everyone.index(left.pop(int(drawn[k]))) for k in range(cards)]


@njit(cache=True)
def _ranks_at_once(drawn: np.ndarray, cards: int, live0: np.uint64, taken: np.uint64) -> np.ndarray:
    dealing.live_ranks(drawn, cards, live0, taken)
    return drawn[:cards].astype(np.int64)


def test_live_ranks_decode_the_draws_as_the_chain_deals_them():
    """dealing.live_ranks (the Lehmer decode the deal uses where pdep is slow) gives every card the rank the
    law gives it (dealt from a plain list), on random live masks, taken cards (0 to 18) and 2 to 16 cards; and the
    table rank_bits turns a rank back into the card's bit."""
    rng = np.random.default_rng(7)
    for t in range(5_000):
        cards52 = rng.permutation(52)
        live_cards = cards52[:int(rng.integers(34, 53))]
        live0 = np.uint64(sum(1 << (16 * (c & 3) + (c >> 2)) for c in live_cards))
        taken_n = int(rng.integers(0, 10)) * 2
        taken = np.uint64(sum(1 << (16 * (c & 3) + (c >> 2)) for c in live_cards[:taken_n]))
        n = len(live_cards) - taken_n
        cards = int(rng.integers(2, min(dealing.LANES, n) + 1))
        drawn = np.zeros(dealing.LANES, np.uint32)
        drawn[:cards] = [rng.integers(0, n - k) for k in range(cards)]
        drawn[cards:] = rng.integers(0, 40, dealing.LANES - cards)      # lanes not dealt: anything
        want = _ranks_by_list(drawn, cards, int(live0), int(taken))
        got = _ranks_at_once(drawn.copy(), cards, live0, taken)
        assert got.tolist() == want, (t, drawn[:cards].tolist(), taken_n)
        by_rank = dealing.rank_bits(live0)
        bits = [int(by_rank[r]) for r in got]
        assert all(int(live0) >> b & 1 and not int(taken) >> b & 1 for b in bits) and len(set(bits)) == cards
