"""Solve-time percentiles of the endgame solver over seeded random positions.

    python bench/solver_stats.py                     # 2 players, 13 cards each, 200 positions
    python bench/solver_stats.py --players 3 --cards 6
    python bench/solver_stats.py -n 1000 --limit-ms 10000 --rules no-twos

A position: ``players`` hands of ``cards`` cards dealt from a shuffled deck; half the
positions start on a fresh lead, the other half on a pile, a random combination of the
cards nobody holds, played by the seat before the one to act. Each is solved for the seat
to act with ``max_ms`` = ``--limit-ms``; the script prints the median, 95th percentile and
maximum time, and how many positions hit the limit (UNKNOWN). It prints wall-clock times
and, beside them, the CPU time of the solving thread (``time.thread_time``), which a busy
machine inflates far less: on a shared machine, judge by the CPU line.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tienlen import _core
from tienlen.games.tienlen.rules import Rules


def position(seed: int, players: int, cards: int, flags: int) -> _core.GameState:
    """The seeded random position described in the module docstring."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[p * cards:(p + 1) * cards]) for p in range(players)]
    aside = sum(1 << c for c in deck[players * cards:])
    turn = rng.randrange(players)
    if rng.random() < 0.5 or aside == 0:
        return _core.GameState(hands, leader=turn, flags=flags)
    moves = _core.legal_moves(aside, 0, flags)
    pile = int(moves[rng.randrange(len(moves))])
    return _core.GameState.from_fields(hands, pile_mask=pile, pile_owner=(turn - 1) % players,
                                       turn=turn, flags=flags)


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by the nearest-rank method."""
    index = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[index]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="positions (default 200)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--cards", type=int, default=13, help="cards per hand (default 13)")
    parser.add_argument("--seed", type=int, default=0, help="first position's seed")
    parser.add_argument("--limit-ms", type=int, default=10_000, help="max_ms per solve")
    parser.add_argument("--rules", default="default", choices=Rules.NAMES)
    args = parser.parse_args(argv)
    flags = Rules.from_name(args.rules).flags
    times, cpu, nodes, unknown, wins = [], [], [], 0, 0
    for i in range(args.n):
        state = position(args.seed + i, args.players, args.cards, flags)
        start, start_cpu = time.perf_counter(), time.thread_time()
        value, _line, count, _limit = _core.solve(state, max_ms=args.limit_ms,
                                                  max_nodes=1 << 40)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
        nodes.append(count)
        unknown += value == _core.SOLVE_UNKNOWN
        wins += value == _core.SOLVE_WIN
    times.sort()
    cpu.sort()
    print(f"{args.n} positions, {args.players} players x {args.cards} cards, rules {args.rules}, "
          f"seeds {args.seed}..{args.seed + args.n - 1}, limit {args.limit_ms} ms")
    for what, xs in (("wall", times), ("cpu ", cpu)):
        print(f"{what}: median {percentile(xs, 50):.2f} ms   p95 {percentile(xs, 95):.2f} ms   "
              f"max {xs[-1]:.1f} ms   mean {statistics.fmean(xs):.2f} ms")
    print(f"median nodes {int(statistics.median(nodes))}   max nodes {max(nodes)}   "
          f"unknown (limit hit) {unknown}   wins for the seat to act {wins}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
