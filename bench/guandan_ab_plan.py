"""This tree's Guandan L2 (the core's plan policy) against the L2 of another build of the
core, in the duplicate arena (first hands, both seatings per board), in one process.

    python bench/guandan_ab_plan.py --base /path/to/other/tienlen/_guandan.cpython-*.so --hands 600

The other build is loaded under another package name (``ab_cores.load_base``); its L2 is
this tree's PlanBot asking that module's ``plan_move``. Prints the arena table (hand wins,
mean place, levels per hand) with the paired A - B differences: A is this tree's L2. Every
decision is deterministic, so the numbers are exact reruns.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ab_cores import load_base  # noqa: E402
from tienlen.guandan import arena  # noqa: E402
from tienlen.guandan.bots import Decision, PlanBot, _plan_reason  # noqa: E402
from tienlen.guandan.cards import _wrap  # noqa: E402
from tienlen.guandan.game import GameView  # noqa: E402
from tienlen.guandan.plays import _make  # noqa: E402

BASE: ModuleType | None = None


class BasePlanBot(PlanBot):
    """L2 as the base build's plan policy plays it."""

    @property
    def name(self) -> str:
        return "L2(base)"

    def choose_play(self, view: GameView) -> Decision:
        assert BASE is not None
        seat, partner, sizes, hand = view.seat, view.partner, view.hand_sizes, view.hand
        owner = view.pile_owner
        flags = view.config.flags
        reason, a, b, code = BASE.plan_move(
            hand.once, hand.twice, view.level, 0 if view.pile is None else view.pile.code, flags,
            owner_partner=owner is not None and owner == partner,
            owner_left=0 if owner is None else sizes[owner], partner_left=sizes[partner],
            opponents_left=tuple(sizes[s] for s in range(4) if s != seat and s != partner))
        why = BASE.PLAN_REASONS[reason]
        if a == 0:
            return Decision("pass", None, _plan_reason(why, None, view))
        play = _make(_wrap(a, b), code, view.level, flags)
        return Decision("play", play, _plan_reason(why, play, view))


def main(argv: list[str] | None = None) -> int:
    global BASE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, type=Path)
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    BASE = load_base(args.base, "tienlen_base", "_guandan")
    result = arena.run("L2", BasePlanBot, hands=args.hands, seed=args.seed, jobs=1)
    print(result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
