"""--engine ray runs the same batch jobs as the local engine, with the same results (Ray started locally)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from npuzzle.cli import app
from npuzzle.errors import EngineUnavailableError

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'npuzzle[ray]' to test --engine ray")

# volatile fields: wall times differ from run to run whatever the engine
VOLATILE = {"seconds", "startup_seconds", "search_seconds", "nodes_per_second", "created"}
# notes that report a wall time past a threshold: a loaded machine crosses it in one process and not another
VOLATILE_NOTES = ("loading the search kernels took",)


def _stable(record: dict) -> dict:
    cleaned = {key: value for key, value in record.items() if key not in VOLATILE}
    if isinstance(cleaned.get("notes"), list):
        cleaned["notes"] = [note for note in cleaned["notes"] if not note.startswith(VOLATILE_NOTES)]
    if isinstance(cleaned.get("stats"), dict):
        cleaned["stats"] = {key: value for key, value in cleaned["stats"].items() if key not in VOLATILE}
    return cleaned


def _records(path: Path) -> list[dict]:
    return sorted((_stable(json.loads(line)) for line in path.read_text().splitlines()), key=lambda r: r["line"])


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray with two workers for the module: starting Ray costs seconds."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()


BOARDS = [
    "8 6 7 2 5 4 3 0 1",
    "1 2 3 4 5 6 7 8 0",
    "not a board",
    "6 4 7 8 5 0 3 2 1",
    "1 2 3 4 5 6 8 7 0",  # unsolvable for the classic goal
    "0 1 3 4 2 5 7 8 6",
]


def test_solve_input_ray_equals_local(local_ray, tmp_path: Path) -> None:
    source = tmp_path / "boards.txt"
    source.write_text("\n".join(BOARDS) + "\n")
    runner = CliRunner()
    outputs = {}
    for engine in ("local", "ray"):
        out = tmp_path / f"{engine}.jsonl"
        result = runner.invoke(
            app, ["solve", "--input", str(source), "--output", str(out), "--jobs", "2", "--engine", engine]
        )
        assert result.exit_code == 2, result.output  # the bad line makes the worst exit "bad input"
        outputs[engine] = _records(out)
    assert len(outputs["ray"]) == len(BOARDS)
    assert outputs["ray"] == outputs["local"]
    assert [r.get("length") for r in outputs["ray"]] == [31, 0, None, 31, None, 4]
    assert ray.is_initialized()  # a Ray the caller started is left running


def test_bank_fill_ray_equals_local(local_ray, tmp_path: Path) -> None:
    runner = CliRunner()
    exported = {}
    for engine in ("local", "ray"):
        db = tmp_path / f"{engine}.sqlite"
        args = ["bank", "fill", "--size", "3x3", "--length", "10..14", "--count", "12", "--db", str(db)]
        result = runner.invoke(app, [*args, "--jobs", "2", "--engine", engine, "--no-progress"])
        assert result.exit_code == 0, result.output
        out = tmp_path / f"{engine}.jsonl"
        result = runner.invoke(app, ["bank", "export", "--db", str(db), "--format", "jsonl", "--output", str(out)])
        assert result.exit_code == 0, result.output
        exported[engine] = sorted(
            json.dumps(_stable(json.loads(line)), sort_keys=True) for line in out.read_text().splitlines()
        )
    assert len(exported["ray"]) == 12
    assert exported["ray"] == exported["local"]


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from npuzzle.batch.ray_engine import engine_executor

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(EngineUnavailableError, match=r"pip install 'npuzzle\[ray\]'"), engine_executor("ray"):
        pass
    source = tmp_path / "boards.txt"
    source.write_text(BOARDS[0] + "\n")
    result = CliRunner().invoke(app, ["solve", "--input", str(source), "--engine", "ray"])
    assert result.exit_code == 2
    assert "npuzzle[ray]" in result.output


def test_engine_options_are_checked(tmp_path: Path) -> None:
    runner = CliRunner()
    source = tmp_path / "boards.txt"
    source.write_text(BOARDS[0] + "\n")
    result = runner.invoke(app, ["solve", "--input", str(source), "--engine", "spark"])
    assert result.exit_code == 2 and "unknown engine" in result.output
    result = runner.invoke(app, ["solve", "--input", str(source), "--address", "auto"])
    assert result.exit_code == 2 and "--engine ray" in result.output
    result = runner.invoke(app, ["solve", BOARDS[0], "--engine", "ray"])
    assert result.exit_code == 2 and "--input" in result.output
