"""``tienlen tournament``: a round robin or a gauntlet between outside agents (commands that
speak the Guandan platform's protocol, or ours) and our bot levels, played on our server,
``--jobs`` matches at a time (or on a Dask cluster, ``--scheduler``), every match written to
``--out`` as it ends (``--resume`` continues), then a table of match and hand win rates and
Bradley-Terry ratings with bootstrap intervals (docs/tournament.md).

The schedule and the file are :mod:`tienlen.tournament`'s; a match is played by
:mod:`tienlen.server.matches`; the arena's Dask executor (:func:`tienlen.arena.scale.dask_executor`)
is the one coupling to the arena, in :func:`_on_dask`.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tienlen.cli.common import Subparsers, count_type, seed_type, sigterm_as_ctrl_c

__all__ = ["add", "run", "standings"]


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r:.40}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError("give seconds in (0, 3600]")
    return value


def add(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="a round robin or gauntlet of outside agents and our bots, with ratings",
        description=(
            "Play outside agents (commands that speak the Guandan AI platform's protocol, "
            "or ours with ours:) and our bot levels against each other: a round robin, or a "
            "gauntlet of one entrant against the rest, each pairing on the same boards from "
            "both sides. Each match runs on a table of our server; the agents' commands are "
            "started for each of their seats with {url}, {port}, {seat} and {name} filled in. "
            "An agent that does not connect, crashes, hangs or answers badly past the "
            "decision time is replaced by L1 for the rest of the match, which its entrant "
            "then loses (--on-failure replace: counts as played). Prints match and hand win "
            "rates and Bradley-Terry ratings with 95%% bootstrap intervals."),
        epilog="example:\n  tienlen tournament --agent 'mine=python my_agent.py {url}' "
               "--bots L1,L2,L3 --matches 4 --jobs 2 --out t.jsonl",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", action="append", default=[], metavar="NAME=COMMAND",
                        help="an outside agent (repeatable): NAME=COMMAND speaks the platform's "
                             "protocol, NAME=ours:COMMAND ours")
    parser.add_argument("--bots", default="", metavar="LEVELS",
                        help="our bot levels as entrants, e.g. L1,L2,L3")
    parser.add_argument("--gauntlet", metavar="NAME",
                        help="NAME plays each other entrant (default: a round robin)")
    parser.add_argument("--matches", type=count_type, default=2, metavar="N",
                        help="matches per pairing, on boards 0, 0, 1, 1 ... with sides swapped "
                             "(default: %(default)s)")
    parser.add_argument("--game", default=None, metavar="GAME",
                        help="the game (default: the registered game with a platform protocol)")
    parser.add_argument("--max-hands", type=count_type, default=None, metavar="H",
                        help="stop a match undecided after H hands (a draw)")
    parser.add_argument("--decision-timeout", type=_seconds, default=10.0, metavar="S",
                        help="an agent's time for one decision (default: %(default)s)")
    parser.add_argument("--connect-timeout", type=_seconds, default=30.0, metavar="S",
                        help="an agent's time to start and connect (default: %(default)s)")
    parser.add_argument("--on-failure", choices=("forfeit", "replace"), default="forfeit",
                        help="a failing agent's match: lost by its entrant (forfeit, the "
                             "default) or played on by L1 and counted (replace)")
    parser.add_argument("--jobs", type=count_type, default=1, metavar="J",
                        help="matches at a time (default: %(default)s)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play the matches on a Dask cluster (tcp://HOST:PORT or local:N), "
                             "as tienlen sim does; the agents' commands must run on its workers")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="write every match as it ends to FILE.jsonl or FILE.parquet")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in --out: only the matches not on file are played")
    parser.add_argument("--seed", type=seed_type, default=0, metavar="N",
                        help="the boards and the ratings' bootstrap (default: %(default)s)")
    parser.add_argument("--logs", type=Path, metavar="DIR",
                        help="write each agent process's output to DIR (default: discarded)")
    parser.set_defaults(run=run)


def _game(name: str | None) -> str:
    from tienlen.table import spec_names

    if name is not None:
        if name not in spec_names():
            raise ValueError(f"--game: unknown game {name!r:.40}; choose from "
                             f"{', '.join(spec_names())}")
        return name
    from tienlen.server.run import platform_spec

    spec_name: str = platform_spec().name
    return spec_name


def _entrants(args: argparse.Namespace, game: str) -> list[Any]:
    from tienlen.table import get_spec
    from tienlen.tournament.schedule import parse_entrant

    texts = list(args.agent) + [b for b in (p.strip() for p in args.bots.split(",")) if b]
    entrants = [parse_entrant(text) for text in texts]
    levels = {level.lower(): level for level in get_spec(game).bot_levels}
    for i, entrant in enumerate(entrants):
        if entrant.kind == "bot":
            if entrant.command.lower() not in levels:
                raise ValueError(f"--bots: {entrant.command!r:.20} is not a bot level of {game} "
                                 f"({', '.join(levels.values())})")
            entrants[i] = type(entrant)(levels[entrant.command.lower()], "bot",
                                        levels[entrant.command.lower()])
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise ValueError(f"two entrants share a name: {', '.join(names)}")
    if len(entrants) < 2:
        raise ValueError("a tournament needs two entrants at least (--agent, --bots)")
    if {e.kind for e in entrants} >= {"platform", "ours"}:
        raise ValueError("the agents of one tournament speak one protocol: the platform's "
                         "or ours")
    return entrants


def _wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def standings(names: Sequence[str], rows: Sequence[dict[str, Any]], *, seed: int = 0) -> str:
    """The results table: per entrant its matches, match wins (a draw half), hands and
    hand wins, each with a 95% interval (Wilson), failures, and its Bradley-Terry rating.

    >>> rows = [dict(a=0, b=1, winner=0, hands=8, hands_a=5, hands_b=3, failed=0,
    ...              forfeit=0, match=i, side=i % 2) for i in range(4)]
    >>> print(standings(["mine", "L1"], rows, seed=1).splitlines()[0])
    entrant  matches  match wins          hands  hand wins           failures  rating (95%)
    """
    from tienlen.tournament.ratings import rate

    n = len(names)
    matches = [0] * n
    match_wins = [0.0] * n
    hands = [0] * n
    hand_wins = [0] * n
    failures = [0] * n
    games: list[tuple[int, int, float]] = []
    for row in rows:
        a, b, winner = row["a"], row["b"], row["winner"]
        score = 1.0 if winner == a else 0.0 if winner == b else 0.5
        games.append((a, b, score))
        for entrant, won, handed in ((a, score, row["hands_a"]), (b, 1 - score, row["hands_b"])):
            matches[entrant] += 1
            match_wins[entrant] += won
            hands[entrant] += row["hands"]
            hand_wins[entrant] += handed
        first = a if row["side"] == 0 else b
        second = b if first == a else a
        for seat in range(4):
            if row["failed"] >> seat & 1:
                failures[first if seat % 2 == 0 else second] += 1
    ratings = rate(n, games, seed=seed)
    width = max(7, *(len(name) for name in names))
    lines = [f"{'entrant':<{width}}  matches  match wins          hands  hand wins           "
             "failures  rating (95%)"]
    order = sorted(range(n), key=lambda i: -ratings[i].rating)
    for i in order:
        low, high = _wilson(match_wins[i], matches[i])
        hlow, hhigh = _wilson(hand_wins[i], hands[i])
        rate_m = match_wins[i] / matches[i] if matches[i] else 0.0
        rate_h = hand_wins[i] / hands[i] if hands[i] else 0.0
        lines.append(f"{names[i]:<{width}}  {matches[i]:>7}  "
                     f"{rate_m:>6.1%} [{low:>4.0%},{high:>5.0%}]  {hands[i]:>5}  "
                     f"{rate_h:>6.1%} [{hlow:>4.0%},{hhigh:>5.0%}]  {failures[i]:>8}  "
                     f"{ratings[i]}")
    return "\n".join(lines)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _progress(names: Sequence[str], total: int, played: list[int]) -> Callable[[dict[str, Any]], str]:
    def line(row: dict[str, Any]) -> str:
        played[0] += 1
        a, b = names[row["a"]], names[row["b"]]
        result = ("draw" if row["winner"] < 0 else f"{names[row['winner']]} wins")
        extra = " (forfeit)" if row["forfeit"] else ""
        return (f"match {played[0]}/{total}: {a} - {b}, board {row['board']}: {result}{extra} "
                f"after {row['hands']} hands, {row['seconds']:.1f} s")
    return line


def _on_dask(scheduler: str, jobs: list[Any], write: Callable[[dict[str, Any]], None]) -> None:
    """The matches on a Dask cluster, through the arena's executor (the one coupling)."""
    from concurrent.futures import as_completed

    from tienlen.arena.scale import dask_executor
    from tienlen.server.matches import play_match_blocking

    with dask_executor(scheduler) as (executor, _workers):
        futures = [executor.submit(play_match_blocking, job) for job in jobs]
        try:
            for future in as_completed(futures):
                write(future.result())
        finally:
            for future in futures:
                future.cancel()


def run(args: argparse.Namespace) -> int:
    """``tienlen tournament``: check everything, open the file, play, print the table."""
    with sigterm_as_ctrl_c():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from tienlen.server.matches import MatchJob, run_matches
    from tienlen.tournament.files import MatchesFile
    from tienlen.tournament.schedule import schedule

    game = _game(args.game)
    entrants = _entrants(args, game)
    names = [e.name for e in entrants]
    gauntlet = None
    if args.gauntlet is not None:
        if args.gauntlet not in names:
            raise ValueError(f"--gauntlet {args.gauntlet}: not an entrant ({', '.join(names)})")
        gauntlet = names.index(args.gauntlet)
    if args.resume and args.out is None:
        raise ValueError("--resume continues the run in --out FILE: give --out")
    if args.logs is not None and not args.logs.is_dir():
        raise ValueError(f"--logs {args.logs}: not a folder")
    plan = schedule(len(entrants), matches=args.matches, gauntlet=gauntlet)
    header = {"game": game, "entrants": [e.to_json() for e in entrants],
              "matches": args.matches, "gauntlet": args.gauntlet, "seed": args.seed,
              "max_hands": args.max_hands, "on_failure": args.on_failure}
    jobs_all = [MatchJob(m, tuple(entrants), game, args.seed, args.max_hands,
                         args.decision_timeout, args.connect_timeout, args.on_failure,
                         str(args.logs) if args.logs else None) for m in plan]
    rows: dict[int, dict[str, Any]] = {}
    store = MatchesFile.open(args.out, header, resume=args.resume) if args.out else None
    played = [0]
    try:
        if store is not None:
            rows.update(store.rows)
            played[0] = len(rows)
            if rows:
                _say(f"{len(rows)} of {len(plan)} matches are in {args.out}: playing the rest")
        todo = [job for job in jobs_all if job.match.index not in rows]
        say = _progress(names, len(plan), played)

        def write(row: dict[str, Any]) -> None:
            if store is not None:
                store.write(row)
            rows[row["match"]] = row
            _say(say(row))

        try:
            if args.scheduler:
                _on_dask(args.scheduler, todo, write)
            else:
                asyncio.run(run_matches(todo, parallel=args.jobs, on_row=write, log=_say))
        except KeyboardInterrupt:
            where = f"; they are in {args.out}: run the same command with --resume" \
                if args.out else ""
            _say(f"tienlen tournament: interrupted: {len(rows)} of {len(plan)} matches "
                 f"played{where}")
            if rows:
                print(standings(names, [rows[i] for i in sorted(rows)], seed=args.seed))
            raise
    finally:
        if store is not None:
            store.close()
    print(standings(names, [rows[i] for i in sorted(rows)], seed=args.seed))
    return 0
