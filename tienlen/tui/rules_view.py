"""``tienlen rules``: the rules contract, RULES.md, rendered as terminal markdown."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rich.markdown import Markdown

from .terminal import Terminal

__all__ = ["rules_text", "show_rules"]


def rules_text() -> str:
    """The text of RULES.md.

    An installed wheel carries it inside the package (CMake installs it next to the
    modules); a source checkout has it at the repository root, one level above.
    """
    shipped = resources.files("tienlen").joinpath("RULES.md")
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "RULES.md"
    try:
        return checkout.read_text(encoding="utf-8")
    except OSError:
        raise ValueError("RULES.md is missing from this installation") from None


def show_rules(terminal: Terminal) -> int:
    """Print the rules; the exit status (0)."""
    terminal.print(Markdown(rules_text()))
    return 0
