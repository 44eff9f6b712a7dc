"""README's commands run as written, and CI runs README's test command."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from npuzzle.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", README, flags=re.DOTALL)


def _example_lines() -> list[str]:
    lines = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
        lines += [line[2:] for line in block.splitlines() if line.startswith("$ ")]
    # the set-up command's example is the part after the install
    setup = _bash_blocks()[0].strip()
    lines.append(setup.split(" && ")[-1])
    return lines


def test_readme_has_exactly_two_setup_commands() -> None:
    blocks = [b.strip() for b in _bash_blocks()]
    assert len(blocks) == 2 and all(len(b.splitlines()) == 1 for b in blocks)
    assert "pip install" in blocks[0] and "npuzzle " in blocks[0]
    assert "pip install" in blocks[1] and "pytest" in blocks[1]


def test_ci_runs_the_readme_test_command() -> None:
    test_command = _bash_blocks()[1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci


@pytest.mark.parametrize("line", _example_lines())
def test_readme_example_runs(line: str, capsys: pytest.CaptureFixture[str]) -> None:
    command, _, comment = line.partition("#")
    expected = int(m.group(1)) if (m := re.search(r"exit (\d)", comment)) else 0
    argv = shlex.split(command)
    assert argv[0] == "npuzzle"
    code = main(argv[1:])
    captured = capsys.readouterr()
    assert code == expected, captured.err
    assert (captured.out + captured.err).strip()


def test_readme_python_examples() -> None:
    import doctest

    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i}", "README.md", 0))
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.slow
def test_first_run_of_the_setup_command_in_a_fresh_install(
    tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    """Issue 14: the set-up command's ``npuzzle solve ...`` in a fresh venv (this checkout installed into it,
    the dependencies taken from the running environment), with empty numba and table caches, answers;
    how long it took is recorded (``first_run_seconds``), not asserted."""
    import os
    import site
    import subprocess
    import sys
    import time

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # the dependencies (numba, numpy, typer, ...) come from this environment, after the fresh site-packages
    (Path(purelib) / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "-q", str(ROOT)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    if install.returncode != 0:
        pytest.skip(f"pip could not install the checkout offline: {install.stderr[-300:]}")
    command = shlex.split(_bash_blocks()[0].strip().split(" && ")[-1])
    assert command[0] == "npuzzle"
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache"),
        "NPUZZLE_CACHE": str(tmp_path / "tables"),
        "PYTHONPATH": "",
    }
    began = time.perf_counter()
    proc = subprocess.Popen(
        [str(venv / "bin" / "npuzzle"), *command[1:]], env=env, cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    first_line = proc.stdout.readline()
    answered = time.perf_counter() - began
    _, err = proc.communicate(timeout=900)
    record_property("first_run_seconds", round(answered, 1))
    record_property("first_run_total_seconds", round(time.perf_counter() - began, 1))
    print(f"first run: answer after {answered:.1f} s; {first_line.strip()}")
    assert proc.returncode == 0, err
    assert re.match(r"\d+ moves \(", first_line), first_line
    where = subprocess.run(
        [str(python), "-c", "import npuzzle; print(npuzzle.__file__)"],
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    assert str(venv) in where  # the fresh install ran, not this checkout
    assert "pattern tables" in err  # the one-time work is announced
