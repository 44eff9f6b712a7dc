"""The game in a real browser: Playwright (Python) driving Debian's chromium against a live uvicorn server.

Never ``playwright install``: the browser is ``/usr/bin/chromium``; without it these tests skip. Screenshots
(3×3 and 4×4, numbers and picture, desktop and phone) go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium"
    ),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    import uvicorn

    from npuzzle.web import WebSettings, create_app

    port = _free_port()
    app = create_app(WebSettings(warmup=True))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    app.state.warmup.result(timeout=300)  # numba compiles (holding the GIL) before the pages load
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(base_url)
    pg.wait_for_selector('[data-testid="board"] [data-tile="1"]')
    yield pg
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


# -- helpers -----------------------------------------------------------------------------------------------
def layout_of(page: Any) -> dict[int, int]:
    """cell -> label, read from the tiles' data-cell attributes."""
    pairs = page.eval_on_selector_all(
        '[data-testid="board"] [data-tile]',
        "els => els.map(e => [Number(e.dataset.cell), Number(e.dataset.tile)])",
    )
    return dict(pairs)


def size_of(page: Any) -> tuple[int, int]:
    return int(page.input_value("#width")), int(page.input_value("#height"))


def moves(page: Any) -> int:
    return int(page.get_by_test_id("moves").inner_text())


def choose_size(page: Any, width: int, height: int) -> None:
    """Pick the size in the selects and wait for the new game (the board is aria-busy meanwhile)."""
    for select, value in (("#width", width), ("#height", height)):
        if page.input_value(select) != str(value):
            page.select_option(select, str(value))
    page.wait_for_selector('[data-testid="board"]:not([aria-busy="true"])')
    page.wait_for_function(f"document.querySelectorAll('[data-tile]').length === {width * height}")


def neighbour_of_blank(page: Any, distance: int = 1) -> int:
    """A tile ``distance`` cells from the blank along its row (or column)."""
    cells = layout_of(page)
    width, height = size_of(page)
    blank = next(c for c, t in cells.items() if t == 0)
    row, col = divmod(blank, width)
    for r, c in ((row, col - distance), (row, col + distance), (row - distance, col), (row + distance, col)):
        if 0 <= r < height and 0 <= c < width:
            return cells[r * width + c]
    raise AssertionError("no tile at that distance")


# -- playing -----------------------------------------------------------------------------------------------
def test_click_slides_tiles_and_counts_moves(page: Any) -> None:
    choose_size(page, 4, 4)
    before = layout_of(page)
    tile = neighbour_of_blank(page)
    tile_cell = next(c for c, t in before.items() if t == tile)
    blank_cell = next(c for c, t in before.items() if t == 0)
    page.click(f'[data-tile="{tile}"]')
    after = layout_of(page)
    assert after[blank_cell] == tile and after[tile_cell] == 0
    assert moves(page) == 1
    # a tile two cells away slides the whole segment: two moves
    far = neighbour_of_blank(page, 2)
    page.click(f'[data-tile="{far}"]')
    assert moves(page) == 3
    assert "Moved" in page.inner_text("#announce") or page.inner_text("#announce") == ""


def test_keyboard_alone_undo_redo(page: Any) -> None:
    page.focus('[data-testid="board"]')
    start = layout_of(page)
    width, _ = size_of(page)
    blank = next(c for c, t in start.items() if t == 0)
    # ArrowLeft moves the tile right of the blank to the left (tile convention); pick a legal arrow
    key = "ArrowLeft" if blank % width < width - 1 else "ArrowRight"
    page.keyboard.press(key)
    assert moves(page) == 1 and layout_of(page) != start
    page.keyboard.press("Control+z")
    assert moves(page) == 0 and layout_of(page) == start
    page.keyboard.press("Control+y")
    assert moves(page) == 1
    page.get_by_role("button", name="Undo").click()
    assert layout_of(page) == start
    page.get_by_role("button", name="Redo").click()
    assert moves(page) == 1


def test_hint_highlights_a_movable_tile(page: Any) -> None:
    choose_size(page, 3, 3)
    page.get_by_role("button", name="Hint").click()
    page.wait_for_selector(".tile.hint", timeout=15_000)
    label = int(page.get_attribute(".tile.hint", "data-tile"))
    cells = layout_of(page)
    blank = next(c for c, t in cells.items() if t == 0)
    cell = next(c for c, t in cells.items() if t == label)
    assert abs(cell - blank) in (1, 3)
    assert "Hint" in page.inner_text("#status")


def test_auto_solve_reaches_the_goal_and_says_so(page: Any) -> None:
    choose_size(page, 3, 3)
    board = page.get_by_test_id("board")
    assert board.get_attribute("data-solved") == "false"
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector('[data-testid="board"][data-solved="true"]', timeout=30_000)
    assert page.is_visible("#win")
    assert "Solved" in page.inner_text("#win")
    page.wait_for_function("document.getElementById('announce').textContent.includes('Solved')")


def test_auto_solve_can_be_stopped(page: Any) -> None:
    page.select_option("#difficulty", "hard")
    choose_size(page, 4, 4)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_function(
        "Number(document.querySelector('[data-testid=moves]').textContent) >= 2", timeout=20_000
    )
    page.locator("#solve").click()  # now labelled Stop
    page.wait_for_function("document.querySelector('#solve .solve-label').textContent === 'Solve'")
    stopped_at = moves(page)
    page.wait_for_timeout(600)
    assert moves(page) == stopped_at
    assert page.get_by_test_id("board").get_attribute("data-solved") == "false"


def test_picture_mode_and_reload_keeps_the_game(page: Any) -> None:
    choose_size(page, 4, 3)
    page.click('label[for="mode-picture"]')
    page.wait_for_selector('[data-testid="board"].picture')
    assert "url(" in page.eval_on_selector('[data-testid="board"]', "e => e.style.getPropertyValue('--pic')")
    # the hole shows no piece of the picture until the puzzle is solved
    hole = "e => getComputedStyle(e.querySelector('.face')).backgroundImage"
    assert page.eval_on_selector('[data-tile="0"]', hole) == "none"
    assert page.eval_on_selector('[data-tile="1"]', hole).startswith("url(")
    page.click(f'[data-tile="{neighbour_of_blank(page)}"]')
    page.click(f'[data-tile="{neighbour_of_blank(page)}"]')
    kept = layout_of(page)
    count = moves(page)
    page.reload()
    page.wait_for_selector('[data-testid="board"].picture [data-tile="1"]')
    assert layout_of(page) == kept and moves(page) == count
    assert size_of(page) == (4, 3)
    assert page.is_checked("#mode-picture")


def test_own_picture_from_disk(page: Any, tmp_path: Path) -> None:
    from PIL import Image

    picture = tmp_path / "mine.png"
    Image.new("RGB", (300, 200), (200, 40, 40)).save(picture)
    page.click('label[for="mode-picture"]')
    page.set_input_files("#picture-file", str(picture))
    page.wait_for_function(
        "document.getElementById('announce').textContent.includes('Your picture')", timeout=10_000
    )
    css = page.eval_on_selector('[data-testid="board"]', "e => e.style.getPropertyValue('--pic')")
    assert "data:image/jpeg" in css
    page.check("#show-numbers")
    assert "numbers" in (page.get_attribute('[data-testid="board"]', "class") or "")
    page.reload()
    page.wait_for_selector('[data-testid="board"].picture [data-tile="1"]')
    assert "data:image/jpeg" in page.eval_on_selector(
        '[data-testid="board"]', "e => e.style.getPropertyValue('--pic')"
    )


def test_new_game_layout_and_records_panel(page: Any) -> None:
    page.select_option("#layout", "spiral")
    page.wait_for_selector('[data-testid="board"]:not([aria-busy="true"])')
    assert page.get_by_test_id("board").get_attribute("data-solved") == "false"
    assert "Spiral" in page.inner_text("#records-key")
    page.get_by_role("button", name="New game").click()
    page.wait_for_selector('[data-testid="board"]:not([aria-busy="true"])')
    assert moves(page) == 0
    with page.expect_download() as download:
        page.click("#export")
    assert download.value.suggested_filename == "npuzzle-records.csv"


# -- screenshots -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_screenshots(browser: Any, base_url: str, viewport: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=DESKTOP if viewport == "desktop" else PHONE, device_scale_factor=1)
    page = context.new_page()
    page.goto(base_url)
    page.wait_for_selector('[data-tile="1"]')
    for width, height in ((3, 3), (4, 4)):
        choose_size(page, width, height)
        page.click('label[for="mode-numbers"]')
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"{viewport}-{width}x{height}-numbers.png"), full_page=True)
        page.click('label[for="mode-picture"]')
        page.wait_for_selector('[data-testid="board"].picture')
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"{viewport}-{width}x{height}-picture.png"), full_page=True)
    # no horizontal scrolling on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1
    context.close()
