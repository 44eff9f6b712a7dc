"""The screenshot generator's game looks for picture tiles (``tests/screenshots.py``, issue 12): opt-in,
drawn where they belong, and changing nothing else."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PIL import Image

from screenshots import Look, _decorate, _drop_shadows, game_screenshot, random_look, random_style


def test_looks_change_only_the_look() -> None:
    """The looks come from a stream of their own: every other choice of a seed stays as it was, and
    numbered tiles take none."""
    for seed in range(40):
        plain = random_style(seed, kind="picture")
        looked = random_style(seed, kind="picture", looks=True)
        assert plain.look.is_plain
        assert replace(looked, look=Look()) == plain
        assert random_style(seed, kind="numbers", looks=True).look.is_plain


def test_looks_are_varied_and_sometimes_plain() -> None:
    looks = [random_look(seed) for seed in range(120)]
    assert 5 <= sum(look.is_plain for look in looks) <= 40
    for decoration in ("bevel", "border", "radius", "shadow", "highlight"):
        assert any(getattr(look, decoration) for look in looks), decoration


def test_a_plain_look_draws_the_screenshot_drawn_without_looks() -> None:
    seed = next(s for s in range(100) if random_look(s).is_plain)
    with_looks = game_screenshot(random_style(seed, kind="picture", looks=True))
    without = game_screenshot(random_style(seed, kind="picture"))
    assert with_looks.image.tobytes() == without.image.tobytes()


def test_decorations_are_drawn_at_the_tile_edges() -> None:
    grey = Image.new("RGB", (100, 100), (128, 128, 128))
    bevelled = np.asarray(_decorate(grey, Look(bevel=0.04, bevel_strength=0.5), (0, 0, 0))).astype(int)
    assert bevelled[0, 50, 0] > 128 and bevelled[50, 0, 0] > 128  # lit from the top-left
    assert bevelled[99, 50, 0] < 128 and bevelled[50, 99, 0] < 128
    assert bevelled[4, 50, 0] == bevelled[50, 50, 0] == 128  # 4 px wide, the face untouched
    bordered = np.asarray(_decorate(grey, Look(border=2, border_colour=(10, 20, 30)), (0, 0, 0)))
    assert tuple(bordered[1, 50]) == (10, 20, 30) and tuple(bordered[2, 50]) == (128, 128, 128)
    rounded = np.asarray(_decorate(grey, Look(radius=0.1), (200, 0, 0)))
    assert tuple(rounded[0, 0]) == (200, 0, 0) and tuple(rounded[0, 50]) == (128, 128, 128)
    lit = np.asarray(_decorate(grey, Look(highlight=2), (0, 0, 0))).astype(int)
    assert lit[2, 50, 0] > 128 and lit[1, 50, 0] == lit[3, 50, 0] == 128


def test_a_drop_shadow_falls_down_and_right_within_the_board() -> None:
    white = Image.new("RGB", (100, 100), (255, 255, 255))
    shadowed = np.asarray(_drop_shadows(white, [(20, 20)], 40, Look(shadow=4), (10, 10, 69, 69))).astype(int)
    assert shadowed[62, 62, 0] < 200  # below and right of the tile's corner (59, 59)
    assert shadowed[15, 15, 0] == 255  # above and left: no shadow
    assert shadowed[62, 75, 0] == 255  # outside the board
