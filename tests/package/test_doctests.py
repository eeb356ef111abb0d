"""Every docstring example in the package runs and is true (the native core's included):
the examples are the first documentation a user reads, so they are tested like code.

This is the one place that runs them, and each runs once: every module under tienlen/
(subpackages included) is walked once, and a docstring that a module reaches by two names
(an alias, or the native core's ``__test__`` table that Cython fills) is run once.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import io
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

import tienlen

from tienlen._moved import FACADES, MOVED

# Every module once, by its own name: the old names of moved modules are aliases of the
# new ones (the same module objects), so they are left out.
_ALIASES = set(MOVED) | set(FACADES)
MODULES = sorted({"tienlen", "reference", "reference_game", "reference_solver", "reference_playout",
                  *(m.name for m in pkgutil.walk_packages(tienlen.__path__, prefix="tienlen.",
                                                          onerror=lambda name: None)
                    if m.name not in _ALIASES and not m.name.startswith("tienlen.bots."))})
# Modules whose docstrings hold no examples (a re-export, an entry point, a package marker,
# the terminal screens that need a terminal to show anything, the deprecated wrappers).
WITHOUT_EXAMPLES = {"tienlen.games.tienlen.core", "tienlen.games.guandan.core", "tienlen.__main__",
                    "tienlen.tui", "tienlen.tui.terminal",
                    "tienlen.tui.replay_view", "tienlen.tui.rules_view", "tienlen.tui.sim_view",
                    "tienlen.tui.play", "tienlen.tui.guandan_play",
                    "tienlen.games", "tienlen.games.tienlen", "tienlen.games.guandan",
                    "tienlen.cli.play", "tienlen.cli.sim", "tienlen.cli.replay", "tienlen.cli.rules",
                    "tienlen.cli.serve", "tienlen.cli.moves", "tienlen.cli.solve",
                    "tienlen.games.tienlen.results",
                    "tienlen.cli.train"}


def _key(test: doctest.DocTest) -> tuple[tuple[str, str], ...]:
    return tuple((example.source, example.want) for example in test.examples)


def docstring_examples(module: ModuleType) -> list[doctest.DocTest]:
    """The module's docstrings with examples, each once. DocTestFinder finds a docstring
    once per name it is reachable by: an alias (``parse_cards = Cards.parse``) and Cython's
    ``__test__`` table (autotestdict), which repeats every core function's docstring, give
    second copies, dropped here (the function's own copy is kept)."""
    found = [t for t in doctest.DocTestFinder().find(module) if t.examples]
    found.sort(key=lambda t: ".__test__." in t.name)          # stable: own copies first
    unique: list[doctest.DocTest] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for test in found:
        if _key(test) not in seen:
            seen.add(_key(test))
            unique.append(test)
    return unique


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and not error.name.startswith(("tienlen", "reference")):
            pytest.skip(f"{name} needs the optional dependency {error.name}")
        raise


_IMPORTS = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", re.MULTILINE)


def _missing_imports(test: doctest.DocTest) -> set[str]:
    """The optional dependencies a docstring's examples import that are not installed (a
    module that imports torch lazily, such as tienlen.rl.dmc, shows it in its examples)."""
    names = {m.group(1) for e in test.examples for m in _IMPORTS.finditer(e.source)}
    return {n for n in names if not n.startswith(("tienlen", "reference"))
            and importlib.util.find_spec(n) is None}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = _import(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    missing: set[str] = set()
    for test in docstring_examples(module):
        lacking = _missing_imports(test)
        if lacking:
            missing |= lacking                 # run where the extra is installed
            continue
        runner.run(test, out=report.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}:\n{report.getvalue()}"
    if result.attempted == 0 and missing:
        pytest.skip(f"{name}'s examples need the optional dependency {', '.join(sorted(missing))}")
    assert result.attempted > 0 or name in WITHOUT_EXAMPLES


def test_each_example_is_collected_once() -> None:
    # Within a module, no docstring's examples are collected twice (Cython's __test__
    # copies carry no line number, so the examples themselves are compared); across
    # modules, no two collected docstrings start at the same file and line.
    seen: dict[tuple[str, int], str] = {}
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue                            # an optional dependency (see above)
        tests = docstring_examples(module)
        keys = [_key(t) for t in tests]
        assert len(keys) == len(set(keys)), f"{name}: a docstring's examples are collected twice"
        for test in tests:
            if test.lineno is not None:
                where = (str(test.filename), test.lineno)
                assert where not in seen, f"{test.name} repeats {seen[where]}"
                seen[where] = test.name


# Test files that run the examples of modules outside the package (the reference models in
# tests/, which the walk above does not reach).
OTHER_DOCTESTS = {"test_guandan_reference.py"}


def test_no_other_test_file_runs_docstring_examples() -> None:
    # A module's examples run from two test files run twice, for nothing.
    here = Path(__file__)
    for path in sorted(here.parent.parent.rglob("test_*.py")):
        if path == here or path.name in OTHER_DOCTESTS:
            continue
        assert "testmod(" not in path.read_text(encoding="utf-8"), (
            f"{path.name} runs docstring examples: the package's run in {here.name}, once "
            "(a module outside tienlen/ goes in OTHER_DOCTESTS)")
