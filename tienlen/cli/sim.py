"""``tienlen sim``: bots against bots, many hands, with statistics, for every game through
one path: the game's command line module turns its options into a request
(``sim_request(args)``; a game without one is asked for its bot levels and player counts
alone), the arena checks it (:func:`tienlen.arena.plan`: the game's own loop, found through
its spec, in seat rotations or team seatings), and one screen plays it
(:func:`tienlen.tui.sim_view.run_sim`): the progress bar, Ctrl-C, the tables, ``--json``,
and with ``--out``/``--resume``/``--scheduler``/``--unit-games`` the results file and the
cluster (:func:`tienlen.arena.scale.options_for`). SIGTERM stops a run as Ctrl-C does."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tienlen.cli.common import (Subparsers, add_game_option, add_game_options, check_game_options,
                                count_type, levels_type, seed_type, sigterm_as_ctrl_c,
                                writable_file)

__all__ = ["add", "run", "DEFAULT_GAMES", "default_games"]

#: Hands a seat-rotation sim plays when not told (rounded down to whole rotations).
DEFAULT_GAMES = 100


def default_games(players: int) -> int:
    """The default --games: the most whole seat rotations within :data:`DEFAULT_GAMES`."""
    return DEFAULT_GAMES - DEFAULT_GAMES % players


def add(subparsers: Subparsers) -> None:
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
        "--bots", type=levels_type, default=None, metavar="LEVELS",
        help="Tiến Lên: one level per seat, from random, L1, L2, L3, or one level for "
             "every seat (default: L3,L2,L2,L2, cut to --players); Guandan: two levels "
             "from L1, L2, L3, team A then team B (default: L2,L1)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                        help="Tiến Lên: seats (default: one per level in --bots, else 4)")
    parser.add_argument("--games", type=count_type, default=None, metavar="N",
                        help=f"Tiến Lên: hands to play, a multiple of the players (default: "
                             f"{DEFAULT_GAMES} rounded down to one: {DEFAULT_GAMES} with 2 "
                             f"or 4 players, {default_games(3)} with 3)")
    parser.add_argument("--iterations", type=count_type, default=None, metavar="N",
                        help="L3 samples N deals per move instead of searching for 50 ms: "
                             "slower or faster, but reproducible from --seed")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="worker processes (default: %(default)s)")
    parser.add_argument("--seed", type=seed_type, default=0, metavar="N",
                        help="fixes every deal and every bot's choices, L3's only with "
                             "--iterations (default: %(default)s)")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (checked before the "
                             "run starts)")
    # Issue 15: clusters, streaming and resuming (tienlen.arena.scale).
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
    add_game_option(parser, "which game: tienlen, guandan, or any game registered with "
                            "tienlen.table.register (default: %(default)s)")
    add_game_options(parser, "sim")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tienlen sim``: run the arena with a progress bar, then print the results tables.
    SIGTERM stops it as Ctrl-C does."""
    with sigterm_as_ctrl_c():
        check_game_options(args, "sim")
        from tienlen.arena.runs import check_jobs, plan
        from tienlen.table.registry import get_cli
        from tienlen.tui.sim_view import run_sim
        from tienlen.tui.terminal import Terminal

        cli = get_cli(args.game)
        request: dict[str, Any] = (cli.sim_request(args) if cli is not None
                                   and hasattr(cli, "sim_request") else _table_request(args))
        if request.get("games") is None:
            request["games"] = default_games(request.get("players") or len(request["lineup"]))
        if args.json is not None:
            writable_file(args.json, "--json")
        the_run = plan(args.game, seed=args.seed, **request)
        check_jobs(args.jobs)       # (before a file is made)
        play = dict(jobs=args.jobs, json_path=args.json, iterations=args.iterations)
        if args.scheduler or args.out or args.resume or args.unit_games is not None:
            from tienlen.arena.scale import options_for

            with options_for(the_run, jobs=args.jobs, scheduler=args.scheduler, out=args.out,
                             resume=args.resume, unit_games=args.unit_games) as options:
                return run_sim(Terminal(), the_run, options=options, out=args.out, **play)
        return run_sim(Terminal(), the_run, **play)


def _table_request(args: argparse.Namespace) -> dict[str, Any]:
    """The request of a game with no command line module of its own: one of its bot levels
    per seat (``--bots``, one for every seat, or its strongest), ``--players`` from its
    player counts (default: one per level given, else its most)."""
    from tienlen.table import get_spec

    spec = get_spec(args.game)
    if args.iterations is not None:
        raise ValueError(f"--iterations is not an option of sim --game {args.game}")
    levels: list[str] = args.bots if args.bots is not None else []
    players = args.players
    if players is None:
        players = len(levels) if len(levels) > 1 else spec.player_counts[-1]
    if not levels:
        levels = [spec.bot_levels[-1]] * players
    elif len(levels) == 1:
        levels = levels * players
    return {"lineup": levels, "games": args.games, "players": players, "labels": levels}
