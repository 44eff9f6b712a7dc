"""Reading picture puzzles from screenshots the tests make themselves (issue 5)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from npuzzle.board import Board
from npuzzle.goals import blank_at, goal_for
from npuzzle.render.image import PictureError, cell_boxes
from npuzzle.render.vision import AmbiguousTilesError, read_screenshot
from pictures import screenshot, synthetic_picture

CONDITIONS = {
    "clean": {},
    "grid-small-jpeg": {"grid": 2, "scale": 0.6, "jpeg": 50, "noise": 4.0, "brightness": 1.1},
    "grid-large-darker": {"grid": 1, "scale": 1.7, "jpeg": 75, "brightness": 0.88},
    "tiny-noisy": {"scale": 0.45, "jpeg": 40, "noise": 6.0},
    "thick-grid-brighter": {"grid": 3, "scale": 0.9, "brightness": 1.15, "noise": 3.0},
}


def scrambled(width: int, height: int, seed: int) -> tuple[Board, Board]:
    """A random position of a picture puzzle (labels = home cells 1..N, hole at a random home) and its goal."""
    rng = random.Random(seed)
    goal = blank_at(width, height, rng.randrange(width * height))
    board = goal
    for _ in range(40 * width * height):
        board = board.move(rng.choice(board.legal_moves()))
    return board, goal


@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("condition", list(CONDITIONS))
def test_exact_recovery(size: int, condition: str) -> None:
    seed = 10 * size + list(CONDITIONS).index(condition)
    picture = synthetic_picture(480, 360, seed=seed)
    board, goal = scrambled(size, size, seed)
    shot = screenshot(picture, board, seed=seed, **CONDITIONS[condition])  # type: ignore[arg-type]
    reading = read_screenshot(shot, size, size, picture)
    assert reading.board == board
    assert reading.goal == goal == goal_for(board)
    assert reading.missing == goal.blank_cell and reading.blank_cell == board.blank_cell
    assert len(reading.confidence) == size * size
    assert min(reading.confidence) > 0.5 and not reading.ambiguous


@pytest.mark.parametrize("size", [3, 4, 5])
def test_reference_is_a_solved_screenshot(size: int) -> None:
    picture = synthetic_picture(400, 400, seed=size)
    board, goal = scrambled(size, size, 100 + size)
    solved = screenshot(picture, goal, grid=2)
    shot = screenshot(picture, board, grid=2, scale=0.7, jpeg=60, noise=3.0, seed=size)
    reading = read_screenshot(shot, size, size, solved)
    assert reading.board == board and reading.goal == goal


def test_rectangular_board_and_files(tmp_path: Path) -> None:
    picture = synthetic_picture(500, 300, seed=7)
    board, goal = scrambled(5, 3, 7)
    picture.save(tmp_path / "picture.png")
    screenshot(picture, board, grid=1, scale=1.3, jpeg=70).save(tmp_path / "shot.jpg")
    reading = read_screenshot(tmp_path / "shot.jpg", 5, 3, tmp_path / "picture.png")
    assert reading.board == board and reading.goal == goal
    assert reading.to_dict() == {
        "width": 5,
        "height": 3,
        "tiles": list(board.tiles),
        "goal": list(goal.tiles),
        "confidence": [round(c, 3) for c in reading.confidence],
    }


def test_different_blank_colours() -> None:
    picture = synthetic_picture(360, 360, seed=8)
    board, _ = scrambled(3, 3, 8)
    for colour in [(0, 0, 0), (255, 255, 255), (128, 128, 128), (40, 90, 160)]:
        shot = screenshot(picture, board, blank_colour=colour, jpeg=70)
        assert read_screenshot(shot, 3, 3, picture).board == board


def _with_twin_tiles(picture: Image.Image, width: int, height: int, a: int, b: int) -> Image.Image:
    """``picture`` with the piece of cell ``a`` copied over cell ``b``: two identical tiles."""
    boxes = cell_boxes(picture.width, picture.height, width, height)
    twin = picture.copy()
    piece = picture.crop(boxes[a]).resize((boxes[b][2] - boxes[b][0], boxes[b][3] - boxes[b][1]))
    twin.paste(piece, boxes[b][:2])
    return twin


def test_identical_tiles_are_reported_not_guessed() -> None:
    picture = _with_twin_tiles(synthetic_picture(360, 360, seed=9), 3, 3, 0, 4)
    board = Board.from_rows([[4, 1, 2], [5, 0, 3], [7, 8, 6]])  # tile 1 in cell 1, tile 5 in cell 3
    shot = screenshot(picture, board, jpeg=70)
    with pytest.raises(AmbiguousTilesError) as info:
        read_screenshot(shot, 3, 3, picture)
    assert (1, 3) in info.value.groups
    assert "cells 1 (row 0, column 1), 3 (row 1, column 0)" in str(info.value)
    guess = read_screenshot(shot, 3, 3, picture, strict=False)
    assert guess.ambiguous == info.value.groups
    assert sorted((guess.board.tiles[1], guess.board.tiles[3])) == [1, 5]
    assert guess.confidence[1] < 0.4 and guess.confidence[3] < 0.4
    assert min(c for i, c in enumerate(guess.confidence) if i not in (1, 3)) > 0.5


def test_nearly_identical_tiles_are_still_told_apart() -> None:
    picture = _with_twin_tiles(synthetic_picture(360, 360, seed=10), 3, 3, 0, 4)
    ImageDraw.Draw(picture).ellipse((150, 150, 210, 210), fill=(230, 20, 20))  # a mark on the twin
    board = Board.from_rows([[4, 1, 2], [5, 0, 3], [7, 8, 6]])
    reading = read_screenshot(screenshot(picture, board, jpeg=60, noise=3.0), 3, 3, picture)
    assert reading.board == board and not reading.ambiguous


def test_flat_tile_like_the_hole_is_flagged_with_a_solved_reference() -> None:
    """With a solved screenshot as reference, a flat tile and the hole can each be the hole: say so."""
    picture = synthetic_picture(360, 360, seed=11)
    ImageDraw.Draw(picture).rectangle((120, 0, 240, 120), fill=(200, 200, 50))  # cell 1 is flat
    goal = blank_at(3, 3, 8)
    board = Board.from_rows([[1, 2, 3], [4, 0, 6], [7, 5, 8]])
    solved = screenshot(picture, goal)
    with pytest.raises(AmbiguousTilesError):
        read_screenshot(screenshot(picture, board, jpeg=70), 3, 3, solved)
    forced = read_screenshot(screenshot(picture, board, jpeg=70), 3, 3, solved, blank_cell=4)
    assert forced.board == board and forced.goal == goal
    # the original picture as reference settles it: the hole is the cell that matches no piece
    assert read_screenshot(screenshot(picture, board, jpeg=70), 3, 3, picture).board == board


def test_bad_inputs(tmp_path: Path) -> None:
    picture = synthetic_picture(120, 120, seed=12)
    with pytest.raises(PictureError, match=r"screenshot .* does not exist"):
        read_screenshot(tmp_path / "nope.png", 3, 3, picture)
    with pytest.raises(PictureError, match="too small"):
        read_screenshot(picture.resize((20, 20)), 3, 3, picture)
    with pytest.raises(PictureError, match="blank cell 9"):
        read_screenshot(picture, 3, 3, picture, blank_cell=9)
