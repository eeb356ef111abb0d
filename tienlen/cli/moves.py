"""``tienlen moves HAND [--pile CARDS] [--game NAME]``: the legal plays from a hand, grouped
by kind, then the total; the game's command line module lists them in its own words."""

from __future__ import annotations

import argparse

from tienlen.cli.common import Subparsers, add_game_option, add_game_options, check_game_options

__all__ = ["add", "run"]


def add(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "moves",
        help="list the legal plays from a hand",
        description=(
            "List every legal play from HAND, grouped by kind. Cards are written like "
            "3s 10h Td A♠ 2♥, separated by spaces or commas."
        ),
    )
    parser.add_argument(
        "hand", nargs="+", metavar="HAND", help='the hand, e.g. "3s 4c 10h" or 3s 4c 10h'
    )
    parser.add_argument(
        "--pile", metavar="CARDS", help="the combination on top of the pile (default: a lead)"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="write cards as 3s 10h rather than 3♠ 10♥"
    )
    add_game_option(parser, "which game (default: %(default)s)")
    add_game_options(parser, "moves")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tienlen moves``: the game's legal plays."""
    check_game_options(args, "moves")
    from tienlen.table.registry import get_cli

    cli = get_cli(args.game)
    if cli is None or not hasattr(cli, "run_moves"):
        raise ValueError(f"moves is not available for --game {args.game}")
    status: int = cli.run_moves(args)
    return status
