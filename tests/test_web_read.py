"""``/api/read``: a screenshot posted as base64 JSON comes back as a board with confidences, or as a 4xx
naming the cause; bad uploads (not an image, too large, a decompression bomb) are 4xx JSON, never 500."""

from __future__ import annotations

import base64
import io
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from npuzzle.board import Board
from npuzzle.solvability import is_solvable
from npuzzle.web import create_app
from npuzzle.web.app import WebSettings
from screenshots import Style, game_screenshot


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def encode(image: Image.Image, fmt: str = "PNG", data_url: bool = False) -> str:
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    text = base64.b64encode(buffer.getvalue()).decode()
    return f"data:image/{fmt.lower()};base64,{text}" if data_url else text


def assert_refused(response: Any, status: int, kind: str | None = None, says: str = "") -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"detail", "kind"} and body["detail"]
    if kind is not None:
        assert body["kind"] == kind, body
    assert says in body["detail"], body
    return body


@pytest.mark.parametrize(("kind", "seed"), [("numbers", 3), ("picture", 5)])
def test_read_a_whole_window_screenshot(client: TestClient, kind: str, seed: int) -> None:
    shot = game_screenshot(Style(width=3, height=3, kind=kind, seed=seed, jpeg=85))
    body: dict[str, Any] = {"screenshot": encode(shot.image, data_url=True)}
    if shot.reference is not None:
        body["reference"] = encode(shot.reference, "JPEG")
    response = client.post("/api/read", json=body)
    assert response.status_code == 200, response.text
    read = response.json()
    assert (read["width"], read["height"]) == (3, 3)
    assert read["tiles"] == list(shot.board.tiles) and read["goal"] == list(shot.goal.tiles)
    assert read["kind"] == kind and len(read["confidence"]) == 9
    assert all(0 <= c <= 1 for c in read["confidence"])
    assert (read["image_width"], read["image_height"]) == shot.image.size
    # the cells it cut lie on the board's box in the screenshot
    x, y, _, h = shot.box
    cells = read["cells"]
    assert len(cells) == 9 and abs(cells[0][0] - x) < 6 and abs(cells[8][3] - (y + h)) < 6
    assert is_solvable(Board(read["tiles"], 3, 3), Board(read["goal"], 3, 3))
    assert read["picture"] is None  # the page uses the reference, or the numbered cells as they are


def test_a_refused_reading_names_its_cause(client: TestClient) -> None:
    """A reference picture that is not this puzzle's: a 400 that says so, not a wrong board."""
    shot = game_screenshot(Style(width=3, height=3, kind="picture", seed=7, jpeg=None))
    wrong = Image.linear_gradient("L").convert("RGB").resize((240, 240))
    response = client.post("/api/read", json={"screenshot": encode(shot.image), "reference": encode(wrong)})
    body = assert_refused(response, 400)
    assert "reference" in body["detail"] and body["kind"].endswith("Error")


def test_twin_tiles_are_refused_naming_allow_ambiguous_which_answers_a_marked_guess(
    client: TestClient,
) -> None:
    """The page's "accept a best guess" box: the refusal names allow_ambiguous; with it the board comes back
    with the cells that could be read another way in ``ambiguous`` (what the page marks uncertain)."""
    from pictures import screenshot, synthetic_picture

    picture = synthetic_picture(300, 300, seed=22)
    picture.paste(picture.crop((0, 0, 100, 100)), (100, 100))  # cell 4 a copy of cell 0
    picture.paste(picture.crop((200, 0, 300, 100)), (0, 200))  # and cell 6 of cell 2: parity cannot tell
    board = Board.from_rows([[2, 4, 0], [1, 5, 3], [7, 8, 6]])
    body = {
        "screenshot": encode(screenshot(picture, board)),
        "reference": encode(picture),
        "width": 3,
        "height": 3,
    }
    assert_refused(client.post("/api/read", json=body), 400, says="allow_ambiguous")
    response = client.post("/api/read", json={**body, "allow_ambiguous": True})
    assert response.status_code == 200, response.text
    guess = response.json()
    assert guess["ambiguous"] and all(len(group) > 1 for group in guess["ambiguous"])
    assert sorted(guess["tiles"]) == list(range(9))


def test_a_board_without_numbers_or_reference_is_refused(client: TestClient) -> None:
    flat = Image.new("RGB", (300, 300), (120, 130, 140))
    body = assert_refused(client.post("/api/read", json={"screenshot": encode(flat)}), 400)
    assert body["kind"] != "InternalError"


@pytest.mark.parametrize(
    ("screenshot", "says"),
    [
        ("not base64 at all!", "not base64"),
        (base64.b64encode(b"hello, world").decode(), "not an image"),
        ("data:image/png,abc", "without ;base64"),
        (base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 40).decode(), "not an image"),
        (
            base64.b64encode(base64.b64decode(encode(Image.new("RGB", (64, 64), "red")))[:60]).decode(),
            "readable",
        ),
    ],
)
def test_bad_uploads_are_400(client: TestClient, screenshot: str, says: str) -> None:
    assert_refused(client.post("/api/read", json={"screenshot": screenshot}), 400, "PictureError", says)


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` × ``height`` pixels (a decompression bomb's head)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    row = b"\0" * (width + 1)
    data = zlib.compress(row * 4, 9)  # a few rows only: the declared size is what must be refused
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


@pytest.mark.parametrize("side", [20_000, 100_000])
def test_a_decompression_bomb_is_refused_on_its_declared_size(client: TestClient, side: int) -> None:
    bomb = base64.b64encode(png_claiming(side, side)).decode()
    assert len(bomb) < 200_000
    body = assert_refused(client.post("/api/read", json={"screenshot": bomb}), 400, "PictureError")
    assert "pixels" in body["detail"]


def test_a_huge_upload_is_413_and_small_bodies_keep_their_cap() -> None:
    settings = WebSettings(max_body_bytes=10_000, max_upload_bytes=50_000)
    with TestClient(create_app(settings)) as c:
        big = {"screenshot": "A" * 60_000}
        assert_refused(c.post("/api/read", json=big), 413, "RequestTooLarge", "uploads of at most 50,000")
        # 20 kB is fine for an upload (then refused as an image) but too large for any other path
        medium = {"screenshot": "A" * 20_000}
        assert c.post("/api/read", json=medium).status_code == 400
        assert_refused(c.post("/api/check", json={"board": [0] * 5_000}), 413, "RequestTooLarge")


def test_unknown_fields_and_bad_sizes_are_422(client: TestClient) -> None:
    for body in (
        {"screenshot": "AAAA", "colour": "red"},
        {"screenshot": "AAAA", "width": 1, "height": 3},
        {"screenshot": "AAAA", "crop": [1, 2, 3]},
        {},
    ):
        assert_refused(client.post("/api/read", json=body), 422, "ValidationError")


def test_numbered_tiles_with_the_hole_home_first(client: TestClient) -> None:
    shot = game_screenshot(Style(width=3, height=3, kind="numbers", seed=3, jpeg=85))
    body = {"screenshot": encode(shot.image), "hole_home": 0}
    read = client.post("/api/read", json=body)
    tiles = list(shot.board.tiles)
    goal = Board([0, 1, 2, 3, 4, 5, 6, 7, 8], 3, 3)
    if is_solvable(Board(tiles, 3, 3), goal):
        assert (
            read.status_code == 200
            and read.json()["goal"] == list(goal.tiles)
            and read.json()["missing"] == 0
        )
    else:  # the other parity class: refused, saying so
        assert_refused(read, 400, "UnsolvableReadingError", "hole in cell 0")


def test_picture_tiles_without_a_reference_are_put_back_together(client: TestClient) -> None:
    """No numbers and no reference: the reader reassembles the picture from its seams (hole home: last)."""
    shot = game_screenshot(Style(width=3, height=3, kind="picture", seed=5))
    response = client.post("/api/read", json={"screenshot": encode(shot.image)})
    if response.status_code != 200:  # a refusal is allowed (never a wrong board), but must say why
        assert_refused(response, 400)
        return
    read = response.json()
    assert read["tiles"] == list(shot.board.tiles) and read["goal"] == list(shot.goal.tiles)
    assert read["kind"] == "picture" and read["home_assumed"]  # nothing showed where the missing piece belongs
    # the finished picture the page shows when the game is won, its unseen piece filled in (not the flat mean)
    head, _, data = read["picture"].partition(",")
    assert head == "data:image/jpeg;base64"
    finished = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
    assert 0.9 < finished.width / finished.height < 1.1 and max(finished.size) <= 3 * 120  # a 3x3 board's
    piece = finished.crop((2 * finished.width // 3 + 2, 2 * finished.height // 3 + 2, finished.width, finished.height))
    assert max(high - low for low, high in piece.getextrema()) > 40  # the flat mean: 14 (JPEG noise)


def test_the_finished_picture_shown_beside_the_board_is_used_and_named(client: TestClient) -> None:
    """A game showing its picture beside the board: the tiles are matched to it, the missing piece (top-left
    here) comes from it, and the answer says where it was found."""
    style = Style(width=3, height=3, kind="picture", seed=6, missing=0, preview=0.5, jpeg=75)
    shot = game_screenshot(style)
    response = client.post("/api/read", json={"screenshot": encode(shot.image)})
    assert response.status_code == 200, response.text
    read = response.json()
    assert (
        read["tiles"] == list(shot.board.tiles)
        and read["goal"] == list(shot.goal.tiles)
        and read["missing"] == 0
        and not read["home_assumed"]  # the preview shows it
    )
    assert shot.preview is not None and read["preview"] is not None
    assert read["picture"].startswith("data:image/jpeg;base64,")
    x, y, w, h = shot.preview
    assert max(abs(a - b) for a, b in zip(read["preview"], (x, y, x + w, y + h), strict=True)) <= 6
    plain = client.post(
        "/api/read", json={"screenshot": encode(game_screenshot(Style(width=3, height=3, seed=6)).image)}
    )
    assert plain.status_code != 200 or plain.json()["preview"] is None


def test_a_reading_past_its_budget_says_so() -> None:
    """A reading that outlasts the server's read budget (and its grace) is a 422 naming the screenshot
    reading and the budget, not a search."""
    shot = game_screenshot(Style(width=5, height=5, kind="picture", seed=4, jpeg=70))
    with TestClient(create_app(WebSettings(read_seconds=0.001, grace_seconds=0.001))) as slow:
        response = slow.post("/api/read", json={"screenshot": encode(shot.image)})
    body = assert_refused(response, 422, says="screenshot reading did not finish within its 0.001 s budget")
    assert body["limit"] == "max_seconds"
