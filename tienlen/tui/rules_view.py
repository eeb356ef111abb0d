"""``tienlen rules``: a rules contract (RULES.md, or GUANDAN.md with ``--game guandan``),
rendered as terminal markdown.

Players see the rules; the notes for contributors (how rule labels map to test names),
kept in the contract's last section, are left out. On a terminal the text goes through a
pager, as ``man`` and ``git help`` do; piped, it is printed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from rich.markdown import Markdown

from .terminal import Terminal

__all__ = ["GAMES", "rules_text", "player_rules_text", "show_rules", "CONTRIBUTOR_HEADING"]

#: The heading of a contract's section for contributors, which players are not shown.
CONTRIBUTOR_HEADING = "## About this file"

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


def player_rules_text(game: str = "tienlen") -> str:
    """The game's rules contract without its section for contributors."""
    text = rules_text(game)
    cut = text.find("\n" + CONTRIBUTOR_HEADING)
    return text if cut < 0 else text[:cut].rstrip() + "\n"


def _pager_command() -> str | None:
    """``$PAGER`` if set (empty: no pager), else ``less`` when installed."""
    pager = os.environ.get("PAGER")
    if pager is not None:
        return pager.strip() or None
    return "less" if shutil.which("less") else None


def _page(text: str, command: str) -> bool:
    """Feed ``text`` to the pager ``command``; ``False`` if the pager could not run."""
    env = dict(os.environ)
    # less shows colour codes as text unless told -R; add it to the user's own options.
    env["LESS"] = (env.get("LESS", "") + " -R").strip()
    try:
        proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env,
                                encoding="utf-8", errors="replace")
    except OSError:
        return False
    try:
        with proc.stdin as pipe:  # type: ignore[union-attr]
            pipe.write(text)
    except (BrokenPipeError, OSError):
        pass  # the reader quit the pager before the end: fine
    while True:
        try:
            status = proc.wait()
            break
        except KeyboardInterrupt:
            continue  # the pager owns the terminal until it exits, as pydoc does it
    return status != 127  # 127: the shell found no such command


def show_rules(terminal: Terminal, game: str = "tienlen") -> int:
    """Show the rules of ``game`` (paged on a terminal); the exit status (0)."""
    rules = Markdown(player_rules_text(game))
    command = _pager_command() if terminal.interactive else None
    if command is not None:
        with terminal.console.capture() as capture:
            terminal.console.print(rules)
        if _page(capture.get(), command):
            return 0
    terminal.print(rules)
    return 0
