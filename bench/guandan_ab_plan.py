"""This tree's Guandan L2 (the core's plan policy), or L3 (whose playouts play it), against
the same level on another build of the core, in the duplicate arena (first hands, both
seatings per board), in one process.

    python bench/guandan_ab_plan.py --base /path/to/other/tienlen/_guandan.cpython-*.so --hands 600
    python bench/guandan_ab_plan.py --base OLD.so --level L3 --iterations 50 --hands 300
    python bench/guandan_ab_plan.py --base OLD.so --level L3 --iterations 30 --base-infer 0

The other build is loaded under another package name (``ab_cores.load_base``); its L2 is
this tree's PlanBot asking that module's ``plan_move``, its L3 this tree's SearchBot with
every core call (plan, legal plays, sampled states, playouts, solver) going to that module.
Prints the arena table (hand wins, mean place, levels per hand) with the paired A - B
differences: A is this tree's bot. Every decision is deterministic (L3 on ``--iterations``),
so the numbers are exact reruns.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ab_cores import load_base  # noqa: E402
from tienlen.arena import simulate  # noqa: E402
from tienlen.games.guandan import bots  # noqa: E402
from tienlen.games.guandan.bots import Decision, PlanBot, SearchBot  # noqa: E402
from tienlen.games.guandan.game import GameView  # noqa: E402

BASE: ModuleType | None = None


def _with_base(fn):
    """Run ``fn`` with the bots module's core swapped for the base build."""
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        assert BASE is not None
        saved = bots._guandan
        bots._guandan = BASE
        try:
            return fn(*args, **kwargs)
        finally:
            bots._guandan = saved
    return wrapped


class BasePlanBot(PlanBot):
    """L2 as the base build's plan policy plays it."""

    @property
    def name(self) -> str:
        return "L2(base)"

    @_with_base
    def choose_play(self, view: GameView) -> Decision:
        return bots.plan_decision(view)


class BaseSearchBot(SearchBot):
    """L3 on the base build's core (its plan, playouts and solver)."""

    @property
    def name(self) -> str:
        return super().name + "(base)"

    @_with_base
    def choose_play(self, view: GameView) -> Decision:
        return super().choose_play(view)


def main(argv: list[str] | None = None) -> int:
    global BASE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, type=Path)
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", choices=("L2", "L3"), default="L2")
    ap.add_argument("--iterations", type=int, default=50, help="L3's sampled deals a decision")
    ap.add_argument("--jobs", type=int, default=1,
                    help="worker processes (forked: they inherit the base build)")
    ap.add_argument("--base-infer", type=int, choices=(0, 1), default=1,
                    help="0: the base L3 samples deals without inference from passes (as "
                         "before issue 29's PlanPasses; a base core without it needs 0)")
    args = ap.parse_args(argv)
    BASE = load_base(args.base, "tienlen_base", "_guandan")
    if args.level == "L2":
        a, b = "L2", BasePlanBot
    else:
        a = functools.partial(SearchBot, iterations=args.iterations)
        b = functools.partial(BaseSearchBot, iterations=args.iterations,
                              infer=bool(args.base_infer))
    result = simulate("guandan", [a, b], args.hands, mode="hand", seed=args.seed, jobs=args.jobs)
    print(result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
