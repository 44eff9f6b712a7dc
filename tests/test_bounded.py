"""Bounded-suboptimal solving (search/bounded.py, _kernels/wida.py): honest bounds against exact distances,
the weighted IDA* kernel against a pure-Python twin, answers that only get shorter."""

from __future__ import annotations

import itertools
import math
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreters import run_python
from npuzzle.board import Board
from npuzzle.canonical import to_canonical
from npuzzle.errors import ProblemTooLargeError
from npuzzle.generate import shuffle, walk
from npuzzle.goals import goal
from npuzzle.heuristics.simple import line_conflicts, linear_conflict
from npuzzle.search import bounded
from npuzzle.search.bounded import improving_solutions, supports
from oracle import beam_layer, bfs_distances


def test_supports() -> None:
    assert supports(5, 5) and supports(8, 8) and supports(4, 16) and supports(3, 3)
    assert not supports(9, 9) and not supports(5, 5, "multi")
    with pytest.raises(ProblemTooLargeError):
        next(
            improving_solutions(shuffle(goal("classic", 9, 9), seed=1), goal("classic", 9, 9), deadline=1e18)
        )


def _check_sequence(answers: list, optimum: int) -> None:
    """Each answer's bounds hold against the true optimum."""
    for s in answers:
        assert s.lower_bound is not None and s.lower_bound <= optimum <= s.length
        if s.suboptimality is not None:
            assert s.length <= s.suboptimality * optimum + 1e-9
        if s.optimal:
            assert s.length == optimum and s.lower_bound == optimum


@pytest.mark.parametrize("layout,width,height", [("classic", 3, 3), ("spiral", 3, 3), ("snake", 4, 2)])
def test_bounds_are_honest_against_bfs(layout: str, width: int, height: int, monkeypatch) -> None:
    """Every yielded answer: lower_bound <= optimum <= length <= suboptimality * optimum; each strictly
    shorter than the one before; the last proven optimal. Weighted A* stage and weighted IDA* stage apart."""
    target = goal(layout, width, height)
    distances = bfs_distances(target)
    rng = random.Random(5)
    states = [s for s in rng.sample(sorted(distances), 60) if distances[s] >= 8]
    for astar_weights in (bounded.ASTAR_WEIGHTS, ()):
        monkeypatch.setattr(bounded, "ASTAR_WEIGHTS", astar_weights)
        for tiles in states[:20]:
            board = Board(tiles, width, height)
            optimum = distances[tiles]
            answers = list(
                improving_solutions(board, target, deadline=time.monotonic() + 60, best_length=optimum + 16)
            )
            assert answers, "an answer shorter than optimum + 16 must be found"
            strict = [s.length for s in answers if not s.optimal]
            assert all(b < a for a, b in itertools.pairwise(strict))
            _check_sequence(answers, optimum)
            assert answers[-1].optimal and answers[-1].length == optimum


def test_quick_answer_first_then_shorter_ones_on_3x4() -> None:
    """best_length None: the reduction answer comes first; the optimum (by the library's IDA*) is reached."""
    from npuzzle.search import solve

    target = goal("classic", 4, 3)
    for seed in range(3):
        board = shuffle(target, seed=seed)
        optimum = solve(board, target, algorithm="idastar").length
        answers = list(improving_solutions(board, target, deadline=time.monotonic() + 60))
        assert answers[0].algorithm == "reduction"
        _check_sequence(answers, optimum)
        assert answers[-1].length == optimum


def test_a_past_deadline_yields_only_the_quick_answer() -> None:
    target = goal("classic", 5, 5)
    board = shuffle(target, seed=3)
    answers = list(improving_solutions(board, target, deadline=time.monotonic() - 1))
    assert len(answers) == 1 and answers[0].algorithm == "reduction"
    assert list(improving_solutions(board, target, deadline=time.monotonic() - 1, best_length=500)) == []


def test_5x5_gets_shorter_answers_with_bounds() -> None:
    target = goal("spiral", 5, 5)
    board = shuffle(target, seed=8)
    answers = list(improving_solutions(board, target, deadline=time.monotonic() + 4))
    assert len(answers) >= 2
    assert answers[-1].length < answers[0].length
    assert answers[-1].suboptimality is not None and answers[-1].suboptimality <= 3
    assert answers[-1].lower_bound >= answers[0].lower_bound  # linear conflict >= Manhattan


def test_smooth_keeps_a_solution_and_never_lengthens() -> None:
    from npuzzle.search.reduction import reduce_cells

    target = goal("classic", 5, 4)
    board = shuffle(target, seed=2)
    values = to_canonical(board, target)
    cells = reduce_cells(values, 5, 4, target.blank_cell, lam=7).tolist()
    smoothed = bounded.smooth(values, 5, 4, target.blank_cell, cells, time.monotonic() + 30)
    assert len(smoothed) < len(cells)
    final = bounded._states(values, target.blank_cell, smoothed)[-1]
    assert final == list(range(20))


# -- the kernel against a pure-Python twin ----------------------------------------------------------------
def _reference_wida(
    values: list[int], width: int, height: int, blank_home: int, wn: int, wd: int, bound: int
):
    """Plain recursive weighted IDA* with Manhattan + linear conflict, children lowest h first (ties in
    neighbour order): the path (cells) of the first answer, or None."""
    from npuzzle.board import neighbour_cells

    def h_of(state: list[int]) -> int:
        return linear_conflict(state, width, height, blank_home)

    def dfs(
        state: list[int], blank: int, came: int, g: int, threshold: int, path: list[int], nxt: list
    ) -> bool:
        if all(t == c for c, t in enumerate(state)):
            return True
        kids = []
        for cell in neighbour_cells(blank, width, height):
            if cell == came:
                continue
            child = state[:]
            child[blank], child[cell] = child[cell], blank_home
            kids.append((h_of(child), len(kids), cell, child))
        kids.sort()
        for h, _, cell, child in kids:
            f = (g + 1) * wd + h * wn
            if g + 1 + h >= bound or f > threshold:
                if g + 1 + h < bound:
                    nxt[0] = min(nxt[0], f)
                continue
            path.append(cell)
            if dfs(child, cell, blank, g + 1, threshold, path, nxt):
                return True
            path.pop()
        return False

    start = list(values)
    threshold = h_of(start) * wn
    while True:
        path: list[int] = []
        nxt = [math.inf]
        if dfs(start, start.index(blank_home), -1, 0, threshold, path, nxt):
            return path
        if nxt[0] == math.inf:
            return None
        threshold = nxt[0]


def _kernel_wida(values: list[int], width: int, height: int, blank_home: int, wn: int, wd: int, bound: int):
    from npuzzle._kernels import wida

    search = bounded._Search(values, width, height, blank_home, bound + 2)
    threshold = search.h0 * wn
    while True:
        search.reset(threshold)
        status = search.run(wn, wd, bound, 10**9)
        if status == wida.FOUND:
            return search.moved[: int(search.regs[wida.R_DEPTH])].tolist()
        assert status == wida.EXHAUSTED
        if search.regs[wida.R_NEXT] >= wida.INFINITE:
            return None
        threshold = int(search.regs[wida.R_NEXT])


@pytest.mark.parametrize("layout,width,height", [("classic", 3, 3), ("spiral", 4, 2), ("blank-first", 3, 4)])
def test_weighted_idastar_kernel_matches_its_pure_python_twin(layout: str, width: int, height: int) -> None:
    target = goal(layout, width, height)
    for seed in range(3):
        values = to_canonical(walk(target, 24 if width * height > 9 else 40, seed=seed), target)
        for wn, wd, bound in ((3, 1, 100), (3, 2, 100), (1, 1, 100), (2, 1, 30)):
            expected = _reference_wida(values, width, height, target.blank_cell, wn, wd, bound)
            assert _kernel_wida(values, width, height, target.blank_cell, wn, wd, bound) == expected


def test_weighted_idastar_and_beam_kernels_with_the_jit_disabled() -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from test_bounded import _kernel_wida\n"
        "from npuzzle.goals import goal\n"
        "from npuzzle.generate import walk\n"
        "from npuzzle.canonical import to_canonical\n"
        "t = goal('snake', 3, 3)\n"
        "v = to_canonical(walk(t, 60, seed=1), t)\n"
        "print(_kernel_wida(v, 3, 3, t.blank_cell, 3, 2, 200), _kernel_wida(v, 3, 3, t.blank_cell, 1, 1, 200))\n"
        "from npuzzle.search.bounded import beam_search\n"
        "print(beam_search(v, 3, 3, t.blank_cell, 50, 100, 1e18))\n"
    )
    assert run_python(code, jit=True) == run_python(code, jit=False)


def _reference_layer(states, blanks, came, width, height, blank_home, max_f, depth):
    """Pure-Python twin of expand_layer (heuristic: Manhattan + linear conflict)."""

    def h_of(state: list[int]) -> int:
        return linear_conflict(state, width, height, blank_home)

    return beam_layer(states, blanks, came, width, height, blank_home, max_f, depth, h_of)


@pytest.mark.parametrize("coded", [True, False])
@pytest.mark.parametrize("layout,width,height", [("classic", 4, 4), ("spiral", 5, 3)])
def test_beam_layer_kernel_matches_its_pure_python_twin(layout: str, width: int, height: int, coded: bool) -> None:
    """With the lines' codes and the conflict table (lines of up to 7 cells) and without (longer lines)."""
    import numpy as np

    from npuzzle._kernels.beam import expand_layer, gather_children
    from npuzzle._kernels.idastar import init_lines, lc_tables
    from npuzzle._kernels.reduce import neighbour_table

    target = goal(layout, width, height)
    n = width * height
    boards = [to_canonical(walk(target, 30, seed=s), target) for s in range(6)]
    boards.append(to_canonical(walk(target, 1, seed=0), target))  # one move from the goal: a goal child
    states = np.asarray(boards, dtype=np.int16)
    blanks = np.asarray([b.index(target.blank_cell) for b in boards], dtype=np.int32)
    came = np.full(len(boards), -1, dtype=np.int32)
    from npuzzle.board import neighbour_cells

    came[0] = neighbour_cells(int(blanks[0]), width, height)[0]
    cells = np.arange(n)
    md_table = (
        np.abs(cells[:, None] // width - cells[None, :] // width)
        + np.abs(cells[:, None] % width - cells[None, :] % width)
    ).astype(np.int32)
    md_table[target.blank_cell, :] = 0
    md = np.asarray([int(md_table[np.asarray(b), cells].sum()) for b in boards], dtype=np.int32)
    lc = np.asarray([line_conflicts(b, width, height, target.blank_cell) for b in boards], dtype=np.int32)
    zobrist = np.random.default_rng(1).integers(-(2**62), 2**62, size=n * n, dtype=np.int64)
    hashes = np.asarray(
        [np.bitwise_xor.reduce(zobrist[cells * n + np.asarray(b)]) for b in boards], dtype=np.int64
    )
    lctab, code, line_of, tabled = lc_tables(width, height, target.blank_cell)
    assert tabled
    tails = np.zeros(2 * (width + height) + 4, np.int32)

    def line_keys(board: list[int]) -> list[int]:
        lines = np.zeros(width + height, np.int32)
        init_lines(np.asarray(board, np.int64), width, height, target.blank_cell, code, True, lines, tails)
        return lines.tolist()

    keys = np.asarray([line_keys(b) if coded else [] for b in boards], np.int32).reshape(len(boards), -1)
    row_of, col_of = (cells // width).astype(np.int32), (cells % width).astype(np.int32)
    if not coded:  # as lc_tables gives them for lines too long for the table: 1 on a tile's home line
        code = (code != 0).astype(np.int32)
    room = 4 * len(boards)
    outs = [np.zeros(room, t) for t in (np.int32, np.int32, np.int32, np.int32, np.int32, np.int64)]
    for max_f in (1000, 40):
        before = states.copy()
        written, goal_row = expand_layer(
            states,
            len(boards),
            blanks,
            came,
            md,
            lc,
            keys,
            hashes,
            width,
            height,
            target.blank_cell,
            md_table.reshape(-1),
            neighbour_table(width, height),
            zobrist,
            max_f,
            0,
            np.zeros(2 * (width + height) + 4, np.int32),
            row_of,
            col_of,
            lctab,
            code,
            line_of,
            *outs,
        )
        assert (states == before).all()  # changed while scoring, restored
        expected, expected_goal = _reference_layer(
            boards, blanks.tolist(), came.tolist(), width, height, target.blank_cell, max_f, 0
        )
        assert (written, goal_row) == (len(expected), expected_goal)
        parent, cell, child_md, child_lc, h, hashed = outs
        for row, (child, blank, _, child_h, child_parent) in enumerate(expected):
            assert (cell[row], h[row], parent[row]) == (blank, child_h, child_parent)
            assert child_md[row] + 2 * child_lc[row] == child_h
            assert child_lc[row] == line_conflicts(child, width, height, target.blank_cell)
            assert hashed[row] == np.bitwise_xor.reduce(zobrist[cells * n + np.asarray(child)])
        chosen = np.arange(written, dtype=np.int64)
        new_states = np.zeros((written, n), np.int16)
        new_blanks = np.zeros(written, np.int32)
        new_came = np.zeros(written, np.int32)
        new_keys = np.zeros((written, keys.shape[1]), np.int32)
        gather_children(
            states, blanks, parent, cell, chosen, target.blank_cell, code, line_of, keys, new_states, new_blanks,
            new_came, new_keys,
        )  # fmt: skip
        assert [list(map(int, r)) for r in new_states] == [child for child, *_ in expected]
        if coded:
            assert new_keys.tolist() == [line_keys(child) for child, *_ in expected]
        assert new_came.tolist() == [came_from for _, _, came_from, _, _ in expected]


def _reference_select(h: list[int], hashes: list[int], beam: int) -> list[int]:
    """Pure-Python twin of select_children: first row of each hash, the beam lowest h (ties: lower rows)."""
    first: dict[int, int] = {}
    for row, key in enumerate(hashes):
        first.setdefault(key or 1, row)  # the kernel's set keeps 0 as 1
    return sorted(sorted(first.values(), key=lambda row: h[row])[:beam])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-3, 12), max_size=60), st.integers(1, 40))
def test_select_children_matches_its_pure_python_twin(rows: list[int], beam: int) -> None:
    import numpy as np

    from npuzzle._kernels.beam import select_children

    # duplicates share their h (one state), as in a layer: h is a function of the hash here
    h = [(key or 1) % 5 + 3 for key in rows]
    hashes = rows
    seen = np.zeros(1 << (2 * max(len(rows), 1)).bit_length(), np.int64)
    chosen = select_children(np.array(h, np.int32), np.array(hashes, np.int64), len(rows), beam, seen)
    assert chosen.tolist() == _reference_select(h, hashes, beam)


def test_beam_search_answers_replay_on_5x5() -> None:
    target = goal("snake", 5, 5)
    board = shuffle(target, seed=4)
    values = to_canonical(board, target)
    cells = bounded.beam_search(values, 5, 5, target.blank_cell, 2000, 1000, time.monotonic() + 60)
    assert cells is not None
    assert bounded._states(values, target.blank_cell, cells)[-1] == list(range(25))
    # nothing shorter than the Manhattan distance can exist: with that as the best, no answer
    md = sum(
        abs(c // 5 - t // 5) + abs(c % 5 - t % 5) for c, t in enumerate(values) if t != target.blank_cell
    )
    assert bounded.beam_search(values, 5, 5, target.blank_cell, 2000, md, time.monotonic() + 60) is None


@pytest.mark.parametrize(
    "layout,width,height", [("classic", 6, 6), ("snake", 5, 4), ("spiral", 3, 7), ("blank-first", 4, 4)]
)
def test_the_backward_beam_reversed_solves_the_board(layout: str, width: int, height: int) -> None:
    """A beam run from the goal to the board (inverse_problem), walked back (reversed_cells), takes the board
    to the goal; its length has the forward problem's parity."""
    target = goal(layout, width, height)
    n = width * height
    for seed in range(3):
        values = to_canonical(shuffle(target, seed=seed), target)
        inverse, home = bounded.inverse_problem(values, target.blank_cell)
        assert sorted(inverse) == list(range(n)) and inverse[target.blank_cell] == home
        back = bounded.beam_search(inverse, width, height, home, 500, 10_000, time.monotonic() + 60)
        assert back is not None
        forward = bounded.reversed_cells(back, target.blank_cell)
        assert bounded._states(values, target.blank_cell, forward)[-1] == list(range(n))
        assert bounded._states(inverse, home, back)[-1] == list(range(n))
    assert bounded.reversed_cells([], 0) == []
