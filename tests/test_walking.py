"""Walking distance (issue 17, pure-Python reference): admissible and consistent against exact BFS on every
state of small boards, never above the optimal length of Korf's 100, stronger than Manhattan over them."""

from __future__ import annotations

from pathlib import Path

import pytest

from npuzzle.heuristics.simple import manhattan
from npuzzle.heuristics.walking import vertical_table, walking_distance
from oracle import _slide, _targets, canonical_distances

KORF = Path(__file__).parent / "data" / "korf100.txt"


@pytest.mark.parametrize(
    ("width", "height", "blank_home"),
    [
        (3, 3, 8),  # ~11 s at load 10
        pytest.param(3, 3, 4, marks=pytest.mark.slow),
        pytest.param(3, 3, 0, marks=pytest.mark.slow),
        (2, 3, 5),
        (3, 2, 1),
        (4, 2, 7),
    ],
)
def test_admissible_and_consistent_on_every_state(width: int, height: int, blank_home: int) -> None:
    dist = canonical_distances(width, height, blank_home)
    h = {state: walking_distance(state, width, height, blank_home) for state in dist}
    assert h[tuple(range(width * height))] == 0
    exact = 0
    for state, d in dist.items():
        assert h[state] <= d, state
        exact += h[state] == d
        blank = state.index(blank_home)
        for target in _targets(blank, width, height, "single"):
            assert abs(h[state] - h[_slide(state, blank, target, width)]) <= 1, state
    assert exact > len(dist) // 50  # not a vacuous bound (3x3, blank home 8: 5,786 of 181,440 exact)


def test_pattern_count_of_the_15_puzzle() -> None:
    """24,964 vertical patterns on 4×4 (Takahashi's published count), the same for any goal row of the blank."""
    assert len(vertical_table(4, 4, 0)) == 24_964
    assert len(vertical_table(4, 4, 15)) == 24_964


def test_korf_100_never_above_optimal_and_above_manhattan_in_total() -> None:
    rows = [line.split() for line in KORF.read_text().splitlines() if line and line[0].isdigit()]
    total_wd = total_md = 0
    for row in rows:
        optimal, tiles = int(row[0]), [int(v) for v in row[1:]]
        wd = walking_distance(tiles, 4, 4, 0)
        assert wd <= optimal
        total_wd += wd
        total_md += manhattan(tiles, 4, 4, 0)
    assert (total_wd, total_md) == (3957, 3705)
