"""Fuzzing the command line in process (issue 10 item 5): whatever the arguments and input files,
``npuzzle.cli.main(argv)`` returns 0, 1, 2 or 3 and never raises; errors are one short line.

Searches are bounded (``--max-nodes``, ``--max-seconds``, named algorithms only: no table builds), counts
and move numbers small, so the whole module runs in seconds. ``serve``, ``warmup`` and ``pdb`` are not
fuzzed (they start servers or long builds); ``serve``'s port check has its own cases.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npuzzle.cli import main

EXIT_CODES = {0, 1, 2, 3}
MAX_STDERR = 2_000  # characters: errors quote excerpts, never whole inputs

VALUES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ["0", "-1", "1", "2", "3", "1e308", "-1e308", "nan", "inf", "-inf", "1.5", "", "0x5", "0x0", "0x3",
         "2x2", "3x3", "3x2", "4x4", "257x2", "1x9", "99999999999999999999", "classic", "blank-first", "snake",
         "spiral", "column", "blank-at:99", "random:x", "random:3", "blank-at:-1"]
    ),
    st.integers(-(10**20), 10**20).map(str),
)  # fmt: skip
BOARDS = st.one_of(
    st.text(alphabet="0123456789 ,/_.-x:[]{}\n#\"abtileswdhgn", max_size=60),
    st.sampled_from(
        [
            "1 2 3 4 5 6 7 0 8",
            "8 6 7 / 2 5 4 / 3 0 1",
            "1 2 0 3",
            "2 1 3 0",
            "3x2:1,2,3,4,0,5",
            '{"tiles":[1,2,3,0],"width":"ab","height":100000000}',
            '{"tiles":[1,2,3,0],"width":2,"height":3e9}',
            '{"tiles":[1,2,3,0],"blank":"x"}',
            '{"tiles":[1,2,3,0],"width":2.0}',
            "[" * 5000 + "]" * 5000,
            "9" * 5000,
            "-",
        ]
    ),
)
ALGORITHMS = st.sampled_from(["astar", "idastar", "wastar", "greedy", "bfs", "bibfs", "constructive", "nope"])
SOLVE_FLAGS = ["--size", "--blank", "--goal", "--weight", "--metric", "--heuristic", "--max-memory-mb"]
SOLVE_OPTIONS = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(SOLVE_FLAGS), VALUES),
        st.tuples(st.sampled_from(["--json", "--show"])),
    ),
    max_size=3,
)

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="npuzzle-fuzz-") as folder:
        yield Path(folder)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(argv)
    _, err = capsys.readouterr()
    assert code in EXIT_CODES, (argv, code, err[-500:])
    assert "Traceback" not in err, err[-2000:]
    # long stderr only where it is asked for: a batch's per-line report, or --show beside --json (the boards
    # drawn there keep stdout pure JSON)
    asked = argv[:1] == ["solve"] and ("--input" in argv or {"--show", "--json"} <= set(argv))
    assert len(err) <= MAX_STDERR or asked, len(err)


def _flatten(options: list[tuple[str, ...]]) -> list[str]:
    return [part for option in options for part in option]


@FUZZ
@given(board=BOARDS, options=st.lists(st.tuples(st.sampled_from(["--size", "--blank", "--format", "--goal"]),
                                                VALUES), max_size=3))  # fmt: skip
def test_show_and_check(capsys: pytest.CaptureFixture[str], board: str, options: list[tuple[str, str]]) -> None:
    show_options = [o for o in options if o[0] != "--goal"]
    check_options = [o for o in options if o[0] != "--format"]
    _run(["show", board, *_flatten(show_options)], capsys)
    _run(["check", board, *_flatten(check_options)], capsys)
    _run(["check", board, "--json", *_flatten(check_options)], capsys)


@FUZZ
@given(
    size=VALUES,
    goal=VALUES,
    method=st.sampled_from(["shuffle", "walk", "tile-walk", "x"]),
    count=st.integers(-2, 5),
    moves=st.integers(-2, 50),
    seed=st.one_of(st.integers(-5, 2**70), st.none()),
)
def test_generate(
    capsys: pytest.CaptureFixture[str], size: str, goal: str, method: str, count: int, moves: int, seed: int | None
) -> None:
    argv = ["generate", "--size", size, "--goal", goal, "--method", method, "--count", str(count)]
    if method != "shuffle":
        argv += ["--moves", str(moves)]
    if seed is not None:
        argv += ["--seed", str(seed)]
    _run(argv, capsys)


@FUZZ
@given(board=BOARDS, algorithm=ALGORITHMS, options=SOLVE_OPTIONS)
def test_solve_one_board(
    capsys: pytest.CaptureFixture[str], board: str, algorithm: str, options: list[tuple[str, ...]]
) -> None:
    argv = ["solve", board, "--algorithm", algorithm, "--max-nodes", "20000", "--max-seconds", "2"]
    _run([*argv, *_flatten(options)], capsys)


@FUZZ
@given(lines=st.lists(BOARDS, max_size=6), goal=VALUES, size=st.one_of(st.none(), VALUES))
def test_solve_input_file(
    capsys: pytest.CaptureFixture[str], workdir: Path, lines: list[str], goal: str, size: str | None
) -> None:
    path = workdir / "boards.txt"
    path.write_text("\n".join(line.replace("\n", " ") for line in lines) + "\n")
    argv = ["solve", "--input", str(path), "--jobs", "1", "--algorithm", "astar", "--max-nodes", "5000",
            "--goal", goal]  # fmt: skip
    if size is not None:
        argv += ["--size", size]
    _run(argv, capsys)


@FUZZ
@given(board=BOARDS, tile_size=VALUES, highlight=st.one_of(st.none(), VALUES))
def test_render(
    capsys: pytest.CaptureFixture[str], workdir: Path, board: str, tile_size: str, highlight: str | None
) -> None:
    argv = ["render", board, "--output", str(workdir / "board.png"), "--tile-size", tile_size]
    if highlight is not None:
        argv += ["--highlight", highlight]
    _run(argv, capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "--size", "0x5"],
        ["generate", "--size", "0x0"],
        ["generate", "--size", "0x3"],
        ["generate", "--size", "300x300"],
        ["solve", "1 2 3 4 5 6 7 0 8", "--algorithm", "wastar", "--weight", "1e308"],
        ["solve", "1 2 3 4 5 6 7 0 8", "--weight", "nan"],
        ["render", "1 2 3 0", "--tile-size", "100000", "--output", "unused.png"],
        ["serve", "--port", "-1"],
        ["serve", "--port", "70000"],
        ["check", '{"tiles":[1,2,3,0],"width":"ab","height":100000000}'],
        ["check", "[" * 100_000],
        ["show", '{"tiles":[1,2,3,0],"blank":"x"}'],
    ],
)
def test_known_bad_inputs_exit_2_with_one_short_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in err and len(err) < 1_000
    assert out == ""
