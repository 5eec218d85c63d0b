"""Short-deck equity through the one calculator (``deck=SHORT_DECK``) against brute force (issue 44).

The brute force is ``tests/oracles/shortdeck.py``: every completion of the board from the 36-card deck,
each hand valued by the oracle's own rule-book evaluator, nothing of the engine's tables or kernels.
"""
import numpy as np
import pytest
from oracles.shortdeck import POKERKIT_ORDER, TRIPS_ORDER, showdown_counts, tiers

from pipeline.core.cards import CardError, format_cards, parse_cards
from pipeline.equity import equity
from pipeline.evaluator import SHORT_DECK, SHORT_DECK_TRIPS

RNG_SEED = 44


def _deals(n: int, players: int, board: int, seed: int) -> list[tuple[list[str], str]]:
    """``n`` random deals of the short deck: the players' hands (text) and a board of ``board`` cards."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        cards = rng.choice(np.arange(16, 52), 2 * players + board, replace=False)
        out.append(([format_cards(cards[2 * p:2 * p + 2]) for p in range(players)],
                     format_cards(cards[2 * players:])))
    return out


def _brute(hands: list[str], board: str, order: np.ndarray = POKERKIT_ORDER) -> np.ndarray:
    return showdown_counts(np.array([parse_cards(h) for h in hands], np.int64),
                           np.array(parse_cards(board), np.int64), tiers(order))


def _assert_same(result, brute: np.ndarray) -> None:
    boards = result.boards
    for p, row in zip(result.players, brute):
        assert (p.wins, p.ties) == (int(row[0]), int(row[1])), (result, brute)
        assert p.equity == pytest.approx(row[2] / 2520 / boards, rel=1e-12, abs=1e-15)


@pytest.mark.slow
@pytest.mark.parametrize("board_cards", [0, 3])
def test_fifty_random_matchups_equal_brute_force(board_cards):
    """Heads-up, exact: preflop every board of the 32 cards left (201,376), on a flop every turn and river."""
    for hands, board in _deals(50, 2, board_cards, RNG_SEED + board_cards):
        result = equity(hands, board=board, deck=SHORT_DECK)
        assert result.exact and result.boards == (201_376 if not board_cards else 406)
        _assert_same(result, _brute(hands, board))


@pytest.mark.slow
def test_three_and_four_players_and_the_trips_ranking_equal_brute_force():
    for hands, board in _deals(4, 3, 0, 7) + _deals(4, 4, 3, 8) + _deals(4, 3, 4, 9):
        _assert_same(equity(hands, board=board, deck=SHORT_DECK), _brute(hands, board))
    for hands, board in _deals(6, 2, 0, 10) + _deals(6, 3, 3, 11):
        _assert_same(equity(hands, board=board, deck=SHORT_DECK_TRIPS), _brute(hands, board, TRIPS_ORDER))


@pytest.mark.slow
def test_ranges_on_each_exact_path_equal_the_sum_over_their_combos():
    """A range against a hand (one range's kernel), ranges against each other on a flop (by groups or by
    runouts) and preflop (classes of combo pairs): every combo assignment counted by brute force."""
    from pipeline.ranges.query import parse_query

    cases = [(["AKs,QQ+", "Td9d"], "8d7c6h"), (["JJ+,AQs+", "KQ,T9s"], "Ts8h6c"), (["77-", "AsKs"], ""),
             (["A9s", "KK"], "")]
    for texts, board in cases:
        result = equity(texts, board=board, deck=SHORT_DECK)
        used = set(parse_cards(board))
        ranges = [[format_cards(c) for c in parse_query(t).combos if min(c) >= 16 and not set(c) & used]
                  for t in texts]
        total = np.zeros((2, 3), np.int64)
        boards = 0
        for a in ranges[0]:
            for b in ranges[1]:
                if set(parse_cards(a)) & set(parse_cards(b)):
                    continue
                got = _brute([a, b], board)
                total += got
                boards += int(got[:, 0].sum() + got[0, 1])          # heads-up: a shared pot is both players'
        assert result.exact and result.boards == boards, (texts, board)
        _assert_same(result, total)


def test_monte_carlo_agrees_with_the_exact_answer():
    exact = equity(["AsKs", "QQ", "random"], board="Jh7s6d", deck=SHORT_DECK)
    mc = equity(["AsKs", "QQ", "random"], board="Jh7s6d", trials=200_000, seed=3, deck=SHORT_DECK)
    assert not mc.exact and mc.trials == 200_000
    for e, m in zip(exact.players, mc.players):
        assert abs(e.equity - m.equity) < 5 * m.stderr, (e, m)


@pytest.mark.parametrize("players, board, dead, words", [
    (["AhKh", "5s5d"], "", "", "player 2: 5s is not a card of the short deck"),
    (["AhKh", "QQ"], "Ts9s4c", "", "board: 4c is not a card of the short deck"),
    (["AhKh", "QQ"], "", "2c", "dead cards: 2c is not a card of the short deck"),
    (["AhKh", "22-55"], "", "", "no combo left beside the board and dead cards in the short deck"),
    (["AhKh"] + ["random"] * 9, "", "6c6d6h6s7c7d7h7s8c8d8h8s", "impossible deal: 10 players .* only 24"),
])
def test_cards_outside_the_deck_are_named(players, board, dead, words):
    with pytest.raises(CardError, match=words):
        equity(players, board=board, dead=dead, deck=SHORT_DECK)


def test_random_against_random_on_a_river_by_runouts():
    """Two ``random`` ranges on a river: 216,225 combo pairs, more than the groups list (the runouts' chunked
    kernels answer), against every pair of disjoint hands of the 31 live cards valued by the oracle."""
    from itertools import combinations

    from oracles.shortdeck import codes_of

    board = parse_cards("Ks9s8d7h6c")
    live = [c for c in range(16, 52) if c not in board]
    hands = np.array(list(combinations(live, 2)))
    codes = codes_of(np.hstack([hands, np.tile(board, (len(hands), 1))]).astype(np.int64),
                     tiers(POKERKIT_ORDER))
    apart = ~((hands[:, None, :, None] == hands[None, :, None, :]).any(axis=(2, 3)))
    wins = int(((codes[:, None] > codes[None, :]) & apart).sum())
    ties = int(((codes[:, None] == codes[None, :]) & apart).sum())
    result = equity(["random", "random"], board=format_cards(board), deck=SHORT_DECK)
    assert result.exact and result.boards == int(apart.sum()) == 465 * 406
    assert [(p.wins, p.ties) for p in result.players] == [(wins, ties)] * 2


@pytest.mark.parametrize("players, board", [
    (["AhKh", "random", "random"], ""),                           # hands and random: dealt as bits
    (["AhKh", "random"], "Qh7h6c"),
    (["AK,AQ", "AK,KQ", "AQ,KQ"], ""),                            # ranges drawn from a list
    (["AA,KK:0.5", "QQ", "JJ", "random"], "9h8hTh"),              # weighted, flushes on the board
])
def test_every_simd_path_deals_and_scores_the_same_short_deck_trials(players, board, monkeypatch):
    """A seeded short-deck Monte Carlo gives the same counts on every SIMD path this machine runs: the vector
    paths read the short deck's tables (its lookup table too), as the scalar one does."""
    from pipeline.core.cpu import runnable_paths

    got = {}
    for path in runnable_paths():
        monkeypatch.setenv("POKERPIPE_SIMD", path)
        r = equity(players, board=board, trials=20_000, seed=7, threads=1, deck=SHORT_DECK)
        got[path] = [(p.shares, p.equity) for p in r.players]
    assert all(g == got["scalar"] for g in got.values()), got
