"""README's commands run as written, and CI runs README's test command."""

from __future__ import annotations

import re
import shlex
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
