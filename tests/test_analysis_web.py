"""``/api/analyze``: the optimal length, percentile and label of a posted board."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from npuzzle.web import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def test_analyze_3x3_hardest(client: TestClient) -> None:
    r = client.post("/api/analyze", json={"board": [8, 6, 7, 2, 5, 4, 3, 0, 1], "width": 3, "height": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["optimal_length"] == 31 and body["label"] == "extreme" and body["percentile"] > 99.99
    assert body["lower_bound"] is None and body["manhattan"] == 21


def test_analyze_refuses_bad_and_unsolvable_boards(client: TestClient) -> None:
    r = client.post("/api/analyze", json={"board": [1, 2, 3, 4, 5, 6, 8, 7, 0], "width": 3, "height": 3})
    assert 400 <= r.status_code < 500 and "cannot reach" in r.text
    r = client.post("/api/analyze", json={"board": [1, 1, 3, 4, 5, 6, 8, 7, 0]})
    assert 400 <= r.status_code < 500


def test_generate_with_length(client: TestClient) -> None:
    from npuzzle.goals import classic
    from oracle import bfs_distances

    r = client.post("/api/generate", json={"width": 3, "height": 3, "length": "24..25", "seed": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (
        body["optimal_length"] in (24, 25)
        and bfs_distances(classic(3, 3))[tuple(body["board"])] == body["optimal_length"]
    )
    again = client.post("/api/generate", json={"width": 3, "height": 3, "length": "24..25", "seed": 3}).json()
    assert again["board"] == body["board"]
    assert client.post("/api/generate", json={"width": 3, "height": 3, "length": "40"}).status_code in (400, 422)
    assert client.post("/api/generate", json={"width": 5, "height": 5, "length": "40"}).status_code in (400, 422)
    assert client.post("/api/generate", json={"width": 3, "height": 3, "length": "4-5"}).status_code in (400, 422)
    assert client.post("/api/generate", json={"width": 3, "height": 3}).json()["optimal_length"] is None
