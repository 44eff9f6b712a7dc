"""A picture put back surely by both seam measures is read though few of its seams join mutual best matches."""

from __future__ import annotations

import pytest

from npuzzle.render import vision
from npuzzle.render.vision import read_screenshot
from screenshots import game_screenshot, random_style


@pytest.mark.slow  # 33-36 s in CI (a 6x6 read, then its recuts weighed three times)
def test_a_sure_arrangement_with_few_mutual_best_seams_is_read_and_only_that(monkeypatch: pytest.MonkeyPatch) -> None:
    # dev 63 of "picture, no reference": a 6x6 whose pieces join mutual best matches at 47% of its seams, put
    # first by both measures 0.65 and 0.88 typical seams ahead; refused for its few mutual matches alone before
    shot = game_screenshot(random_style(63, kind="picture", missing_bottom_right=True))
    reading = read_screenshot(shot.image)
    assert (reading.board, reading.goal) == (shot.board, shot.goal)
    assert reading.grid is not None
    memo = vision._PictureMemo(shot.image)
    best = memo.reassembled(reading.grid, reading.missing, False)[1][0]
    assert vision.SURE_BUDDIES <= best.buddies < vision.MIN_BUDDIES  # read by the waiver, not past it
    assert vision._sure_with_few_buddies(memo, reading.grid, best)
    monkeypatch.setattr(vision, "LONE_MARGIN", 2.0)  # neither measure puts it that far ahead
    assert not vision._sure_with_few_buddies(memo, reading.grid, best)
    monkeypatch.setattr(vision, "LONE_MARGIN", 0.35)
    monkeypatch.setattr(vision, "SURE_BUDDIES", best.buddies + 0.01)
    assert not vision._sure_with_few_buddies(memo, reading.grid, best)
