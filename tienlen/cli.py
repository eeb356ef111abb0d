"""The ``tienlen`` command line: one function per subcommand, registered with argparse.

The CLI parses and renders; every rule question goes to the library. Bad input is
reported as one line, ``tienlen: error: ...``, with exit status 2.

>>> main(["moves", "3s 3c 4d 5h", "--pile", "3d", "--ascii"])
hand: 3s 3c 4d 5h (4 cards)
pile: single 3d
singles (2):
  4d
  5h
total: 2 legal plays
0
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeAlias, TypeVar

from .cards import Card, Cards
from .cli_shared import symbols_fit, use_ascii, writable_file
from .combos import Combo, Kind, classify, legal_moves
from .errors import CardParseError
from .rules import Rules

__all__ = ["main", "build_parser", "add_rules_option", "rules_from_args"]

PROG = "tienlen"
EXIT_USAGE = 2
# 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C.
EXIT_INTERRUPTED = 130

T = TypeVar("T")
# A string: argparse's action class is generic only to type checkers.
_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def _version() -> str:
    import tienlen

    return tienlen.__version__      # the package metadata's (tienlen/__init__.py)


def _parse_arg(what: str, parse: Callable[[str], T], text: str) -> T:
    """``parse(text)``, with a parse error saying which argument was wrong."""
    try:
        return parse(text)
    except CardParseError as error:
        raise CardParseError(f"{what}: {error}", error.token) from None


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


# The shared front-end helpers (tienlen.cli_shared), under the names this module used.
_symbols_fit = symbols_fit
_use_ascii = use_ascii
_writable_file = writable_file


# --- tienlen moves -------------------------------------------------------------------


def _add_moves(subparsers: _Subparsers) -> None:
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
        "--locked-out",
        action="store_true",
        help="the player passed earlier in this pile: only the bombs the rules allow out "
             "of turn, on what they cut (R5.2; under southern, R11.2)",
    )
    parser.add_argument(
        "--must-include", metavar="CARD", help="a card every play must contain (R7.2)"
    )
    add_rules_option(parser)
    parser.add_argument(
        "--ascii", action="store_true", help="write cards as 3s 10h rather than 3♠ 10♥"
    )
    _add_guandan_options(parser, moves=True)
    parser.set_defaults(run=run_moves)


def run_moves(args: argparse.Namespace) -> int:
    """``tienlen moves``: print the legal plays grouped by kind, then the total."""
    rules = rules_from_args(args)
    if getattr(args, "game", "tienlen") == "guandan":
        from .guandan import cli as guandan_cli

        return guandan_cli.run_moves(args)
    hand = _parse_arg("hand", Cards.parse, " ".join(args.hand))
    if not hand:
        raise ValueError("hand: no cards given")
    pile: Combo | None = None
    if args.pile is not None:
        pile_cards = _parse_arg("--pile", Cards.parse, args.pile)
        if not pile_cards:
            raise ValueError("--pile: no cards given (leave --pile out for a lead)")
        pile = classify(pile_cards, rules)
        if pile is None:
            raise ValueError(f"--pile: not a combination under {rules.name} rules: {pile_cards}")
    if args.locked_out and pile is None:
        raise ValueError("--locked-out needs --pile: a player is locked out only while a "
                         "pile is in play (R5.2), never on a lead")
    must_include: Card | None = None
    if args.must_include is not None:
        must_include = _parse_arg("--must-include", Card.parse, args.must_include)
    moves = legal_moves(
        hand, pile, rules=rules, locked_out=args.locked_out, must_include=must_include
    )

    spec = "a" if args.ascii or not _symbols_fit(sys.stdout) else ""
    lines = [f"hand: {hand:{spec}} ({_plural(len(hand), 'card')})"]
    lines.append(f"pile: {pile:{spec}}" if pile else "pile: empty (leading)")
    if must_include is not None:
        lines.append(f"must include: {must_include:{spec}}")
    if args.locked_out:
        lines.append("locked out: only bombs on a combination of 2s" if rules.out_of_turn
                     == Rules().out_of_turn and rules.cuts == Rules().cuts else
                     "locked out: only out-of-turn bombs ("
                     + ", ".join(sorted(rules.out_of_turn)) + ") on what they cut")
    if rules != Rules():
        lines.append(f"rules: {rules.name}")
    groups: dict[Kind, list[Cards]] = {}
    for move in moves:
        # Every move is a combination by construction; classify only names its kind.
        groups.setdefault(classify(move, rules).kind, []).append(move)  # type: ignore[union-attr]
    for kind, plays in groups.items():
        lines.append(f"{kind.label}s ({len(plays)}):")
        lines.extend(f"  {play:{spec}}" for play in plays)
    if not moves:
        # Only a player facing a pile may pass; a lead with no play breaks a rule of the
        # position given (a --must-include card not in the hand).
        lines.append("no legal plays: pass" if pile is not None else "no legal plays")
    lines.append(f"total: {_plural(len(moves), 'legal play')}")
    print("\n".join(lines))
    return 0


# --- shared options --------------------------------------------------------------------


def _seed(text: str) -> int:
    """An argparse type for seeds: a non-negative integer (range checks are the game's)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {value}")
    return value


def _levels(text: str) -> list[str]:
    """``"L1,L2"`` -> ``["L1", "L2"]``; the bot factory checks the names."""
    levels = [part.strip() for part in text.split(",")]
    if not all(levels):
        raise argparse.ArgumentTypeError(f"expected levels separated by commas, got {text!r}")
    return levels


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME``, the one definition every Tiến Lên command shares: a preset of
    :class:`~tienlen.rules.Rules` (read back with ``Rules.from_name(args.rules)``)."""
    parser.add_argument(
        "--rules", choices=Rules.NAMES, default="default", metavar="NAME",
        help=f"ruleset: {', '.join(Rules.NAMES)} (default: %(default)s; southern is "
             "Tiến Lên Miền Nam, RULES.md R11: chặt, instant wins, penalties)")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`~tienlen.rules.Rules` that ``--rules`` names. Guandan has rules of its
    own, so a Tiến Lên ruleset with ``--game guandan`` is refused rather than ignored."""
    name = getattr(args, "rules", "default")
    if getattr(args, "game", "tienlen") == "guandan" and name != "default":
        raise ValueError(f"--rules {name} is a Tiến Lên ruleset; Guandan has its own "
                         "(GUANDAN.md): leave --rules out with --game guandan")
    return Rules.from_name(name)


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    add_rules_option(parser)
    parser.add_argument("--seed", type=_seed, metavar="N",
                        help="fix the deals and the bots' choices, L3's only with "
                             "--iterations (default: a fresh seed)")


# --- tienlen play --------------------------------------------------------------------


def _add_play(subparsers: _Subparsers) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play against bots in the terminal",
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
    parser.add_argument("--game", type=_registered_game, default="tienlen", metavar="GAME",
                        help="which game of the registry: tienlen, guandan, or any other "
                             "registered one, played on a plain-text board (default: "
                             "%(default)s)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                        help="Tiến Lên: players at the table, you included (default: 4; "
                             "Guandan is always four; another game: its own default)")
    parser.add_argument("--seat", type=int, default=0, metavar="N",
                        help="your seat, 0 to players-1 (Guandan: 0 to 3; default: "
                             "%(default)s)")
    parser.add_argument(
        "--bots", type=_levels, default=None, metavar="LEVELS",
        help="the bots' levels, one per other seat in seat order or one for all. Tiến "
             "Lên: random, L1, L2, L3; Guandan: random, L1, L2, L3 or dmc:PATH for the three "
             "AIs (default: L2; another game: its hint level)")
    _add_game_options(parser)
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
    parser.add_argument("--iterations", type=_count, default=None, metavar="N",
                        help="L3 opponents sample N deals per move instead of searching "
                             "for 50 ms, so that --seed replays their moves too")
    parser.add_argument("--fast", action="store_true",
                        help="no pause between the bots' moves")
    _add_guandan_options(parser)
    # (server: issue 27) play a seat of a `tienlen serve` table from this process.
    parser.add_argument("--connect", metavar="URL", default=None,
                        help="take a seat at a tienlen serve table: "
                             "ws://HOST:PORT/ws?table=ID&token=TOKEN (the token is secret)")
    parser.add_argument("--policy", choices=("first", "random"), default="first",
                        help="with --connect: play the first legal action (the core's lowest "
                             "play) or a random one (default: %(default)s)")
    parser.set_defaults(run=run_play)


def run_play(args: argparse.Namespace) -> int:
    """``tienlen play``: a match against bots until the player stops."""
    if getattr(args, "connect", None):
        from .client import run_connect

        return run_connect(args)
    rules = rules_from_args(args)
    game = getattr(args, "game", "tienlen")
    if game not in ("tienlen", "guandan"):
        return _run_table_play(args)
    args.players = 4 if getattr(args, "players", None) is None else args.players
    args.bots = getattr(args, "bots", None) or ["L2"]
    if game == "guandan":
        from .guandan import cli as guandan_cli

        return guandan_cli.run_play(args)
    from .tui.play import PlayOptions, PlaySession
    from .tui.render import Style
    from .tui.terminal import Terminal

    levels = args.bots * (args.players - 1) if len(args.bots) == 1 else args.bots
    if args.iterations is not None and not any(_is_l3(level) for level in levels):
        raise ValueError("--iterations sets L3's search, and no L3 opponent plays")
    if args.save is not None:
        _writable_file(args.save, "--save")
    options = PlayOptions(
        players=args.players,
        seat=args.seat,
        levels=tuple(levels),
        seed=args.seed,
        rules=rules,
        hints=args.hints,
        style=Style(ascii=_use_ascii(args)),
        save=args.save,
        fast=args.fast,
        iterations=args.iterations,
    )
    return PlaySession(options, Terminal()).run()


def _run_table_play(args: argparse.Namespace) -> int:
    """``tienlen play --game NAME`` for a registered game with no screen of its own: the one
    terminal session on the table protocol (:class:`tienlen.tui.session.TableSession`)."""
    from .seeds import seed_or_fresh
    from .tui.session import TableSession
    from .tui.terminal import Terminal

    for flag, value in (("--save", args.save), ("--iterations", args.iterations)):
        if value is not None:
            raise ValueError(f"{flag} is not an option of play --game {args.game}")
    session = TableSession(args.game, Terminal(), seat=args.seat, levels=args.bots or (),
                           seed=seed_or_fresh(args.seed), players=args.players)
    return session.run()


# --- tienlen sim ---------------------------------------------------------------------


def _add_sim(subparsers: _Subparsers) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="bots against bots: many hands, with statistics",
        description=(
            "Play many hands between bots (each deal once per seat rotation, so luck "
            "cancels out) and print, per bot, the first-place rate, mean place and "
            "last-place rate with 95% confidence intervals, and the time per decision. "
            "Reproducible: the same --seed gives the same results on any machine and any "
            "--jobs, except when L3 plays on its default time budget (50 ms a move, so its "
            "moves depend on the machine's speed and load); give --iterations N to make "
            "L3 runs reproducible too. Ctrl-C stops the run and prints the results of the "
            "deals completed so far. With --game guandan, --bots names two teams (team A, "
            "then team B, e.g. L3,L2) and every board is played twice, team A in seats 0 "
            "and 2, then in 1 and 3: --matches N whole matches or --hands N first hands, "
            "with per-team results and paired z-tests (p-values from 30 boards)."
        ),
    )
    parser.add_argument(
        "--bots", type=_levels, default=None, metavar="LEVELS",
        help="Tiến Lên: one level per seat, from random, L1, L2, L3, or one level for "
             "every seat (default: L3,L2,L2,L2, cut to --players); Guandan: two levels "
             "from L1, L2, L3, team A then team B (default: L2,L1)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                        help="Tiến Lên: seats (default: one per level in --bots, else 4)")
    parser.add_argument("--games", type=_count, default=None, metavar="N",
                        help=f"Tiến Lên: hands to play, a multiple of the players (default: "
                             f"{_DEFAULT_GAMES} rounded down to one: {_DEFAULT_GAMES} with 2 "
                             f"or 4 players, {_default_games(3)} with 3)")
    parser.add_argument("--iterations", type=_count, default=None, metavar="N",
                        help="L3 samples N deals per move instead of searching for 50 ms: "
                             "slower or faster, but reproducible from --seed")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="worker processes (default: %(default)s)")
    add_rules_option(parser)
    parser.add_argument("--seed", type=_seed, default=0, metavar="N",
                        help="fixes every deal and every bot's choices, L3's only with "
                             "--iterations (default: %(default)s)")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (checked before the "
                             "run starts)")
    # Issue 15: clusters, streaming and resuming (tienlen.scale, tienlen.results).
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play on a Dask cluster (any game): tcp://HOST:PORT of a running "
                             "scheduler, or local:N for N local worker processes "
                             '(needs pip install "tienlen[dask]")')
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="write every game as it completes to FILE.jsonl (JSON lines) "
                             "or FILE.parquet (a Parquet dataset, needs pyarrow), for "
                             "every --game")
    parser.add_argument("--resume", action="store_true",
                        help="continue the interrupted run in --out (any game), playing "
                             "only the games not on file (the same lineup, seed and rules)")
    parser.add_argument("--unit-games", type=int, metavar="N",
                        help="games per work unit (default: thousands for fast bots, "
                             "fewer for slow ones); never changes the results")
    parser.add_argument("--game", type=_registered_game, default="tienlen", metavar="GAME",
                        help="which game: tienlen, guandan, or any game registered with "
                             "tienlen.table.register (default: %(default)s)")
    _add_guandan_options(parser, sim=True)
    parser.set_defaults(run=run_sim)


_DEFAULT_LINEUP = ("L3", "L2", "L2", "L2")
_DEFAULT_GAMES = 100


def _default_games(players: int) -> int:
    """The default --games: the most whole seat rotations within ``_DEFAULT_GAMES``."""
    return _DEFAULT_GAMES - _DEFAULT_GAMES % players


def _count(text: str) -> int:
    """An argparse type for counts: a positive integer (upper limits are the library's)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {value}")
    return value


def _is_l3(level: str) -> bool:
    return level.lower() == "l3"


@contextlib.contextmanager
def _sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM (what a batch system or service manager sends to stop a job) raises
    KeyboardInterrupt here, like Ctrl-C: the run stops its workers, keeps the games of
    complete units and says how to resume, instead of dying at once and leaving its
    worker processes behind. Only from the main thread, where signal handlers live."""
    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_sim(args: argparse.Namespace) -> int:
    """``tienlen sim``: run the arena with a progress bar, then print the results table.
    SIGTERM stops it as Ctrl-C does."""
    with _sigterm_as_ctrl_c():
        return _run_sim(args)


def _run_sim(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if getattr(args, "game", "tienlen") == "guandan":
        from .guandan import cli as guandan_cli

        return guandan_cli.run_sim(args)
    if getattr(args, "game", "tienlen") != "tienlen":
        return _run_table_sim(args)
    import functools

    from .bots import make_bot
    from .tui.sim_view import run_simulation
    from .tui.terminal import Terminal

    levels: list[str] = args.bots if args.bots is not None else []
    players = args.players
    if players is None:
        players = len(levels) if len(levels) > 1 else 4
    if not levels:
        levels = list(_DEFAULT_LINEUP[:players])
    elif len(levels) == 1:
        levels = levels * players
    elif len(levels) != players:
        raise ValueError(f"--bots names {len(levels)} levels but --players is {players}: "
                         "give one level per seat, or one for all")
    if args.iterations is not None and not any(_is_l3(level) for level in levels):
        raise ValueError("--iterations sets L3's search, and no L3 plays in this lineup")
    if args.json is not None:
        _writable_file(args.json, "--json")
    games = args.games if args.games is not None else _default_games(players)
    lineup = [functools.partial(make_bot, "L3", iterations=args.iterations)
              if args.iterations is not None and _is_l3(level) else level for level in levels]
    if args.scheduler or args.out or args.resume or args.unit_games:
        from .scale import sim_options

        with sim_options(lineup=lineup, games=games, players=players, seed=args.seed,
                         rules=rules, jobs=args.jobs, scheduler=args.scheduler,
                         out=args.out, resume=args.resume,
                         unit_games=args.unit_games) as options:
            return run_simulation(Terminal(), lineup, games=games, players=players,
                                  seed=args.seed, jobs=args.jobs, rules=rules,
                                  json_path=args.json, labels=levels,
                                  iterations=args.iterations, arena_options=options)
    return run_simulation(
        Terminal(),
        lineup,
        games=games,
        players=players,
        seed=args.seed,
        jobs=args.jobs,
        rules=rules,
        json_path=args.json,
        labels=levels,
        iterations=args.iterations,
    )


def _registered_game(text: str) -> str:
    """An argparse type: the name of a game in the table registry."""
    from .table import spec_names

    if text not in spec_names():
        raise argparse.ArgumentTypeError(f"unknown game {text!r:.40}; choose from "
                                         f"{', '.join(spec_names())}")
    return text


def _run_table_sim(args: argparse.Namespace) -> int:
    """``tienlen sim --game NAME`` for a registered game with no arena of its own: the
    generic arena (:func:`tienlen.table.arena.run_table`, seat rotations), with the same
    progress bar, Ctrl-C, --out/--resume/--scheduler/--unit-games and --json."""
    from .table import get_spec
    from .table.arena import table_work
    from .tui.sim_view import run_simulation
    from .tui.terminal import Terminal

    spec = get_spec(args.game)
    if getattr(args, "rules", "default") != "default":
        raise ValueError(f"--rules names a Tiến Lên ruleset: leave it out with --game {args.game}")
    for flag, value in (("--iterations", args.iterations), ("--matches", args.matches),
                        ("--hands", args.hands), ("--hand-cap", args.hand_cap)):
        if value is not None:
            raise ValueError(f"{flag} is not an option of sim --game {args.game}")
    levels: list[str] = args.bots if args.bots is not None else []
    players = args.players
    if players is None:
        players = len(levels) if len(levels) > 1 else spec.player_counts[-1]
    if not levels:
        levels = [spec.bot_levels[-1]] * players
    elif len(levels) == 1:
        levels = levels * players
    if args.json is not None:
        _writable_file(args.json, "--json")
    games = args.games if args.games is not None else _default_games(players)
    work, _ = table_work(args.game, levels, games, players=players, seed=args.seed)
    rules = rules_from_args(args)
    if args.scheduler or args.out or args.resume or args.unit_games:
        from .scale import sim_options

        with sim_options(lineup=levels, games=games, players=players, seed=args.seed,
                         rules=rules, jobs=args.jobs, scheduler=args.scheduler,
                         out=args.out, resume=args.resume, unit_games=args.unit_games,
                         game=args.game, names=work.names) as options:
            return run_simulation(Terminal(), levels, games=games, players=players,
                                  seed=args.seed, jobs=args.jobs, rules=rules,
                                  json_path=args.json, labels=levels, arena_options=options,
                                  game=args.game)
    return run_simulation(Terminal(), levels, games=games, players=players, seed=args.seed,
                          jobs=args.jobs, rules=rules, json_path=args.json, labels=levels,
                          game=args.game)


# --- tienlen replay ------------------------------------------------------------------


def _add_replay(subparsers: _Subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a saved hand, action by action",
        description=(
            "Replay a hand saved by tienlen play --save (or Game.to_json), checking every "
            "action against the rules. A file that does not replay is reported with the "
            "first bad field or action, and exit status 2."
        ),
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="the replay JSON")
    parser.add_argument("--step", action="store_true", help="wait for Enter after each action")
    parser.add_argument("--fast", action="store_true", help="no pause between actions")
    parser.add_argument("--ascii", action="store_true",
                        help="write cards as 3s 10h and draw with ASCII only")
    parser.add_argument("--lang", choices=("en", "zh"), default=None,
                        help="Guandan replays: language (default: from the locale)")
    parser.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    """``tienlen replay``: verify a replay file, then show it action by action."""
    from .guandan import cli as guandan_cli

    if guandan_cli.is_guandan_replay(args.file):
        return guandan_cli.run_replay(args)
    from .tui.render import Style
    from .tui.replay_view import replay_file
    from .tui.terminal import Terminal

    return replay_file(Terminal(), args.file, style=Style(ascii=_use_ascii(args)),
                       step=args.step, fast=args.fast)


# --- Guandan options (issue 17) ------------------------------------------------------


def _add_guandan_options(parser: argparse.ArgumentParser, moves: bool = False,
                         sim: bool = False) -> None:
    """``--game guandan`` and the options only Guandan reads (handled in tienlen.guandan.cli)."""
    if not any("--game" in action.option_strings for action in parser._actions):
        parser.add_argument("--game", choices=("tienlen", "guandan"), default="tienlen",
                            help="which game (default: %(default)s)")
    parser.add_argument("--lang", choices=("en", "zh"), default=None,
                        help="Guandan: language of the training mode (default: from the locale)")
    if moves:
        parser.add_argument("--level", default="2", metavar="RANK",
                            help="Guandan: the level rank, 2..A (default: %(default)s)")
        parser.add_argument("--pile-kind", default=None, metavar="KIND",
                            help="Guandan: the reading of --pile when it has several "
                                 "(e.g. straight_flush)")
    if sim:
        # The duplicate arena (tienlen.guandan.arena): --bots names team A then team B.
        parser.add_argument("--matches", type=_count, default=None, metavar="N",
                            help="Guandan: play N whole matches to A, an even number (each "
                                 "board twice, the teams swapping seats; default: 20)")
        parser.add_argument("--hands", type=_count, default=None, metavar="N",
                            help="Guandan: play N first hands instead (level 2, no tribute; "
                                 "cheaper), an even number")
        parser.add_argument("--hand-cap", type=_count, default=None, metavar="N",
                            help="Guandan: a match still undecided after N hands is a draw "
                                 "(default: 100)")


# --- tienlen rules -------------------------------------------------------------------


def _add_rules(subparsers: _Subparsers) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="show the rules of the game",
        description=("Show the rules as tienlen plays them (RULES.md, or GUANDAN.md with "
                     "--game guandan), through a pager ($PAGER, else less) on a terminal, "
                     "printed when piped."),
    )
    parser.add_argument("--game", choices=("tienlen", "guandan"), default="tienlen",
                        help="whose rules (default: %(default)s)")
    parser.set_defaults(run=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    """``tienlen rules [--game guandan]``: the rules contract rendered as terminal markdown."""
    from .tui.rules_view import show_rules
    from .tui.terminal import Terminal

    return show_rules(Terminal(), getattr(args, "game", "tienlen"))


# --- tienlen solve --------------------------------------------------------------------


def _add_solve(subparsers: _Subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve an endgame with every hand known",
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
    add_rules_option(parser)
    parser.add_argument(
        "--ascii", action="store_true", help="write cards as 3s 10h rather than 3♠ 10♥"
    )
    parser.set_defaults(run=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    """``tienlen solve``: the solver's value and principal line, one move a line."""
    from . import _core
    from .game import PASS
    from .solver import SolveError, Value, solve

    rules = rules_from_args(args)
    hands = [_parse_arg(f"--hands[{seat}]", Cards.parse, text)
             for seat, text in enumerate(args.hands)]
    players = len(hands)
    if not 2 <= players <= 4:
        raise SolveError(f"--hands: give 2, 3 or 4 hands; got {players}")
    if not 0 <= args.turn < players:
        raise SolveError(f"--turn: no seat {args.turn} among {players}")
    pile = 0
    owner = -1
    if args.pile is not None:
        pile_cards = _parse_arg("--pile", Cards.parse, args.pile)
        if not pile_cards:
            raise SolveError("--pile: no cards given (leave --pile out for a lead)")
        if classify(pile_cards, rules) is None:
            raise SolveError(f"--pile: not a combination under {rules.name} rules: {pile_cards}")
        pile = pile_cards.mask
        owner = (args.turn - 1) % players if args.owner is None else args.owner
        if not 0 <= owner < players or owner == args.turn:
            raise SolveError(f"--owner: must be a seat 0..{players - 1} other than --turn")
    elif args.owner is not None:
        raise SolveError("--owner needs --pile")
    for seat, hand in enumerate(hands):
        if not hand:
            raise SolveError(f"--hands[{seat}]: no cards given")
        if pile & hand.mask:
            raise SolveError(f"--pile shares cards with --hands[{seat}]")
    try:
        state = _core.GameState.from_fields([h.mask for h in hands], pile_mask=pile,
                                            pile_owner=owner, turn=args.turn, flags=rules.flags)
    except ValueError as error:
        raise SolveError(str(error)) from None
    result = solve(state, args.seat, max_ms=args.max_ms)
    spec = "a" if _use_ascii(args) else ""
    lines = [f"seat {seat}: {hand:{spec}}" for seat, hand in enumerate(hands)]
    lines.append(f"pile: {Cards(pile):{spec}} (seat {owner})" if pile else "pile: empty")
    lines.append(f"seat {args.turn} to act")
    if result.value is Value.UNKNOWN:
        lines.append(f"unknown: the {result.limit} limit was reached "
                     f"({_plural(result.nodes, 'position')} searched)")
    else:
        verb = "wins" if result.value is Value.WIN else "loses"
        against = "" if players == 2 else " against any play of the others"
        lines.append(f"seat {result.seat} {verb} by force{against} "
                     f"({_plural(result.nodes, 'position')} searched, {result.elapsed * 1000:.1f} ms)")
        for move, mover in zip(result.line, result.movers):
            text = "pass" if move is PASS else f"{move:{spec}}"
            lines.append(f"  seat {mover}: {text}")
        lines[-1] += "  (out first)"
    print("\n".join(lines))
    return 0


# Each entry adds one subcommand whose parser sets ``run`` (Namespace -> exit status).
_SUBCOMMANDS: list[Callable[[_Subparsers], None]] = [
    _add_play,
    _add_sim,
    _add_replay,
    _add_moves,
    _add_solve,
    _add_rules,
]


def _add_serve(subparsers: _Subparsers) -> None:
    # tienlen serve lives in tienlen.server (issue 27); its run() imports the [serve] extra
    # only when called, so the CLI loads without it.
    from .server.run import add_serve

    add_serve(subparsers)


_SUBCOMMANDS.append(_add_serve)


def build_parser() -> argparse.ArgumentParser:
    """The ``tienlen`` argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Tiến Lên (Thirteen): play it in the terminal, run bot tournaments, "
                    "list legal moves.",
        epilog="examples:\n"
               "  tienlen play                 play a hand against three bots\n"
               "  tienlen rules                read the rules\n"
               "  tienlen sim --bots L2,L1     bots against bots, with statistics\n"
               "  tienlen COMMAND --help       one command's options",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in _SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit status.

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
