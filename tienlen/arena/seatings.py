"""Seatings: who sits where in each game of a deal, as data the engine plays, and what one
game's row holds on file.

Two ways to seat a lineup so that the luck of the deal cancels out (duplicate play):

:class:`Rotations`
    Every deal once per seat rotation: ``players`` games, in game ``k`` entry ``e`` sits in
    seat ``(e + k) % players``. Each entry plays every hand of every deal. A game's numbers
    are per entry: its finishing place, its decisions and the seconds it spent on them
    (:class:`Unit`).
:class:`TeamSeatings`
    Every deal (a *board*) twice, two teams of partners: team A holds the deal's first team's
    seats, then its second's, team B the others. A game's numbers are per team: matches and
    hands won, the partners' places, levels gained (:class:`TeamUnit`). A board is a whole
    match (``"match"`` mode) or its first hand (``"hand"``).

A game's loop (:mod:`tienlen.arena.loops`) reads its seat map here; the engine
(:mod:`tienlen.arena.runs`) plays deals ``start..stop-1`` of a seating into a unit, the
statistics (:mod:`tienlen.arena.stats`) are made from units, and the results files
(:mod:`tienlen.arena.files`) write a unit as rows and read it back. Imports no game.

>>> Rotations(3).seat_of(1), Rotations(3).entry_at(1)    # game 1: entry 0 in seat 1 ...
((1, 2, 0), (2, 0, 1))
>>> TeamSeatings().sides(((0, 2), (1, 3)), 1)           # seating 1: team A takes seats 1, 3
((1, 3), (0, 2))
>>> TeamSeatings().team_at(((0, 2), (1, 3)), 0)
(0, 1, 0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

import numpy as np

from tienlen.seeds import board_bot_seed, mix

__all__ = ["Rotations", "TeamSeatings", "Unit", "TeamUnit", "Mode", "MODES", "ROTATIONS",
           "TEAMS"]

#: The kind of a seating where every deal is played once per rotation of the seats (Tiến
#: Lên's), as a game's loop declares it (its ``seating``).
ROTATIONS: Final = "rotations"
#: The kind of a seating where two teams of two swap seats on each board (Guandan's).
TEAMS: Final = "teams"
#: What one board of team seatings is: a whole match, or its first hand.
Mode = Literal["match", "hand"]
#: The values of :data:`Mode`.
MODES: Final = ("match", "hand")


# --- the seat maps -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rotations:
    """Every deal once per seat rotation: ``players`` games a deal."""

    players: int
    kind: ClassVar[str] = ROTATIONS

    @property
    def games_per_deal(self) -> int:
        return self.players

    def seat_of(self, k: int) -> tuple[int, ...]:
        """Each entry's seat in game ``k`` of a deal."""
        n = self.players
        return tuple((e + k) % n for e in range(n))

    def entry_at(self, k: int) -> tuple[int, ...]:
        """The entry in each seat in game ``k`` of a deal."""
        n = self.players
        return tuple((s - k) % n for s in range(n))

    @staticmethod
    def bot_seed(seed: int, deal: int, k: int, entry: int) -> int:
        """The seed of entry ``entry``'s bot in game ``k`` of ``deal`` (splitmix64 over the
        four, :func:`tienlen.seeds.mix`): every run of the same seed seats the same bots."""
        return mix(seed, deal, k, entry)

    def unit_rule(self) -> str:
        """What ``--unit-games`` must be a multiple of, in words."""
        return f"players ({self.players})"


@dataclass(frozen=True, slots=True)
class TeamSeatings:
    """Every board twice, team A (entry 0) holding the deal's first team's seats, then its
    second's; the cards, the first leader and every seat's bot seed are the same in both
    games, so a team's edge from good cards in one seating is the other team's in the next."""

    kind: ClassVar[str] = TEAMS
    games_per_deal: ClassVar[int] = 2

    @staticmethod
    def sides(teams: Sequence[Sequence[int]], k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(team A's seats, team B's seats) in seating ``k`` (0 or 1) of a deal whose two
        teams sit at ``teams`` (the game's: seats 0 and 2, 1 and 3 unless drawn)."""
        first, second = tuple(teams[0]), tuple(teams[1])
        return (first, second) if k == 0 else (second, first)

    @classmethod
    def team_at(cls, teams: Sequence[Sequence[int]], k: int) -> tuple[int, ...]:
        """The team (0: A, 1: B) in each seat in seating ``k``."""
        a, b = cls.sides(teams, k)
        seats = len(a) + len(b)
        return tuple(0 if s in a else 1 for s in range(seats))

    @staticmethod
    def bot_seed(seed: int, board: int, seat: int) -> int:
        """The seed of the bot in ``seat`` on ``board``: the same in both seatings, so that
        equal teams play the two games of a board identically
        (:func:`tienlen.seeds.board_bot_seed`)."""
        return board_bot_seed(seed, board, seat)

    @staticmethod
    def unit_rule() -> str:
        return "2 (a board is two games)"


# --- the numbers of a unit of deals ---------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Unit:
    """A work unit's games of a rotation run: deals ``start..stop-1``, each in every seat
    rotation.

    The arrays are indexed ``[deal - start, rotation, entry]``: ``places`` (1 = first out),
    ``decisions`` (the entry's moves in that game) and ``seconds`` (the time it spent
    choosing them). A run is the union of its units, and since every game's seeds come
    from its indices alone, how a run is cut into units never changes its results.
    """

    start: int
    stop: int
    places: np.ndarray
    decisions: np.ndarray
    seconds: np.ndarray

    @property
    def games(self) -> int:
        return int(self.places.shape[0] * self.places.shape[1])

    @classmethod
    def empty(cls, start: int, deals: int, players: int, entries: int) -> Unit:
        shape = (deals, players, entries)
        return cls(start, start + deals, np.zeros(shape, np.int8), np.zeros(shape, np.int32),
                   np.zeros(shape))

    def head(self, deals: int) -> Unit:
        """The first ``deals`` deals."""
        return Unit(self.start, self.start + deals, self.places[:deals],
                    self.decisions[:deals], self.seconds[:deals])

    @staticmethod
    def join(parts: Sequence[Unit]) -> Unit:
        """Consecutive units as one."""
        if len(parts) == 1:
            return parts[0]
        return Unit(parts[0].start, parts[-1].stop, np.concatenate([p.places for p in parts]),
                    np.concatenate([p.decisions for p in parts]),
                    np.concatenate([p.seconds for p in parts]))


@dataclass(frozen=True, slots=True, eq=False)
class TeamUnit:
    """Boards ``start..stop-1`` of a team-seatings run, each in both seatings. Arrays are
    indexed ``[board - start, seating, team]`` (team 0 is A), except ``hands`` (``[board -
    start, seating]``) and ``a_seats`` (``[board - start, seating]``: team A's two seats,
    the others are B's): ``match_wins`` (1 if the team won the match, 0 for both when the
    hand cap stopped it; in hand mode nothing, 0), ``hand_wins`` (hands whose first out was
    the team's), ``place_sums`` (the team's two players' places, 1..4, summed over the
    hands), ``levels`` (levels gained, summed), ``decisions`` and ``seconds`` (the
    wall-clock seconds its bots spent deciding)."""

    start: int
    stop: int
    hands: np.ndarray
    a_seats: np.ndarray
    match_wins: np.ndarray
    hand_wins: np.ndarray
    place_sums: np.ndarray
    levels: np.ndarray
    decisions: np.ndarray
    seconds: np.ndarray

    _ARRAYS: ClassVar[tuple[str, ...]] = ("hands", "a_seats", "match_wins", "hand_wins",
                                          "place_sums", "levels", "decisions", "seconds")

    @property
    def games(self) -> int:
        return 2 * (self.stop - self.start)

    @classmethod
    def empty(cls, start: int, boards: int) -> TeamUnit:
        def ints() -> np.ndarray:
            return np.zeros((boards, 2, 2), np.int32)

        return cls(start, start + boards, hands=np.zeros((boards, 2), np.int32),
                   a_seats=np.zeros((boards, 2, 2), np.int8), match_wins=ints(),
                   hand_wins=ints(), place_sums=ints(), levels=ints(), decisions=ints(),
                   seconds=np.zeros((boards, 2, 2)))

    def head(self, boards: int) -> TeamUnit:
        """The first ``boards`` boards."""
        return TeamUnit(self.start, self.start + boards,
                        *(getattr(self, name)[:boards] for name in self._ARRAYS))

    @staticmethod
    def join(parts: Sequence[TeamUnit]) -> TeamUnit:
        """Consecutive units as one."""
        if len(parts) == 1:
            return parts[0]
        return TeamUnit(parts[0].start, parts[-1].stop,
                        *(np.concatenate([getattr(p, name) for p in parts])
                          for name in TeamUnit._ARRAYS))
