"""``tienlen``: the parser of every subcommand, and the one place that turns an error into a
one-line message and an exit status.

Each subcommand is a module of this package (:mod:`.play`, :mod:`.sim`, :mod:`.replay`,
:mod:`.review`, :mod:`.moves`, :mod:`.solve`, :mod:`.rules`, :mod:`.serve`,
:mod:`.train`) with ``add(subparsers)``; a
subcommand takes the game with ``--game`` and asks the registry for it, so no module here
imports a game.

>>> main(["moves", "2s 2h", "--ascii"])
hand: 2s 2h (2 cards)
pile: empty (leading)
singles (2):
  2s
  2h
pairs (1):
  2s 2h
total: 3 legal plays
0
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tienlen.cli import (moves, play, replay, review, rules, serve, sim, solve, tournament,
                         train)
from tienlen.cli.common import EXIT_INTERRUPTED, EXIT_USAGE, PROG

__all__ = ["build_parser", "main"]

# Each module adds one subcommand whose parser sets ``run`` (Namespace -> exit status).
_SUBCOMMANDS = (play, sim, replay, review, moves, solve, rules, serve, tournament, train)


def _version() -> str:
    import tienlen

    return tienlen.__version__      # the package metadata's (tienlen/__init__.py)


def build_parser() -> argparse.ArgumentParser:
    """The ``tienlen`` argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Tiến Lên (Thirteen) and Guandan (掼蛋): play them in the terminal or the "
                    "browser, run bot tournaments, list legal moves.",
        epilog="examples:\n"
               "  tienlen play                     play Tiến Lên against three bots\n"
               "  tienlen play --game guandan      Guandan's training mode, with an AI partner\n"
               "  tienlen rules [--game guandan]   read the rules\n"
               "  tienlen review game.json         the mistakes of a saved hand, priced\n"
               "  tienlen sim --bots L2,L1         bots against bots, with statistics\n"
               "  tienlen serve                    the training room in the browser\n"
               "  tienlen tournament --agent 'me=python agent.py {url}' --bots L1,L2\n"
               "                                   your agent against our bots, rated\n"
               "  tienlen train --out DIR          train a bot by self-play ([train] extra)\n"
               "  tienlen COMMAND --help           one command's options",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for subcommand in _SUBCOMMANDS:
        subcommand.add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        # argparse exits for --help, --version and its own usage errors (status 2).
        return 0 if exit_.code is None else int(exit_.code)
    if args.command is None:
        # No subcommand: show what there is to do rather than a one-line usage error.
        parser.print_help()
        return EXIT_USAGE
    try:
        status: int = args.run(args)
        return status
    except ValueError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        # Ctrl-C is a normal way to leave a game: no traceback, the shell's usual status.
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader (say `| head`) left. Point stdout at devnull so that the flush at
        # interpreter exit does not raise a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
