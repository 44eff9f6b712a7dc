"""symmetric_grid: a grid refit to where the colour steps round its gaps mirror each other."""

from __future__ import annotations

from dataclasses import replace

import pytest

from npuzzle.errors import PuzzleError
from npuzzle.render.locate import Axis, Grid, symmetric_grid
from npuzzle.render.vision import read_screenshot
from screenshots import Shot, game_screenshot, random_style


def _hard_shot(seed: int) -> Shot:
    """Bench style "picture, hard looks" seed ``seed``, the hole's home bottom-right."""
    return game_screenshot(random_style(seed, kind="picture", missing_bottom_right=True, looks="hard"))


def _true_grid(shot: Shot) -> Grid:
    style = shot.style
    tile, pitch = style.tile * style.scale, (style.tile + style.gap) * style.scale
    x, y = shot.box[:2]
    return Grid(Axis(x, pitch, tile, style.width), Axis(y, pitch, tile, style.height))


def _gap_centres(axis: Axis) -> list[float]:
    return [(axis.span(j - 1)[1] + axis.span(j)[0]) / 2 for j in range(1, axis.count)]


def _worst_centre(grid: Grid, truth: Grid) -> float:
    pairs = [*zip(_gap_centres(grid.columns), _gap_centres(truth.columns), strict=True),
             *zip(_gap_centres(grid.rows), _gap_centres(truth.rows), strict=True)]  # fmt: skip
    return max(abs(a - b) for a, b in pairs)


@pytest.mark.parametrize("shift", [-3.0, 3.0])
def test_gaps_found_on_an_inner_highlight_line_are_centred_again(shift: float) -> None:
    """Fresh "hard looks" 60650: a 5x5 whose tiles carry a 1 px inner highlight line (1.7 px at its scale)
    and sit 1.7 px apart. The line's two steps outweigh the gap's, and its columns were refined 2-3 px onto
    them. Cut 3 px off either way, every gap's centre is found again within a pixel, the gap kept."""
    shot = _hard_shot(60650)
    assert shot.style.look.highlight
    truth = _true_grid(shot)
    off = Grid(replace(truth.columns, start=truth.columns.start + shift), replace(truth.rows, start=truth.rows.start - shift))
    found = symmetric_grid(shot.image, off)
    assert _worst_centre(off, truth) >= 2.9
    assert _worst_centre(found, truth) <= 1.0
    for axis, before in ((found.columns, off.columns), (found.rows, off.rows)):
        assert axis.count == before.count
        assert axis.pitch - axis.tile == pytest.approx(before.pitch - before.tile)


def test_a_board_whose_grid_sat_on_its_highlight_lines_is_read() -> None:
    """60650 was refused: on the refined grid no cell was flat enough to be its striped hole and no fallback
    grid read surely. Refit to its gaps' mirror centres, it reads right (vouched for by both seam measures)."""
    shot = _hard_shot(60650)
    reading = read_screenshot(shot.image)
    assert reading.board == shot.board and reading.goal == shot.goal


def test_one_tile_across_is_left_as_it_is() -> None:
    shot = _hard_shot(60650)
    truth = _true_grid(shot)
    single = Grid(replace(truth.columns, count=1), truth.rows)
    assert symmetric_grid(shot.image, single).columns == single.columns


def test_a_refused_board_stays_refused_or_right() -> None:
    """Fresh "hard looks" 60620 (a 3x3 whose highlight pulled its rows 4 px off): the mirror centres find
    its rows, but its seams are too close a call (margin 0.02); refused, never read wrong."""
    shot = _hard_shot(60620)
    try:
        reading = read_screenshot(shot.image)
    except PuzzleError:
        return
    assert reading.board == shot.board and reading.goal == shot.goal
