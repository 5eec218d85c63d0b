import numpy as np
import pytest

from pipeline.core.cards import (
    CardError,
    check_disjoint,
    format_card,
    format_card_rows,
    format_cards,
    mask_of,
    parse_board,
    parse_card,
    parse_cards,
    parse_hole,
)


def test_ids_follow_rank_times_four_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("2h") == 2
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("As") == 51
    assert parse_card("Kd") == 4 * 11 + 1


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "as kd", "AS,KD", " As  Kd "])
def test_parse_forms(text):
    assert parse_cards(text) == [51, 45]


def test_ten_spelled_10():
    assert parse_card("10h") == parse_card("Th") == parse_card("th")
    assert parse_cards("10h9h") == [parse_card("Th"), parse_card("9h")]


def test_round_trip_all_cards():
    for c in range(52):
        assert parse_card(format_card(c)) == c
    assert format_cards(range(4)) == "2c2d2h2s"


@pytest.mark.parametrize("text, culprit", [("AsKx", "Kx"), ("1h", "1h"), ("Zz", "Zz"), ("AsAs", "As"), ("A", "A")])
def test_bad_cards_name_the_culprit(text, culprit):
    with pytest.raises(CardError, match=culprit):
        parse_cards(text)


def test_masks_and_disjoint():
    assert mask_of([0, 51]) == 1 | 1 << 51
    with pytest.raises(CardError, match="duplicate card Ah in board and player 2"):
        check_disjoint([("board", parse_cards("AhKd2c")), ("player 2", parse_cards("AhQs"))])


def test_card_rows_text_equals_format_cards():
    rng = np.random.default_rng(7)
    rows = np.array([rng.permutation(52)[:5] for _ in range(200)], np.uint8)
    got = format_card_rows(rows)
    assert [x.decode() for x in got] == [format_cards(r) for r in rows.tolist()]
    assert format_card_rows(rows[:, ::-1])[0].decode() == format_cards(rows[0, ::-1].tolist())
    assert [x.decode() for x in format_card_rows(np.arange(52).reshape(52, 1))] == [format_card(c) for c in range(52)]


@pytest.mark.parametrize("text, sizes, n", [("", (0, 3, 4, 5), 0), ("Ah7c2d", (0, 3, 4, 5), 3),
                                            ("Ah7c2dKs", (3, 4), 4), ("Ah7c2dKsQs", (3, 4, 5), 5)])
def test_board_of_an_allowed_size(text, sizes, n):
    assert parse_board(text, sizes) == parse_cards(text) and len(parse_cards(text)) == n


@pytest.mark.parametrize("text, sizes, message", [
    ("Ah7c", (0, 3, 4, 5), "board 'Ah7c' has 2 cards; a board has 0, 3, 4 or 5"),
    ("Ah", (0, 3, 4, 5), "board 'Ah' has 1 card; a board has 0, 3, 4 or 5"),
    ("", (3, 4), "board '' has 0 cards; outs need a flop or a turn"),
    ("Ah7c2dKsQs", (3, 4), "board 'Ah7c2dKsQs' has 5 cards; outs need a flop or a turn"),
])
def test_board_of_a_wrong_size_says_so(text, sizes, message):
    need = "a board has 0, 3, 4 or 5" if 0 in sizes else "outs need a flop or a turn"
    with pytest.raises(CardError) as e:
        parse_board(text, sizes, need)
    assert str(e.value) == message


def test_hole_is_two_cards():
    assert parse_hole("AsAc") == [51, 48]
    for text, n in [("As", "1 card"), ("AsAcAd", "3 cards")]:
        with pytest.raises(CardError, match=f"hole '{text}' has {n}; a hold'em hand has 2"):
            parse_hole(text)
