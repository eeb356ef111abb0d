"""Strength of L3 with and without one of its parts, at a fixed, reproducible budget.

    python bench/solver_strength.py vs-l2 --games 2000 --iterations 200
    python bench/solver_strength.py head-to-head --games 1000 --iterations 200
    python bench/solver_strength.py vs-l2 --off infer --games 2000 --iterations 200
    python bench/solver_strength.py vs-l2 --games 4000 --time-ms 50 --jobs 2   # the issue's setting

``--off`` names the part switched off in the comparison: ``solver`` (the default: the
endgame solver) or ``infer`` (the inference of hidden hands from the opponents' play).
``vs-l2`` plays L3 against three L2, then L3 with that part off against the same deals and
seeds, and compares the two L3s' first-place rates paired by deal. ``head-to-head`` seats
two L3 against two L3-with-the-part-off (duplicate format) and compares their mean places.
``--only-on`` skips the second run of ``vs-l2``. Results go to stdout; docs/strength.md
records them.
"""

from __future__ import annotations

import argparse
import math
import time
from functools import partial

import numpy as np

from tienlen import arena
from tienlen.games.tienlen.bots import Bot, make_bot
from tienlen.games.tienlen.view import View

# CPU seconds of each L3 decision that searched (more than one action, none going out), for
# the CPU budget that stands in for wall-clock time on a shared machine. In this process
# only: with --jobs 1.
_CPU: list[float] = []


class _CpuTimed(Bot):
    """L3 that records the CPU time of each decision it searched."""

    def __init__(self, seed: int | None = None, **options: object) -> None:
        super().__init__(seed)
        self.inner = make_bot("L3", seed=seed, **options)

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, view: View):  # type: ignore[no-untyped-def]
        start = time.process_time()
        move = self.inner.choose(view)
        spent = time.process_time() - start
        if len(view.legal_moves()) + view.can_pass() > 1 and move != view.hand:
            _CPU.append(spent)
        return move


def _cpu_summary() -> str:
    if not _CPU:
        return "no CPU times (run with --jobs 1)"
    ms = np.array(_CPU) * 1000
    _CPU.clear()
    return (f"CPU ms per searched L3 decision: mean {ms.mean():.1f}, median {np.median(ms):.1f}, "
            f"90th percentile {np.percentile(ms, 90):.1f}, max {ms.max():.1f} over {len(ms)}")


def _budget(args: argparse.Namespace) -> dict:
    return {"iterations": args.iterations} if args.iterations else {"time_ms": args.time_ms}


def _run(lineup: list, args: argparse.Namespace) -> arena.ArenaResult:
    """The arena run; Ctrl-C (SIGINT) stops it and keeps the deals completed so far, which
    the report then covers (it says how many)."""
    try:
        result = arena.simulate("tienlen", lineup, args.games, seed=args.seed, jobs=args.jobs)
        assert isinstance(result, arena.ArenaResult)
        return result
    except arena.ArenaInterrupted as stop:
        if stop.result is None:
            raise
        print(f"stopped by Ctrl-C after {stop.result.games} of {args.games} games")
        return stop.result


def _paired(a: np.ndarray, b: np.ndarray) -> str:
    d = a - b
    se = d.std(ddof=1) / math.sqrt(len(d))
    z = d.mean() / se if se > 0 else 0.0
    p = math.erfc(abs(z) / math.sqrt(2))
    return (f"difference {d.mean() * 100:+.2f} points [{(d.mean() - 1.96 * se) * 100:+.2f}, "
            f"{(d.mean() + 1.96 * se) * 100:+.2f}] over {len(d)} deals, z = {z:.2f}, p = {p:.2g}")


def vs_l2(args: argparse.Namespace) -> None:
    firsts = []
    for on in (True, False)[:1 if args.only_on else 2]:
        l3 = partial(_CpuTimed, **{args.off: on}, **_budget(args))
        start, cpu = time.time(), time.process_time()
        r = _run([l3, "L2", "L2", "L2"], args)
        print(f"{args.off}={'on' if on else 'off'} ({time.time() - start:.0f} s, "
              f"{time.process_time() - cpu:.0f} s CPU in this process)")
        print(r.table())
        print(r.compare(0, [1, 2, 3]))
        print(_cpu_summary())
        # Per deal: the share of its rotations in which L3 went out first.
        firsts.append((r.places[:, :, 0] == 1).mean(axis=1))
    if len(firsts) == 2:
        print(f"first place, {args.off} on minus off, paired by deal:",
              _paired(firsts[0], firsts[1]))


def head_to_head(args: argparse.Namespace) -> None:
    on = partial(make_bot, "L3", **{args.off: True}, **_budget(args))
    off = partial(make_bot, "L3", **{args.off: False}, **_budget(args))
    start = time.time()
    r = _run([on, off, on, off], args)
    print(f"({time.time() - start:.0f} s)")
    print(r.table())
    print(r.compare([0, 2], [1, 3]))
    first = (r.places == 1)
    print("first place, on minus off, paired by deal:",
          _paired(first[:, :, [0, 2]].mean(axis=(1, 2)), first[:, :, [1, 3]].mean(axis=(1, 2))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("vs-l2", "head-to-head"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--time-ms", type=float, default=None,
                        help="a time budget instead of --iterations (not reproducible)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--off", choices=("solver", "infer"), default="solver",
                        help="the part of L3 that the comparison switches off")
    parser.add_argument("--only-on", action="store_true",
                        help="vs-l2: play only L3 with every part on")
    args = parser.parse_args()
    if args.time_ms:
        args.iterations = None
    (vs_l2 if args.what == "vs-l2" else head_to_head)(args)


if __name__ == "__main__":
    main()
