"""Analysis: distributions (BFS = oracle = published counts), exact-length generation, analyze, simulate, CLI."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from scipy.stats import chisquare

from npuzzle.analysis import difficulty, distributions
from npuzzle.analysis.simulate import parse_iterations, simulate, write_outputs
from npuzzle.board import Board
from npuzzle.canonical import to_canonical
from npuzzle.cli import main
from npuzzle.goals import classic, goal
from npuzzle.heuristics.simple import linear_conflict
from npuzzle.solvability import is_solvable
from oracle import bfs_distances, canonical_distances

# OEIS A089473 / Reinefeld 1993: 3x3, blank in a corner, single-tile moves
PUBLISHED_3X3 = (1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
                 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2)  # fmt: skip
P_FLOOR = 1e-4  # fixed seeds make p fixed; this only catches a real bias


def _oracle_counts(width: int, height: int, blank_home: int, metric: str) -> tuple[int, ...]:
    c = Counter(canonical_distances(width, height, blank_home, metric).values())
    return tuple(c[d] for d in range(max(c) + 1))


@pytest.mark.parametrize("metric", ["single", "multi"])
@pytest.mark.parametrize(("width", "height", "blank_home"), [(2, 2, 3), (3, 2, 0), (2, 3, 2), (3, 3, 8), (3, 3, 4)])
def test_bfs_distribution_equals_oracle(width: int, height: int, blank_home: int, metric: str) -> None:
    d = distributions.bfs_distribution(width, height, blank_home, metric)
    assert d.counts == _oracle_counts(width, height, blank_home, metric)
    assert d.n_states == math.factorial(width * height) // 2
    dist = canonical_distances(width, height, blank_home, metric)
    assert d.n_farthest == d.counts[-1]
    assert all(dist[state] == d.diameter for state in d.farthest)


def test_3x3_matches_published_counts_for_every_corner_and_the_centre() -> None:
    for g in (classic(3, 3), goal("blank-first", 3, 3), goal("blank-at", 3, 3, cell=6)):
        d = distributions.distribution(g)
        assert d is not None and d.counts == PUBLISHED_3X3
        assert round(d.mean, 4) == 21.9724 and d.diameter == 31 and d.median == 22
    centre = distributions.distribution(goal("blank-at", 3, 3, cell=4))
    assert centre is not None and centre.diameter == 30 and centre.counts[-1] == 148  # OEIS A089474


def test_known_4x4_distribution() -> None:
    d = distributions.distribution(classic(4, 4))
    assert d is not None
    assert d.n_states == math.factorial(16) // 2
    assert d.diameter == 80 and d.counts[-1] == 17
    assert round(d.mean, 2) == 52.59 and d.median == 53
    assert "Korf" in d.source
    assert distributions.distribution(goal("blank-at", 4, 4, cell=5)) is None  # not a corner: not published
    assert distributions.distribution(classic(4, 4), "multi") is None


def test_percentile_and_label_are_monotone() -> None:
    d = distributions.distribution(classic(3, 3))
    assert d is not None
    ps = [d.percentile(k) for k in range(d.diameter + 2)]
    assert ps[0] == 0.0 and ps[-1] == 100.0 and ps == sorted(ps)
    words = [d.label(k) for k in range(d.diameter + 1)]
    order = [w for _, w in distributions.LABELS] + ["extreme"]
    assert [order.index(w) for w in words] == sorted(order.index(w) for w in words)
    assert d.label(0) == "trivial" and d.label(31) == "extreme"


def test_too_large_for_bfs_is_refused() -> None:
    with pytest.raises(Exception, match="breadth-first"):
        distributions.depth_table(4, 4, 15)


def test_parse_band() -> None:
    assert difficulty.parse_band("40") == (40, 40)
    assert difficulty.parse_band(" 35..45 ") == (35, 45)
    for bad in ("", "a", "5..3", "-1", "1..2..3"):
        with pytest.raises(ValueError, match="length"):
            difficulty.parse_band(bad)


@pytest.mark.parametrize("g", [classic(3, 3), goal("snake", 4, 2), goal("spiral", 3, 3), goal("blank-at", 4, 2, cell=5)])
def test_layer_generation_has_exact_lengths(g: Board) -> None:
    dist = bfs_distances(g)
    rated = difficulty.generate_length(g, 12, 15, count=40, seed=3)
    assert {r.strategy for r in rated} == {"layer"}
    for r in rated:
        assert r.exact and 12 <= r.length <= 15
        assert dist[r.board.tiles] == r.length  # independent: the pure-Python oracle
        assert is_solvable(r.board, g)


def test_layer_generation_is_seeded_and_prefix_stable() -> None:
    g = classic(3, 3)
    a = difficulty.generate_length(g, 25, count=6, seed=9)
    b = difficulty.generate_length(g, 25, count=3, seed=9)
    c = difficulty.generate_length(g, 25, count=6, seed=10)
    assert a[:3] == b and a != c


def test_layer_generation_is_uniform_chi_square() -> None:
    g = classic(3, 2)
    dist = bfs_distances(g)
    band = [t for t, d in dist.items() if 9 <= d <= 11]
    per_state = 60
    rated = difficulty.generate_length(g, 9, 11, count=per_state * len(band), seed=1)
    seen = Counter(r.board.tiles for r in rated)
    assert set(seen) == set(band)
    assert chisquare([seen[t] for t in band]).pvalue > P_FLOOR


def test_impossible_band_is_refused() -> None:
    with pytest.raises(ValueError, match="farthest are 31"):
        difficulty.generate_length(classic(3, 3), 32, 40)


@pytest.mark.parametrize(
    "g", [goal("snake", 4, 3), pytest.param(classic(4, 4), marks=pytest.mark.slow)], ids=["4x3", "4x4"]
)
def test_climb_has_the_proven_length(g: Board) -> None:
    from npuzzle import solve

    rated = difficulty.generate_length(g, 22, 24, count=2, seed=5, strategy="climb")
    for r in rated:
        assert r.strategy == "climb" and 22 <= r.length <= 24
        # independent exact method: IDA* with linear conflict (not the pattern databases)
        s = solve(r.board, g, algorithm="idastar", heuristic="linear-conflict")
        assert s.optimal and len(s.moves) == r.length


@pytest.mark.slow
def test_rejection_on_4x4_samples_are_optimal() -> None:
    from npuzzle import solve

    g = classic(4, 4)
    rated = difficulty.generate_length(g, 50, 52, count=3, seed=2)
    assert {r.strategy for r in rated} == {"rejection"}
    for r in rated:
        s = solve(r.board, g, algorithm="idastar", heuristic="linear-conflict")
        assert len(s.moves) == r.length and 50 <= r.length <= 52


def _threads_for_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker pool of iter_length as threads: the same ordering logic without starting processes."""
    import concurrent.futures

    class ThreadPool(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, max_workers: int, mp_context: object = None) -> None:
            super().__init__(max_workers=max_workers)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", ThreadPool)


@pytest.mark.parametrize("pool", ["threads", pytest.param("processes", marks=pytest.mark.slow)])
def test_parallel_generation_gives_the_boards_of_one_process(pool: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs: candidates tried in worker processes, accepted in candidate order: the same boards, exact."""
    if pool == "threads":
        _threads_for_processes(monkeypatch)
    g = goal("snake", 3, 3)
    dist = bfs_distances(g)
    one = difficulty.generate_length(g, 20, 22, count=5, seed=11, strategy="rejection")
    two = difficulty.generate_length(g, 20, 22, count=5, seed=11, strategy="rejection", jobs=2)
    assert one == two
    assert [dist[r.board.tiles] for r in two] == [r.length for r in two] and all(20 <= r.length <= 22 for r in two)
    assert difficulty.generate_length(g, 20, 22, count=5, seed=12, strategy="rejection") != one
    stream = difficulty.iter_length(g, 20, 22, seed=11, strategy="rejection")  # without end; same order
    assert [next(stream) for _ in range(7)][:5] == one


def test_length_generation_time_limit_and_bad_jobs() -> None:
    from npuzzle.errors import SearchLimitExceeded

    with pytest.raises(SearchLimitExceeded, match=r"after \d+ of 100000 boards"):
        difficulty.generate_length(goal("snake", 4, 3), 24, count=100_000, seed=1, strategy="climb", max_seconds=0.3)
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        difficulty.iter_length(classic(3, 3), 20, jobs=0)
    with pytest.raises(ValueError, match="single-tile metric"):
        difficulty.iter_length(classic(4, 3), 20, metric="multi", strategy="climb")


def test_walk_bound_on_big_boards_is_proven() -> None:
    g = classic(5, 5)
    rated = difficulty.generate_length(g, 40, 50, count=3, seed=4)
    for r in rated:
        assert r.strategy == "walk-bound" and not r.exact and r.upper_bound == 50
        bound = linear_conflict(to_canonical(r.board, g), 5, 5, g.blank_cell)
        assert bound == r.lower_bound >= 40 and bound % 2 == 0  # a 50-move walk: the distance is even
        assert is_solvable(r.board, g)


def test_analyze_small_board_is_exact_and_placed() -> None:
    g = classic(3, 3)
    hardest = Board([8, 6, 7, 2, 5, 4, 3, 0, 1], 3, 3)
    a = difficulty.analyze(hardest, g)
    assert a.exact and a.lower_bound == 31 == bfs_distances(g)[hardest.tiles]
    assert a.label == "extreme" and a.percentile is not None and 99.99 < a.percentile < 100
    assert a.to_dict()["optimal_length"] == 31
    easy = difficulty.analyze(g.move(g.tiles[g.blank_cell - 1]), g)
    assert easy.lower_bound == 1 and easy.label == "trivial"


def test_simulate_3x3_shape_and_trend(tmp_path) -> None:
    g = classic(3, 3)
    points = parse_iterations("0..40:10")
    assert points == [0, 10, 20, 30, 40]
    sim = simulate(g, "tile-walk", points, 300, seed=1)
    assert [r.iterations for r in sim.rows] == points and all(r.n == 300 for r in sim.rows)
    means = [r.mean for r in sim.rows]
    assert means[0] == 0 and means[1] < means[2] < means[4] and abs(means[4] - 21.97) < 1.5
    walk = simulate(g, "walk", [0, 5, 60], 300, seed=1)
    assert walk.rows[1].mean <= 5 and abs(walk.rows[2].mean - 21.97) < 1.0
    shuffle = simulate(g, "shuffle", points, 2000, seed=1)
    assert len(shuffle.rows) == 1 and abs(shuffle.rows[0].mean - sim.uniform_mean) < 4 * shuffle.rows[0].half_width
    paths = write_outputs([sim, walk, shuffle], tmp_path / "chart")
    assert [p.suffix for p in paths] == [".csv", ".png", ".svg"] and all(p.stat().st_size > 0 for p in paths)
    assert len(paths[0].read_text().splitlines()) == 1 + 5 + 3 + 1


def test_simulate_cache_resumes(tmp_path) -> None:
    g = classic(3, 3)
    cache = tmp_path / "cache.json"
    first = simulate(g, "walk", [8, 16], 50, seed=2, cache=cache)
    stored = json.loads(cache.read_text())["distances"]
    assert 0 < len(stored) <= 100
    again = simulate(g, "walk", [8, 16], 50, seed=2, cache=cache)
    assert again.rows == first.rows


def test_cli_stats_json(capsys) -> None:
    assert main(["stats", "--size", "3x3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert tuple(out["counts"]) == PUBLISHED_3X3 and out["diameter"] == 31 and round(out["mean"], 4) == 21.9724
    assert sorted(map(tuple, out["farthest"])) == sorted(t for t, d in bfs_distances(classic(3, 3)).items() if d == 31)
    assert main(["stats", "--size", "5x5"]) == 2


def test_cli_generate_length_and_analyze(capsys) -> None:
    assert main(["generate", "--size", "3x3", "--length", "18..19", "--count", "4", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    dist = bfs_distances(classic(3, 3))
    assert [dist[tuple(b)] for b in out["boards"]] == [x["optimal_length"] for x in out["lengths"]]
    assert all(18 <= x["optimal_length"] <= 19 for x in out["lengths"]) and out["strategy"] == "layer"
    assert main(["generate", "--size", "3x3", "--min-length", "30", "--count", "3", "--seed", "1", "--json"]) == 0
    assert all(dist[tuple(b)] >= 30 for b in json.loads(capsys.readouterr().out)["boards"])
    assert main(["generate", "--size", "3x3", "--length", "x"]) == 2
    assert main(["analyze", "8 6 7 / 2 5 4 / 3 0 1", "--json"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert a["optimal_length"] == 31 and a["label"] == "extreme" and a["percentile"] > 99
    assert main(["analyze", "1 2 3 / 4 5 6 / 8 7 0"]) == 1


def test_cli_simulate_writes_outputs(tmp_path, capsys) -> None:
    prefix = tmp_path / "sim"
    argv = ["simulate", "--size", "3x3", "-m", "tile-walk", "-m", "shuffle", "-i", "0..20:10", "-n", "40"]
    assert main([*argv, "--output", str(prefix), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["method"] for s in out["simulations"]] == ["tile-walk", "shuffle"]
    assert len(out["simulations"][0]["rows"]) == 3
    assert all((tmp_path / f"sim.{ext}").stat().st_size > 0 for ext in ("csv", "png", "svg"))
    assert main(["simulate", "--size", "3x3", "-i", "5..1"]) == 2
