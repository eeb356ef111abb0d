"""Exact endgame solving: does a seat go out first by force, when every hand is known?

:func:`solve` asks the core's solver (``_core.solve``) whether ``seat`` can go out before
every other player still holding cards, whatever the others play, and for the line that
proves it. With two players left that is the exact value of the game (the first of the two
out ends the hand, R9.2). With three or four it is a stronger claim: the others are taken to
play together against the seat, so a :attr:`Value.WIN` holds against any opponents at all,
and a :attr:`Value.LOSS` only means that the others *could* stop it.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["3s 2h", "2d"], leader=0)
>>> result = solve(game)
>>> result.value, result.line
(<Value.WIN: 'win'>, (Cards.parse('2h'), PASS, Cards.parse('3s')))
>>> print(result)
seat 0 wins by force: 2♥, then pass, 3♠
>>> solve(game, seat=1).value
<Value.LOSS: 'loss'>
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.errors import TienlenError
from tienlen.games.tienlen.actions import PASS, Move
from tienlen.games.tienlen.game import Game

__all__ = ["solve", "Solution", "Value", "SolveError", "DEFAULT_MAX_NODES", "DEFAULT_MAX_MS"]

#: Default search limits: enough for two 13-card hands (bench/README.md), bounded anyway.
DEFAULT_MAX_NODES = 50_000_000
#: The default time limit of a search, in milliseconds.
DEFAULT_MAX_MS = 10_000


class SolveError(TienlenError):
    """A position or argument the solver cannot take (a hand that is over, a seat out of
    range or without cards, a view that hides the other hands, bad limits)."""


class Value(enum.Enum):
    """The solver's answer for the seat asked about."""

    #: The seat goes out first whatever the others play.
    WIN = "win"
    #: The others can stop it (with two players left: the opponent goes out first).
    LOSS = "loss"
    #: A limit (nodes or time) ended the search first.
    UNKNOWN = "unknown"


_VALUES = {_core.SOLVE_WIN: Value.WIN, _core.SOLVE_LOSS: Value.LOSS,
           _core.SOLVE_UNKNOWN: Value.UNKNOWN}


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found.

    ``line`` is the principal line from the position: the winning side's proving moves
    and the losing side's first-tried replies, up to and including the play that takes
    the first player out (empty when the value is UNKNOWN); ``movers`` says which seat
    makes each of its moves. ``nodes`` counts the
    positions searched, ``elapsed`` the seconds spent, and ``limit`` says which limit
    ended an UNKNOWN search (``"nodes"`` or ``"time"``).
    """

    value: Value
    seat: int
    to_act: int
    line: tuple[Move, ...]
    movers: tuple[int, ...]
    nodes: int
    elapsed: float
    limit: str | None = None

    @property
    def proven(self) -> bool:
        """Whether the search finished (the value is WIN or LOSS)."""
        return self.value is not Value.UNKNOWN

    @property
    def move(self) -> Move | None:
        """The first move of the line (the seat to act's), or None when unknown."""
        return self.line[0] if self.line else None

    def winning_moves(self) -> tuple[Move, ...]:
        """The seat's own moves along the line (its plan), when it wins; else ``()``."""
        if self.value is not Value.WIN:
            return ()
        return tuple(move for move, mover in zip(self.line, self.movers) if mover == self.seat)

    def __str__(self) -> str:
        if self.value is Value.UNKNOWN:
            return f"seat {self.seat}: unknown ({self.limit} limit reached after {self.nodes} positions)"
        words = [str(move) if move is not PASS else "pass" for move in self.line]
        verb = "wins" if self.value is Value.WIN else "loses"
        if not words:
            return f"seat {self.seat} {verb} by force"
        rest = f", then {', '.join(words[1:])}" if len(words) > 1 else ""
        return f"seat {self.seat} {verb} by force: {words[0]}{rest}"


def _state_of(game_or_state: object) -> _core.GameState:
    if isinstance(game_or_state, Game):
        return game_or_state._state
    if isinstance(game_or_state, _core.GameState):
        return game_or_state
    from tienlen.games.tienlen.view import View

    if isinstance(game_or_state, View):
        raise SolveError("a View hides the other hands; solve needs every hand "
                         "(pass the Game, or a GameState built from the hands)")
    raise SolveError(f"solve takes a Game or a GameState; got {type(game_or_state).__name__}")


def solve(game_or_state: Game | _core.GameState, seat: int | None = None, *,
          max_nodes: int = DEFAULT_MAX_NODES, max_ms: int = DEFAULT_MAX_MS) -> Solution:
    """Whether ``seat`` (default: the seat to act) goes out first by force; see the module
    docstring. The game or state is not changed. ``max_nodes`` and ``max_ms`` (0: no time
    limit) bound the search; hitting one gives :attr:`Value.UNKNOWN`. The search runs
    without the GIL; Ctrl-C stops it with KeyboardInterrupt. Bad input raises
    :class:`SolveError` (a ``ValueError``).
    """
    state = _state_of(game_or_state)
    if state.is_over:
        raise SolveError("the hand is over: there is nothing to solve")
    if seat is None:
        seat = state.turn
    if type(seat) is not int or not 0 <= seat < state.players:
        raise SolveError(f"seat must be None or a seat 0..{state.players - 1}; got {seat!r}")
    if state.hand(seat) == 0:
        raise SolveError(f"seat {seat} holds no cards: it has already gone out")
    for name, value in (("max_nodes", max_nodes), ("max_ms", max_ms)):
        if type(value) is not int or value < 0:
            raise SolveError(f"{name} must be an int >= 0; got {value!r}")
    start = time.perf_counter()
    try:
        code, masks, nodes, limit = _core.solve(state, seat, max_nodes, max_ms)
    except ValueError as error:
        raise SolveError(str(error)) from None
    elapsed = time.perf_counter() - start
    line = tuple(Cards(mask) if mask else PASS for mask in masks)
    return Solution(_VALUES[code], seat, state.turn, line, _movers(state, masks), nodes,
                    elapsed, limit)


def _movers(state: _core.GameState, masks: tuple[int, ...]) -> tuple[int, ...]:
    """Who makes each action of the line, by replaying it on a copy (checked)."""
    copy = state.copy()
    movers = []
    for mask in masks:
        movers.append(copy.turn)
        copy.apply_checked(mask)
    return tuple(movers)
