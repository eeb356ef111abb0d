"""Every docstring example in the package runs and is true (the native core's included):
the examples are the first documentation a user reads, so they are tested like code."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tienlen

MODULES = sorted({"tienlen", "tienlen._core", "reference_playout",
                  *(f"tienlen.{m.name}" for m in pkgutil.walk_packages(tienlen.__path__))})
# Modules whose docstrings hold no examples (a re-export, an entry point, a package marker).
WITHOUT_EXAMPLES = {"tienlen.core", "tienlen.__main__", "tienlen.tui"}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
    assert result.attempted > 0 or name in WITHOUT_EXAMPLES
