"""Defects QA found in the web API, each pinned by the request that showed it.

Bodies that ``json.loads`` refuses for reasons other than syntax get a message naming that reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from npuzzle.web import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def assert_error(
    response: httpx.Response, status: int, kind: str | None = None, says: str = ""
) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    if kind is not None:
        assert body["kind"] == kind, body
    assert says in body["detail"], body
    return body


def post_raw(client: TestClient, path: str, content: bytes) -> httpx.Response:
    return client.post(path, content=content, headers={"content-type": "application/json"})


# -- 1. an unparsable body: the message names the actual cause -----------------------------------------------
@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b'{"board": [' + b"1" * 4301 + b", 2, 3, 0]}", "too long to read (4,301 digits)"),
        (b'{"board": [1, 2, 3, 0], "goal": "\xff"}', "not UTF-8 text (invalid start byte at byte 33)"),
        (b"\x80{}", "not UTF-8 text (invalid start byte at byte 0)"),
        (b"[" * 60_000, "nested too deeply"),
        (b'{"board": [1, 2, 3, 0],}', "at character 23"),  # a syntax error says where
    ],
)
def test_an_unparsable_body_names_its_cause(client: TestClient, content: bytes, says: str) -> None:
    body = assert_error(post_raw(client, "/api/check", content), 400, "MalformedJSON", says)
    if "nested" not in says:
        assert "nested" not in body["detail"]
