"""Quick hand-level duplicate strength of Guandan bots with options (issue 17's L3 work).

Every deal is played twice with the teams swapped (A in seats 0 and 2, then in 1 and 3), one
hand each (the first hand of a match: no tribute, level 2), and each deal's pair of hands
is one sample. Reported for team A: the rate its player goes out first, its mean levels per
hand (+3/+2/+1 when its player is first out and the partner 2nd/3rd/4th, minus the
opponents' gain otherwise), a 95% interval and paired z for both, and L3's CPU time per
decision, wall median and max, and its sampled deals per search. The match-level arena with team rotation is ``tienlen.games.guandan.arena`` /
``tienlen sim --game guandan``; this script exists to try L3 options quickly.

    python bench/guandan_strength.py --a L3:iterations=100 --b L2 --deals 60 --seed 2
    python bench/guandan_strength.py --a L3 --b L3 --deals 1     # L3's default time budget
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from tienlen.guandan import Game
from tienlen.games.guandan.bots import Bot, _hand_score, make_bot


def parse_bot(spec: str):
    """"L3:iterations=40,max_candidates=8" -> a factory of bots with those options."""
    if not spec:
        raise SystemExit("a bot is LEVEL[:option=value,...]")
    level, _, opts = spec.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, opts.split(",")):
        k, _, v = item.partition("=")
        options[k] = float(v) if "." in v else int(v)
    return lambda seed: make_bot(level, seed=seed, **options)


def play_hand(seed: int, bots: list[Bot], clock: dict[str, float],
              walls: dict[str, list[float]], deals: dict[str, list[int]]) -> tuple[int, ...]:
    game = Game(seed=seed)
    while not game.is_over:
        seat = game.turn
        assert seat is not None
        t0, w0 = time.process_time(), time.perf_counter()
        decision = bots[seat].explain(game.view(seat))
        kind, cards = decision.kind, decision.cards
        level = bots[seat].level
        walls.setdefault(level, []).append(time.perf_counter() - w0)
        why = decision.why
        if why is not None and "how" in why.fields:       # a search: how many deals it took
            deals.setdefault(level, []).append(why.fields["how"].fields["deals"])
        clock[level] = clock.get(level, 0.0) + time.process_time() - t0
        clock[level + "_n"] = clock.get(level + "_n", 0) + 1
        game.act(kind, cards, seat)
    assert game.places is not None
    return game.places


def stats(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n) if n > 1 else float("inf")
    return mean, 1.96 * se, (mean / se if se > 0 else 0.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    make_a, make_b = parse_bot(args.a), parse_bot(args.b)
    firsts: list[float] = []
    levels: list[float] = []
    clock: dict[str, float] = {}
    walls: dict[str, list[float]] = {}
    deals: dict[str, list[int]] = {}
    for d in range(args.deals):
        seed = args.seed * 1_000_003 + d
        f = lv = 0.0
        for swap in (False, True):
            a_seats = (1, 3) if swap else (0, 2)
            bots = [make_a(seed * 4 + s) if s in a_seats else make_b(seed * 4 + s) for s in range(4)]
            places = play_hand(seed, bots, clock, walls, deals)
            f += places[0] in a_seats
            lv += _hand_score(places, a_seats, (3, 2, 1))
        firsts.append(f / 2)
        levels.append(lv / 2)
    fm, fh, fz = stats(firsts)
    lm, lh, lz = stats(levels)
    print(f"A={args.a} vs B={args.b}: {args.deals} deals x 2 hands, seed {args.seed}")
    print(f"A first-out rate {fm:.3f} +- {fh:.3f} (z vs 0.5: {(fm - 0.5) / (fh / 1.96) if fh else 0:.2f})")
    print(f"A levels per hand {lm:+.3f} +- {lh:.3f} (z vs 0: {lz:.2f})")
    for k in sorted(clock):
        if not k.endswith("_n"):
            w = sorted(walls[k])
            print(f"{k}: {1000 * clock[k] / clock[k + '_n']:.2f} ms CPU per decision "
                  f"({int(clock[k + '_n'])} decisions); wall median {1000 * w[len(w) // 2]:.1f} ms, "
                  f"max {1000 * w[-1]:.1f} ms")
            if k in deals:
                n = sorted(deals[k])
                print(f"{k}: {sum(n) / len(n):.1f} sampled deals per search (mean; median "
                      f"{n[len(n) // 2]}) over {len(n)} searches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
