"""A match: hand after hand, with a scoreboard (R10).

The first hand follows the first-hand rule (R7.2); every later hand is led by the previous
hand's winner, with any combination (R7.3). Hand *n* (1-based) is dealt from the seed
:func:`hand_seed` derives from the match seed, so a match seed fixes every deal.

>>> match = Match(3, seed=7)
>>> match.hand_number, match.game.seed == hand_seed(7, 1)
(1, True)
>>> from tienlen.game import PASS
>>> while not match.game.is_over:      # everyone plays their first legal move, or passes
...     _ = match.game.apply_unchecked(next(iter(match.game.legal_moves()), PASS))
>>> winner = match.game.finished[0]
>>> match.next_hand(); match.hand_number, match.game.turn == winner
(2, True)
>>> sum(match.scores), len(match.results)     # 2 + 1 + 0 points for the first hand
(3, 1)
"""

from __future__ import annotations

from typing import Final

from .errors import TienlenError
from .game import Game
from .rules import Rules
from .seeds import GOLDEN_GAMMA, SEED_LIMIT, check_players, seed_or_fresh, splitmix64

__all__ = ["Match", "MatchError", "hand_seed"]

_DEFAULT_RULES: Final = Rules()


class MatchError(TienlenError):
    """A match asked to do something out of order, such as dealing before a hand ends."""


def hand_seed(match_seed: int, number: int) -> int:
    """The deal seed of hand ``number`` (1-based) of the match seeded ``match_seed``.

    It is one splitmix64 step from ``match_seed + number * 0x9E3779B97F4A7C15`` (mod
    2**64), so consecutive hands, and matches with nearby seeds, get unrelated deals.

    >>> hand_seed(0, 1), hand_seed(0, 2)
    (16294208416658607535, 7960286522194355700)
    """
    return splitmix64((match_seed + (number - 1) * GOLDEN_GAMMA) % SEED_LIMIT)[1]


class Match:
    """A series of hands between the same seats, with a scoreboard (R10).

    A seat in place *p* (1 = first out) scores ``players - p`` points (R10.2): 3, 2, 1, 0
    with four players. :attr:`results` lists the finishing order of every completed hand,
    including the current one once it is over.

    >>> match = Match(4, seed=1)
    >>> match.next_hand()
    Traceback (most recent call last):
    ...
    tienlen.match.MatchError: hand 1 is not over yet: finish it before dealing the next
    """

    __slots__ = ("_players", "_seed", "_rules", "_game", "_number", "_done")

    def __init__(
        self,
        players: int = 4,
        *,
        seed: int | None = None,
        rules: Rules = _DEFAULT_RULES,
    ) -> None:
        check_players(players)
        seed = seed_or_fresh(seed)
        self._players = players
        self._seed = seed
        self._rules = rules
        self._number = 1
        self._done: list[tuple[int, ...]] = []
        self._game = Game(players, seed=hand_seed(seed, 1), rules=rules)

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._players

    @property
    def seed(self) -> int:
        """The match seed, from which every hand's deal seed derives (:func:`hand_seed`)."""
        return self._seed

    @property
    def rules(self) -> Rules:
        """The ruleset of every hand."""
        return self._rules

    @property
    def game(self) -> Game:
        """The current hand."""
        return self._game

    @property
    def hand_number(self) -> int:
        """The current hand's number, 1 for the first."""
        return self._number

    def next_hand(self) -> None:
        """Deal the next hand, led by the winner of the one just finished (R7.3, R10.1).
        Raises :class:`MatchError` (a ``ValueError``) while the current hand is in play."""
        if not self._game.is_over:
            raise MatchError(
                f"hand {self._number} is not over yet: finish it before dealing the next")
        finished = self._game.finished
        self._done.append(finished)
        self._number += 1
        self._game = Game(self._players, seed=hand_seed(self._seed, self._number),
                          rules=self._rules, leader=finished[0])

    @property
    def results(self) -> list[tuple[int, ...]]:
        """The finishing order of every completed hand, oldest first (a new list)."""
        results = list(self._done)
        if self._game.is_over:
            results.append(self._game.finished)
        return results

    @property
    def place_counts(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, how many times it finished in each place: ``place_counts[seat][0]`` is
        its number of wins."""
        counts = [[0] * self._players for _ in range(self._players)]
        for order in self.results:
            for place, seat in enumerate(order):
                counts[seat][place] += 1
        return tuple(tuple(row) for row in counts)

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, its points over the completed hands (R10.2)."""
        n = self._players
        return tuple(
            sum(count * (n - 1 - place) for place, count in enumerate(row))
            for row in self.place_counts
        )

    def __repr__(self) -> str:
        return (f"<Match players={self._players} hand={self._number} "
                f"scores={self.scores}>")
