"""``bench/bench_screenshots.py`` passes the reader what its options say (issue 12)."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_screenshots.py"


def _bench() -> types.ModuleType:
    """The bench script, loaded as a module."""
    spec = importlib.util.spec_from_file_location("bench_screenshots", BENCH)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.mark.parametrize("size", [True, False])
def test_crop_gives_the_size_only_when_asked(size: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--crop --no-size`` gives the box alone: ``run`` once overwrote its ``size`` argument with the board's
    size ("4x4", never false), so that the size was always given."""
    bench = _bench()
    given: list[dict[str, object]] = []

    def read(image: object, reference: object = None, **kwargs: object) -> object:
        given.append(kwargs)
        raise bench.PuzzleError("not read here")

    monkeypatch.setattr(bench, "read_screenshot", read)
    bench.run(2, ["numbers, no reference"], crop=True, size=size)
    assert len(given) == 2 and all("crop" in kw for kw in given)
    assert all(("width" in kw and "height" in kw) == size for kw in given)


def test_cut_to_board_reads_the_board_alone_with_nothing_given(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench()
    seen: list[tuple[tuple[int, int], dict[str, object]]] = []

    def read(image: object, reference: object = None, **kwargs: object) -> object:
        seen.append((image.size, kwargs))  # type: ignore[attr-defined]
        raise bench.PuzzleError("not read here")

    monkeypatch.setattr(bench, "read_screenshot", read)
    bench.run(2, ["picture, with reference"], cut_to_board=2)
    boxes = [bench.game_screenshot(bench.random_style(bench.FIRST_SEED + k, kind="picture", missing_bottom_right=False)).box
             for k in range(2)]
    assert [size for size, _ in seen] == [(w + 4, h + 4) for _, _, w, h in boxes]
    assert all(kwargs == {} for _, kwargs in seen)


def test_on_desktop_reads_the_whole_screen_with_the_window_somewhere_on_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    bench = _bench()
    seen: list[tuple[object, dict[str, object]]] = []

    def read(image: object, reference: object = None, **kwargs: object) -> object:
        seen.append((image, kwargs))
        raise bench.PuzzleError("not read here")

    monkeypatch.setattr(bench, "read_screenshot", read)
    bench.run(2, ["numbers, no reference"], desktop=(1600, 1200))
    assert [image.size for image, _ in seen] == [(1600, 1200)] * 2  # type: ignore[attr-defined]
    assert all(kwargs == {} for _, kwargs in seen)
    window = bench.game_screenshot(bench.random_style(bench.FIRST_SEED, kind="numbers", missing_bottom_right=True)).image
    pixels = np.asarray(window)
    w, h = window.size

    def places(screen: np.ndarray) -> list[tuple[int, int]]:
        corners = np.argwhere((screen[: screen.shape[0] - h + 1, : screen.shape[1] - w + 1] == pixels[0, 0]).all(axis=2))
        return [(x, y) for y, x in corners if (screen[y : y + h, x : x + w] == pixels).all()]

    assert len(places(np.asarray(seen[0][0]))) == 1  # pasted whole, unscaled, once
    assert bench.on_desktop(window, (4000, 3000), 2.0, 7).size == (4000, 3000)
    assert len(places(np.asarray(bench.on_desktop(window, (w, h + 200), 2.0, 7)))) == 1  # no room to double it


def test_game_looks_are_broken_down_by_decoration(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The game looks' styles count each screenshot under each decoration it has, and every style names the
    seeds it refused."""
    bench = _bench()

    def read(image: object, reference: object = None, **kwargs: object) -> object:
        raise bench.PuzzleError("not read here")

    monkeypatch.setattr(bench, "read_screenshot", read)
    seeds = range(1000, 1012)
    looks = [bench.random_style(seed, kind="picture", looks=True).look for seed in seeds]
    bench.run(len(seeds), ["picture, game looks"], first_seed=seeds[0])
    out = capsys.readouterr().out
    n_plain = sum(look.is_plain for look in looks)
    n_bevel = sum(bool(look.bevel) for look in looks)
    assert 0 < n_bevel < len(seeds)
    assert f"refused {n_bevel:3d}  wrong   0  of {n_bevel:3d}" in next(
        line for line in out.splitlines() if line.strip().startswith("with bevel"))
    assert f"of {len(seeds) - n_plain:3d}" in next(line for line in out.splitlines() if "any decoration" in line)
    assert "refused seeds: " + " ".join(map(str, seeds)) in out
