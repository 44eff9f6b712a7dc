"""The examples in the public API's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import npuzzle

SKIP_PREFIXES = ("npuzzle._kernels", "npuzzle.web", "npuzzle.cli", "npuzzle.__main__")
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(npuzzle.__path__, "npuzzle.")
    if not info.name.startswith(SKIP_PREFIXES)
)


@pytest.mark.parametrize("name", ["npuzzle", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
