"""Moves and action records: :data:`PASS`, :data:`Move`, :class:`Action`.

One small module that the game, the views, the bots, the solver and the replays share, so
that a move means the same thing everywhere:

- :data:`Move` is what a bot returns and a history records: :class:`~tienlen.games.tienlen.cards.Cards`
  to play, or :data:`PASS`.
- :data:`MoveLike` is what :meth:`tienlen.games.tienlen.game.Game.act` also accepts: a move, or anything
  :data:`CardsLike` (card text, a mask, card ids).
- :class:`Action` is one recorded action of a hand.

>>> from tienlen.games.tienlen.cards import Cards
>>> PASS, Action(1, "pass", None, None).move is PASS
(PASS, True)
>>> str(Action(0, "play", Cards.parse("3s"), None))
'seat 0 plays 3♠'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, NamedTuple, Union

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.plays import Combo

__all__ = ["PASS", "Move", "MoveLike", "CardsLike", "Action"]


class _PassType:
    """The type of :data:`PASS`; there is exactly one instance."""

    __slots__ = ()
    _instance: _PassType | None = None

    def __new__(cls) -> _PassType:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> str:
        # Pickles as a reference to the module-level name, so unpickling keeps `is PASS` true.
        return "PASS"


#: The pass move: what a bot returns to pass, and what :meth:`Game.act` takes.
PASS: Final = _PassType()

#: Anything that names a set of cards: :class:`Cards`, card text, a mask, or one :class:`Card`.
CardsLike = Union[Cards, str, int, Iterable[int]]
#: A move: cards to play, or :data:`PASS` (what a bot returns, what a history records).
Move = Union[Cards, _PassType]
#: A move, or anything that names the cards of one (what :meth:`Game.act` takes).
MoveLike = Union[CardsLike, _PassType]


class Action(NamedTuple):
    """One action taken in a hand, as recorded in :attr:`Game.history`: a small frozen
    record ``(seat, action, cards, combo)``. It is a named tuple because a record is made on
    every action of every game, and a tuple is several times cheaper to build than a frozen
    dataclass.

    ``action`` is ``"play"`` or ``"pass"``; for a pass ``cards`` and ``combo`` are ``None``.

    >>> from tienlen.games.tienlen.game import Game
    >>> game = Game.from_hands(["3s 4s", "5s 9h"])
    >>> act = game.play("3s")
    >>> act.seat, act.action, act.cards, act.combo.kind.name, act.move
    (0, 'play', Cards.parse('3s'), 'SINGLE', Cards.parse('3s'))
    >>> passed = game.pass_turn()
    >>> passed.cards, passed.combo, passed.move, str(passed), game.history == (act, passed)
    (None, None, PASS, 'seat 1 passes', True)
    """

    seat: int
    action: Literal["play", "pass"]
    cards: Cards | None
    combo: Combo | None

    @property
    def is_pass(self) -> bool:
        """Whether this action is a pass."""
        return self.cards is None

    @property
    def move(self) -> Move:
        """The move as a bot would return it: the cards played, or :data:`PASS`."""
        return PASS if self.cards is None else self.cards

    def __str__(self) -> str:
        if self.cards is None:
            return f"seat {self.seat} passes"
        return f"seat {self.seat} plays {self.cards}"


# Building the record straight from a tuple skips the named tuple's Python-level __new__.
_new_action = tuple.__new__

# A pass carries nothing but the seat, so the four possible pass records are shared.
_PASSES = tuple(Action(seat, "pass", None, None) for seat in range(4))
