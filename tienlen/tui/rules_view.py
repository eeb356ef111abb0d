"""``tienlen rules``: a rules contract (each game's ``rules_file``: RULES.md, GUANDAN.md),
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

from tienlen.table.registry import DEFAULT_GAME, get_spec

from .terminal import Terminal

__all__ = ["rules_text", "player_rules_text", "show_rules", "CONTRIBUTOR_HEADING"]

#: The heading of a contract's section for contributors, which players are not shown.
CONTRIBUTOR_HEADING = "## About this file"


def __getattr__(name: str) -> object:
    if name == "GAMES":     # the table of contracts by game, before each spec said its own
        import warnings

        from tienlen.table.registry import spec_names

        warnings.warn("tienlen.tui.rules_view.GAMES is deprecated: use the game's spec "
                      "(tienlen.table.get_spec(game).rules_file)", DeprecationWarning,
                      stacklevel=2)
        return {game: _contract_file(game) for game in spec_names()
                if getattr(get_spec(game), "rules_file", None)}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _contract_file(game: str) -> str:
    """The file name of ``game``'s rules contract, as its spec declares it
    (``rules_file``)."""
    try:
        spec = get_spec(game)
    except ValueError:
        raise ValueError(f"unknown game {game!r:.40}") from None
    name = getattr(spec, "rules_file", None)
    if not name:
        raise ValueError(f"the game {game!r:.40} has no rules contract to show")
    return str(name)


def rules_text(game: str = DEFAULT_GAME) -> str:
    """The text of the game's rules contract (RULES.md for Tiến Lên, GUANDAN.md for Guandan).

    A source checkout (an editable install included) reads the file at the repository
    root, so an edit shows at once; an installed wheel carries a copy inside the package,
    which CMake installs next to the modules.
    """
    name = _contract_file(game)
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / name).is_file():
        return (root / name).read_text(encoding="utf-8")
    shipped = resources.files("tienlen").joinpath(name)
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    raise ValueError(f"{name} is missing from this installation")


def player_rules_text(game: str = DEFAULT_GAME) -> str:
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


def show_rules(terminal: Terminal, game: str = DEFAULT_GAME) -> int:
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
