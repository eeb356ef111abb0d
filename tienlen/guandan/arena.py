"""Duplicate matches between two Guandan bot teams: every deal is played twice, the teams
swapping seats, so that the luck of the cards cancels (issue 17's arena).

>>> report = run_duplicate("L2", "L1", hands=4, seed=1)
>>> report.hands, 0.0 <= report.win_rate <= 1.0
(8, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .bots import make_bot
from .game import Game, _mix

__all__ = ["DuplicateReport", "play_hand", "run_duplicate"]


def play_hand(seed: int, levels: tuple[str, str, str, str], bot_seed: int = 0) -> tuple[int, ...]:
    """One hand from deal ``seed`` with a bot of ``levels[s]`` in seat s; the places."""
    game = Game(seed=seed)
    bots = [make_bot(levels[s], seed=(bot_seed * 4 + s) & 0xFFFFFFFF) for s in range(4)]
    while not game.is_over:
        seat = game.turn
        assert seat is not None  # someone acts until the hand is over
        kind, cards = bots[seat].decide(game.view(seat))
        game.act(kind, cards, seat)
    places = game.places
    assert places is not None  # the hand is over
    return places


@dataclass
class DuplicateReport:
    """Team A against team B over duplicated deals."""

    team_a: str
    team_b: str
    hands: int = 0
    wins_a: int = 0
    places_a: list[float] = field(default_factory=list)   # mean place of A's two players per hand
    pair_scores: list[float] = field(default_factory=list)  # per deal: A's wins in its two hands

    @property
    def win_rate(self) -> float:
        return self.wins_a / self.hands if self.hands else 0.0

    def win_interval(self) -> tuple[float, float]:
        """95% interval of A's hand-win rate over deals (the pair of hands is the unit)."""
        n = len(self.pair_scores)
        if n < 2:
            return (0.0, 1.0)
        xs = [x / 2 for x in self.pair_scores]
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (max(0.0, mean - half), min(1.0, mean + half))

    def mean_place(self) -> tuple[float, float]:
        a = sum(self.places_a) / len(self.places_a) if self.places_a else 0.0
        return a, 5.0 - a

    def z_score(self) -> float:
        """Paired z of A's win rate against 1/2 (deal pairs as units)."""
        n = len(self.pair_scores)
        if n < 2:
            return 0.0
        xs = [x / 2 - 0.5 for x in self.pair_scores]
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        return mean / math.sqrt(var / n) if var > 0 else (math.inf if mean > 0 else 0.0)

    def table(self) -> str:
        lo, hi = self.win_interval()
        pa, pb = self.mean_place()
        return "\n".join([
            f"Guandan duplicate: {self.hands} hands ({self.hands // 2} deals, teams swapped)",
            f"team        first-out rate   95% interval     mean place",
            f"A {self.team_a:<8}  {self.win_rate:14.3f}   [{lo:.3f}, {hi:.3f}]   {pa:10.2f}",
            f"B {self.team_b:<8}  {1 - self.win_rate:14.3f}   [{1 - hi:.3f}, {1 - lo:.3f}]   {pb:10.2f}",
            f"paired z (A vs 50%): {self.z_score():.2f}",
        ])

    def to_dict(self) -> dict[str, object]:
        return {"team_a": self.team_a, "team_b": self.team_b, "hands": self.hands,
                "win_rate_a": self.win_rate, "interval_a": list(self.win_interval()),
                "mean_place": list(self.mean_place()), "z": self.z_score()}


def run_duplicate(team_a: str, team_b: str, *, hands: int, seed: int = 0) -> DuplicateReport:
    """``hands`` deals, each played twice: A in seats 0 and 2, then A in seats 1 and 3."""
    report = DuplicateReport(team_a, team_b)
    for i in range(hands):
        deal_seed = _mix(seed, 50_000 + i)
        score = 0
        for swap in (False, True):
            lv = (team_b, team_a, team_b, team_a) if swap else (team_a, team_b, team_a, team_b)
            places = play_hand(deal_seed, lv, i)
            a_seats = (1, 3) if swap else (0, 2)
            report.hands += 1
            win = places[0] in a_seats
            report.wins_a += win
            score += win
            report.places_a.append(sum(places.index(s) + 1 for s in a_seats) / 2)
        report.pair_scores.append(score)
    return report
