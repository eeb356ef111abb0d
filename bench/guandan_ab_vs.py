"""Two Guandan teams measured against the same third one on the same boards, and the
difference between them paired by board (issue 29).

A head-to-head run (``guandan_ab_plan.py``, ``guandan_ab_l3.py``) says which of two bots
beats the other; this says which of them does better against a given opponent, such as a
rule bot, which is what the outside check measures. Both runs play the same duplicate first
hands (the same seed: the same deals, seatings and bot seeds), so each board's hand share
of A minus B's is one paired observation.

    python bench/guandan_ab_vs.py --a L3:iterations=30 --b L3@base:iterations=30 \\
        --opponent L2@base --base OLD/_guandan.so --hands 400 --jobs 2
    python bench/guandan_ab_vs.py --a L2 --b L2:exchange=base --opponent style:hoarder \\
        --matches 200 --jobs 2            # whole matches: tribute, return, the level race

A team is ``LEVEL[@base][:name=value,...]``: ``@base`` plays on the other build of the core
(``--base``, loaded as ``guandan_ab_plan.py`` does), options are the bot's keyword arguments.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import guandan_ab_plan  # noqa: E402
from ab_cores import load_base  # noqa: E402
from tienlen.arena import simulate  # noqa: E402
from tienlen.arena.stats import DuplicateResult  # noqa: E402
from tienlen.games.guandan.bots import make_bot  # noqa: E402


def _value(text: str) -> object:
    """An option's value: an int, a float, or else the word itself (``exchange=base``)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def team(spec: str) -> Any:
    """A team factory from ``LEVEL[@base][:name=value,...]``."""
    style = spec.lower().startswith("style:")
    head, _, opts = spec[6 * style:].partition(":")
    head = "style:" * style + head
    level, _, where = head.partition("@")
    options: dict[str, object] = {}
    for item in filter(None, opts.split(",")):
        key, _, value = item.partition("=")
        options[key] = _value(value)
    if where == "base":
        cls = {"L2": guandan_ab_plan.BasePlanBot,
               "L3": guandan_ab_plan.BaseSearchBot}[level.upper()]
        return functools.partial(cls, **options)
    if where:
        raise SystemExit(f"unknown core {where!r}: only @base")
    return functools.partial(make_bot, level, **options)


def per_board(result: DuplicateResult, statistic: str, team: int = 0) -> np.ndarray:
    """A team's value of ``statistic`` on each board (both seatings); ``levels_a_hand`` is
    the levels it gained over the board's hands (in whole matches ``levels`` is a match's:
    longer matches gain more, so a hand's is the one to compare with first hands)."""
    if statistic == "levels_a_hand":
        u = result.unit
        return np.asarray(u.levels[:, :, team].sum(axis=1) / u.hands.sum(axis=1), float)
    return result._per_board(statistic)[:, team]


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """The mean over boards with its 95% half-width and the two-sided p of a zero mean."""
    mean = float(values.mean())
    if len(values) < 2:                    # no spread to judge by
        return mean, math.nan, math.nan
    se = float(values.std(ddof=1)) / math.sqrt(len(values))
    z = mean / se if se > 0 else (0.0 if mean == 0 else math.inf)
    return mean, 1.96 * se, math.erfc(abs(z) / math.sqrt(2))


def levels_a_hand(result: DuplicateResult) -> str:
    """Both teams' levels gained a hand of a whole match, and A minus B paired by board."""
    a, b = (interval(per_board(result, "levels_a_hand", t)) for t in (0, 1))
    d = interval(per_board(result, "levels_a_hand", 0) - per_board(result, "levels_a_hand", 1))
    return (f"levels a hand: A {a[0]:.3f} ± {a[1]:.3f}, B {b[0]:.3f} ± {b[1]:.3f}; "
            f"A - B {d[0]:+.3f} ± {d[1]:.3f}, p = {d[2]:.2g} over {result.boards} boards")


def report(results: dict[str, DuplicateResult], walls: dict[str, float],
           args: argparse.Namespace, statistics: tuple[str, ...], mode: str,
           final: bool) -> None:
    """Each team's table (only the comparisons in a round before the last), then every
    challenger minus ``--b`` paired by board."""
    base = results[args.b]
    for spec, run in results.items():
        if final:
            print(run.table(), flush=True)
        else:
            print(run.title(), flush=True)
        if mode == "match":
            print(levels_a_hand(run), flush=True)
        print(f"wall {walls[spec]:.0f} s", flush=True)
    for spec in args.a:
        run = results[spec]
        for statistic in statistics:
            d = per_board(run, statistic) - per_board(base, statistic)
            mean, half, p = interval(d)
            print(f"{spec} - {args.b} {statistic} against {args.opponent}: {mean:+.3f} "
                  f"[{mean - half:+.3f}, {mean + half:+.3f}] over {len(d)} boards, "
                  f"p = {p:.2g}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, action="append",
                    help="a challenger (repeat for several, each compared with --b)")
    ap.add_argument("--b", required=True)
    ap.add_argument("--opponent", default="L2")
    ap.add_argument("--base", type=Path, help="the other build of the core, for @base")
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--matches", type=int, default=None,
                    help="play N whole matches a side (tribute, return, the level race) "
                         "instead of --hands first hands")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=0,
                    help="play K boards at a time with every team and report after each "
                         "(a stopped run keeps its paired rounds)")
    args = ap.parse_args(argv)
    if args.base is not None:
        guandan_ab_plan.BASE = load_base(args.base, "tienlen_base", "_guandan")
    opponent = team(args.opponent)
    mode, games = ("hand", args.hands) if args.matches is None else ("match", args.matches)
    statistics = ("hand_wins", "places", "levels") + (("match_wins", "levels_a_hand")
                                                       if mode == "match" else ())
    specs = [args.b, *args.a]
    lineups = {spec: [team(spec), opponent] for spec in specs}
    results: dict[str, DuplicateResult] = {}
    walls = dict.fromkeys(specs, 0.0)
    step = 2 * args.chunk if args.chunk else games
    for played in range(min(step, games), games + step, step):
        played = min(played, games)
        # Every team plays the same boards before the next round starts, so a run stopped
        # between rounds leaves a complete paired comparison of the boards played so far
        # (resuming from the earlier boards changes no result: the arena's ``done``).
        for spec in specs:
            started = time.monotonic()
            done = (results[spec].unit,) if spec in results else ()
            result = simulate("guandan", lineups[spec], played, mode=mode,
                              seed=args.seed, jobs=args.jobs, done=done)
            assert isinstance(result, DuplicateResult)     # two teams: always duplicate
            results[spec] = result
            walls[spec] += time.monotonic() - started
        if played < games:
            print(f"-- {played // 2} of {games // 2} boards", flush=True)
        report(results, walls, args, statistics, mode, final=played == games)
        if played == games:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
