"""A screenshot cropped to the board itself (its tiles, or a pixel or two round them), given with no size and
no ``crop``: the board reaches the image's edge, where no step between pixels can be read, so the reader frames
the image first (``vision._framed``). And no grid the locator offers runs past the image's edge."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from npuzzle.render import locate
from npuzzle.render.vision import FRAME_PX, _framed, cell_features, read_screenshot
from screenshots import game_screenshot, random_style


def _board_only(seed: int, with_reference: bool, pad: int = 0) -> tuple[Image.Image, object]:
    """Dev screenshot ``seed`` of "picture, with reference" or "no reference" cut to its board's box (``pad``
    pixels round it), and the shot."""
    shot = game_screenshot(random_style(seed, kind="picture", missing_bottom_right=not with_reference))
    x, y, w, h = shot.box
    return shot.image.crop((x - pad, y - pad, x + w + pad, y + h + pad)), shot


@pytest.mark.parametrize(("seed", "pad"), [(1, 0), (2, 0), (3, 2), (4, 2), (19, 0)])
def test_a_board_cropped_to_its_tiles_is_read_with_a_reference(seed: int, pad: int) -> None:
    # each refused before the frame (dev 0-39: 17 of 40 boards cut to their box read, 39 with it)
    image, shot = _board_only(seed, True, pad)
    reading = read_screenshot(image, reference=shot.reference)
    assert reading.board == shot.board and reading.goal == shot.goal
    assert reading.grid is not None
    x0, y0, x1, y1 = reading.grid.box  # in the image's own pixels, on the tiles
    assert max(abs(x0 - pad), abs(y0 - pad), abs(x1 - image.width + pad), abs(y1 - image.height + pad)) <= 3


@pytest.mark.parametrize("seed", [1, 2])
def test_a_board_cropped_to_its_tiles_is_read_without_a_reference(seed: int) -> None:
    image, shot = _board_only(seed, False)
    reading = read_screenshot(image)
    assert reading.board == shot.board and reading.goal == shot.goal


def test_the_frame_contrasts_with_a_busy_edge_and_repeats_a_flat_one() -> None:
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 90, (40, 60, 3)).astype(np.uint8)  # dark and busy ...
    pixels[:, 30:] += 150  # ... on the left, light and busy on the right
    pixels[:10] = (20, 120, 40)  # a flat band along the top
    framed = np.asarray(_framed(Image.fromarray(pixels)))  # type: ignore[arg-type]
    f = FRAME_PX
    assert framed.shape == (40 + 2 * f, 60 + 2 * f, 3)
    assert (framed[f:-f, f:-f] == pixels).all()  # the image itself untouched
    assert (framed[f + 20 : -f, :f] == 255).all() and (framed[f + 20 : -f, -f:] == 0).all()
    assert (framed[-f:, f + 5] == 255).all() and (framed[-f:, -f - 5] == 0).all()
    assert (framed[:f, f:-f] == pixels[0]).all()  # beside the flat band: the band goes on


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_window_is_not_framed_and_its_board_cut_out_is(seed: int) -> None:
    shot = game_screenshot(random_style(seed, kind="picture"))
    assert _framed(shot.image) is None  # its surround is flat: the located grids stay as they were
    x, y, w, h = shot.box
    assert _framed(shot.image.crop((x, y, x + w, y + h))) is not None
    assert _framed(Image.new("RGB", (80, 60), (200, 30, 30))) is None


@pytest.mark.parametrize("seed", range(4))
def test_no_located_grid_runs_past_the_image(seed: int) -> None:
    # a progression one tile longer than its lines ran past the edge of a board cut with 3 px round it (every
    # one of dev seeds 0-11 had such grids), and a reference reader matching it failed on the image's bounds
    image, _ = _board_only(seed, True, pad=3)
    for _, grid in locate._scored_grids(image, None, None):
        x0, y0, x1, y1 = grid.box
        assert x0 >= -1 and y0 >= -1 and x1 <= image.width + 1 and y1 <= image.height + 1


def test_cells_past_the_image_are_read_as_far_as_they_show() -> None:
    image = Image.new("RGB", (50, 40), (10, 200, 30))
    features = cell_features(image, 2, 1, boxes=[(0, 0, 25, 40), (25, 0, 75, 60)], side=4)
    assert features.shape == (2, 4 * 4 * 3) and np.isfinite(features).all()


def test_a_refusals_grid_is_given_in_the_screenshots_own_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    from npuzzle.render import vision
    from npuzzle.render.locate import Axis, Grid

    seen = Grid(Axis(10.0, 20.0, 18.0, 3), Axis(12.0, 20.0, 18.0, 3))

    def refuse(image: Image.Image, *args: object) -> object:
        raise vision.PictureReassemblyError("refused here", grid=seen)

    monkeypatch.setattr(vision, "_read_in", refuse)
    image, _ = _board_only(0, True)  # framed: the reading works FRAME_PX further right and down
    with pytest.raises(vision.PictureReassemblyError) as framed:
        read_screenshot(image)
    assert framed.value.grid == seen.shifted(-FRAME_PX, -FRAME_PX)
    shot = game_screenshot(random_style(0, kind="picture"))
    x, y, w, h = shot.box
    with pytest.raises(vision.PictureReassemblyError) as cropped:
        read_screenshot(shot.image, crop=(x, y, w, h), exact=True)  # exact: the crop alone, not framed
    assert cropped.value.grid == seen.shifted(x, y)
