"""How many sampled deals Guandan's L3 weighs in one decision at its default time budget,
on fixed positions: the searched decisions of whole first hands that four L2 seats play
(the same positions on every build, so that two builds compare decision by decision), with
the wall time of each decision (median and max; the budget is 100 ms, issue 35).

    python bench/guandan_l3_deals.py --hands 4 --seed 100
    python bench/guandan_l3_deals.py --hands 4 --seed 100 --bot L3:threads=0

Run it with another build's interpreter (a venv with that commit installed) to compare two
builds on the same positions; pytest-benchmark is not used because the measure is deals
in a fixed time, not time for fixed work.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from tienlen.guandan import Game
from tienlen.games.guandan.bots import make_bot


def positions(hands: int, seed: int) -> list:
    """The views of every decision of `hands` first hands (seeds seed, seed + 1, ...) that
    four L2 seats play."""
    bots = [make_bot("L2", seed=s) for s in range(4)]
    views = []
    for g in range(hands):
        game = Game(seed=seed + g)
        while not game.is_over:
            seat = game.turn
            view = game.view(seat)
            views.append(view)
            kind, cards = bots[seat].decide(view)
            game.act(kind, cards, seat)
    return views


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--bot", default="L3", help="LEVEL[:option=value,...] (default L3)")
    args = ap.parse_args(argv)
    level, _, opts = args.bot.partition(":")
    options = {k: int(v) for k, _, v in (o.partition("=") for o in filter(None, opts.split(",")))}
    bot = make_bot(level, seed=1, **options)
    deals: list[int] = []
    walls: list[float] = []
    for view in positions(args.hands, args.seed):
        t0 = time.perf_counter()
        decision = bot.explain(view)
        walls.append(time.perf_counter() - t0)
        why = decision.why
        if why is not None and "how" in why.fields:
            deals.append(why.fields["how"].fields["deals"])
    walls.sort()
    print(f"{args.bot}: {len(walls)} decisions, {len(deals)} searched; sampled deals per search "
          f"mean {statistics.mean(deals):.1f}, median {statistics.median(deals):g}; wall per "
          f"decision median {1000 * walls[len(walls) // 2]:.1f} ms, 90th percentile "
          f"{1000 * walls[len(walls) * 9 // 10]:.1f} ms, max {1000 * walls[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
