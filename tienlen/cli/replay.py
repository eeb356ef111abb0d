"""``tienlen replay FILE``: a saved hand or match of any game, checked action by action
against the rules, then shown as the game's screen shows it. The file's ``schema`` names
its game: each game's command line module lists the schemas it reads (``REPLAY_SCHEMAS``)
and checks its own options (``replay_settings``); the one terminal session shows it on the
game's board."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tienlen.cli.common import Subparsers, add_game_options

__all__ = ["add", "run", "game_of_file"]

# The schema field near the top of a saved file; the game's own reader then checks it all.
_SCHEMA = re.compile(rb'"schema"\s*:\s*"([A-Za-z0-9_.]{1,64})"')
_HEAD = 4096


def add(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a saved hand or match, action by action",
        description=(
            "Replay a hand or match saved by tienlen play --save (or Game.to_json / "
            "Match.to_json, either game), checking every action against the rules. A file "
            "that does not replay is reported with the first bad field or action, and exit "
            "status 2."
        ),
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="the replay JSON")
    parser.add_argument("--step", action="store_true", help="wait for Enter after each action")
    parser.add_argument("--fast", action="store_true", help="no pause between actions")
    parser.add_argument("--ascii", action="store_true",
                        help="write cards as 3s 10h and draw with ASCII only")
    add_game_options(parser, "replay")
    parser.set_defaults(run=run)


def game_of_file(path: Path) -> str:
    """The registered game whose files carry the schema that ``path`` names (the package's
    default game when the file names none that a game reads: its reader then says what is
    wrong)."""
    from tienlen.table.registry import DEFAULT_GAME, get_cli, spec_names

    try:
        with open(path, "rb") as file:
            head = file.read(_HEAD)
    except OSError:
        return DEFAULT_GAME          # the game's reader reports the error in its words
    found = _SCHEMA.search(head)
    if found is not None:
        schema = found.group(1).decode("ascii")
        for name in spec_names():
            cli = get_cli(name)
            if cli is not None and schema in getattr(cli, "REPLAY_SCHEMAS", ()):
                return name
    return DEFAULT_GAME


def run(args: argparse.Namespace) -> int:
    """``tienlen replay``: verify a replay file, then show it action by action on the one
    terminal session (:func:`tienlen.tui.session.replay`)."""
    from tienlen.table.board import ReplaySettings
    from tienlen.table.registry import get_cli
    from tienlen.tui.session import replay
    from tienlen.tui.terminal import Terminal

    game = game_of_file(args.file)
    cli = get_cli(game)
    if cli is not None and hasattr(cli, "replay_settings"):
        settings: ReplaySettings = cli.replay_settings(args)   # the game's own options
    else:
        settings = ReplaySettings(step=args.step, fast=args.fast)
    return replay(game, args.file, settings, Terminal())
