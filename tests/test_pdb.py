"""Pattern databases: ranking, table builds against a pure-Python BFS, admissibility, optimal PDB-IDA*."""

from __future__ import annotations

import itertools
import math
import os
import random
from pathlib import Path

import numpy as np
import pytest

from interpreters import run_python
from npuzzle.board import Board
from npuzzle.canonical import from_canonical, to_canonical
from npuzzle.errors import BoardFormatError
from npuzzle.goals import blank_first, classic, goal
from npuzzle.heuristics import pdb
from npuzzle.heuristics.pdb import (
    Partition,
    PartitionTables,
    additive_value,
    build_partition,
    build_table,
    rank_placement,
    reference_table,
    standard_partition,
    unrank_placement,
)
from npuzzle.search.limits import Limits
from oracle import canonical_arrays, canonical_distances

KORF = Path(__file__).resolve().parent / "data" / "korf100.txt"  # copied from shared/data (Korf 1985)
N_STATES_3X3 = 181_440  # 9!/2


@pytest.fixture(scope="module")
def bfs_3x3() -> dict[tuple[int, ...], int]:
    return canonical_distances(3, 3, 8)



# -- ranking -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "k"), [(4, 2), (6, 3), (9, 4), (6, 5)])
def test_rank_unrank_round_trip_exhaustive(n: int, k: int) -> None:
    seen = set()
    for cells in itertools.permutations(range(n), k):
        r = rank_placement(cells, n)
        assert 0 <= r < pdb.n_placements(n, k)
        assert unrank_placement(r, n, k) == list(cells)
        seen.add(r)
    assert len(seen) == pdb.n_placements(n, k)


def test_kernel_rank_matches_reference() -> None:
    from npuzzle._kernels import pdb_build as kb

    rng = random.Random(1)
    for _ in range(300):
        n = rng.choice([9, 12, 16])
        k = rng.randint(1, 8)
        cells = rng.sample(range(n), k)
        arr = np.array(cells, np.int64)
        r = rank_placement(cells, n)
        assert kb.rank_placement(arr, n) == r
        out = np.zeros(k, np.int64)
        kb.unrank_placement_bits(r, n, out)
        assert out.tolist() == cells
    for n, k in ((20, 3), (32, 4)):  # boards with uint32 masks
        cells = rng.sample(range(n), k)
        out = np.zeros(k, np.int64)
        kb.unrank_placement_bits(rank_placement(cells, n), n, out)
        assert out.tolist() == cells
    for x in [0, 1, 0xFFFF, 0xFFFFFFFF, (1 << 63) - 1, *(rng.getrandbits(63) for _ in range(200))]:
        assert kb.popcount_bits(x) == bin(x).count("1")


# -- partitions ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["7_8", "1_4-1", "+6-6-3 x", "٧-8"])
def test_partition_sizes_are_plain_digits(name: str) -> None:
    """int() would read "1_4" as 14 and "٧" as 7."""
    with pytest.raises(BoardFormatError, match="partition must be a name like"):
        standard_partition(4, 4, 15, name)


def test_standard_partitions_cover_the_board() -> None:
    for cell in range(16):
        for name in ("7-8", "6-6-3", "5-5-5", "auto"):
            p = standard_partition(4, 4, cell, name)
            assert sorted(c for g in p.groups for c in g) == [c for c in range(16) if c != cell]
    assert standard_partition(4, 4, 0, "6-6-3").sizes == (6, 6, 3)
    assert standard_partition(4, 4, 15, "7-8").groups[0] == (8, 9, 10, 11, 12, 13, 14)  # Korf's, rotated
    assert standard_partition(3, 3, 8).sizes == (8,)  # one exact table
    assert standard_partition(5, 2, 9).sizes == (9,)
    assert standard_partition(5, 5, 24, "6-6-6-6").sizes == (6, 6, 6, 6)
    reflectable = [cell for cell in range(16) if standard_partition(4, 4, cell).reflectable()]
    assert reflectable == [0, 3, 5, 6, 9, 10, 12, 15]  # the two diagonals
    assert not standard_partition(5, 2, 0).reflectable()


def test_bad_partitions_are_refused() -> None:
    from npuzzle.errors import BoardFormatError

    with pytest.raises(BoardFormatError, match="missing"):
        Partition(3, 3, 8, ((0, 1, 2), (3, 4)))
    with pytest.raises(BoardFormatError, match="add up"):
        standard_partition(3, 3, 8, "4-3")
    with pytest.raises(pdb.ProblemTooLargeError, match="63 cells"):
        standard_partition(8, 8, 63)  # a 64-cell board: masks would need the sign bit


# -- tables against the pure-Python 0-1 BFS ------------------------------------------------------------
@pytest.mark.parametrize(
    ("width", "height", "pattern", "blank_cell"),
    [(2, 2, (0, 1), 3), (3, 2, (1, 2, 5), 0), (2, 3, (0, 3, 4), 5), (3, 3, (1, 2, 3), 0), (3, 3, (1, 3, 4, 5), 0),
     (3, 3, (4, 8, 0, 2), 6), (3, 3, (1, 3, 5, 7), 4), (4, 2, (1, 2, 3, 4, 5), 0), (4, 3, (0, 5, 11), 6),
     (4, 3, (1, 4, 5), 0), (3, 4, (7, 10, 11), 8),
     # int64 masks (33..63 cells), up to the last usable bit
     pytest.param(11, 3, (0, 12, 32), 22, marks=pytest.mark.slow), (6, 6, (35, 28), 0),  # 11x3: 20 s
     (7, 9, (62, 54), 0), (9, 7, (0, 61), 62)],
)  # fmt: skip
def test_build_table_equals_reference(
    width: int, height: int, pattern: tuple[int, ...], blank_cell: int
) -> None:
    for cell in (blank_cell, None):  # from the goal, and from the blank anywhere (format 1)
        built = build_table(width, height, pattern, blank_cell=cell)
        assert np.array_equal(built, reference_table(width, height, pattern, cell)), cell
    assert np.all(build_table(width, height, pattern, blank_cell=blank_cell) >= built)


def test_tables_from_the_goal_are_stronger_where_the_pattern_walls_in_the_blank() -> None:
    """The 3x3 figure of issue 13: patterns {1,2,3,4} + {5,6,7,8}, blank home 0, mean over all 9!/2 states."""
    states, _ = canonical_arrays(3, 3, 0)
    p = Partition(3, 3, 0, ((1, 2, 3, 4), (5, 6, 7, 8)))
    new = _np_heuristic(states, p, build_partition(p))
    old = _np_heuristic(states, p, np.concatenate([build_table(3, 3, g) for g in p.groups]))
    assert np.all(new >= old)
    assert (round(float(old.mean()), 2), round(float(new.mean()), 2)) == (17.59, 18.51)


def _np_ranks(pos: np.ndarray, pattern: tuple[int, ...]) -> np.ndarray:
    """Ranks of a pattern's placements in many states at once (numpy twin of rank_placement); ``pos[:, home]``
    is the cell of that tile in each state."""
    n = pos.shape[1]
    cells = pos[:, list(pattern)].astype(np.int64)  # cells[:, i]: cell of pattern[i]
    rank = np.zeros(len(pos), np.int64)
    for i in range(len(pattern)):
        c = cells[:, i]
        rank = rank * (n - i) + c - (cells[:, :i] < c[:, None]).sum(axis=1)
    return rank


def _np_heuristic(states: np.ndarray, p: Partition, values: np.ndarray, reflect: bool = False) -> np.ndarray:
    """The additive heuristic of every canonical state (int64 (m,)), with reflection the max of both readings."""
    tables = PartitionTables(p, values).databases()
    pos = np.argsort(states, axis=1)
    total = sum(db.values[_np_ranks(pos, db.pattern)].astype(np.int64) for db in tables)
    if reflect:
        t = np.array(pdb.reflection_cells(p.width, p.height, p.blank_cell))
        mirrored = np.empty_like(states)
        mirrored[:, t] = t[states]
        total = np.maximum(total, _np_heuristic(mirrored, p, values))
    return np.asarray(total)


SMALL_GOALS = [  # (width, height, blank cell): blank-first (0), classic (last), blank-at:center
    (3, 2, 0), (3, 2, 5), (3, 2, 4), (2, 3, 0), (2, 3, 5), (2, 3, 3), (3, 3, 0), (3, 3, 8), (3, 3, 4),
    (4, 2, 0), (4, 2, 7), (4, 2, 6), (2, 4, 0), (2, 4, 7), (2, 4, 5),
]  # fmt: skip


@pytest.mark.parametrize(("width", "height", "blank_cell"), SMALL_GOALS)
def test_tables_from_the_goal_are_admissible_on_every_state(width: int, height: int, blank_cell: int) -> None:
    """Every partition kind, every reachable state, against the exact BFS distance (tests/oracle.py)."""
    states, depths = canonical_arrays(width, height, blank_cell)
    n = width * height
    names = {6: ["3-2", "2-2-1", "1-1-1-1-1"], 8: ["4-3", "3-2-2", "5-2"], 9: ["4-4", "3-3-2", "2-2-2-2", "5-3"]}
    for name in names[n]:
        p = standard_partition(width, height, blank_cell, name)
        values = build_partition(p)
        h = _np_heuristic(states, p, values, reflect=p.reflectable())
        assert np.all(h <= depths), (name, int(np.argmax(h - depths)))
        assert h[0] == 0  # the goal
        old = _np_heuristic(states, p, np.concatenate([build_table(width, height, g) for g in p.groups]))
        assert np.all(_np_heuristic(states, p, values) >= old)


def test_build_table_without_jit_equals_reference() -> None:
    code = (
        "import numpy as np\n"
        "from npuzzle.heuristics.pdb import build_table, reference_table\n"
        "assert np.array_equal(build_table(3, 2, (0, 4)), reference_table(3, 2, (0, 4)))\n"
        "assert np.array_equal(build_table(5, 4, (2, 19)), reference_table(5, 4, (2, 19)))\n"  # uint32 masks
        "assert np.array_equal(build_table(9, 7, (62, 1), 0), reference_table(9, 7, (62, 1), 0))\n"  # int64
        "from npuzzle._kernels import pdb_build\n"
        "from npuzzle.heuristics import pdb\n"
        "pdb_build.PARALLEL_MIN_PLACEMENTS = 0\n"  # the threaded kernel and map_table too
        "assert np.array_equal(build_table(3, 3, (1, 3, 4), blank_cell=0), reference_table(3, 3, (1, 3, 4), 0))\n"
        "a = build_table(3, 3, (0, 1, 2), blank_cell=4)\n"
        "sym = pdb._symmetric_source(3, 3, 4, (6, 7, 8), [(0, 1, 2)])[1]\n"
        "m = pdb.map_table(3, 3, a, (0, 1, 2), (6, 7, 8), sym)\n"
        "assert np.array_equal(m, reference_table(3, 3, (6, 7, 8), 4))\n"
    )
    run_python(code, jit=False, timeout=120)


def test_tables_built_twice_are_identical() -> None:
    p = standard_partition(3, 3, 0, "4-4")
    assert build_partition(p).tobytes() == build_partition(p).tobytes()


def test_full_3x3_table_is_the_exact_distance(bfs_3x3: dict[tuple[int, ...], int]) -> None:
    tables = PartitionTables(standard_partition(3, 3, 8), build_partition(standard_partition(3, 3, 8)))
    (db,) = tables.databases()
    assert len(bfs_3x3) == N_STATES_3X3
    for state, d in bfs_3x3.items():
        assert db.lookup(state) == d


@pytest.mark.parametrize("sizes", ["4-4", "3-3-2", "2-2-2-2", "5-3"])
def test_additive_sums_are_admissible(sizes: str, bfs_3x3: dict[tuple[int, ...], int]) -> None:
    p = standard_partition(3, 3, 8, sizes)
    dbs = PartitionTables(p, build_partition(p)).databases()
    rng = random.Random(sizes)
    states = rng.sample(sorted(bfs_3x3), 4000)
    for state in states:
        h = additive_value(dbs, state)
        hr = additive_value(dbs, state, reflect=True)
        assert h <= hr <= bfs_3x3[state]
    # Not consistent in general: a move can free a blank region that is closer to home (min over blank).


# -- PDB IDA* -------------------------------------------------------------------------------------------
def test_pdb_idastar_is_optimal_on_3x3(bfs_3x3: dict[tuple[int, ...], int]) -> None:
    from npuzzle.search.pdb_backend import solve_canonical

    rng = random.Random(3)
    states = [s for s, d in bfs_3x3.items() if d == 31] + rng.sample(sorted(bfs_3x3), 150)
    for sizes in ("auto", "3-3-2", "4-4"):
        p = standard_partition(3, 3, 8, sizes)
        tables = PartitionTables(p, build_partition(p))
        for state in states[: 40 if sizes != "auto" else None]:
            cells, _ = solve_canonical(state, tables, reflect=True)
            assert len(cells) == bfs_3x3[state]
            # the moves lead to the goal
            s = list(state)
            for c in cells:
                b = s.index(8)
                s[b], s[c] = s[c], s[b]
            assert s == list(range(9))


def _solve_all(width: int, height: int, blank: int, sizes: str, count: int | None, seed: int) -> int:
    """PDB IDA* with reflection on ``count`` reachable states (all: ``None``), the deepest always included:
    every length equals the BFS distance and every path reaches the goal. Returns the states checked."""
    from npuzzle.search.pdb_backend import solve_canonical

    dist = canonical_distances(width, height, blank)
    deepest = max(dist.values())
    states = sorted(dist)
    if count is not None:
        states = [s for s in states if dist[s] == deepest] + random.Random(seed).sample(states, count)
    p = standard_partition(width, height, blank, sizes)
    tables = PartitionTables(p, build_partition(p))
    for state in states:
        cells, _ = solve_canonical(state, tables, reflect=True)
        assert len(cells) == dist[state], state
        s = list(state)
        for c in cells:
            b = s.index(blank)
            s[b], s[c] = s[c], s[b]
        assert s == list(range(width * height))
    return len(states)


@pytest.mark.parametrize(("blank", "sizes"), [(0, "4-4"), (4, "3-3-2"), (8, "5-3")])
def test_pdb_idastar_with_goal_tables_is_optimal_on_a_3x3_sample(blank: int, sizes: str) -> None:
    assert _solve_all(3, 3, blank, sizes, 60, blank) > 60


@pytest.mark.slow
@pytest.mark.parametrize(("blank", "sizes"), [(0, "4-4"), (8, "4-4"), (4, "3-3-2")])
def test_pdb_idastar_with_goal_tables_is_optimal_on_every_3x3_state(blank: int, sizes: str) -> None:
    assert _solve_all(3, 3, blank, sizes, None, 0) == N_STATES_3X3


@pytest.mark.parametrize(
    ("width", "height", "blank"), [(3, 2, 4), (2, 3, 0), pytest.param(4, 2, 0, marks=pytest.mark.slow),
                                   pytest.param(2, 4, 7, marks=pytest.mark.slow)],
)  # fmt: skip
def test_pdb_idastar_with_goal_tables_is_optimal_on_every_small_state(width: int, height: int, blank: int) -> None:
    names = {8: "3-2-2", 6: "2-2-1"}
    assert _solve_all(width, height, blank, names[width * height], None, 0) == math.factorial(width * height) // 2


@pytest.mark.parametrize("sizes", ["4-4", "1-2-5"])
def test_sparse_tables_hold_the_compact_values(sizes: str) -> None:
    from npuzzle._kernels.pdb_idastar import fill_sparse

    p = standard_partition(3, 3, 8, sizes)
    tables = PartitionTables(p, build_partition(p))
    for db in tables.databases():
        k = len(db.pattern)
        out = np.zeros(9**k, np.uint8)
        fill_sparse(db.values, 9, k, out)
        for cells in itertools.permutations(range(9), k):
            index = sum(c * 9 ** (k - 1 - i) for i, c in enumerate(cells))
            assert out[index] == db.values[rank_placement(cells, 9)]


def test_sparse_and_compact_lookups_search_the_same_tree(
    bfs_3x3: dict[tuple[int, ...], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one-add sparse index and the compact rank give the same values: identical node counts."""
    from npuzzle.search import pdb_backend
    from npuzzle.search.pdb_backend import solve_canonical

    p = standard_partition(3, 3, 8, "5-3")
    values = build_partition(p)
    states = [s for s, d in bfs_3x3.items() if d >= 28][:20]
    runs = []
    for limit in (pdb_backend.SPARSE_MAX_ENTRIES, 9**3):  # both groups sparse; only the 3-tile one
        monkeypatch.setattr(pdb_backend, "SPARSE_MAX_ENTRIES", limit)
        tables = PartitionTables(p, values)
        runs.append([solve_canonical(s, tables, reflect=True) for s in states])
    assert pdb_backend.sparse_tables(tables)[1].tolist() == [-1, 0]  # the 5-tile group is ranked compactly
    for (cells_a, stats_a), (cells_b, stats_b), state in zip(*runs, states, strict=True):
        assert len(cells_a) == len(cells_b) == bfs_3x3[state]
        assert stats_a.generated == stats_b.generated


def test_pdb_idastar_without_jit_is_optimal() -> None:
    code = (
        "from npuzzle.heuristics.pdb import PartitionTables, build_partition, standard_partition\n"
        "from npuzzle.search import pdb_backend\n"
        "p = standard_partition(3, 3, 8, '4-4')\n"
        "for limit in (10**6, 9**3):\n"
        "    pdb_backend.SPARSE_MAX_ENTRIES = limit\n"
        "    tables = PartitionTables(p, build_partition(p))\n"
        "    cells, _ = pdb_backend.solve_canonical([8, 7, 6, 5, 4, 3, 2, 1, 0], tables, reflect=True)\n"
        "    assert len(cells) == 28, len(cells)\n"
    )
    run_python(code, jit=False, timeout=300)


def test_anti_diagonal_reflection_is_admissible_and_optimal() -> None:
    """Blank home in the top-right corner: the state is also read reflected about the anti-diagonal."""
    from npuzzle.search.pdb_backend import solve_canonical

    dist = canonical_distances(3, 3, 2)
    p = standard_partition(3, 3, 2, "4-4")
    assert p.reflectable() and pdb.reflection_cells(3, 3, 2) == [8, 5, 2, 7, 4, 1, 6, 3, 0]
    tables = PartitionTables(p, build_partition(p))
    dbs = tables.databases()
    rng = random.Random(7)
    states = rng.sample(sorted(dist), 3000)
    gained = 0
    for state in states:
        h, hr = additive_value(dbs, state), additive_value(dbs, state, reflect=True)
        assert h <= hr <= dist[state]
        gained += hr > h
    assert gained > 0  # the reflection adds information
    for state in states[:30]:
        cells, _ = solve_canonical(state, tables, reflect=True)
        assert len(cells) == dist[state]


def test_pdb_idastar_is_exact_on_2x5() -> None:
    from npuzzle.search.pdb_backend import solve_canonical

    exact = standard_partition(5, 2, 0)
    exact_db = PartitionTables(exact, build_partition(exact)).databases()[0]
    split = standard_partition(5, 2, 0, "4-5")
    split_tables = PartitionTables(split, build_partition(split))
    rng = random.Random(5)
    g = blank_first(5, 2)
    for _ in range(25):
        b = g
        for _ in range(200):
            b = b.move(rng.choice(b.legal_moves()))
        state = to_canonical(b, g)
        cells, _ = solve_canonical(state, split_tables)
        assert len(cells) == exact_db.lookup(state)
        assert additive_value(split_tables.databases(), state) <= exact_db.lookup(state)


def test_solve_pdb_any_goal_maps_moves_back() -> None:
    from npuzzle.search.pdb_backend import solve_pdb

    for layout in ("classic", "snake", "spiral", "blank-first"):
        g = goal(layout, 3, 3)
        start = from_canonical([8, 7, 6, 5, 4, 3, 2, 1, 0], goal("blank-first", 3, 3)).relabel(
            {i: i for i in range(9)}
        )
        start = Board(start.tiles, 3, 3)
        from npuzzle.solvability import is_solvable

        if not is_solvable(start, g):
            start = start.with_tiles([start.tiles[1], start.tiles[0], *start.tiles[2:]])
            if 0 in start.tiles[:2]:
                start = start.with_tiles([*start.tiles[:7], start.tiles[8], start.tiles[7]])
        sol = solve_pdb(start, g, limits=Limits())
        assert sol.replay() == g and sol.optimal


def test_solve_pdb_limits_and_metric() -> None:
    from npuzzle.errors import ProblemTooLargeError, SearchLimitExceeded, UnsolvableError
    from npuzzle.search.pdb_backend import solve_pdb

    g = classic(3, 3)
    hard = Board([6, 4, 7, 8, 5, 0, 3, 2, 1], 3, 3)
    with pytest.raises(ProblemTooLargeError):
        solve_pdb(hard, g, limits=Limits(), metric="multi")
    with pytest.raises(UnsolvableError):
        solve_pdb(Board([2, 1, 3, 4, 5, 6, 7, 8, 0], 3, 3), g, limits=Limits())
    with pytest.raises(SearchLimitExceeded) as info:
        solve_pdb(hard, g, limits=Limits(max_nodes=5), partition="1-1-1-1-1-1-1-1")
    assert info.value.limit == "max_nodes" and info.value.stats is not None
    assert 1 <= info.value.lower_bound <= solve_pdb(hard, g, limits=Limits()).length  # the IDA* threshold
    assert solve_pdb(g, g, limits=Limits()).length == 0


# -- 4x4: Korf's instances with 6-6-3 ------------------------------------------------------------------
EASY_KORF = (9, 19, 12, 31, 30, 23, 2, 34, 16, 28, 5, 13)  # 1-based instance numbers, < 0.1 s each


def korf_instances() -> list[tuple[int, Board]]:
    rows = [
        line.split() for line in KORF.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]
    return [(int(r[0]), Board([int(x) for x in r[1:]], 4, 4)) for r in rows]


@pytest.mark.skipif(not KORF.exists(), reason="korf100.txt not available")
def test_korf_easy_instances_with_663() -> None:
    from npuzzle.search.pdb_backend import choose_partition, solve_pdb, tables_built

    # the suite shares one table cache, so another test (or xdist worker) may have built 6-6-3 already
    present_before = tables_built(choose_partition(4, 4, 0))
    announced: list[int] = []  # the calls that said they were building the tables
    instances = korf_instances()
    g = blank_first(4, 4)
    for call, number in enumerate(EASY_KORF):
        length, board = instances[number - 1]
        messages: list[str] = []
        sol = solve_pdb(board, g, limits=Limits(max_nodes=10**8), progress=lambda m, d, t, out=messages: out.append(m))
        assert sol.length == length, number
        assert sol.replay() == g
        assert sol.heuristic == "pdb:6-6-3+reflection"
        if any("first use" in m for m in messages):
            announced.append(call)
    # at most the first call builds (and says so); none does when the tables were there before
    assert announced in ([], [0])
    if present_before:
        assert announced == []


@pytest.mark.slow
@pytest.mark.skipif(not KORF.exists(), reason="korf100.txt not available")
def test_korf_all_with_663() -> None:
    from npuzzle.search.pdb_backend import solve_pdb

    g = blank_first(4, 4)
    for length, board in korf_instances():
        assert solve_pdb(board, g, limits=Limits(), partition="6-6-3").length == length


def test_kernel_rank_of_uint8_cells_without_jit() -> None:
    """Small integer dtypes must not wrap when the kernels run as plain Python."""
    code = (
        "import numpy as np\n"
        "from npuzzle._kernels.pdb_build import rank_placement\n"
        "from npuzzle.heuristics.pdb import rank_placement as reference\n"
        "cells = [15, 14, 13, 12, 11, 10, 9, 8]\n"
        "assert rank_placement(np.array(cells, np.uint8), 16) == reference(cells, 16) > 255\n"
    )
    run_python(code, jit=False, timeout=120)


# -- limits on builds, format versions -----------------------------------------------------------------------
def test_a_build_past_its_deadline_stops_cleanly_and_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from npuzzle.errors import SearchLimitExceeded
    from npuzzle.heuristics import store
    from npuzzle.search.pdb_backend import solve_pdb

    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path / "cache"))
    p = standard_partition(4, 4, 0, "5-5-5")
    with pytest.raises(SearchLimitExceeded) as info:
        build_partition(p, deadline=time.monotonic())
    assert info.value.limit == "max_seconds"
    # through the solver: a 5x5 whose auto tables (5-5-5-5-4) are not built, with 0.2 s to go
    g = blank_first(5, 5)
    board = g
    rng = random.Random(2)
    for _ in range(60):
        board = board.move(rng.choice(board.legal_moves()))
    for _ in range(2):  # the first call may compile the kernels (not bounded); the second must stop promptly
        t0 = time.perf_counter()
        with pytest.raises(SearchLimitExceeded, match="time limit"):
            solve_pdb(board, g, limits=Limits(max_seconds=0.2))
    assert time.perf_counter() - t0 < 10  # a few cells of one layer past the deadline (a cold build: 15 s)
    folder = store.cache_dir()
    assert not folder.exists() or not [f for f in folder.iterdir() if f.name.endswith((".npdb", ".tmp"))]


@pytest.mark.parametrize("threads", [False, True])
def test_deadline_chunks_build_the_same_table(threads: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small tables run their tasks on one thread; both ways, in chunks of cells or not, give the same table."""
    import time

    from npuzzle._kernels import pdb_build

    if threads:
        monkeypatch.setattr(pdb_build, "PARALLEL_MIN_PLACEMENTS", 0)
    p = standard_partition(3, 3, 0, "4-4")
    direct = np.concatenate([reference_table(3, 3, g, 0) for g in p.groups])
    assert np.array_equal(build_partition(p), direct)
    assert np.array_equal(build_partition(p, deadline=time.monotonic() + 3600), direct)
    assert np.array_equal(build_table(3, 2, (2,), blank_cell=0), reference_table(3, 2, (2,), 0))  # k == 1


def test_old_format_files_are_refused_and_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A format-1 file (tables searched with the blank anywhere) under the current name is not trusted."""
    import warnings

    from npuzzle.errors import TableCorruptError
    from npuzzle.heuristics import store

    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path / "cache"))
    p = standard_partition(3, 3, 0, "4-4")
    old_values = np.concatenate([build_table(3, 3, g) for g in p.groups])
    path = store.table_path(p)
    monkeypatch.setattr(store, "FORMAT_VERSION", 1)
    store.write(p, old_values).rename(path)  # written as format 1, renamed to the current file name
    monkeypatch.setattr(store, "FORMAT_VERSION", 2)
    assert store.FORMAT_VERSION == 2 and path.exists()
    with pytest.raises(TableCorruptError, match="format 1"):
        store.load_or_build(p, build=False)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        tables = store.load_or_build(p)
    assert np.array_equal(tables.values, build_partition(p))
    assert not np.array_equal(old_values, build_partition(p))
    assert store.read_info(path).partition == p


def test_korf_felner_24_partition_and_symmetric_groups() -> None:
    p = standard_partition(5, 5, 0, "6-6-6-6")
    assert p.groups[0] == (1, 5, 6, 10, 11, 12) and p.reflectable()
    found = [pdb._symmetric_source(5, 5, 0, g, [p.groups[1]]) for g in p.groups[2:]]
    assert all(f is not None for f in found)  # the three 2x3 blocks: one search, two carried over
    assert pdb._symmetric_source(5, 5, 0, p.groups[0], list(p.groups[1:])) is None
    classic24 = standard_partition(5, 5, 24, "6-6-6-6")
    assert classic24.groups[0] == (12, 13, 14, 18, 19, 23)  # the staircase turned with the blank


def test_tables_carried_over_by_symmetry_equal_built_ones() -> None:
    p = standard_partition(4, 4, 5, "5-5-5")  # first and last groups are mirror images
    direct = np.concatenate([build_table(4, 4, g, blank_cell=5) for g in p.groups])
    assert np.array_equal(build_partition(p), direct)
    p = Partition(3, 3, 4, ((0, 1, 2), (3,), (5,), (6, 7, 8)))
    a = build_table(3, 3, p.groups[0], blank_cell=4)
    found = pdb._symmetric_source(3, 3, 4, p.groups[3], [p.groups[0]])
    assert found is not None
    mapped = pdb.map_table(3, 3, a, p.groups[0], p.groups[3], found[1])
    assert np.array_equal(mapped, pdb.reference_map_table(3, 3, a, p.groups[0], p.groups[3], found[1]))
    assert np.array_equal(mapped, build_table(3, 3, p.groups[3], blank_cell=4))


def test_strongest_partition_and_build_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from npuzzle.errors import TableMissingError
    from npuzzle.search import pdb_backend

    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path / "cache"))
    p = pdb_backend.strongest_partition(5, 5, 0)
    assert p.label == "6-6-6-6" and not pdb_backend.tables_built(p)
    assert "npuzzle pdb build --size 5x5 --blank-cell 0 --partition 6-6-6-6" in pdb_backend.build_hint(p)
    assert pdb_backend.strongest_partition(4, 4, 15).label == "7-8"
    assert pdb_backend.strongest_partition(5, 5, 12).name == "auto"  # blank in the middle: no named layout
    g = blank_first(5, 5)
    with pytest.raises(TableMissingError, match="pdb build --size 5x5"):
        pdb_backend.solve_pdb(g.move(g.legal_moves()[0]), g, partition="6-6-6-6", build=False)


def test_cli_solve_with_a_named_partition(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from npuzzle.cli import main

    assert main(["pdb", "build", "--size", "3x3", "--partition", "4-4"]) == 0
    code = main(["solve", "8 6 7 / 2 5 4 / 3 0 1", "--algorithm", "pdb", "--partition", "4-4", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    result = json.loads(out.strip().splitlines()[-1])
    assert result["length"] == 31 and result["optimal"] and result["heuristic"].startswith("pdb:4-4")
    assert result["stats"]["generated"] > 0
    assert main(["solve", "8 6 7 / 2 5 4 / 3 0 1", "--algorithm", "pdb", "--partition", "3-3-2"]) != 0
    assert "pdb build" in capsys.readouterr().err


def test_cli_pdb_build_respects_max_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from npuzzle.cli import main
    from npuzzle.heuristics import store

    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path / "cache"))
    p = standard_partition(5, 5, 0, "auto")
    assert main(["pdb", "build", "--size", "5x5", "--goal", "blank-first", "--max-seconds", "0.01"]) == 3
    assert not store.table_path(p).exists()
    assert not [f for f in (tmp_path / "cache").glob("*") if f.name.endswith((".npdb", ".tmp"))]
    assert main(["pdb", "build", "--size", "3x3", "--max-seconds", "nan"]) == 2


def test_choose_partition_prefers_built_6666_on_5x5(monkeypatch: pytest.MonkeyPatch) -> None:
    from npuzzle.search import pdb_backend

    built: set[str] = set()
    monkeypatch.setattr(pdb_backend, "partition_present", lambda p: p.label in built)
    assert pdb_backend.choose_partition(5, 5, 0).name == "auto"
    assert pdb_backend.choose_partition(4, 4, 0).label == "6-6-3"  # built on first use
    built.update({"6-6-6-6", "7-8"})
    assert pdb_backend.choose_partition(5, 5, 24).groups == standard_partition(5, 5, 24, "6-6-6-6").groups
    assert pdb_backend.choose_partition(4, 4, 0).label == "7-8"
    assert pdb_backend.choose_partition(5, 5, 12).name == "auto"  # no named layout for a blank in the middle


# -- the 24-puzzle ----------------------------------------------------------------------------------------
KORF24 = Path(__file__).resolve().parent / "data" / "korf24.txt"  # Korf & Felner's 50, blank-first goal


def korf24_instances() -> list[tuple[int, Board]]:
    rows = [
        line.split() for line in KORF24.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]
    return [(int(r[0]), Board([int(x) for x in r[1:]], 5, 5)) for r in rows]


def test_korf24_instances_are_consistent() -> None:
    from npuzzle.solvability import is_solvable

    g = blank_first(5, 5)
    instances = korf24_instances()
    assert len(instances) == 50 and [instances[i - 1][0] for i in (1, 13, 5, 16)] == [95, 101, 100, 96]
    for length, board in instances:
        state = to_canonical(board, g)
        manhattan = sum(abs(c // 5 - h // 5) + abs(c % 5 - h % 5) for c, h in enumerate(state) if h != 0)
        assert is_solvable(board, g) and manhattan <= length and (length - manhattan) % 2 == 0


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("NPUZZLE_BIG_TABLES"), reason="set NPUZZLE_BIG_TABLES to a cache holding 5x5 6-6-6-6"
)
def test_korf24_easiest_instance_with_6666(monkeypatch: pytest.MonkeyPatch) -> None:
    """Instance 25 (81 moves): 248,671,599 nodes generated with 6-6-6-6 + reflection (26 s of one core)."""
    from npuzzle.search.pdb_backend import solve_pdb

    monkeypatch.setenv("NPUZZLE_CACHE", os.environ["NPUZZLE_BIG_TABLES"])
    length, board = korf24_instances()[24]
    sol = solve_pdb(board, blank_first(5, 5), partition="6-6-6-6", build=False)
    assert sol.length == length == 81 and sol.replay() == blank_first(5, 5)
    assert sol.stats.generated == 248_671_599
