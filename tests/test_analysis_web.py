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
    assert client.post("/api/generate", json={"width": 3, "height": 3, "length": "40"}).status_code in (
        400,
        422,
    )
    assert client.post("/api/generate", json={"width": 5, "height": 5, "length": "40"}).status_code in (
        400,
        422,
    )
    assert client.post("/api/generate", json={"width": 3, "height": 3, "length": "4-5"}).status_code in (
        400,
        422,
    )
    assert client.post("/api/generate", json={"width": 3, "height": 3}).json()["optimal_length"] is None


@pytest.mark.parametrize("layout", ["snake", "blank-first"])
def test_generate_an_exact_length_for_other_goals(client: TestClient, layout: str) -> None:
    from npuzzle.goals import goal
    from oracle import bfs_distances

    body = client.post("/api/generate", json={"width": 3, "height": 3, "goal": layout, "length": "22"}).json()
    assert body["optimal_length"] == 22
    assert bfs_distances(goal(layout, 3, 3))[tuple(body["board"])] == 22


def test_a_length_not_found_in_time_is_422_in_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from npuzzle.analysis import difficulty
    from npuzzle.errors import SearchLimitExceeded

    def too_slow(*args: object, **kwargs: object) -> None:
        raise SearchLimitExceeded("PDB IDA* ran 0.0 s (max_seconds=0.02)", limit="max_seconds")

    monkeypatch.setattr(difficulty, "generate_length", too_slow)
    r = client.post("/api/generate", json={"width": 4, "height": 4, "length": "70..72"})
    assert r.status_code == 422 and r.json()["kind"] == "SearchLimitExceeded"
    detail = r.json()["detail"]
    assert "70 to 72 moves" in detail and "shorter band" in detail and "npuzzle generate" in detail
