"""The Board model: validation, immutability, moves in both metrics, directions."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from npuzzle import Board, BoardFormatError, IllegalMoveError, LabelError
from npuzzle.goals import classic
from strategies import boards


def test_rejects_one_wide_boards_with_a_reason() -> None:
    with pytest.raises(BoardFormatError, match=r"height 1 is too small: a board is at least 2x2 .*1-wide"):
        Board([1, 2, 0], 3, 1)
    with pytest.raises(BoardFormatError, match="at least 2"):
        Board([1, 0], 1, 2)


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        ([1, 2, 2, 0], "label 2 appears twice"),
        ([1, 2, 3, 4], "no blank"),
        ([1, 2, 0], "has 4 cells but 3 labels"),
        ([1, 2, 0, 3.5], "integers"),
        ([1, 2, 0, True], "integers"),
    ],
)
def test_invalid_tiles_raise_specific_errors(tiles: list[object], message: str) -> None:
    with pytest.raises(BoardFormatError, match=message):
        Board(tiles, 2, 2)  # type: ignore[arg-type]


def test_label_errors_are_board_format_errors() -> None:
    with pytest.raises(LabelError):
        Board([1, 1, 0, 2], 2, 2)


def test_accepts_numpy_integers_and_other_blank_labels() -> None:
    board = Board(np.array([0, 1, 2, 3, 4, 5, 6, 7, 8]), 3, 3, blank=8)
    assert board.blank_cell == 8 and board.tiles[0] == 0 and isinstance(board.tiles[0], int)


def test_is_immutable_hashable_and_cheap_to_copy() -> None:
    board = classic(4, 4)
    with pytest.raises(AttributeError):
        board.width = 5  # type: ignore[misc]
    assert copy.copy(board) is board and copy.deepcopy(board) is board
    assert pickle.loads(pickle.dumps(board)) == board
    assert len({board, classic(4, 4), classic(3, 3)}) == 2
    assert eval(repr(board), {"Board": Board}) == board


def test_moves_and_illegal_moves() -> None:
    board = Board.from_rows([[1, 2, 3], [4, 0, 5], [6, 7, 8]])
    assert board.legal_moves() == (2, 4, 5, 7)
    assert board.move(5).tiles == (1, 2, 3, 4, 5, 0, 6, 7, 8)
    with pytest.raises(IllegalMoveError, match="not next to the blank"):
        board.move(1)
    with pytest.raises(IllegalMoveError, match="not on this board"):
        board.move(42)
    with pytest.raises(IllegalMoveError, match="blank"):
        board.move(0)


def test_at_refuses_cells_off_the_board_instead_of_wrapping() -> None:
    board = Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    assert board.at(2, 1) == 8
    # a list index would wrap: -1 to the last row, column 3 into the next row
    for row, col in ((-1, 0), (0, -1), (0, 3), (3, 0)):
        with pytest.raises(IndexError, match=rf"row {row}, column {col} is outside a 3x3 board \(rows 0..2"):
            board.at(row, col)


def test_neighbour_cells_refuse_cells_off_the_board() -> None:
    board = Board.from_rows([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    assert board.neighbour_cells(4) == [1, 7, 3, 5]
    # -1 used to get neighbours (cell -4 above it, 0 to its right); 9 had the cells of a fourth row's left
    for cell in (-1, 9, 100):
        with pytest.raises(IndexError, match=rf"cell {cell} is outside a 3x3 board \(cells 0..8\)"):
            board.neighbour_cells(cell)


def test_directions_name_where_the_tile_travels() -> None:
    board = Board.from_rows([[1, 2, 3], [4, 0, 5], [6, 7, 8]])
    assert board.move_direction("U") == board.move(7)  # tile below the blank goes up
    assert board.move_direction("D") == board.move(2)
    assert board.move_direction("L") == board.move(5)
    assert board.move_direction("R") == board.move(4)
    corner = classic(3, 3)
    with pytest.raises(IllegalMoveError, match="no tile can move U"):
        corner.move_direction("U")
    with pytest.raises(IllegalMoveError, match="direction must be one of"):
        corner.move_direction("X")


def test_multi_tile_slide_moves_the_whole_segment() -> None:
    board = classic(4, 4)  # blank bottom-right
    slid = board.slide(13)  # 13, 14, 15 move right
    assert slid.rows()[3] == (0, 13, 14, 15)
    assert slid == board.move(15).move(14).move(13)
    assert board.legal_slides() == (4, 8, 12, 13, 14, 15)
    with pytest.raises(IllegalMoveError, match="row or column"):
        board.slide(1)


@given(boards(max_side=6), st.data())
def test_move_then_move_back_is_identity(board: Board, data: st.DataObject) -> None:
    label = data.draw(st.sampled_from(board.legal_moves()))
    moved = board.move(label)
    assert moved.blank_cell == board.cell_of(label)
    assert moved.move(label) == board


@given(boards(max_side=6), st.data())
def test_slide_equals_single_moves(board: Board, data: st.DataObject) -> None:
    label = data.draw(st.sampled_from(board.legal_slides()))
    slid = board.slide(label)
    single = board
    while single.cell_of(label) != slid.cell_of(label):
        single = single.move_direction(board.direction_of(label))
    assert slid == single


def test_from_array_refuses_fractions_instead_of_truncating() -> None:
    # int() used to turn 1.9 into 1 and 0.4 into the blank without a word
    with pytest.raises(BoardFormatError, match=r"whole numbers, got .*1\.9"):
        Board.from_array(np.array([[1.9, 2], [3, 0.4]]))
    with pytest.raises(BoardFormatError, match="whole numbers"):
        Board.from_array(np.array([1, 2, 3, np.nan]), 2, 2)
    with pytest.raises(BoardFormatError, match="integers"):
        Board.from_array(np.array([[True, False], [False, True]]))
    assert Board.from_array(np.array([[1.0, 2.0], [3.0, 0.0]])) == Board([1, 2, 3, 0], 2, 2)
    assert Board.from_array(np.array([[3, 1, 2], [4, 5, 0]], dtype=np.int8)) == Board([3, 1, 2, 4, 5, 0], 3, 2)


def test_from_array_checks_its_shape() -> None:
    with pytest.raises(BoardFormatError, match="3-D"):
        Board.from_array(np.zeros((2, 2, 2)))
    with pytest.raises(BoardFormatError, match="array is 3x2"):
        Board.from_array(np.array([[1, 2, 3], [4, 5, 0]]), width=2, height=3)


def test_a_zero_side_is_too_small_without_talk_of_1_wide_boards() -> None:
    with pytest.raises(BoardFormatError, match=r"^width 0 is too small: a board is at least 2x2 \(sides 2\.\.256\)$"):
        Board([], 0, 0)
