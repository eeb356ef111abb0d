"""Match endings: two Guandan teams measured against the same third one on the same late
positions of a match, where the level race decides (issue 35).

A whole match from level 2 spends most of its hands where the race hardly matters; this
starts each board from a late standing drawn from its seed (both teams' levels from
``--lowest`` to A, a declarer, failed attempts at A, the last hand's places for tribute) and
plays hands until a team wins at A (G7.3) or ``--cap`` hands have been played. Every board is
played in both seatings (A as the first team, then the second), and both challengers play
the same boards, hand seeds and bot seeds, so that each board's match wins of A minus B's is
one paired observation. Hands are played by :class:`~tienlen.games.guandan.game.Game` with
the match's :class:`~tienlen.games.guandan.view.Standing` and settled by
:func:`tienlen.games.guandan.match.settle` (the rules' one settlement).

    python bench/guandan_race.py --a L3:iterations=20 --b L3:iterations=20,race=0 \\
        --opponent L2 --boards 150 --jobs 2

A team is written as in ``guandan_ab_vs.py`` (``LEVEL[:name=value,...]``, ``style:NAME``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from guandan_ab_vs import team  # noqa: E402
from tienlen.games.guandan.game import Game  # noqa: E402
from tienlen.games.guandan.match import settle  # noqa: E402
from tienlen.games.guandan.rules import RuleConfig  # noqa: E402
from tienlen.games.guandan.view import Standing  # noqa: E402

TEAMS = ((0, 2), (1, 3))


def mix(*parts: int) -> int:
    """A 62-bit seed from integers (distinct inputs, well-spread seeds)."""
    return random.Random("/".join(map(str, parts))).getrandbits(62)
CONFIG = RuleConfig()


def start(seed: int, board: int, lowest: int) -> tuple[tuple[int, int], tuple[int, int], int,
                                                       tuple[int, ...]]:
    """A board's late standing: levels, failed attempts, declarer, the last hand's places."""
    rng = random.Random(mix(seed, board, 0))
    levels = (rng.randint(lowest, 14), rng.randint(lowest, 14))
    declarer = rng.randrange(2)
    failed = tuple(rng.randrange(CONFIG.failed_attempts_limit) if lv == 14 else 0
                   for lv in levels)
    first = rng.choice(TEAMS[declarer])
    rest = [s for s in range(4) if s != first]
    rng.shuffle(rest)
    return levels, (failed[0], failed[1]), declarer, (first, *rest)


#: Wall-clock seconds of each of A's decisions in this process (``--timing``).
WALLS: list[float] = []


def play_board(job: tuple[str, str, int, int, int, int]) -> list[tuple[float, int, int, int]]:
    """Both seatings of one board: (A's match win 1/0, or 0.5 if capped; A's hands won;
    hands; levels A gained minus the opponent's) for A seated as team 0, then as team 1."""
    spec, opponent, seed, board, lowest, cap = job
    clock = time.perf_counter
    out = []
    for seating in (0, 1):
        levels, failed, declarer, prev = start(seed, board, lowest)
        sides = {seating: team(spec), 1 - seating: team(opponent)}
        bots = [sides[0 if s in TEAMS[0] else 1](seed=mix(seed, board, 1, s))
                for s in range(4)]
        a_won: float = 0.5
        hands = a_hands = net = 0
        for h in range(cap):
            standing = Standing(levels, declarer, h + 1, failed)
            game = Game(mix(seed, board, 2, h),
                        level=levels[declarer], config=CONFIG, teams=TEAMS,
                        previous_order=prev, standing=standing)
            while not game.is_over:
                s = game.turn
                assert s is not None
                view = game.view(s)
                t0 = clock()
                kind, cards = bots[s].decide(view)
                if (0 if s in TEAMS[0] else 1) == seating:
                    WALLS.append(clock() - t0)
                game.act(kind, cards, s)
            places = game.places
            assert places is not None
            new_levels, failed, won, gain = settle(levels, failed, declarer, places, TEAMS, CONFIG)
            winner = 0 if places[0] in TEAMS[0] else 1
            hands += 1
            a_hands += winner == seating
            net += gain if winner == seating else -gain
            if won:
                a_won = 1.0 if winner == seating else 0.0
                break
            levels, declarer, prev = new_levels, winner, places
        out.append((a_won, a_hands, hands, net))
    return out


def run(spec: str, opponent: str, boards: int, seed: int, lowest: int, cap: int,
        jobs: int) -> np.ndarray:
    """Per board, per seating: (match win, hands won, hands, net levels) of ``spec``."""
    work = [(spec, opponent, seed, b, lowest, cap) for b in range(boards)]
    if jobs > 1:
        with Pool(jobs) as pool:
            rows = pool.map(play_board, work, chunksize=1)
    else:
        rows = [play_board(w) for w in work]
    return np.array(rows, dtype=np.float64)          # boards x 2 x 4


def interval(d: np.ndarray) -> str:
    mean = float(d.mean())
    se = float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    p = math.erfc(abs(mean / se) / math.sqrt(2)) if se > 0 else 0.0
    return f"{mean:+.3f} [{mean - 1.96 * se:+.3f}, {mean + 1.96 * se:+.3f}], p = {p:.2g}"


def summary(name: str, r: np.ndarray) -> str:
    wins = r[:, :, 0].mean(axis=1)
    share = r[:, :, 1].sum(axis=1) / r[:, :, 2].sum(axis=1)
    return (f"{name}: match wins {100 * wins.mean():.1f}% (per board {interval(wins)}), "
            f"hand wins {100 * r[:, :, 1].sum() / r[:, :, 2].sum():.1f}% "
            f"(per board {interval(share)}), {r[:, :, 2].mean():.2f} hands a match")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--opponent", default="L2")
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lowest", type=int, default=11, help="the lowest starting level")
    ap.add_argument("--cap", type=int, default=40, help="hands after which a match stops")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timing", action="store_true",
                    help="play A only, in this process, and print its decisions' wall times")
    args = ap.parse_args(argv)
    if args.timing:
        run(args.a, args.opponent, args.boards, args.seed, args.lowest, args.cap, 1)
        w = np.array(WALLS) * 1000
        print(f"{args.a}: {len(w)} decisions, wall median {np.median(w):.1f} ms, "
              f"90th percentile {np.percentile(w, 90):.1f} ms, max {w.max():.1f} ms")
        return 0
    t0 = time.perf_counter()
    a = run(args.a, args.opponent, args.boards, args.seed, args.lowest, args.cap, args.jobs)
    b = run(args.b, args.opponent, args.boards, args.seed, args.lowest, args.cap, args.jobs)
    print(f"{args.boards} boards x 2 seatings, seed {args.seed}, levels {args.lowest}..A, "
          f"against {args.opponent}, {time.perf_counter() - t0:.0f} s")
    print(summary(f"A {args.a}", a))
    print(summary(f"B {args.b}", b))
    print(f"A - B match wins, paired by board: {interval(a[:, :, 0].mean(axis=1) - b[:, :, 0].mean(axis=1))}")
    share = lambda r: r[:, :, 1].sum(axis=1) / r[:, :, 2].sum(axis=1)  # noqa: E731
    print(f"A - B hand share, paired by board: {interval(share(a) - share(b))}")
    print(f"A - B net levels a match, paired by board: "
          f"{interval(a[:, :, 3].mean(axis=1) - b[:, :, 3].mean(axis=1))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
