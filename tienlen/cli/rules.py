"""``tienlen rules [--game NAME]``: the rules contract of a game, rendered as terminal
markdown through a pager on a terminal, printed when piped."""

from __future__ import annotations

import argparse

from tienlen.cli.common import Subparsers, add_game_option

__all__ = ["add", "run"]


def add(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="show the rules of the game",
        description=("Show the rules as tienlen plays them (RULES.md, or GUANDAN.md with "
                     "--game guandan), through a pager ($PAGER, else less) on a terminal, "
                     "printed when piped."),
    )
    add_game_option(parser, "whose rules (default: %(default)s)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tienlen rules [--game guandan]``: the rules contract rendered as terminal markdown."""
    from tienlen.tui.rules_view import show_rules
    from tienlen.tui.terminal import Terminal

    return show_rules(Terminal(), args.game)
