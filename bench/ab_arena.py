"""The arenas of two trees head to head: games per CPU-second of each game's arena (Tiến
Lên: random and L1 bots in every seat rotation; Guandan: L1 teams in both seatings, first
hands and whole matches), one child process per measurement, sides alternating round by
round in mirrored order. Each tree runs its own public entry point: ``tienlen.arena.simulate``
where it has one (the arena written once, issue 34), else the games' arena modules' ``run``.

    python bench/ab_arena.py --base /work/venvs/main/bin/python [--rounds 7]
    python bench/ab_arena.py --base PY --new PY        # A/A: the method's own noise

Each side's python imports its own tree (an editable install). Prints each row's median
games/s for both and the median per-round ratio new/base (above 1: the new tree is faster).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

_TIENLEN = ("try:\n    from tienlen.arena import simulate\n"
            "    f = lambda: simulate('tienlen', {lineup}, {games}, seed=1).games\n"
            "except ImportError:\n    from tienlen.games.tienlen import arena\n"
            "    f = lambda: arena.run({lineup}, {games}, seed=1).games")
_GUANDAN = ("try:\n    from tienlen.arena import simulate\n"
            "    f = lambda: simulate('guandan', ['L1', 'L1'], {games}, mode='{mode}', seed=1).games\n"
            "except ImportError:\n    from tienlen.games.guandan import arena\n"
            "    f = lambda: arena.run('L1', 'L1', {kind}={games}, seed=1).games")
ROWS = {
    "tienlen random x4": _TIENLEN.format(lineup=["random"] * 4, games=800),
    "tienlen L1 x4": _TIENLEN.format(lineup=["L1"] * 4, games=400),
    "guandan L1 hands": _GUANDAN.format(games=60, mode="hand", kind="hands"),
    "guandan L1 matches": _GUANDAN.format(games=4, mode="match", kind="matches"),
}
CHILD = ("import time\n{setup}\nf()\nt = time.process_time(); n = f(); t = time.process_time() - t\n"
         "print(n / t)")


def measure(python: str, setup: str) -> float:
    out = subprocess.run([python, "-W", "ignore::DeprecationWarning", "-c",
                          CHILD.format(setup=setup)], check=True, capture_output=True,
                         text=True).stdout
    return float(out.split()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the base tree's python")
    ap.add_argument("--new", default=sys.executable, help="the new tree's python (default: this one)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", default="", help="rows whose name contains this text")
    args = ap.parse_args()
    print(f"{'row':20} {'base games/s':>13} {'new games/s':>12} {'new/base':>9} {'IQR':>13}")
    for name, setup in ROWS.items():
        if args.only not in name:
            continue
        base, new, ratios = [], [], []
        for r in range(args.rounds):
            order = [(args.base, base), (args.new, new)]
            if r % 2:
                order.reverse()
            for python, into in order:
                into.append(measure(python, setup))
            ratios.append(new[-1] / base[-1])
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        print(f"{name:20} {statistics.median(base):13.0f} {statistics.median(new):12.0f} "
              f"{statistics.median(ratios):9.3f} [{q[0]:.3f}, {q[2]:.3f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
