"""The README's examples, and those of every other Markdown page of the API reference site, are run
as doctests, so the first thing a newcomer reads is true."""

import doctest
from pathlib import Path

import pytest

from paths import REPO

README = REPO / "README.md"


def test_readme_examples_run_and_print_what_they_claim() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


# The other Markdown pages of the API reference site (docs/conf.py reads docs/*.md and, as
# pages, the repository's own Markdown files): an example written on any of them runs here
# too, so the site shows only examples that hold (the docstrings' run in test_doctests.py).
REPO = README.parent
SITE_PAGES = sorted({*REPO.glob("*.md"), *(REPO / "docs").glob("*.md"), *(REPO / "bench").glob("*.md"),
                     *(REPO / "src").rglob("*.md")} - {README})


@pytest.mark.parametrize("page", SITE_PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_site_page_examples_hold(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {page}"


def test_site_pages_include_the_docs_folder_and_the_contracts() -> None:
    names = {str(p.relative_to(REPO)) for p in SITE_PAGES}
    assert {"RULES.md", "GUANDAN.md", "CHANGELOG.md", "docs/rl.md", "src/README.md"} <= names


def test_readme_opens_with_the_install_and_test_commands() -> None:
    head = README.read_text(encoding="utf-8").splitlines()[:6]
    text = "\n".join(head)
    assert "pip install -e . && tienlen play" in text
    assert 'pip install -e ".[test]" && python -m pytest' in text


def test_readme_names_guandan_in_its_first_lines() -> None:
    """Issue 28 #16: a newcomer who came for Guandan found ``--game guandan`` only further
    down. The two required commands stay the code block's first two lines; Guandan's is the
    third."""
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```bash") + 1:]
    block = block[:block.index("```")]
    assert block[0].startswith("pip install -e . && tienlen play ")
    assert block[1].startswith('pip install -e ".[test]" && python -m pytest ')
    assert block[2].startswith("tienlen play --game guandan ")
    assert lines.index("```bash") < 3


# --- the sample game -------------------------------------------------------------------

SAMPLE = REPO / "docs" / "play-screen.txt"
SAMPLE_COMMAND = "$ tienlen play --seed 4"
# What the sample types: list the moves, play #1 (3♠), then, facing the pile, a card that
# does not beat it and a request for a hint.
SAMPLE_INPUT = ("m", "#1", "4c", "h")


def sample_game() -> str:
    """The screen of ``tienlen play --seed 4`` after SAMPLE_INPUT, from a real run in an
    80-column pseudo-terminal (the screen since its last redraw, colours stripped)."""
    import sys

    import pexpect

    from test_cli_play import CLEAR, child_env, strip

    child = pexpect.spawn(sys.executable, ["-m", "tienlen", "play", "--seed", "4", "--fast"],
                          env=child_env(), dimensions=(50, 80), encoding="utf-8", timeout=60)
    raw = ""
    child.expect("Your move> ")
    raw += child.before + child.after
    for line in SAMPLE_INPUT:
        child.sendline(line)
        child.expect("Your move> ")
        raw += child.before + child.after
    child.sendline("q")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    screen = strip(raw.rsplit(CLEAR, 1)[-1])
    lines = [line.rstrip() for line in screen.splitlines()]
    return "\n".join([SAMPLE_COMMAND, *lines]).rstrip() + "\n"


def _readme_sample(text: str) -> str:
    start = text.index("```\n" + SAMPLE_COMMAND + "\n") + 4
    return text[start:text.index("```", start)]


def test_the_sample_game_in_readme_and_docs_is_a_real_run() -> None:
    """Issue 11 #12: the sample showed a hint the game no longer gave. It is regenerated
    here from a seeded run; ``TIENLEN_UPDATE_DOCS=1`` rewrites both copies."""
    import os

    fresh = sample_game()
    assert "Hint: " in fresh and "does not beat" in fresh  # the run reached its point
    readme = README.read_text(encoding="utf-8")
    if os.environ.get("TIENLEN_UPDATE_DOCS") == "1":
        SAMPLE.write_text(fresh, encoding="utf-8")
        README.write_text(readme.replace(_readme_sample(readme), fresh), encoding="utf-8")
        readme = README.read_text(encoding="utf-8")
    hint = "regenerate with TIENLEN_UPDATE_DOCS=1 python -m pytest tests/test_readme.py"
    assert SAMPLE.read_text(encoding="utf-8") == fresh, hint
    assert _readme_sample(readme) == fresh, hint
