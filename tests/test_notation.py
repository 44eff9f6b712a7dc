"""Parsing and formatting boards and moves: every style round-trips; bad text gets a clear error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from npuzzle import Board, BoardFormatError, IllegalMoveError, LabelError
from npuzzle.goals import classic
from npuzzle.notation import (
    BOARD_STYLES,
    blank_to_tile_directions,
    directions_to_moves,
    expand_run_length,
    format_board,
    format_run_length,
    moves_to_directions,
    parse_42,
    parse_board,
    parse_korf,
    parse_moves,
    parse_size,
    parse_tatham,
    run_length_to_slides,
)
from strategies import boards

EIGHT = (1, 2, 3, 4, 5, 6, 7, 8, 0)


@pytest.mark.parametrize(
    "text",
    [
        "1 2 3 / 4 5 6 / 7 8 0",
        "1,2,3,4,5,6,7,8,0",
        "1 2 3\n4 5 6\n7 8 _",
        "1 2 3\n4 5 6\n7 8 .",
        "[[1, 2, 3], [4, 5, 6], [7, 8, 0]]",
        "[1, 2, 3, 4, 5, 6, 7, 8, 0]",
        '{"width": 3, "height": 3, "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0]}',
        "3x3:1,2,3,4,5,6,7,8,0",
        "# 42 file\n3\n1 2 3\n4 5 6\n7 8 0\n",
        "1 2 3/4 5 6/7 8 0",
        "  1 2 3 | 4 5 6 | 7 8 --  ",
    ],
)
def test_many_notations_give_the_same_board(text: str) -> None:
    assert parse_board(text).tiles == EIGHT


def test_lists_and_nested_lists() -> None:
    assert parse_board([[1, 2, 3], [4, 5, 6], [7, 8, 0]]).tiles == EIGHT
    assert parse_board(list(EIGHT)).tiles == EIGHT
    assert parse_board([1, 2, 3, 4, 5, 0], width=3, height=2).size == (3, 2)
    assert parse_board([1, 2, 3, 4, 5, 0], width=2).size == (2, 3)


def test_size_is_inferred_from_rows_or_squares_and_required_otherwise() -> None:
    assert parse_board("1 2 3 / 4 5 0").size == (3, 2)
    with pytest.raises(BoardFormatError, match="not a square count"):
        parse_board("1 2 3 4 5 0")
    assert parse_board("1 2 3 4 5 0", width=3, height=2).size == (3, 2)
    with pytest.raises(BoardFormatError, match="size 4x2 needs 8 tiles"):
        parse_board("1 2 3 4 5 0", width=4, height=2)
    with pytest.raises(BoardFormatError, match="2 rows of 3 but the size given is 2x3"):
        parse_board("1 2 3 / 4 5 0", width=2, height=3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("1 2 3 / 4 5", "different lengths"),
        ("1 2 x 4", "'x' is not a tile number"),
        ("1 1 2 0", "label 1 appears twice"),
        ("1 2 3 4", "no blank"),
        ("[1, 2,", "invalid JSON"),
        ("3x3:1,2,3", "lists 3"),
        ("1 0", "not a square count"),
    ],
)
def test_bad_text_raises_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(BoardFormatError, match=message):
        parse_board(text)


def test_blank_label_parameter_and_blank_tokens() -> None:
    board = parse_board("3 5 1 / 2 4 6 / 8 7 9", blank=9)
    assert board.blank == 9 and board.blank_cell == 8
    assert parse_board("0 1 2 / 3 _ 5 / 6 7 4", blank=8).tiles[4] == 8


def test_korf_lines_with_and_without_id_and_length() -> None:
    tiles = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    for line in (tiles, "57 " + tiles, "1 57 " + tiles):
        assert parse_korf(line).tiles[:3] == (14, 13, 15)
    assert format_board(parse_korf(tiles), "korf") == tiles
    with pytest.raises(BoardFormatError, match="Korf line"):
        parse_korf("1 2 3")


def test_tatham_and_42_readers_check_their_headers() -> None:
    assert parse_tatham("3x2:1,2,3,4,5,0").size == (3, 2)
    with pytest.raises(BoardFormatError, match="Tatham"):
        parse_tatham("1,2,3")
    with pytest.raises(BoardFormatError, match="size line"):
        parse_42("1 2\n3 0")
    with pytest.raises(BoardFormatError, match="do not form 3x3"):
        parse_42("3\n1 2 3\n4 5 6")


@given(boards(max_side=7), st.sampled_from(BOARD_STYLES))
def test_parse_format_round_trip(board: Board, style: str) -> None:
    if style in ("42", "korf") and board.width != board.height:
        with pytest.raises(BoardFormatError, match="square"):
            format_board(board, style)
        return
    # no size given back: every style either carries the shape or refuses a board it cannot hold
    assert parse_board(format_board(board, style), blank=board.blank) == board


@pytest.mark.parametrize("width, height", [(8, 2), (2, 8), (3, 2), (4, 3)])
def test_korf_refuses_a_shape_it_cannot_hold(width: int, height: int) -> None:
    # 8x2 has 16 tiles: written as a Korf line it used to come back 4x4, flipping the solvability verdict
    board = Board([*range(1, width * height), 0], width, height)
    with pytest.raises(BoardFormatError, match=f"square boards .* not {width}x{height}"):
        format_board(board, "korf")


def test_parse_size() -> None:
    assert parse_size("4x3") == (4, 3)
    assert parse_size("5") == (5, 5)
    with pytest.raises(BoardFormatError, match="WxH"):
        parse_size("four")


def test_direction_letters_run_length_and_blank_convention() -> None:
    board = classic(3, 3)
    assert directions_to_moves(board, "RR") == [8, 7]
    assert directions_to_moves(board, "R2D") == [8, 7, 4]
    assert moves_to_directions(board, [8, 7, 4]) == "RRD"
    assert expand_run_length("R3D2") == "RRRDD" and format_run_length("RRRDD") == "R3D2"
    assert blank_to_tile_directions("LLU") == "RRD"
    assert directions_to_moves(board, blank_to_tile_directions("LLU")) == [8, 7, 4]
    assert parse_moves("R2D", board) == [8, 7, 4] and parse_moves("8 7 4") == [8, 7, 4]
    with pytest.raises(IllegalMoveError, match="direction 1 \\(U\\)"):
        directions_to_moves(board, "U")
    with pytest.raises(IllegalMoveError, match="cannot read"):
        expand_run_length("R2Q")


def test_run_length_slides_in_the_multi_tile_metric() -> None:
    board = classic(4, 4)
    labels = run_length_to_slides(board, "R3D2")
    assert labels == [13, 5]
    assert board.apply(labels, metric="multi") == board.apply(directions_to_moves(board, "R3D2"))


def test_label_error_quotes_the_input() -> None:
    with pytest.raises(LabelError, match=r"label 7 appears twice .* in '1 7 7"):
        parse_board("1 7 7 / 2 3 4 / 5 6 0")


def test_parse_board_takes_any_iterable_but_never_unboundedly() -> None:
    import itertools

    from npuzzle import BoardFormatError, parse_board

    assert parse_board(iter([1, 2, 3, 0])).tiles == (1, 2, 3, 0)
    assert parse_board({"tiles": [[1, 2], [3, 0]]}).tiles == (1, 2, 3, 0)  # a decoded JSON object
    with pytest.raises(BoardFormatError, match="more than the largest board"):
        parse_board(itertools.count())  # stops after 65,537 entries
    with pytest.raises(BoardFormatError, match="no order"):
        parse_board({1, 2, 3, 0})


def test_a_byte_order_mark_is_no_tile() -> None:
    # a file saved by a Windows editor starts with U+FEFF: "'\ufeff1' is not a tile number"
    assert parse_board("\ufeff1 2 3\n4 5 6\n7 8 0").tiles == EIGHT
    assert parse_board("\ufeff3x3:1,2,3,4,5,6,7,8,0").tiles == EIGHT


def test_numbers_are_plain_digits_with_an_optional_sign() -> None:
    """int() reads '1_0' as 10 and '٣' as 3: a typo would become another board, size or move."""
    assert parse_board("-1 2 +3 0").tiles == (-1, 2, 3, 0)
    for text in ("1_0 1 2 3 4 5 6 7 0", '["1_0", 1, 2, 0]', "3x3:1,2,3,4,5,6,7,٨,0"):
        with pytest.raises(BoardFormatError, match=r"is not a tile number .*digits 0-9 only"):
            parse_board(text)
    for size in ("1_0", "٤x٤", "²"):  # '²' passes str.isdigit() and then crashed int()
        with pytest.raises(BoardFormatError, match="size must look like WxH"):
            parse_size(size)
    with pytest.raises(IllegalMoveError, match=r"'1_0' is not one in '8 1_0'.*digits 0-9 only"):
        parse_moves("8 1_0")
    with pytest.raises(IllegalMoveError, match="cannot read direction '٣'"):
        expand_run_length("R٣")


def test_a_size_given_must_agree_with_the_size_the_text_states() -> None:
    """A Tatham id, a 42 file or a JSON object names its size: a different one given was dropped silently."""
    assert parse_board("3x2:1,2,3,4,5,0", width=3, height=2).size == (3, 2)
    cases = (
        ("3x3:1,2,3,4,5,6,7,8,0", (4, 4), "the Tatham game id says 3x3 but the size given .* is 4x4"),
        ("3\n1 2 3\n4 5 6\n7 8 0", (4, 4), "the 42 n-puzzle file says 3x3 but the size given .* is 4x4"),
        ('{"width": 3, "height": 2, "tiles": [1, 2, 3, 4, 5, 0]}', (2, 3), "JSON board says 3x2 .* is 2x3"),
    )
    for text, (width, height), message in cases:
        with pytest.raises(BoardFormatError, match=message):
            parse_board(text, width, height)
