"""``tienlen rules``: a rules contract (RULES.md, or GUANDAN.md with ``--game guandan``),
rendered as terminal markdown."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rich.markdown import Markdown

from .terminal import Terminal

__all__ = ["GAMES", "rules_text", "show_rules"]

#: The rules contract of each game, by the name ``--game`` takes.
GAMES: dict[str, str] = {"tienlen": "RULES.md", "guandan": "GUANDAN.md"}


def rules_text(game: str = "tienlen") -> str:
    """The text of the game's rules contract (RULES.md for Tiến Lên, GUANDAN.md for Guandan).

    A source checkout (an editable install included) reads the file at the repository
    root, so an edit shows at once; an installed wheel carries a copy inside the package,
    which CMake installs next to the modules.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (expected one of: {', '.join(GAMES)})")
    name = GAMES[game]
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / name).is_file():
        return (root / name).read_text(encoding="utf-8")
    shipped = resources.files("tienlen").joinpath(name)
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    raise ValueError(f"{name} is missing from this installation")


def show_rules(terminal: Terminal, game: str = "tienlen") -> int:
    """Print the rules of ``game``; the exit status (0)."""
    terminal.print(Markdown(rules_text(game)))
    return 0
