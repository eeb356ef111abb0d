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


def per_board(result: DuplicateResult, statistic: str) -> np.ndarray:
    return result._per_board(statistic)[:, 0]          # team A's value on each board


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
    args = ap.parse_args(argv)
    if args.base is not None:
        guandan_ab_plan.BASE = load_base(args.base, "tienlen_base", "_guandan")
    opponent = team(args.opponent)
    mode, games = ("hand", args.hands) if args.matches is None else ("match", args.matches)
    statistics = ("hand_wins", "places", "levels") + (("match_wins",) if mode == "match" else ())
    base = simulate("guandan", [team(args.b), opponent], games, mode=mode, seed=args.seed,
                    jobs=args.jobs)
    print(base.table(), flush=True)
    for spec in args.a:
        run = simulate("guandan", [team(spec), opponent], games, mode=mode,
                       seed=args.seed, jobs=args.jobs)
        print(run.table(), flush=True)
        for statistic in statistics:
            d = per_board(run, statistic) - per_board(base, statistic)
            mean = float(d.mean())
            se = float(d.std(ddof=1)) / math.sqrt(len(d))
            z = mean / se if se > 0 else math.inf
            p = math.erfc(abs(z) / math.sqrt(2))
            print(f"{spec} - {args.b} {statistic} against {args.opponent}: {mean:+.3f} "
                  f"[{mean - 1.96 * se:+.3f}, {mean + 1.96 * se:+.3f}] over {len(d)} boards, "
                  f"p = {p:.2g}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
