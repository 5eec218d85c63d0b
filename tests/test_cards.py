import pytest

from pipeline.cards import CardError, check_disjoint, format_card, format_cards, mask_of, parse_card, parse_cards


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
