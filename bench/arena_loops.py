"""What a game's own arena loop buys: the same bots played by the game's own per-game loop
(``tienlen.arena.simulate``: ``Game`` / ``Match`` called directly) and through the table
protocol (``tienlen.arena.run_table``, :class:`tienlen.arena.loops.TableLoop`: actions as
dicts, what a game with no loop of its own gets), in one process, sides alternating round
by round in mirrored order, by this process's CPU time.

    python bench/arena_loops.py [--rounds 9]

The two loops play different matches (the table protocol plays the spec's default match:
five hands of Tiến Lên, a Guandan match to A), so the rows compare decisions per
CPU-second: the cost of one bot decision and its action in each loop. A row ``own / own``
is the A/A spread of the method. Issue 34: a game keeps a loop of its own only where this
ratio is above the A/A spread (bench/README.md says which).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tienlen.arena import run_table, simulate  # noqa: E402
from tienlen.arena.stats import ArenaResult  # noqa: E402

Side = Callable[[], int]


def decisions(result: object) -> int:
    if isinstance(result, ArenaResult):
        return int(result.decisions.sum())
    return sum(result.team(t).decisions for t in (0, 1))  # type: ignore[attr-defined]


def side(play: Callable[[], object]) -> Side:
    return lambda: decisions(play())


ROWS: dict[str, tuple[Side, Side]] = {
    "tienlen L1 x4": (side(lambda: simulate("tienlen", ["L1"] * 4, 200, seed=1)),
                      side(lambda: run_table("tienlen", ["L1"] * 4, 40, seed=1))),
    "tienlen random x4": (side(lambda: simulate("tienlen", ["random"] * 4, 400, seed=1)),
                          side(lambda: run_table("tienlen", ["random"] * 4, 80, seed=1))),
    "guandan L1": (side(lambda: simulate("guandan", ["L1", "L1"], 40, mode="hand", seed=1)),
                   side(lambda: run_table("guandan", ["L1"] * 4, 4, seed=1))),
}


def rate(play: Side) -> float:
    start = time.process_time()
    n = play()
    return n / (time.process_time() - start)


def quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    print(f"{'row':22} {'own dec/s':>10} {'table dec/s':>12} {'own/table':>10} {'IQR':>15} "
          f"{'own/own (A/A)':>14} {'IQR':>15}")
    for name, (own, table) in ROWS.items():
        own(), table()                          # warm: imports, caches
        owns, tables, ratios, spread = [], [], [], []
        for r in range(args.rounds):
            order = [("own", own), ("table", table), ("own2", own)]
            if r % 2:
                order.reverse()
            got = {label: rate(play) for label, play in order}
            owns.append(got["own"])
            tables.append(got["table"])
            ratios.append(got["own"] / got["table"])
            spread.append(got["own"] / got["own2"])
        lo, hi = quartiles(ratios)
        alo, ahi = quartiles(spread)
        print(f"{name:22} {statistics.median(owns):10,.0f} {statistics.median(tables):12,.0f} "
              f"{statistics.median(ratios):10.2f} {f'[{lo:.2f}, {hi:.2f}]':>15} "
              f"{statistics.median(spread):14.3f} {f'[{alo:.3f}, {ahi:.3f}]':>15}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
