"""``tienlen rules``: the rules contract, RULES.md, rendered as terminal markdown."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rich.markdown import Markdown

from .terminal import Terminal

__all__ = ["rules_text", "show_rules"]


def rules_text() -> str:
    """The text of RULES.md.

    A source checkout (an editable install included) reads the file at the repository
    root, so an edit shows at once; an installed wheel carries a copy inside the package,
    which CMake installs next to the modules.
    """
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "RULES.md").is_file():
        return (root / "RULES.md").read_text(encoding="utf-8")
    shipped = resources.files("tienlen").joinpath("RULES.md")
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    raise ValueError("RULES.md is missing from this installation")


def show_rules(terminal: Terminal) -> int:
    """Print the rules; the exit status (0)."""
    terminal.print(Markdown(rules_text()))
    return 0
