"""The game in a real browser: Playwright (Python) driving Debian's chromium against a live uvicorn server.

Never ``playwright install``: the browser is ``/usr/bin/chromium``; without it these tests skip. Pages run
with ``bypass_csp`` because Playwright's ``wait_for_function`` evaluates its predicate as a string, which the
server's Content-Security-Policy forbids; :func:`test_page_runs_under_the_servers_csp` checks the page itself
under that policy. Screenshots go to ``artifacts/screenshots/``. The four viewports are the issue's: 1280×800,
1280×720, 1366×768 and a 390×844 phone (touch).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
VIEWPORTS = {
    "1280x800": {"width": 1280, "height": 800},
    "1280x720": {"width": 1280, "height": 720},
    "1366x768": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
}
DESKTOP = "1280x800"
SIDES = list(range(2, 17))  # every side the size menus offer

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
    if app.state.warmup is not None:
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
def open_page(browser: Any, base_url: str) -> Iterator[Callable[..., Any]]:
    """``open_page(viewport="1280x800", hash="", csp=False, scheme="light")``: a fresh context (empty storage)
    on the game page; ``csp`` keeps the server's Content-Security-Policy in force."""
    contexts: list[Any] = []
    errors: list[str] = []

    def opener(viewport: str = DESKTOP, hash: str = "", csp: bool = False, scheme: str = "light") -> Any:
        phone = viewport == "phone"
        context = browser.new_context(
            viewport=VIEWPORTS[viewport],
            is_mobile=phone,
            has_touch=phone,
            device_scale_factor=1,
            bypass_csp=not csp,
            color_scheme=scheme,
            reduced_motion="reduce",  # tiles jump: a click never lands on a tile still sliding
        )
        contexts.append(context)
        pg = context.new_page()
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        pg.console_errors = errors  # a test that provokes an error answer takes its own out of this list
        pg.goto(base_url + (f"#{hash}" if hash else ""))
        pg.wait_for_selector('[data-testid="board"] [data-tile="1"]')
        pg.wait_for_selector('[data-testid="board"]:not([aria-busy="true"])')
        return pg

    yield opener
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.fixture
def page(open_page: Callable[..., Any]) -> Any:
    return open_page()


# -- helpers -----------------------------------------------------------------------------------------------
def layout_of(page: Any) -> dict[int, int]:
    """cell -> label, read from the tiles' data-cell attributes."""
    pairs = page.eval_on_selector_all(
        '[data-testid="board"] [data-tile]',
        "els => els.map(e => [Number(e.dataset.cell), Number(e.dataset.tile)])",
    )
    return dict(pairs)


def tiles_of(page: Any) -> list[int]:
    cells = layout_of(page)
    return [cells[c] for c in range(len(cells))]


def size_of(page: Any) -> tuple[int, int]:
    return int(page.input_value("#width")), int(page.input_value("#height"))


def moves(page: Any) -> int:
    return int(page.get_by_test_id("moves").inner_text())


def status(page: Any) -> str:
    return str(page.inner_text("#status"))


def wait_dealt(page: Any, width: int, height: int) -> None:
    page.wait_for_function(
        f"document.querySelectorAll('[data-tile]').length === {width * height}"
        " && document.getElementById('board').getAttribute('aria-busy') !== 'true'"
    )


def choose(page: Any, select: str, value: str, *, confirm: bool = True) -> None:
    """Pick a setting (through the drawer on a phone); a confirmation that shows up is accepted."""
    drawer = page.is_visible("#settings-toggle")
    if drawer and page.get_attribute("#settings-toggle", "aria-expanded") != "true":
        page.click("#settings-toggle")
        page.wait_for_selector(f"{select}:visible")
    if page.input_value(select) != value:
        page.select_option(select, value)
        page.wait_for_timeout(50)
        if page.is_visible("#confirm"):
            if not confirm:
                return  # the question stays open for the caller
            page.click("#confirm-new")
    if drawer:
        page.click("#panel-close")


def choose_size(page: Any, width: int, height: int) -> None:
    choose(page, "#width", str(width))
    if size_of(page)[0] == width:
        wait_dealt(page, width, int(page.input_value("#height")))
    choose(page, "#height", str(height))
    wait_dealt(page, width, height)


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


def words(text: str | None) -> str:
    """``text`` as read aloud: the page keeps "row 2, column 3" on one line with no-break spaces."""
    return " ".join((text or "").replace("\u00a0", " ").split())


def notice_room(page: Any) -> float:
    """The height in pixels the board gives up for the warning above it (--notice-h, gap included)."""
    return float(
        page.evaluate(
            """() => { const probe = document.createElement('div');
                probe.style.height = 'var(--notice-h)';
                document.querySelector('.play').append(probe);
                const h = probe.getBoundingClientRect().height; probe.remove(); return h; }"""
        )
    )


def play_some(page: Any, n: int = 2) -> None:
    for _ in range(n):
        page.click(f'[data-tile="{neighbour_of_blank(page)}"]')


def run_axe(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is (axe.min.js from the axe-playwright-python wheel)."""
    axe = pytest.importorskip("axe_playwright_python", reason="axe-playwright-python is not installed")
    script = Path(axe.__file__).parent / "axe.min.js"
    page.add_script_tag(path=str(script))
    return list(
        page.evaluate(
            """async () => (await axe.run(document)).violations.map(v => ({
                id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"""
        )
    )


# -- the size menus and playing ------------------------------------------------------------------------------
def test_size_menus_offer_every_side_from_2_to_16(page: Any) -> None:
    for select in ("#width", "#height"):
        values = page.eval_on_selector(select, "s => [...s.options].map(o => Number(o.value))")
        assert values == SIDES


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


def test_swipe_on_a_touch_screen_moves_the_tile_that_way(open_page: Callable[..., Any]) -> None:
    page = open_page("phone")
    width, height = size_of(page)
    cells = layout_of(page)
    blank = next(c for c, t in cells.items() if t == 0)
    row, col = divmod(blank, width)
    # a swipe to the right moves the tile left of the gap to the right; pick a direction with a tile
    direction, (dx, dy), source = next(
        (d, v, (r, c))
        for d, v, (r, c) in (
            ("R", (80, 0), (row, col - 1)),
            ("L", (-80, 0), (row, col + 1)),
            ("D", (0, 80), (row - 1, col)),
            ("U", (0, -80), (row + 1, col)),
        )
        if 0 <= r < height and 0 <= c < width
    )
    tile = cells[source[0] * width + source[1]]
    box = page.locator('[data-testid="board"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(
        """([x, y, dx, dy]) => {
            const board = document.getElementById('board');
            const at = (type, px, py) => board.dispatchEvent(new PointerEvent(type, {
                bubbles: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: px, clientY: py}));
            at('pointerdown', x, y);
            at('pointerup', x + dx, y + dy);
        }""",
        [x, y, dx, dy],
    )
    assert layout_of(page)[blank] == tile, f"a swipe {direction} should have moved tile {tile}"
    assert moves(page) == 1
    # phones get touch words, not arrow keys
    assert page.is_visible(".help-touch") and not page.is_visible(".help-pointer")
    assert "swipe" in page.inner_text("#board-help").lower()
    assert "arrow" not in page.inner_text("#board-help").lower()


# -- hints and auto-solve ------------------------------------------------------------------------------------
def test_hint_says_optimal_and_highlights_a_movable_tile(page: Any) -> None:
    choose_size(page, 3, 3)
    page.get_by_role("button", name="Hint").click()
    page.wait_for_selector(".tile.hint", timeout=20_000)
    label = int(page.get_attribute(".tile.hint", "data-tile"))
    cells = layout_of(page)
    blank = next(c for c, t in cells.items() if t == 0)
    cell = next(c for c, t in cells.items() if t == label)
    assert abs(cell - blank) in (1, 3)
    assert re.fullmatch(rf"Hint: {label} (up|down|left|right) · \d+ moves to go \(optimal\)", status(page))


def test_auto_solve_shows_progress_pauses_resumes_and_reaches_the_goal(page: Any) -> None:
    choose_size(page, 3, 3)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector("#playback:not([hidden])", timeout=20_000)
    page.select_option("#speed", "slow")
    page.wait_for_function("Number(document.getElementById('moves').textContent) >= 1", timeout=10_000)
    text = status(page)
    found = re.fullmatch(r"Auto-solve: move (\d+) of (\d+) \(optimal\)", text)
    assert found, text
    total = int(found.group(2))
    assert page.inner_text('[data-testid="progress"]').endswith(f"/ {total}")
    page.locator("#pause").click()
    assert page.get_attribute("#pause", "aria-pressed") == "true"
    paused_at = moves(page)
    page.wait_for_timeout(700)  # slow is 450 ms a move: two moves would have been played
    assert moves(page) == paused_at
    assert status(page) == f"Auto-solve: move {paused_at} of {total} (optimal) · paused"
    page.locator("#pause").click()  # resume
    page.select_option("#speed", "instant")
    page.wait_for_selector('[data-testid="board"][data-solved="true"]', timeout=20_000)
    assert moves(page) == total
    assert page.is_visible("#win") and "with help" in page.inner_text("#win-detail")
    assert status(page) == f"Solved by auto-solve: {total} moves (optimal)"
    page.keyboard.press("Escape")  # Escape closes the "Solved!" dialog
    assert page.is_hidden("#win")


def test_auto_solve_can_be_stopped_and_undone(page: Any) -> None:
    choose_size(page, 4, 4)
    start = tiles_of(page)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector("#playback:not([hidden])", timeout=20_000)
    page.select_option("#speed", "slow")
    page.wait_for_function("Number(document.getElementById('moves').textContent) >= 2", timeout=10_000)
    page.locator("#stop").click()
    assert page.is_hidden("#playback") and page.is_visible("#new-game")
    stopped_at = moves(page)
    assert status(page).startswith(f"Stopped at move {stopped_at} of ")
    page.wait_for_timeout(600)
    assert moves(page) == stopped_at
    for _ in range(stopped_at):
        page.keyboard.press("Control+z")
    assert tiles_of(page) == start


@pytest.mark.parametrize(
    "width,height", [pytest.param(8, 8, marks=pytest.mark.browser_slow), (16, 16), (7, 4)]
)
def test_big_and_non_square_boards_get_a_hint_or_a_plain_reason(page: Any, width: int, height: int) -> None:
    """The answer's kind is said plainly; a server that refuses the board says why (no endless Thinking)."""
    choose_size(page, width, height)
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function(
        "!document.getElementById('status').textContent.startsWith('Thinking')", timeout=40_000
    )
    text = status(page)
    assert re.fullmatch(
        r"Hint: \d+ (up|down|left|right) · (\d+ moves to go \(optimal\)|moves to go: at most \d+, "
        r"(at least \d+|not proven optimal))|No hint: .+",
        text,
    ), text


# -- deals: share, restart, replay, settings ---------------------------------------------------------------
def test_share_link_reloads_the_same_deal(open_page: Callable[..., Any]) -> None:
    page = open_page()
    choose(page, "#layout", "spiral")
    wait_dealt(page, *size_of(page))
    choose_size(page, 5, 3)
    assert page.input_value("#layout") == "spiral"
    start = tiles_of(page)
    deal = page.input_value("#game-id")
    assert deal == f"5x3:{','.join(map(str, start))}&goal=spiral"
    assert page.evaluate("location.hash") == f"#{deal}"
    play_some(page, 3)
    page.get_by_role("button", name="Share").click()
    # the status changes once the clipboard has answered (shareLink awaits it), not within the click
    page.wait_for_function("/link/i.test(document.getElementById('status').textContent)")
    # the same page reloaded keeps the game in progress; a fresh browser with the link gets the deal's start
    kept, count = tiles_of(page), moves(page)
    page.reload()
    page.wait_for_selector('[data-tile="1"]')
    assert tiles_of(page) == kept and moves(page) == count
    other = open_page("1366x768", hash=deal)
    assert size_of(other) == (5, 3) and other.input_value("#layout") == "spiral"
    assert tiles_of(other) == start and moves(other) == 0
    assert other.input_value("#game-id") == deal


def test_a_link_with_a_goal_outside_the_menu_plays_that_goal(
    open_page: Callable[..., Any], base_url: str
) -> None:
    import httpx

    dealt = httpx.post(
        f"{base_url}api/generate", json={"width": 4, "height": 2, "goal": "random:7", "seed": 3}
    ).json()
    deal = f"4x2:{','.join(map(str, dealt['board']))}&goal=random:7"
    page = open_page(hash=deal)
    assert size_of(page) == (4, 2) and tiles_of(page) == dealt["board"]
    assert page.input_value("#layout") == "random:7"
    assert "seed 7" in page.inner_text("#layout option:checked")


def test_game_ids_round_trip_and_say_what_is_wrong(page: Any) -> None:
    """deal.js on its own: format(parse(id)) == id, links and Tatham's plain ids read, errors quote the input."""
    result = page.evaluate(
        """async () => {
            const { formatDealId, parseDealId, qualityText } = await import('./deal.js');
            const ids = ['3x3:8,1,2,0,4,3,7,6,5', '5x2:1,2,3,4,5,6,7,8,9,0&goal=snake',
                         '2x16:' + [...Array(32).keys()].join(',') + '&goal=random:7'];
            const round = ids.map(id => { const d = parseDealId(id); return formatDealId({ ...d, start: d.tiles }); });
            const link = parseDealId('http://host:8000/#4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15&goal=blank-at%3A0');
            const errors = ['4x4:1,2,3', '3x3:1,1,2,3,4,5,6,7,0', '17x2:' + [...Array(34).keys()].join(','),
                            '3x3:1,2,3,4,5,6,7,8,9', 'hello'].map(t => {
                try { parseDealId(t); return null; } catch (e) { return e.message; } });
            const words = [qualityText(31, true, 31), qualityText(90, false, 52), qualityText(90, false, null)];
            return { ids, round, link, errors, words };
        }"""
    )
    assert result["round"] == result["ids"]
    assert result["link"] == {
        "width": 4,
        "height": 4,
        "tiles": [*range(1, 15), 0, 15],
        "layout": "blank-at:0",
    }
    assert result["errors"] == [
        "a 4x4 board has 16 labels, the id has 3",
        "label 1 appears twice",
        "sides run 2 to 16, not 17",
        "the id has no blank (0)",
        "'hello' is not WxH:labels",
    ]
    assert result["words"] == ["optimal", "at most 90, at least 52", "at most 90, not proven optimal"]


def test_a_bad_or_unsolvable_game_id_is_refused_plainly(page: Any) -> None:
    kept = tiles_of(page)
    page.fill("#game-id", "3x3:1,2,3,4,5,6,8,7,0")  # one swap: unsolvable for the classic goal
    page.click("#game-id-load")
    page.wait_for_function("document.getElementById('status').textContent.includes('cannot be solved')")
    page.fill("#game-id", "3x3:1,2,3")
    page.click("#game-id-load")
    assert status(page).startswith("Bad game id: a 3x3 board has 9 labels")
    assert tiles_of(page) == kept


def test_settings_change_asks_first_and_undo_brings_the_game_back(page: Any) -> None:
    choose_size(page, 4, 4)
    play_some(page, 2)
    kept, count = tiles_of(page), moves(page)
    page.select_option("#width", "5")
    page.wait_for_selector("#confirm[open]")
    assert "ends this 4×4 game (2 moves" in page.inner_text("#confirm")
    page.click("#confirm-keep")
    page.wait_for_function("document.getElementById('status').textContent === 'Kept your game'")
    assert size_of(page) == (4, 4) and tiles_of(page) == kept and moves(page) == count
    page.select_option("#difficulty", "easy")
    page.wait_for_selector("#confirm[open]")
    page.keyboard.press("Escape")  # Escape keeps the game too
    page.wait_for_selector("#confirm", state="hidden")
    page.wait_for_function("document.getElementById('difficulty').value === 'hard'")
    assert page.input_value("#difficulty") == "hard" and tiles_of(page) == kept
    page.select_option("#width", "5")
    page.click("#confirm-new")
    wait_dealt(page, 5, 4)
    assert moves(page) == 0
    page.get_by_role("button", name="Undo").click()  # the game left behind, one Undo away
    wait_dealt(page, 4, 4)
    assert size_of(page) == (4, 4) and tiles_of(page) == kept and moves(page) == count


def test_restart_this_deal_and_replay_a_finished_solve(page: Any) -> None:
    choose_size(page, 3, 3)
    start = tiles_of(page)
    play_some(page, 2)
    page.get_by_role("button", name="Restart").click()
    assert tiles_of(page) == start and moves(page) == 0
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector("#playback:not([hidden])", timeout=20_000)
    page.select_option("#speed", "fast")  # kept for the replay: about 2 s for a 3x3 solve
    page.wait_for_selector("#win:not([hidden])", timeout=20_000)
    solved, total = tiles_of(page), moves(page)
    page.click("#win-replay")
    page.wait_for_selector("#playback:not([hidden])")
    assert re.match(rf"Replay: move \d+ of {total}", status(page)), status(page)
    assert moves(page) < total and tiles_of(page) != solved
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('Replay done')", timeout=20_000
    )
    assert tiles_of(page) == solved and moves(page) == total
    assert status(page) == f"Replay done: {total} moves"
    page.get_by_role("button", name="Restart").click()
    assert tiles_of(page) == start and moves(page) == 0 and page.is_hidden("#win")


# -- picture mode, records ------------------------------------------------------------------------------------
def test_picture_mode_and_reload_keeps_the_game(page: Any) -> None:
    choose_size(page, 4, 3)
    page.click('label[for="mode-picture"]')
    page.wait_for_selector('[data-testid="board"].picture')
    assert "url(" in page.eval_on_selector('[data-testid="board"]', "e => e.style.getPropertyValue('--pic')")
    # the hole shows no piece of the picture until the puzzle is solved
    hole = "e => getComputedStyle(e.querySelector('.face')).backgroundImage"
    assert page.eval_on_selector('[data-tile="0"]', hole) == "none"
    assert page.eval_on_selector('[data-tile="1"]', hole).startswith("url(")
    play_some(page, 2)
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
    page.select_option("#layout", "spiral")  # no move made yet: no question asked
    page.wait_for_selector('[data-testid="board"]:not([aria-busy="true"])')
    page.wait_for_function("document.getElementById('records-key').textContent.includes('Spiral')")
    assert page.get_by_test_id("board").get_attribute("data-solved") == "false"
    page.get_by_role("button", name="New game").click()
    page.wait_for_selector('[data-testid="board"]:not([aria-busy="true"])')
    assert moves(page) == 0
    with page.expect_download() as download:
        page.click("#export")
    assert download.value.suggested_filename == "npuzzle-records.csv"


def goal_blank(page: Any) -> int:
    """The cell of the blank in the goal preview."""
    cells = page.eval_on_selector_all("#goal-preview span", "els => els.map(e => e.className)")
    return int(cells.index("blank"))


def test_the_blank_can_belong_in_any_cell_of_the_goal(page: Any) -> None:
    """A missing-piece goal ("blank-at:CELL") takes the blank's home from a row and a column menu, shown only
    for that layout and as long as the board; the deal, its id, the records and a reload follow it; a cell
    the server refuses (a menu value forced off the board) is the server's reason in the status, the game
    kept. Before, the page offered the blank only in the first cell ("Missing first piece")."""
    assert page.is_hidden("#blank-home")
    page.select_option("#layout", "blank-at:0")  # no move made yet: no question asked
    page.wait_for_selector("#blank-home:visible")
    wait_dealt(page, 4, 4)
    assert page.eval_on_selector("#blank-row", "s => s.options.length") == 4
    assert page.eval_on_selector("#blank-column", "s => s.options.length") == 4
    page.wait_for_function("document.getElementById('game-id').value.endsWith('&goal=blank-at:0')")
    page.select_option("#blank-row", "2")
    page.wait_for_function("document.getElementById('game-id').value.endsWith('&goal=blank-at:4')")
    page.select_option("#blank-column", "3")
    page.wait_for_function("document.getElementById('game-id').value.endsWith('&goal=blank-at:6')")
    wait_dealt(page, 4, 4)
    assert goal_blank(page) == 6  # row 2, column 3
    assert sorted(tiles_of(page)) == [0, *range(1, 7), *range(8, 17)]  # the missing piece's 7 is not dealt
    assert "blank at row 2, column 3" in page.inner_text("#records-key")
    page.reload()
    wait_dealt(page, 4, 4)
    assert (page.input_value("#blank-row"), page.input_value("#blank-column")) == ("2", "3")
    assert page.is_visible("#blank-home") and goal_blank(page) == 6
    choose_size(page, 5, 3)  # the menus follow the size; row 2, column 3 is cell 7 of a 5x3 board
    page.wait_for_function("document.getElementById('game-id').value.endsWith('&goal=blank-at:7')")
    assert page.eval_on_selector("#blank-row", "s => s.options.length") == 3
    assert page.eval_on_selector("#blank-column", "s => s.options.length") == 5
    kept = tiles_of(page)
    page.eval_on_selector(
        "#blank-row",
        "s => { s.add(new Option('9', '9')); s.value = '9'; s.dispatchEvent(new Event('change')); }",
    )
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Could not deal')")
    assert "blank cell 42 is outside a 5x3 board" in status(page), status(page)
    assert tiles_of(page) == kept and page.input_value("#game-id").endswith("&goal=blank-at:7")
    refused = [e for e in page.console_errors if "status of 400" in e]
    assert len(refused) == 1  # the browser logs the refusal; nothing else went wrong
    page.console_errors.remove(refused[0])
    choose(page, "#layout", "snake")
    wait_dealt(page, 5, 3)
    assert page.is_hidden("#blank-home")


# -- the built-in picture ------------------------------------------------------------------------------------
TILE_FEATURES = """async ([src, n]) => {
  // each tile of an n x n cut: the mean colour of its four quarters (12 numbers, 0..255)
  const img = new Image();
  img.src = src;
  await img.decode();
  const side = 16 * n, canvas = document.createElement('canvas');
  canvas.width = canvas.height = side;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0, side, side);
  const px = g.getImageData(0, 0, side, side).data;
  const out = [];
  for (let tr = 0; tr < n; tr++) for (let tc = 0; tc < n; tc++) {
    const f = [];
    for (let qr = 0; qr < 2; qr++) for (let qc = 0; qc < 2; qc++) {
      const sum = [0, 0, 0];
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) {
        const i = ((tr * 16 + qr * 8 + y) * side + tc * 16 + qc * 8 + x) * 4;
        for (let k = 0; k < 3; k++) sum[k] += px[i + k];
      }
      f.push(...sum.map(v => v / 64));
    }
    out.push(f);
  }
  return out;
}"""


def test_built_in_picture_tiles_stay_distinguishable_at_16x16(page: Any) -> None:
    """No two of the 256 pieces look alike: their quarter colours differ by at least 6 levels (RMS).

    The previous picture (a smooth sunset) had 1,040 pairs of identical pieces at 16x16 and 74 at 8x8."""
    features = page.evaluate(TILE_FEATURES, ["picture.svg", 16])
    assert len(features) == 256
    closest = min(
        (sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) / 4) ** 0.5
        for i, a in enumerate(features)
        for b in features[i + 1 :]
    )
    assert closest >= 6, f"two pieces differ by only {closest:.1f} colour levels"


def test_little_numbers_on_the_picture_by_default_from_6x6(page: Any) -> None:
    page.click('label[for="mode-picture"]')
    page.wait_for_selector('[data-testid="board"].picture')
    choose_size(page, 5, 5)
    assert not page.is_checked("#show-numbers")
    assert "numbers" not in (page.get_attribute('[data-testid="board"]', "class") or "").split()
    choose_size(page, 6, 6)
    assert page.is_checked("#show-numbers")
    assert "numbers" in (page.get_attribute('[data-testid="board"]', "class") or "").split()
    page.uncheck("#show-numbers")  # the player's choice then holds at every size
    choose_size(page, 8, 8)
    assert not page.is_checked("#show-numbers")


def test_replay_as_played_follows_the_moves_times(open_page: Callable[..., Any]) -> None:
    page = open_page(hash="2x2:0,3,2,1")  # 6 moves from the classic goal
    assert moves(page) == 0 and tiles_of(page) == [0, 3, 2, 1]
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector("#playback:not([hidden])", timeout=20_000)
    page.select_option("#speed", "slow")  # 450 ms a move
    page.wait_for_selector("#win:not([hidden])", timeout=20_000)
    total = moves(page)
    assert total == 6
    stamps = page.evaluate("JSON.parse(localStorage.getItem('npuzzle.game.v1')).stamps")
    assert len(stamps) == total and stamps == sorted(stamps)
    page.click("#win-replay")
    page.select_option("#speed", "real")
    started = time.monotonic()
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('Replay done')", timeout=20_000
    )
    took_ms = (time.monotonic() - started) * 1000
    assert took_ms >= 0.8 * (stamps[-1] - stamps[0]) - 300, (took_ms, stamps)
    assert moves(page) == total


# -- accessibility ---------------------------------------------------------------------------------------------
def test_own_image_control_shows_a_focus_ring_when_tabbed_to(page: Any) -> None:
    page.click('label[for="mode-picture"]')
    page.focus("#show-numbers")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "picture-file"
    assert page.eval_on_selector("label.file-btn", "e => getComputedStyle(e).outlineStyle") == "solid"
    assert page.eval_on_selector("label.file-btn", "e => parseFloat(getComputedStyle(e).outlineWidth)") >= 2


def test_skip_link_reaches_the_board_and_leaves_the_game_alone(page: Any) -> None:
    kept = tiles_of(page)
    before = status(page)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    assert page.evaluate("document.activeElement.id") == "board"
    assert tiles_of(page) == kept and status(page) == before


@pytest.mark.parametrize("viewport,scheme", [("1280x800", "dark"), ("phone", "light")])
def test_axe_core_finds_no_violations(open_page: Callable[..., Any], viewport: str, scheme: str) -> None:
    page = open_page(viewport, scheme=scheme)
    assert run_axe(page) == []
    if viewport == "phone":
        page.click("#settings-toggle")
        page.wait_for_selector("#width:visible")
        assert run_axe(page) == []
        page.click("#panel-close")
    if viewport != "phone":
        page.click('label[for="mode-picture"]')
    page.evaluate("location.hash = '#3x2:0,5,4,3,2,1'")  # a linked deal 15 moves from the goal
    page.wait_for_function("document.getElementById('game-id').value === '3x2:0,5,4,3,2,1'")
    page.get_by_role("button", name="Solve").click()  # the playback bar, paused
    page.wait_for_selector("#playback:not([hidden])", timeout=20_000)
    page.locator("#pause").click()
    assert run_axe(page) == []
    page.locator("#stop").click()
    choose_size(page, 2, 2)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector("#win:not([hidden])", timeout=20_000)  # the dialog and the solved board
    assert run_axe(page) == []  # at once: the dialog's text is never see-through, even while it comes in


def test_page_runs_under_the_servers_csp(open_page: Callable[..., Any]) -> None:
    """No inline script, no blocked resource: the console stays clean (checked by the fixture)."""
    page = open_page(csp=True)
    page.click(f'[data-tile="{neighbour_of_blank(page)}"]')
    page.click('label[for="mode-picture"]')
    page.wait_for_selector('[data-testid="board"].picture')
    assert moves(page) == 1


# -- difficulty by exact length, the deal's analysis, a board from a screenshot (issues 15 and 12) ----------
def deal_length(page: Any, low: int, high: int) -> None:
    drawer = page.is_visible("#settings-toggle")
    if drawer and page.get_attribute("#settings-toggle", "aria-expanded") != "true":
        page.click("#settings-toggle")
    page.select_option("#difficulty", "length")
    page.wait_for_selector("#length-row:visible")
    page.fill("#length-min", str(low))
    page.fill("#length-max", str(high))
    page.click("#length-deal")
    if page.is_visible("#confirm"):
        page.click("#confirm-new")


@pytest.mark.parametrize(
    "width,height,low,high", [(3, 3, 20, 20), pytest.param(4, 4, 30, 34, marks=pytest.mark.browser_slow)]
)
def test_difficulty_by_exact_length_and_the_deals_analysis(
    page: Any, width: int, height: int, low: int, high: int
) -> None:
    choose_size(page, width, height)
    deal_length(page, low, high)
    page.wait_for_function(
        "document.getElementById('status').textContent.startsWith('New game: shortest solution')",
        timeout=60_000,
    )
    page.wait_for_function(
        "document.getElementById('analysis').textContent.startsWith('Shortest solution')", timeout=60_000
    )
    length = int(re.search(r"Shortest solution: (\d+) moves", page.inner_text("#analysis")).group(1))
    assert low <= length <= high
    assert "harder than" in page.inner_text("#analysis") and f"{length} moves" in status(page)
    assert run_axe(page) == []  # the length controls and the analysis line
    if (width, height) == (3, 3):  # the oracle: exact BFS distance of the dealt board
        from npuzzle.goals import classic
        from oracle import bfs_distances

        assert bfs_distances(classic(3, 3))[tuple(tiles_of(page))] == length
        # a band the board cannot have: said in words, and the game stays
        kept = tiles_of(page)
        deal_length(page, 40, 40)
        page.wait_for_function("document.getElementById('status').textContent.startsWith('Could not deal')")
        assert "31 moves" in status(page) and tiles_of(page) == kept
        expected = [e for e in page.console_errors if "status of 400" in e]
        assert len(expected) == 1  # the browser logs the refusal; nothing else went wrong
        page.console_errors.remove(expected[0])


@pytest.mark.parametrize("viewport,scheme", [("1280x720", "dark"), ("phone", "light")])
def test_upload_a_screenshot_play_it_and_solve_to_the_end(
    open_page: Callable[..., Any], tmp_path: Path, viewport: str, scheme: str
) -> None:
    from screenshots import Style, game_screenshot

    shot = game_screenshot(Style(width=3, height=3, kind="numbers", seed=3, jpeg=85))
    path = tmp_path / "game-window.png"
    shot.image.save(path)
    page = open_page(viewport, scheme=scheme)
    if viewport == "phone":
        page.click("#settings-toggle")
    page.click("#read-card summary")  # the options open, for axe to see them too
    page.set_input_files("#read-file", str(path))
    page.click("#read-go")
    page.wait_for_function(
        "/^(Read a|Could not)/.test(document.getElementById('read-status').textContent)", timeout=60_000
    )
    # textContent, not inner_text: on a phone the drawer holding #read-status closes once the board is dealt
    read_status = page.text_content("#read-status") or ""
    assert read_status.startswith("Read a 3×3 board"), read_status
    wait_dealt(page, 3, 3)
    page.wait_for_function(
        f"document.getElementById('game-id').value.startsWith('3x3:{shot.board.tiles[0]},')"
    )
    assert tiles_of(page) == list(shot.board.tiles)
    labels = page.eval_on_selector_all(
        "#read-preview .read-cell", "els => els.map(e => Number(e.dataset.label))"
    )
    assert labels == list(shot.board.tiles)  # the preview shows the board read, cell by cell
    if viewport == "phone":
        # the board in view: the drawer closes with the deal (waited for, not raced)
        page.wait_for_selector('#settings-toggle[aria-expanded="false"]', timeout=10_000)
        page.click("#settings-toggle")
    assert run_axe(page) == []  # the screenshot card with its preview, the length controls' note
    if viewport == "phone":
        page.click("#panel-close")
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector("#playback:not([hidden])", timeout=40_000)
    page.select_option("#speed", "instant")
    page.wait_for_selector('[data-testid="board"][data-solved="true"]', timeout=60_000)
    assert page.is_visible("#win")
    assert run_axe(page) == []


def test_a_screenshot_that_is_not_a_puzzle_is_refused_in_words(page: Any, tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "flat.png"
    Image.new("RGB", (320, 240), (90, 120, 150)).save(path)
    kept = tiles_of(page)
    page.set_input_files("#read-file", str(path))
    page.click("#read-go")
    page.wait_for_function(
        "document.getElementById('read-status').textContent.startsWith('Could not read it:')"
    )
    assert len(page.inner_text("#read-status")) > len("Could not read it: ") + 10
    assert tiles_of(page) == kept and page.is_hidden("#read-preview")
    page.console_errors[:] = [e for e in page.console_errors if "status of 400" not in e]  # the refusal


# A canned reading of a 300x300 screenshot that is a best guess: cells 3 and 4 look alike
BEST_GUESS = {
    "width": 3,
    "height": 3,
    "tiles": [2, 4, 0, 1, 5, 3, 7, 8, 6],
    "goal": [1, 2, 3, 4, 5, 6, 7, 8, 0],
    "confidence": [0.9, 0.9, 0.9, 0.3, 0.3, 0.9, 0.9, 0.9, 0.9],
    "kind": "picture",
    "missing": 8,
    "ambiguous": [[3, 4]],
    "image_width": 300,
    "image_height": 300,
}


def test_screenshot_options_reach_the_reader_and_a_best_guess_is_marked(page: Any, tmp_path: Path) -> None:
    """The board area, the hole's corner and "accept a best guess" go out as crop, hole_home and
    allow_ambiguous; a refusal naming those fields names the card's controls and opens them; a best guess
    (``ambiguous`` cells) is marked uncertain.
    The reader's answers are canned (its real work is tested through the API): a fast test."""
    import json

    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    sent: list[dict[str, Any]] = []
    answers = [
        (
            400,
            {"detail": "no grid found: check width and height and crop, or accept it with allow_ambiguous"},
        ),
        (
            200,
            BEST_GUESS,
        ),
    ]

    def reader(route: Any) -> None:
        sent.append(route.request.post_data_json)
        code, body = answers.pop(0)
        route.fulfill(status=code, content_type="application/json", body=json.dumps(body))

    page.route("**/api/read", reader)
    page.set_input_files("#read-file", str(path))
    page.click("#read-go")
    page.wait_for_function("document.getElementById('read-status').textContent.startsWith('Could not')")
    refusal = page.text_content("#read-status") or ""
    assert "“Board area”" in refusal and "“Accept a best guess”" in refusal, refusal
    assert page.get_attribute("#read-options", "open") is not None  # the controls it names are in view
    page.fill("#read-crop", "10, 20, 30")
    page.click("#read-go")
    page.wait_for_function(
        "document.getElementById('read-status').textContent.includes('four whole numbers')"
    )
    page.fill("#read-crop", "10, 20, 240 260")
    page.select_option("#read-hole", "top-right")
    page.click("#read-go")
    page.wait_for_function("document.getElementById('read-status').textContent.includes('give the width')")
    assert len(sent) == 1  # a malformed area, a corner of a board of no known size: refused on the page
    page.select_option("#read-width", "3")
    page.select_option("#read-height", "3")
    page.check("#read-guess")
    page.click("#read-go")
    page.wait_for_function("document.getElementById('read-status').textContent.startsWith('Best guess')")
    assert sent[1]["crop"] == [10, 20, 240, 260] and sent[1]["allow_ambiguous"] is True
    assert (sent[1]["width"], sent[1]["height"], sent[1]["hole_home"]) == (3, 3, 2)  # the top right cell
    assert "uncertain" in (page.get_attribute("#read-status", "class") or "")
    wait_dealt(page, 3, 3)
    assert tiles_of(page) == [2, 4, 0, 1, 5, 3, 7, 8, 6]
    assert "uncertain" in status(page)
    assert page.get_attribute("#read-preview", "data-uncertain") == "true"
    doubtful = page.eval_on_selector_all(
        "#read-preview .read-cell.doubtful", "els => els.map(e => e.textContent)"
    )
    assert doubtful == ["1?", "5?"]  # cells 3 and 4, the group that could be read the other way round
    # named by row and column from 1, as everywhere on the page (they were "cell 3", "cells 3, 4")
    titles = page.eval_on_selector_all("#read-preview .read-cell.doubtful", "els => els.map(e => e.title)")
    assert [t.split(":")[0] for t in titles] == ["row 2, column 1", "row 2, column 2"], titles
    described = page.get_attribute("#read-preview", "aria-label") or ""
    assert "; row 2, column 1; row 2, column 2 could be read another way" in described, described
    page.console_errors[:] = [e for e in page.console_errors if "status of 400" not in e]  # the refusal


def test_the_hole_can_belong_in_an_inner_cell_of_a_screenshot(page: Any, tmp_path: Path) -> None:
    """“The hole belongs” → “another cell…”: with the size left to be found, a cell number counting from 1
    (an empty box, 0, -1, 2.5 and one past the largest board are refused on the page, nothing sent); with a
    size chosen, a row and a column menu as long as the board, their cell sent as hole_home and the board
    read dealt with the blank's home there, with no warning above it (every cell read surely). The reader's
    answer is canned (its real work is tested through the API)."""
    import json

    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    sent: list[dict[str, Any]] = []
    goal = [1, 2, 3, 4, 5, 0, 7, 8, 9, 10, 11, 12]  # blank-at:5 on a 4x3: row 2, column 2
    reading = {
        "width": 4,
        "height": 3,
        "tiles": [1, 2, 3, 4, 5, 7, 0, 8, 9, 10, 11, 12],
        "goal": goal,
        "confidence": [0.9] * 12,
        "kind": "picture",
        "missing": 5,
        "ambiguous": [],
        "image_width": 300,
        "image_height": 300,
    }

    def reader(route: Any) -> None:
        sent.append(route.request.post_data_json)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(reading))

    page.route("**/api/read", reader)
    page.set_input_files("#read-file", str(path))
    page.click("#read-options summary")
    assert page.is_hidden("#read-hole-home")
    page.select_option("#read-hole", "cell")
    assert page.is_visible("#read-hole-cell") and page.is_hidden("#read-hole-row")  # no size: a cell number
    assert "from 1" in page.inner_text("#read-hole-typed") and "1 is the top left" in page.inner_text(
        "#read-hole-cell-note"
    )
    most = page.evaluate("import('/limits.js').then(m => m.MAX_SIDE * m.MAX_SIDE)")
    for typed, says in [
        ("", "type the number"),
        ("0", "a whole number from 1 (the top left), not '0'"),
        ("-1", "not '-1'"),
        ("2.5", "not '2.5'"),
        (str(most + 1), f"at most {most}"),
    ]:
        page.evaluate("document.getElementById('read-status').textContent = ''")
        page.fill("#read-hole-cell", typed)
        page.click("#read-go")
        page.wait_for_function("document.getElementById('read-status').textContent !== ''")
        refusal = page.text_content("#read-status") or ""
        assert says in refusal, (typed, refusal)
    assert sent == []  # refused on the page
    page.select_option("#read-width", "4")
    page.select_option("#read-height", "3")
    assert page.is_visible("#read-hole-row") and page.is_hidden("#read-hole-cell")
    menus = page.eval_on_selector_all(
        "#read-hole-row, #read-hole-column", "els => els.map(e => [e.options.length, e.value])"
    )
    assert menus == [[3, "3"], [4, "4"]]  # as long as the board, the usual bottom right chosen at first
    page.select_option("#read-hole-row", "2")
    page.select_option("#read-hole-column", "2")
    page.click("#read-go")
    wait_dealt(page, 4, 3)
    assert (sent[0]["width"], sent[0]["height"], sent[0]["hole_home"]) == (4, 3, 5)
    assert tiles_of(page) == reading["tiles"]
    assert page.is_hidden('[data-testid="board-notice"]')  # every cell read surely: no warning
    assert page.evaluate("JSON.parse(localStorage.getItem('npuzzle.game.v1')).layout") == "blank-at:5"
    assert (page.input_value("#blank-row"), page.input_value("#blank-column")) == ("2", "2")  # the goal's
    page.select_option("#read-width", "2")
    page.select_option("#read-height", "2")
    menus = page.eval_on_selector_all(
        "#read-hole-row, #read-hole-column", "els => els.map(e => [e.options.length, e.value])"
    )
    assert menus == [[2, "2"], [2, "2"]]  # a smaller size keeps the row and column where they fit


def test_a_typed_hole_cell_counts_from_1_in_what_goes_out_and_in_the_servers_refusal(
    page: Any, tmp_path: Path
) -> None:
    """A cell number typed for "another cell…" counts from 1: on a real numbered 3x3 screenshot (the size
    left to be found), 10 goes out as hole_home 9 and the server's refusal reads in the same counting
    ("cell 10 is outside a 3x3 board (cells 1..9)", not "9 … (0..8)"); 5, the middle, goes out as 4 and the
    board read is dealt with the blank's home there (blank-at:4)."""
    from screenshots import Style, game_screenshot

    shot = game_screenshot(Style(width=3, height=3, kind="numbers", seed=3, jpeg=85))
    path = tmp_path / "game-window.png"
    shot.image.save(path)
    sent: list[int] = []
    page.on(
        "request",
        lambda r: sent.append(r.post_data_json["hole_home"]) if r.url.endswith("/api/read") else None,
    )
    page.set_input_files("#read-file", str(path))
    page.click("#read-options summary")
    page.select_option("#read-hole", "cell")
    page.fill("#read-hole-cell", "10")
    page.click("#read-go")
    page.wait_for_function(
        "document.getElementById('read-status').textContent.startsWith('Could not')", timeout=60_000
    )
    refusal = page.text_content("#read-status") or ""
    assert "“The hole belongs”: cell 10 is outside a 3x3 board (cells 1..9)" in refusal, refusal
    page.fill("#read-hole-cell", "5")
    page.click("#read-go")
    page.wait_for_function(
        "document.getElementById('read-status').textContent.startsWith('Read a')", timeout=60_000
    )
    wait_dealt(page, 3, 3)
    assert sent == [9, 4]
    page.wait_for_function("JSON.parse(localStorage.getItem('npuzzle.game.v1')).layout === 'blank-at:4'")
    assert tiles_of(page) == list(shot.board.tiles)
    page.console_errors[:] = [e for e in page.console_errors if "status of 400" not in e]  # the refusal


@pytest.mark.parametrize("viewport", ["1280x720", "phone"])
def test_a_best_guess_keeps_its_warning_until_another_board_is_dealt(
    open_page: Callable[..., Any], tmp_path: Path, viewport: str
) -> None:
    """A best guess read from a screenshot is played under a warning above the board that moves, undo,
    a reload and restarting the deal leave in place (the status line it had been in is replaced by the
    first move's); a new deal takes it away, and Undo bringing the guessed game back brings it back. The
    actions stay above the fold with it. The reader's answer is canned."""
    import json

    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    page = open_page(viewport)
    page.route(
        "**/api/read",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(BEST_GUESS)),
    )
    assert page.is_hidden('[data-testid="board-notice"]')
    if viewport == "phone":
        page.click("#settings-toggle")
    page.set_input_files("#read-file", str(path))
    page.click("#read-go")
    wait_dealt(page, 3, 3)
    notice = page.get_by_test_id("board-notice")
    notice.wait_for(state="visible")
    # the doubtful cells named by row and column, as the card's preview names them (it said "2 cells")
    assert words(notice.inner_text()) == "Best guess: check row 2, column 1; row 2, column 2."
    assert "board-notice-text" in (page.get_attribute("#board", "aria-describedby") or "")
    if viewport == "phone":
        page.wait_for_selector('#settings-toggle[aria-expanded="false"]')  # the drawer closes with the deal
    play_some(page, 2)
    assert status(page) == "Playing" and notice.is_visible()  # the status moved on, the warning did not
    actions = page.locator(".actions").bounding_box()
    assert actions["y"] + actions["height"] <= VIEWPORTS[viewport]["height"]
    assert run_axe(page) == []  # the warning's contrast, the board described by it
    page.click("#undo")
    page.reload()
    wait_dealt(page, 3, 3)
    assert moves(page) == 1 and notice.is_visible()
    page.click("#restart")  # the same board again: the same doubt
    assert moves(page) == 0 and notice.is_visible()
    play_some(page, 1)
    page.get_by_role("button", name="New game").click()
    page.wait_for_function("document.getElementById('board-notice').hidden")
    wait_dealt(page, 3, 3)
    page.click("#undo")  # no move yet: the guessed game comes back, and its warning with it
    notice.wait_for(state="visible")
    assert moves(page) == 1


@pytest.mark.parametrize("viewport", ["1280x720", "phone"])
def test_cells_read_less_surely_keep_a_warning_above_the_board_naming_them(
    open_page: Callable[..., Any], tmp_path: Path, viewport: str
) -> None:
    """A reading accepted (not a best guess) with cells under the card's UNSURE confidence (those it
    outlines) is played under a warning above the board naming them by row and column from 1, the first
    two and then a count; moves and a reload leave it, the actions stay above the fold, and a new deal
    takes it away. The reader's answer is canned."""
    import json

    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    reading = {
        **BEST_GUESS,
        "ambiguous": [],
        # cells 1, 5 and 8 under UNSURE (0.6); 0.6 itself is sure
        "confidence": [0.9, 0.55, 0.9, 0.6, 0.9, 0.3, 0.9, 0.9, 0.59],
    }
    page = open_page(viewport)
    page.route(
        "**/api/read",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(reading)),
    )
    if viewport == "phone":
        page.click("#settings-toggle")
    page.set_input_files("#read-file", str(path))
    page.click("#read-go")
    wait_dealt(page, 3, 3)
    assert "3 cells less sure, outlined (row 1, column 2; row 2, column 3; row 3, column 3)" in words(
        page.text_content("#read-status")
    )
    notice = page.get_by_test_id("board-notice")
    notice.wait_for(state="visible")
    assert words(notice.inner_text()) == "Read less surely: row 1, column 2; row 2, column 3 and 1 more."
    # within the height the board gives up for it
    assert notice.bounding_box()["height"] <= notice_room(page)
    assert page.eval_on_selector_all("#read-preview .read-cell.unsure", "els => els.length") == 3
    if viewport == "phone":
        page.wait_for_selector('#settings-toggle[aria-expanded="false"]')  # the drawer closes with the deal
    play_some(page, 2)
    assert status(page) == "Playing" and notice.is_visible()
    actions = page.locator(".actions").bounding_box()
    assert actions["y"] + actions["height"] <= VIEWPORTS[viewport]["height"]
    assert run_axe(page) == []
    page.reload()
    wait_dealt(page, 3, 3)
    assert moves(page) == 2 and notice.is_visible()
    page.get_by_role("button", name="New game").click()
    page.wait_for_function("document.getElementById('board-notice').hidden")


def canned_reading(
    width: int, height: int, unsure: tuple[int, ...] = (), ambiguous: tuple[tuple[int, ...], ...] = ()
) -> dict[str, Any]:
    """A canned /api/read answer: the classic goal one move away, the cells ``unsure`` read with confidence
    0.3 (the card outlines them), ``ambiguous`` a best guess's groups."""
    n = width * height
    goal = [*range(1, n), 0]
    return {
        "width": width,
        "height": height,
        "tiles": [*goal[:-2], 0, n - 1],
        "goal": goal,
        "confidence": [0.3 if cell in unsure else 0.9 for cell in range(n)],
        "kind": "picture",
        "missing": n - 1,
        "ambiguous": [list(group) for group in ambiguous],
        "image_width": 300,
        "image_height": 300,
    }


def test_the_finished_picture_the_reader_sends_is_the_games_picture(page: Any, tmp_path: Path) -> None:
    """Picture tiles read without a reference: the page plays with the finished picture /api/read sends
    (its missing piece filled in, or the game's preview's), not one it cuts from the screenshot with the
    missing piece's cell left dark; an answer without one (numbered tiles) is still cut from the screenshot.
    The readings are canned."""
    import base64
    import io
    import json

    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    buffer = io.BytesIO()
    Image.new("RGB", (90, 90), (200, 40, 40)).save(buffer, "PNG")
    sent_picture = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    answers = [json.dumps({**canned_reading(3, 3), "picture": sent_picture}), json.dumps(canned_reading(3, 3))]
    page.route(
        "**/api/read",
        lambda route: route.fulfill(status=200, content_type="application/json", body=answers.pop(0)),
    )
    stored = "localStorage.getItem('npuzzle.picture.v1')"
    for expected in ("sent", "cut"):
        page.set_input_files("#read-file", str(path))
        page.click("#read-go")
        wait_dealt(page, 3, 3)
        if expected == "sent":
            page.wait_for_function(f"({stored} || '').startsWith('data:image/')")
            assert page.evaluate(stored) == sent_picture
        else:  # the second deal (the same size) replaces the picture with one cut from the screenshot
            page.wait_for_function(f"({stored} || '').startsWith('data:image/') && {stored} !== {json.dumps(sent_picture)}")


@pytest.mark.parametrize("viewport", ["1280x720", "phone"])
@pytest.mark.parametrize(  # CI keeps the 16x16, the longest names (5-9 s a page); the 10x10 is slow
    "side", [pytest.param(10, marks=pytest.mark.browser_slow), 16]
)
def test_a_big_boards_warning_keeps_to_its_lines_naming_the_cells(
    open_page: Callable[..., Any], tmp_path: Path, viewport: str, side: int
) -> None:
    """The warning above a 10x10 or 16x16 board read from a screenshot names its cells by row and column of
    two digits ("row 16, column 1") and keeps to one line on a desktop (it wrapped to two past the room the
    board gave up for it, "...; 3 / more."), two on a phone, never breaking inside "column 16"; the board
    gives up the height it takes, so the actions stay above the fold. Cells read less surely and a best
    guess's doubtful cells alike (a best guess gave only their count, "7 cells may be misread"). The
    readings are canned."""
    import json

    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    n = side * side
    cells = (n - 1, n - 2, n - side - 1, n - side)  # named in reading order: rows side - 1 and side
    named = f"row {side - 1}, column {side}; row {side}, column 1 and 2 more"
    cases = [
        (canned_reading(side, side, unsure=cells), f"Read less surely: {named}."),
        (canned_reading(side, side, ambiguous=(cells[2:], cells[:2])), f"Best guess: check {named}."),
        (
            canned_reading(side, side, ambiguous=(tuple(range(n)),)),  # the reading as a whole in doubt
            "Best guess: the whole board may be misread; check it.",
        ),
    ]
    page = open_page(viewport)
    phone = viewport == "phone"
    answers = [json.dumps(reading) for reading, _ in cases]
    page.route(
        "**/api/read",
        lambda route: route.fulfill(status=200, content_type="application/json", body=answers.pop(0)),
    )
    notice = page.get_by_test_id("board-notice")
    for _, expected in cases:
        if phone:
            page.click("#settings-toggle")
        page.set_input_files("#read-file", str(path))
        page.click("#read-go")
        wait_dealt(page, side, side)
        if phone:
            page.wait_for_selector('#settings-toggle[aria-expanded="false"]')
        page.wait_for_function(  # the same size each time: the warning tells the deals apart
            f"document.getElementById('board-notice-text').textContent.replace(/\\u00a0/g, ' ') === {expected!r}"
        )
        raw = notice.inner_text()
        assert words(raw) == expected, raw
        assert "column " not in raw  # a line never breaks between "column" and its number
        lines = page.eval_on_selector(
            "#board-notice-text",
            "e => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))",
        )
        assert lines <= (2 if phone else 1), (expected, lines)
        box = notice.bounding_box()
        assert box["height"] <= notice_room(page) + 0.5
        board = page.locator('[data-testid="board"]').bounding_box()
        assert box["y"] + box["height"] <= board["y"]
        actions = page.locator(".actions").bounding_box()
        assert actions["y"] + actions["height"] <= VIEWPORTS[viewport]["height"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{viewport}-{side}x{side}-best-guess-warning.png"))
    assert run_axe(page) == []


def test_the_cards_preview_of_a_big_board_is_labelled_where_it_can_be_read(page: Any, tmp_path: Path) -> None:
    """The board read, drawn in the card, marks each cell with the piece read there; on a 16x16 (cells of
    16 px) those labels overlapped into a blur ("1(", "2("), and a 4x10 was drawn 650 px tall. Now a 16x16
    carries labels only on the cells to check (drawn over their neighbours; every cell's reading stays in
    its title), a 10x10 all of them, smaller; a tall board is drawn narrower, at most 400 px tall. The
    readings are canned."""
    import json

    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    answers = [
        json.dumps(canned_reading(16, 16, unsure=(100, 200))),
        json.dumps(canned_reading(10, 10, unsure=(55,))),
        json.dumps(canned_reading(4, 10)),
    ]
    page.route(
        "**/api/read",
        lambda route: route.fulfill(status=200, content_type="application/json", body=answers.pop(0)),
    )
    labelled = """els => els.filter(e => getComputedStyle(e).display !== 'none')
                         .map(e => e.parentElement.dataset.label)"""
    for side, height, badges in [
        (16, 16, ["101", "201"]),
        (10, 10, [str(t) for t in range(1, 99)] + ["0", "99"]),
    ]:
        page.set_input_files("#read-file", str(path))
        page.click("#read-go")
        wait_dealt(page, side, height)
        page.wait_for_function(
            f"document.querySelectorAll('#read-preview .read-cell').length === {side * height}"
        )
        shown = page.eval_on_selector_all("#read-preview .read-badge", labelled)
        assert sorted(shown) == sorted(badges)
        titles = page.eval_on_selector_all(
            "#read-preview .read-cell", "els => els.filter(e => e.title).length"
        )
        assert titles == side * height
    page.set_input_files("#read-file", str(path))
    page.click("#read-go")
    wait_dealt(page, 4, 10)
    page.wait_for_function("document.querySelectorAll('#read-preview .read-cell').length === 40")
    preview = page.locator("#read-preview").bounding_box()
    assert preview["height"] <= 401 and preview["width"] <= 161
    assert len(page.eval_on_selector_all("#read-preview .read-badge", labelled)) == 40


def _refusal_body(exc: Exception) -> dict[str, Any]:
    """The JSON body /api/read answers for the reader's refusal ``exc`` (as app._error_response makes it)."""
    from npuzzle.web.app import field_words, refusal_cells
    from npuzzle.web.guard import shorten

    return {"detail": shorten(field_words(str(exc))), "kind": type(exc).__name__, **refusal_cells(exc)}


def _alike(groups: tuple[tuple[int, ...], ...], width: int, height: int) -> Exception:
    """The reader's refusal of tiles too alike (its sentence and data) on a ``width`` x ``height`` board."""
    from npuzzle.goals import blank_at
    from npuzzle.render.vision import AmbiguousTilesError, ScreenshotReading, _ambiguity_message

    n = width * height
    board = blank_at(width, height, n - 1)
    reading = ScreenshotReading(board, board, (0.9,) * n, n - 1)
    return AmbiguousTilesError(_ambiguity_message(groups, width, n), groups, reading)


def _show_refusals(page: Any, path: Path, refusals: list[tuple[dict[str, Any], int | None, list[str], list[str]]]) -> None:
    """Each canned refusal body in turn through the card (with its size chosen, if any): the card shows
    the words of ``shown`` (no-break spaces read as spaces) and none of ``hidden``, nor "0-based"/"from 0"."""
    import json

    bodies = [json.dumps(body) for body, *_ in refusals]
    page.route(
        "**/api/read",
        lambda route: route.fulfill(status=400, content_type="application/json", body=bodies.pop(0)),
    )
    page.set_input_files("#read-file", str(path))
    page.click("#read-options summary")
    for body, size, shown, hidden in refusals:
        page.select_option("#read-width", str(size or ""))
        page.select_option("#read-height", str(size or ""))
        page.evaluate("document.getElementById('read-status').textContent = ''")
        page.click("#read-go")
        page.wait_for_function("document.getElementById('read-status').textContent.startsWith('Could not')")
        said = words(page.text_content("#read-status"))
        for expected in shown:
            assert expected in said, (body, said)
        for old in [*hidden, "0-based", "from 0"]:
            assert old not in said, (body, said)
    assert bodies == []
    page.console_errors[:] = [e for e in page.console_errors if "status of 400" not in e]  # the refusals


def _refusals() -> list[tuple[dict[str, Any], int | None, list[str], list[str]]]:
    """(the body /api/read sends for a refusal of the reader, the size chosen in the card, words the card
    shows for it, words it must not show): every refusal naming a cell that can reach the card. Those the
    library words inline are copied from it (vision's _read_numbers, _picture_causes, _home_or_corner,
    _preview_refusal, _check_preview_home), with no data (as a refusal without a reading); the others are
    made by the library."""
    from npuzzle.board import Board
    from npuzzle.goals import around_blank
    from npuzzle.render.vision import ScreenshotReading, UnsolvableReadingError, _check_solvable
    from npuzzle.web.app import field_words
    from npuzzle.web.guard import shorten

    parity = None
    for tiles in ([1, 2, 3, 4, 5, 6, 7, 8, 0], [2, 1, 3, 4, 5, 6, 7, 8, 0]):
        try:  # numbers read, their hole's home given as cell 4
            _check_solvable(ScreenshotReading(Board(tiles, 3, 3), around_blank(3, 3, 4), (1.0,) * 9, 4, kind="numbers"))
        except UnsolvableReadingError as refusal:
            parity = str(refusal)
    assert parity is not None and "the hole in cell 4" in parity
    refusals = [
        (
            "found 2 empty cells [3, 7] in a 4x4 grid (one is expected): check --size and --crop (cells 0-based)",
            None,
            ["found 2 empty cells (row 1, column 4; row 2, column 4) in a 4x4 grid (one is expected)"],
            ["[3, 7]"],
        ),
        (
            "could not read every number on the 4x4 grid (cells [2, 5] not read surely (2 as 3/8, 5 as 6); 7 read "
            "on cells [3, 9]; numbers [4, 11] not found; cells 0-based): use a sharper or larger screenshot, or "
            "check --size and --crop",
            None,
            [
                "(row 1, column 3 (read as 3 or 8) and row 2, column 2 (read as 6) not read surely; 7 read on "
                "row 1, column 4 and on row 3, column 2; numbers 4, 11 not found)",
                "“Board area”",
            ],
            ["cells [", "2 as 3/8"],
        ),
        (
            _alike(((3, 5), (6, 7, 9)), 4, 4),
            None,
            [
                "tiles look too alike to tell apart: row 1, column 4 with row 2, column 2; row 2, column 3 with "
                "row 2, column 4 with row 3, column 2; use"
            ],
            ["(row 0", "cells 3"],
        ),
        (
            "could not put the 4x4 picture back together with confidence (the hole could be cell 5 or 15): the "
            "tiles may have too few details or large uniform areas, or --size/--crop is wrong; give the original "
            "picture with --reference, or accept the best guess with --allow-ambiguous",
            None,
            [
                "(the hole could be at row 2, column 2 or at row 4, column 4)",
                "picture with “Finished picture”",
            ],
            ["cell 5"],
        ),
        (
            "the tiles' seams fit 1.20 typical seams better with the missing piece's home at the top-right "
            "(cell 3) than at cell 15, the one given: check --hole-home",
            None,
            ["at the top-right (cell 4) than at cell 16, the one given: check “The hole belongs”"],
            ["cell 3", "cell 15"],
        ),
        (
            "the tiles' seams fit better with the missing piece's home at the bottom-left (cell 12) than at the "
            "bottom-right (assumed), but the board read with it there differs: give --hole-home 12 if the "
            "missing piece belongs at the bottom-left (cell 12), or the original picture with --reference",
            None,
            [
                "set “The hole belongs” to bottom left if the missing piece belongs at the bottom-left (cell 13)"
            ],
            ["cell 12", "12 if"],
        ),
        (
            "the tiles match the finished picture shown at x 10..200, y 5..100 (the missing piece in cell 15), "
            "and the tiles' seams put some elsewhere: give the original picture with --reference, check "
            "--hole-home, or accept the best guess with --allow-ambiguous",
            None,
            ["(the missing piece in cell 16)"],
            ["cell 15"],
        ),
        (
            "the game seems to show its finished picture at x 10..200, y 5..100, but the tiles do not match it "
            "closely enough to show where the missing piece belongs; read from their seams with it at cell 15: "
            "give the missing piece's home with --hole-home, or the original picture with --reference",
            4,
            ["read from their seams with it at row 4, column 4:"],
            ["cell 15"],
        ),
        (parity, None, ["with the hole in cell 5 (the other parity class)"], ["cell 4"]),
        (parity, 3, ["with the hole in row 2, column 2 (the other parity class)"], ["cell 4"]),
    ]
    return [
        (
            _refusal_body(message) if isinstance(message, Exception) else {
                "detail": shorten(field_words(message)), "kind": "ReadingError"
            },
            size,
            *rest,
        )
        for message, size, *rest in refusals
    ]


def test_every_cell_a_refusal_names_counts_from_1_in_the_card(page: Any, tmp_path: Path) -> None:
    """The reader's refusals name cells counting from 0 (the API's counting): the card shows each of them
    as it names cells, by row and column from 1 where the board's width is known (the size chosen, else the
    grid the sentence names), else as a cell number from 1 like the typed "Cell number, from 1"; the
    "cells 0-based" / "count from 0" asides go with them. Only the hole's home off the board had been
    put in the card's counting. The refusals are canned, in the words (and with the data) the server sends."""
    from PIL import Image

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    _show_refusals(page, path, _refusals())


def test_a_refusal_names_its_cells_from_its_data_not_from_its_wording(page: Any, tmp_path: Path) -> None:
    """A refusal of tiles too alike carries its groups of cells (0-based) and its board's size as data
    beside its sentence; the card names the cells from the data, by row and column from 1. The sentence
    named each cell twice ("cells 10 (row 0, column 10), ..."), so three groups on a 16x16 took it past the
    server's 300 characters and the card lost the last ones ("row 1, column 11 … (76 characters cut) …");
    and the card found the cells by matching the sentence's wording, which the reader may change. Now every
    group is there (the fourth counted), a reworded sentence changes nothing, a refusal's board size names
    its cells by row and column with no size chosen in the card or named in the sentence, and one cell
    read unsurely or the whole board in doubt are said as such. The bodies are the server's own."""
    from PIL import Image

    from npuzzle.render.vision import PictureReassemblyError

    path = tmp_path / "window.png"
    Image.new("RGB", (300, 300), (90, 120, 150)).save(path)
    three = _refusal_body(_alike(((10, 11), (12, 13, 14), (40, 41)), 16, 16))
    four = _refusal_body(_alike(((10, 11), (12, 13, 14), (40, 41), (200, 255)), 16, 16))
    sky = _refusal_body(_alike((tuple(range(192, 208)), (3, 5)), 16, 16))  # a row of plain tiles alike
    reworded = {**_refusal_body(_alike(((3, 5),), 4, 4)), "detail": "these two pieces are twins: 3 and 5"}
    seams = _refusal_body(
        PictureReassemblyError(
            "read from their seams with it at cell 15: give the missing piece's home with --hole-home",
            _alike(((0, 1),), 4, 4).reading,  # type: ignore[attr-defined]
        )
    )
    assert seams["width"] == 4 and "groups" not in seams  # a size, no cells: the sentence names them
    alike = "tiles look too alike to tell apart: "
    first_two = "row 1, column 11 with row 1, column 12; row 1, column 13 with row 1, column 14 with row 1, column 15"
    _show_refusals(
        page,
        path,
        [
            (three, None, [f"{alike}{first_two}; row 3, column 9 with row 3, column 10; use"], ["…", "cut"]),
            (four, None, [f"{first_two}; row 3, column 9 with row 3, column 10; and 1 more group; use"], ["…"]),
            (
                sky,
                None,
                [
                    f"{alike}row 13, column 1 with row 13, column 2 with row 13, column 3 and 13 more cells; "
                    "row 1, column 4 with row 1, column 6; use"
                ],
                ["…"],
            ),
            (reworded, None, [f"{alike}row 1, column 4 with row 2, column 2; use"], ["twins", "3 and 5"]),
            (seams, None, ["read from their seams with it at row 4, column 4:"], ["cell 15", "cell 16"]),
            (_refusal_body(_alike(((4,),), 3, 3)), None, ["row 2, column 2 was not read surely"], ["(row 1"]),
            (
                _refusal_body(_alike((tuple(range(9)),), 3, 3)),
                None,
                ["the board as a whole could be read another way", "“Accept a best guess”"],
                ["…", "allow_ambiguous"],
            ),
        ],
    )


def test_a_screenshot_is_sent_within_the_upload_cap_the_server_serves(page: Any, tmp_path: Path) -> None:
    """The page sizes an upload by /limits.js's MAX_UPLOAD_BYTES, not by a number of its own: under a server
    serving a 200 kB cap, a 700 kB PNG goes out redrawn smaller, the whole body within the cap; with the
    finished picture too, the two share it. The reader's answer is canned (only the body is looked at)."""
    import json

    import numpy as np
    from PIL import Image

    cap = 200_000
    limits = page.evaluate("fetch('limits.js').then(r => r.text())")
    assert re.search(r"export const MAX_UPLOAD_BYTES = \d+;", limits), limits
    smaller = re.sub(r"(MAX_UPLOAD_BYTES = )\d+", rf"\g<1>{cap}", limits)
    page.route(
        "**/limits.js", lambda route: route.fulfill(status=200, content_type="text/javascript", body=smaller)
    )
    sizes: list[int] = []

    def reader(route: Any) -> None:
        sizes.append(len(route.request.post_data_buffer or b""))
        body = {"detail": "canned refusal", "kind": "PictureError"}
        route.fulfill(status=400, content_type="application/json", body=json.dumps(body))

    page.route("**/api/read", reader)
    page.reload()
    page.wait_for_selector('[data-testid="board"] [data-tile="1"]')
    noise = np.random.default_rng(7).integers(0, 256, size=(480, 500, 3), dtype=np.uint8)
    path = tmp_path / "noisy.png"
    Image.fromarray(noise).save(path)
    assert path.stat().st_size > 3 * cap  # far over the cap as it is, and under the old 5.5 MB threshold
    for reference in (False, True):
        page.set_input_files("#read-file", str(path))
        if reference:
            page.set_input_files("#read-reference", str(path))
        page.click("#read-go")
        page.wait_for_function(
            "document.getElementById('read-status').textContent.startsWith('Could not read it:')"
        )
        assert "canned refusal" in (page.text_content("#read-status") or "")
    assert len(sizes) == 2 and all(cap // 2 < size <= cap for size in sizes), sizes
    page.console_errors[:] = [e for e in page.console_errors if "status of 400" not in e]  # the refusals


# -- layout at the four viewports ------------------------------------------------------------------
LONG_STATUS = "Hint: 60 down · moves to go: at most 1079, at least 212"


@pytest.mark.parametrize(  # the shortest desktop and the phone in CI; the other desktops (4 s each) slow
    "viewport", [v if v in ("1280x720", "phone") else pytest.param(v, marks=pytest.mark.browser_slow) for v in VIEWPORTS]
)
def test_layout_keeps_actions_above_the_fold_at_every_size(
    open_page: Callable[..., Any], viewport: str
) -> None:
    page = open_page(viewport)
    view = VIEWPORTS[viewport]
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((3, 3), (16, 16), (6, 3)):
        choose_size(page, width, height)
        page.wait_for_timeout(250)  # tiles slide into place
        actions = page.locator(".actions").bounding_box()
        board = page.locator('[data-testid="board"]').bounding_box()
        assert actions["y"] + actions["height"] <= view["height"], (
            f"actions below the fold at {width}x{height}"
        )
        assert board["y"] >= 0 and board["x"] >= 0 and board["x"] + board["width"] <= view["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= view["width"]
        page.screenshot(path=str(SHOTS / f"{viewport}-{width}x{height}.png"))
    # the status box wraps a long sentence instead of cutting it
    page.evaluate(f"document.getElementById('status').textContent = {LONG_STATUS!r}")
    clipped = page.eval_on_selector(
        "#status", "e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1"
    )
    assert not clipped
    status_box = page.locator("#status").bounding_box()
    stat_box = page.locator(".stat-wide").bounding_box()
    assert status_box["y"] + status_box["height"] <= stat_box["y"] + stat_box["height"] + 1


def test_phone_settings_sit_in_a_drawer_that_never_scrolls_the_board_away(
    open_page: Callable[..., Any],
) -> None:
    page = open_page("phone")
    assert page.is_hidden("#width") and page.is_visible("#settings-toggle")
    board_top = page.locator('[data-testid="board"]').bounding_box()["y"]
    page.click("#settings-toggle")
    assert page.get_attribute("#settings-toggle", "aria-expanded") == "true"
    page.select_option("#width", "5")
    wait_dealt(page, 5, int(page.input_value("#height")))
    assert page.evaluate("window.scrollY") == 0
    assert page.locator('[data-testid="board"]').bounding_box()["y"] == board_top
    assert page.is_visible("#width")  # the drawer stays open for the next change
    page.keyboard.press("Escape")
    page.wait_for_selector("#width", state="hidden")
    assert page.get_attribute("#settings-toggle", "aria-expanded") == "false"
    assert "5×" in page.inner_text("#settings-toggle")


# -- long sessions (not in the default run) ----------------------------------------------------------------
@pytest.mark.browser_slow
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("width,height", [(3, 3), (8, 8), (16, 16), (5, 3)])
def test_full_session_at_every_viewport_and_size(
    open_page: Callable[..., Any], viewport: str, width: int, height: int
) -> None:
    """Play, hint, auto-solve to the end with a pause, share link, settings change asks, axe clean."""
    page = open_page(viewport)
    choose_size(page, width, height)
    deal = page.input_value("#game-id")
    play_some(page, 2)
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function(
        "!document.getElementById('status').textContent.startsWith('Thinking')", timeout=40_000
    )
    assert status(page).startswith("Hint: "), status(page)
    page.get_by_role("button", name="Solve").click()
    page.wait_for_selector("#playback:not([hidden])", timeout=40_000)
    page.locator("#pause").click()
    paused_at = moves(page)
    page.wait_for_timeout(300)
    assert moves(page) == paused_at and status(page).endswith("· paused")
    page.locator("#pause").click()
    page.select_option("#speed", "instant")
    page.wait_for_selector('[data-testid="board"][data-solved="true"]', timeout=120_000)
    assert page.is_visible("#win")
    assert run_axe(page) == []
    page.keyboard.press("Escape")
    other = open_page(viewport, hash=deal)
    assert size_of(other) == (width, height) and other.input_value("#game-id") == deal
    play_some(other, 1)
    choose(other, "#width", str(2 if width != 2 else 3), confirm=False)
    other.wait_for_selector("#confirm[open]")
    other.click("#confirm-keep")
    other.wait_for_function("document.getElementById('status').textContent === 'Kept your game'")
    assert size_of(other) == (width, height)
