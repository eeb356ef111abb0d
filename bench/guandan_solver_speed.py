"""Speed of the exact Guandan endgame solver (`tienlen._guandan.solve_value`, gd_solver.pxi)
per position, by the total number of cards still held.

Positions are real endgames: a seeded deal played by the PLAN policy (every seat L2) until
at most N cards are left in all hands together, at the first moment the seat to act faces a
decision. For each N the script reports the median and the worst CPU time and node count of
one exact solve (the value to the seat to act's team), and how many positions hit the node
limit ("unknown").

    python bench/guandan_solver_speed.py --positions 100 --sizes 8,12,16,20,24
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from tienlen import _guandan as core


def endgame(seed: int, total: int) -> core.GdState | None:
    """The PLAN playout of deal `seed` stopped once at most `total` cards are held."""
    s = core.GdState(core.deal(seed), level=2, leader=seed % 4)
    _, actions = s.playout_actions(seed, core.PLAN)
    for a, b, c in actions:
        if s.is_over:
            return None
        if sum(s.hand_size(p) for p in range(4)) <= total:
            return s
        s.apply(a, b, c)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--sizes", default="8,12,16,20,24")
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print(f"{args.positions} positions per size, node limit {args.max_nodes:,}, seed {args.seed}")
    print()
    print("| cards held (at most) | positions | median ms | worst ms | median nodes | worst nodes | unknown |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for total in (int(x) for x in args.sizes.split(",")):
        times: list[float] = []
        nodes: list[int] = []
        unknown = 0
        seed = args.seed * 1_000_003
        while len(times) < args.positions:
            seed += 1
            s = endgame(seed, total)
            if s is None:
                continue
            t0 = time.process_time()
            value, n = core.solve_value(s, max_nodes=args.max_nodes)
            times.append(1000 * (time.process_time() - t0))
            nodes.append(n)
            unknown += value is None
        print(f"| {total} | {len(times)} | {statistics.median(times):.3f} | {max(times):.1f} | "
              f"{int(statistics.median(nodes)):,} | {max(nodes):,} | {unknown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
