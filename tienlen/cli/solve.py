"""``tienlen solve --hands ...``: an endgame with every hand known, solved exactly by the
game's core (Tiến Lên's): the value and the winning line."""

from __future__ import annotations

import argparse

from tienlen.cli.common import Subparsers, add_game_option, add_game_options, check_game_options

__all__ = ["add", "run"]


def add(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve an endgame with every hand known (Tiến Lên)",
        description=(
            "Does the seat to act (or --seat) go out first by force? Give every hand, one "
            "argument per seat (2-4). With two players the answer is exact; with more, the "
            "others are taken to play together against the seat. Prints the winning line."
        ),
    )
    parser.add_argument("--hands", nargs="+", required=True, metavar="HAND",
                        help='one quoted hand per seat, e.g. --hands "3s 2h" "2d"')
    parser.add_argument("--pile", metavar="CARDS",
                        help="the combination on the pile (default: the seat to act leads)")
    parser.add_argument("--owner", type=int, metavar="SEAT",
                        help="who played the pile (default: the seat before the one to act)")
    parser.add_argument("--turn", type=int, default=0, metavar="N",
                        help="the seat to act (default: 0)")
    parser.add_argument("--seat", type=int, metavar="N",
                        help="the seat asked about (default: the seat to act)")
    parser.add_argument("--max-ms", type=int, default=10_000, metavar="MS",
                        help="give up (unknown) after this many milliseconds (default: %(default)s)")
    parser.add_argument(
        "--ascii", action="store_true", help="write cards as 3s 10h rather than 3♠ 10♥"
    )
    add_game_option(parser, "which game (default: %(default)s; Tiến Lên's core solves)")
    add_game_options(parser, "solve")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tienlen solve``: the solver's value and principal line, one move a line."""
    check_game_options(args, "solve")
    from tienlen.table.registry import get_cli

    cli = get_cli(args.game)
    if cli is None or not hasattr(cli, "run_solve"):
        raise ValueError(f"solve is not available for --game {args.game}")
    status: int = cli.run_solve(args)
    return status
