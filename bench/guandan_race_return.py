"""Match endings with a return that looks at the level race (issue 35): L2 that, at the
standings chosen, gives back the lowest allowed value (the best split among its faces) to
keep the payer weak, instead of the card that leaves its own hand the best split (the
plan's return, :mod:`tienlen.games.guandan.exchange`). Not in the package: it lost every
comparison (docs/strength.md, "Whole matches from level 2 (issue 35)").

Played by ``guandan_race.py`` (its boards, seatings and report), with four more teams:
``race:ours`` (the receiver's team plays at its A), ``race:theirs`` (the payer's team is at
its A), ``race:either`` and ``race:always``; every other team as there.

    python bench/guandan_race_return.py --a race:ours --b L2 --opponent L2 --boards 2000 --seed 11
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import guandan_race  # noqa: E402
from guandan_ab_vs import team as _bench_team  # noqa: E402
from tienlen.games.guandan.bots import PlanBot, _team  # noqa: E402
from tienlen.games.guandan.cards import Cards  # noqa: E402
from tienlen.games.guandan.exchange import split_cost  # noqa: E402
from tienlen.games.guandan.game import return_candidates, single_value  # noqa: E402
from tienlen.games.guandan.view import GameView  # noqa: E402


class RaceReturn(PlanBot):
    """L2 whose return is the lowest allowed value where ``when(view)`` holds in a match."""

    def __init__(self, seed: int | None = None, *, when: Callable[[GameView], bool]) -> None:
        super().__init__(seed)
        self.when = when

    def return_card(self, view: GameView) -> int:
        if view.standing is None or not self.when(view):
            return super().return_card(view)
        cands = return_candidates(view.hand, view.level, view.config)
        low = min(single_value(c, view.level) for c in cands)
        lows = [c for c in cands if single_value(c, view.level) == low]
        return min(lows, key=lambda c: (split_cost(view.hand - Cards([c]), view.level,
                                                   view.config), c))


WHEN: dict[str, Callable[[GameView], bool]] = {
    "ours": lambda v: v.standing is not None and v.standing.at_ace(_team(v)),
    "theirs": lambda v: v.standing is not None and v.standing.at_ace(1 - _team(v)),
    "either": lambda v: v.standing is not None and (v.standing.at_ace(0)
                                                    or v.standing.at_ace(1)),
    "always": lambda v: True,
}


def team(spec: str) -> Any:
    """``race:WHEN`` (a key of :data:`WHEN`), else ``guandan_race.py``'s teams."""
    if spec.startswith("race:"):
        if spec[5:] not in WHEN:
            raise SystemExit(f"unknown {spec!r}: race:{'|'.join(WHEN)}")
        return functools.partial(RaceReturn, when=WHEN[spec[5:]])
    return _bench_team(spec)


setattr(guandan_race, "team", team)      # play_board seats its teams through this name

if __name__ == "__main__":
    sys.exit(guandan_race.main())
