"""Beam search guided by pattern databases (_kernels/beam_pdb.py, search/bounded.py): the layer kernel
against its pure-Python twin, answers that replay to the goal, admissible lower bounds from the tables."""

from __future__ import annotations

import time

import numpy as np
import pytest

from interpreters import run_python
from npuzzle.board import neighbour_cells
from npuzzle.canonical import to_canonical
from npuzzle.generate import shuffle, walk
from npuzzle.goals import goal
from npuzzle.heuristics.pdb import PartitionTables, additive_value, build_partition, standard_partition
from npuzzle.search import bounded
from npuzzle.search.pdb_backend import load_partition, solve_canonical
from oracle import beam_layer


def _tables(width: int, height: int, blank: int, sizes: str) -> PartitionTables:
    p = standard_partition(width, height, blank, sizes)
    return PartitionTables(p, build_partition(p))


def _reference_layer(tables, reflect, states, blanks, came, width, height, blank_home, max_f, depth):
    """Pure-Python twin of expand_layer_pdb (heuristic: the tables' additive value)."""
    dbs = tables.databases()
    return beam_layer(
        states, blanks, came, width, height, blank_home, max_f, depth, lambda child: additive_value(dbs, child, reflect)
    )


@pytest.mark.parametrize(
    "layout,width,height,sizes,reflect",
    [
        ("classic", 4, 4, "4-4-4-3", True),
        ("blank-first", 4, 4, "5-5-5", False),
        ("spiral", 5, 3, "4-4-3-3", False),
    ],
)
def test_beam_pdb_layer_kernel_matches_its_pure_python_twin(
    layout: str, width: int, height: int, sizes: str, reflect: bool
) -> None:
    from npuzzle._kernels.beam_pdb import expand_layer_pdb
    from npuzzle._kernels.pdb_idastar import initial_values
    from npuzzle._kernels.reduce import neighbour_table

    target = goal(layout, width, height)
    n = width * height
    tables = _tables(width, height, target.blank_cell, sizes)
    prep = bounded.beam_tables(tables, reflect)
    assert prep.reflect == reflect
    boards = [to_canonical(walk(target, 30, seed=s), target) for s in range(6)]
    boards.append(to_canonical(walk(target, 1, seed=0), target))  # one move from the goal: a goal child
    states = np.asarray(boards, dtype=np.int8)
    blanks = np.asarray([b.index(target.blank_cell) for b in boards], dtype=np.int32)
    came = np.full(len(boards), -1, dtype=np.int32)
    came[0] = neighbour_cells(int(blanks[0]), width, height)[0]
    groups = len(prep.group_size)
    hg = np.zeros((len(boards), groups), np.int16)
    hm = np.zeros((len(boards), groups), np.int16)
    pos = np.empty(n, np.int8)
    for i, b in enumerate(boards):
        pos[np.asarray(b)] = np.arange(n, dtype=np.int8)
        initial_values(
            pos, prep.table, prep.offsets, prep.group_tiles, prep.group_size, n, prep.tmap, prep.reflect,
            hg[i], hm[i],
        )  # fmt: skip
    cells = np.arange(n)
    zobrist = np.random.default_rng(1).integers(-(2**62), 2**62, size=n * n, dtype=np.int64)
    hashes = np.asarray(
        [np.bitwise_xor.reduce(zobrist[cells * n + np.asarray(b)]) for b in boards], dtype=np.int64
    )
    room = 4 * len(boards)
    outs = [
        np.zeros((room, n), np.int8),
        np.zeros(room, np.int32),
        np.zeros(room, np.int32),
        np.zeros((room, groups), np.int16),
        np.zeros((room, groups), np.int16),
        np.zeros(room, np.int32),
        np.zeros(room, np.int64),
        np.zeros(room, np.int32),
    ]
    for max_f in (1000, 30):
        written, goal_row = expand_layer_pdb(
            states, len(boards), blanks, came, hg, hm, hashes, target.blank_cell, neighbour_table(width, height),
            zobrist, prep.table, prep.offsets, prep.group_of, prep.group_tiles, prep.group_size, prep.tmap,
            prep.reflect, max_f, 0, pos, np.zeros(room, np.int32), np.zeros(room, np.int32),
            np.zeros((room, 2), np.int64), *outs,
        )  # fmt: skip
        expected, expected_goal = _reference_layer(
            tables,
            reflect,
            boards,
            blanks.tolist(),
            came.tolist(),
            width,
            height,
            target.blank_cell,
            max_f,
            0,
        )
        assert (written, goal_row) == (len(expected), expected_goal)
        for row, (child, cell, came_from, h, parent) in enumerate(expected):
            assert outs[0][row].tolist() == child
            assert (outs[1][row], outs[2][row], outs[5][row], outs[7][row]) == (cell, came_from, h, parent)
            assert outs[6][row] == np.bitwise_xor.reduce(zobrist[cells * n + np.asarray(child)])
            # the carried group values are the child's own
            for g, db in enumerate(tables.databases()):
                assert outs[3][row, g] == db.lookup(child)


def test_pdb_beam_answers_replay_and_respect_the_bound_on_5x5() -> None:
    target = goal("classic", 5, 5)
    tables = _tables(5, 5, target.blank_cell, "4-4-4-4-4-4")
    prep = bounded.beam_tables(tables)
    assert prep.reflect and prep.label == "4-4-4-4-4-4+reflection"
    for seed in range(3):
        values = to_canonical(shuffle(target, seed=seed), target)
        h = bounded.pdb_value(values, prep)
        assert h == additive_value(tables.databases(), values, True)
        cells = bounded.beam_search(values, 5, 5, target.blank_cell, 500, 1000, time.monotonic() + 60, prep)
        assert cells is not None and len(cells) >= h
        assert bounded._states(values, target.blank_cell, cells)[-1] == list(range(25))
        # nothing shorter than the admissible heuristic can exist: with that as the best, no answer
        assert (
            bounded.beam_search(values, 5, 5, target.blank_cell, 500, h, time.monotonic() + 60, prep) is None
        )
    assert bounded.beam_search(list(range(25)), 5, 5, 24, 10, 10, time.monotonic() + 60, prep) == []


def _with_cheap_tables(monkeypatch: pytest.MonkeyPatch, target) -> PartitionTables:
    """Use a small partition as the cheap one and make sure it is in the (test) cache."""
    monkeypatch.setattr(bounded, "CHEAP_PARTITION", "4-4-4-4-4-4")
    return load_partition(standard_partition(5, 5, target.blank_cell, "4-4-4-4-4-4"), build=True)


def test_improving_solutions_uses_cached_tables_with_an_admissible_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = goal("spiral", 5, 5)  # blank in the centre: no named partition, the cheap one serves
    tables = _with_cheap_tables(monkeypatch, target)
    for seed in range(2):  # short walks: the exact distance is known, the tables' bound proves it
        board = walk(target, 44, seed=seed)
        values = to_canonical(board, target)
        optimum = len(solve_canonical(values, tables, reflect=True)[0])
        answers = list(bounded.improving_solutions(board, target, deadline=time.monotonic() + 5))
        for s in answers:
            assert s.lower_bound <= optimum <= s.length and s.replay() == target
        assert answers[-1].lower_bound >= additive_value(tables.databases(), values, True)
    board = shuffle(target, seed=5)
    answers = list(bounded.improving_solutions(board, target, deadline=time.monotonic() + 5))
    assert any(s.heuristic == "pdb:4-4-4-4-4-4+reflection" for s in answers)
    assert [s.length for s in answers] == sorted({s.length for s in answers}, reverse=True)
    for s in answers:
        assert s.replay() == target and s.lower_bound <= s.length


def test_no_table_build_without_time_for_it(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path))
    target = goal("classic", 5, 5)
    board = shuffle(target, seed=3)
    answers = list(bounded.improving_solutions(board, target, deadline=time.monotonic() + 1.0))
    assert answers and all(not (s.heuristic or "").startswith("pdb") for s in answers)
    assert not list(tmp_path.iterdir())  # the 5-5-5-5-4 build needs more than a second: not started


def test_cheap_tables_are_built_when_there_is_time(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("NPUZZLE_CACHE", str(tmp_path))
    monkeypatch.setattr(bounded, "CHEAP_PARTITION", "4-4-4-4-4-4")
    target = goal("spiral", 5, 5)
    board = walk(target, 40, seed=7)
    answers = list(bounded.improving_solutions(board, target, deadline=time.monotonic() + 20))
    notes = [note for s in answers for note in s.notes]
    assert any("built the 5x5 4-4-4-4-4-4 pattern tables" in note for note in notes)
    assert any(p.name.endswith(".npdb") for p in tmp_path.iterdir())


def test_pdb_beam_without_jit_matches() -> None:
    code = (
        "import time\n"
        "from npuzzle.goals import goal\n"
        "from npuzzle.generate import walk\n"
        "from npuzzle.canonical import to_canonical\n"
        "from npuzzle.heuristics.pdb import PartitionTables, build_partition, standard_partition\n"
        "from npuzzle.search.bounded import beam_search, beam_tables\n"
        "t = goal('classic', 3, 3)\n"
        "p = standard_partition(3, 3, t.blank_cell, '4-4')\n"
        "prep = beam_tables(PartitionTables(p, build_partition(p)))\n"
        "v = to_canonical(walk(t, 60, seed=1), t)\n"
        "print(beam_search(v, 3, 3, t.blank_cell, 50, 100, 1e18, prep))\n"
    )
    assert run_python(code, jit=True) == run_python(code, jit=False)
