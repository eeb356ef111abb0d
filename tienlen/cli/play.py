"""``tienlen play``: a match against bots in the terminal, or a seat of a ``tienlen serve``
table (``--connect``). The game comes from the registry (``--game``); its command line
module checks its own options (``play_settings``), and every game is played by the one
terminal session (:func:`tienlen.tui.session.play`) on the game's board, or on the
plain-text board for a game with none of its own."""

from __future__ import annotations

import argparse
from pathlib import Path

from tienlen.cli.common import (Subparsers, add_game_option, add_game_options, check_game_options,
                                count_type, levels_type, seed_type)
from tienlen.table.board import PlaySettings

__all__ = ["add", "run"]


def add(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play against bots in the terminal (Tiến Lên, or Guandan with --game guandan)",
        description=(
            "Play Tiến Lên against bots, or with --game guandan the Guandan (掼蛋) training "
            "mode: you and an AI partner against two AIs, from level 2 to A, with tribute. "
            "Type cards (3s 4s 5h, 10h, A♠) or their numbers under your hand (1 2 3); "
            "p passes, h suggests a move and y plays it (n declines), m lists your legal "
            "plays, ? shows every command, q quits. Guandan adds t (提示), the next play "
            "that beats the table, weakest first, and --lang zh for Chinese. Commands may "
            "also be piped in, one per line."
        ),
    )
    add_game_option(parser, "which game of the registry: tienlen, guandan, or any other "
                            "registered one, played on a plain-text board (default: "
                            "%(default)s)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                        help="Tiến Lên: players at the table, you included (default: 4; "
                             "Guandan is always four; another game: its own default)")
    parser.add_argument("--seat", type=int, default=0, metavar="N",
                        help="your seat, 0 to players-1 (Guandan: 0 to 3; default: "
                             "%(default)s)")
    parser.add_argument(
        "--bots", type=levels_type, default=None, metavar="LEVELS",
        help="the bots' levels, one per other seat in seat order or one for all. Tiến "
             "Lên: random, L1, L2, L3; Guandan: random, L1, L2, L3 or dmc:PATH for the three "
             "AIs (default: L2; another game: its hint level)")
    parser.add_argument("--seed", type=seed_type, metavar="N",
                        help="fix the deals and the bots' choices, L3's only with "
                             "--iterations (default: a fresh seed)")
    parser.add_argument("--hints", action=argparse.BooleanOptionalAction, default=True,
                        help="allow the h command to suggest moves (default: on; Guandan's "
                             "t 提示 works either way)")
    parser.add_argument("--ascii", action="store_true",
                        help="write cards as 3s 10h and draw with ASCII only")
    parser.add_argument("--save", type=Path, metavar="FILE",
                        help="Guandan: write the match's replay JSON to FILE. Tiến Lên: "
                             "write each hand's replay JSON: hand 1 to FILE, later hands "
                             "beside it, numbered (--save game.json writes game.json, "
                             "game-2.json, game-3.json ...); checked before the game starts")
    parser.add_argument("--iterations", type=count_type, default=None, metavar="N",
                        help="L3 opponents sample N deals per move instead of searching "
                             "for 50 ms, so that --seed replays their moves too")
    parser.add_argument("--fast", action="store_true",
                        help="no pause between the bots' moves")
    add_game_options(parser, "play")
    # (server: issue 27) play a seat of a `tienlen serve` table from this process.
    parser.add_argument("--connect", metavar="URL", default=None,
                        help="take a seat at a tienlen serve table: "
                             "ws://HOST:PORT/ws?table=ID&token=TOKEN (the token is secret)")
    parser.add_argument("--policy", choices=("first", "random"), default="first",
                        help="with --connect: play the first legal action (the core's lowest "
                             "play) or a random one (default: %(default)s)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tienlen play``: a match against bots until the player stops, on the one terminal
    session (:func:`tienlen.tui.session.play`)."""
    if getattr(args, "connect", None):
        from tienlen.client import run_connect

        return run_connect(args)
    check_game_options(args, "play")
    from tienlen.table.registry import get_cli
    from tienlen.tui.session import play
    from tienlen.tui.terminal import Terminal

    cli = get_cli(args.game)
    if cli is not None and hasattr(cli, "play_settings"):
        settings: PlaySettings = cli.play_settings(args)   # the game's own checks
    else:
        settings = _table_settings(args)
    return play(args.game, settings, Terminal())


def _table_settings(args: argparse.Namespace) -> PlaySettings:
    """``tienlen play --game NAME`` for a registered game with no options of its own: the
    plain-text board (:class:`tienlen.tui.plain.TableBoard`) saves nothing and has no L3."""
    for flag, value in (("--save", args.save), ("--iterations", args.iterations)):
        if value is not None:
            raise ValueError(f"{flag} is not an option of play --game {args.game}")
    return PlaySettings(seat=args.seat, levels=tuple(args.bots or ()), seed=args.seed,
                        hints=args.hints, fast=args.fast, options={"players": args.players})
