"""The README's examples are run as doctests, so the first thing a newcomer reads is true."""

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run_and_print_what_they_claim() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


def test_readme_opens_with_the_install_and_test_commands() -> None:
    head = README.read_text(encoding="utf-8").splitlines()[:6]
    text = "\n".join(head)
    assert "pip install -e . && tienlen play" in text
    assert 'pip install -e ".[test]" && python -m pytest' in text
