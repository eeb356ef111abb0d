"""The match driver: hand after hand of any game, written once.

A match deals a hand, lets it be played, settles it when it ends (points, levels, penalties:
the game's business) and deals the next, led as the game says, until the game says the
match is over. :class:`MatchDriver` is that loop; a game gives it three hooks:

``_settle(hand)``
    the finished hand's result (Tiến Lên: its finishing order and score; Guandan: the
    levels after it);
``_record(result)``
    keep the result on the match's scoreboard;
``_next_deal(hand, result)``
    the next hand (its seed from :mod:`tienlen.seeds`, its leader or tribute from the
    result), or ``None`` when the match is over.

When the next hand is dealt is the one difference between the games, and a class attribute
says it (:attr:`MatchDriver.DEALS_AT_HAND_END`): Tiến Lên's match keeps the finished hand
on screen until :meth:`MatchDriver.next_hand` is called (a scoreboard between hands);
Guandan's deals inside the action that ends a hand (its tribute is judged on the new deal).
Either way the driver closes a hand once, under the lock the game's actions take, so two
threads never deal twice.

The driver knows no game: :class:`tienlen.games.tienlen.match.Match` and
:class:`tienlen.games.guandan.match.Match` are its subclasses, and a third game (the tests' toy
climbing game) is one more subclass with its own three hooks.

>>> class Flip:                       # a "hand" that is over as soon as it is dealt
...     is_over = True
>>> class Flips(MatchDriver[Flip, int]):
...     __slots__ = ("_game", "results")
...     def __init__(self) -> None:
...         self._game, self.results = Flip(), []
...     def _settle(self, hand: Flip) -> int:
...         return len(self.results) + 1
...     def _record(self, result: int) -> None:
...         self.results.append(result)
...     def _next_deal(self, hand: Flip, result: int) -> Flip | None:
...         return Flip() if result < 2 else None       # two hands make the match
>>> flips = Flips(); flips.next_hand(); flips.next_hand(); flips.results
[1, 2]
"""

from __future__ import annotations

import threading
from abc import abstractmethod
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .errors import TienlenError

__all__ = ["MatchDriver", "MatchStateError", "Hand"]


class MatchStateError(TienlenError):
    """A match asked to do something out of order, such as dealing before a hand ends."""


class Hand(Protocol):
    """What the driver needs of one hand: whether it is over."""

    @property
    def is_over(self) -> bool: ...


H = TypeVar("H", bound=Hand)
R = TypeVar("R")


class MatchDriver(Generic[H, R]):
    """Hands of one game in a row (see the module's docstring). A subclass stores the
    current hand as ``_game`` and implements the three hooks; the driver closes hands and
    deals the next ones.

    ``_LOCK`` is the lock the game's actions take (each game has one); a subclass that
    shares no lock with its hands gets its own.
    """

    __slots__ = ()

    #: Whether the next hand is dealt as soon as a hand ends (inside the action that ends
    #: it), rather than when :meth:`next_hand` is called.
    DEALS_AT_HAND_END: ClassVar[bool] = False
    #: The lock the game's actions and the driver's deals take.
    _LOCK: ClassVar[Any] = threading.RLock()
    #: The error a refused :meth:`next_hand` raises (a game may name its own).
    _STATE_ERROR: ClassVar[type[ValueError]] = MatchStateError

    _game: H

    # ---------------------------------------------------------------- the game's hooks

    @abstractmethod
    def _settle(self, hand: H) -> R:
        """The result of ``hand``, which is over."""

    @abstractmethod
    def _record(self, result: R) -> None:
        """Keep ``result`` on the match's scoreboard."""

    @abstractmethod
    def _next_deal(self, hand: H, result: R) -> H | None:
        """The hand after ``hand`` (whose result is ``result``), or None: the match is over."""

    # ---------------------------------------------------------------- the loop, once

    @property
    def game(self) -> H:
        """The current hand (the last one once the match is over)."""
        return self._game

    def _close_hand(self) -> R:
        """Settle the current hand, which is over, record its result and deal the next
        unless the match is over. The caller holds ``_LOCK``."""
        hand = self._game
        result = self._settle(hand)
        self._record(result)
        following = self._next_deal(hand, result)
        if following is not None:
            self._game = following  # type: ignore[misc]  # (a slot of the subclass)
        return result

    def _after_action(self) -> None:
        """Call after every action on the current hand (under ``_LOCK``): a game that deals
        at a hand's end closes the hand here."""
        if self.DEALS_AT_HAND_END and self._game.is_over:
            self._close_hand()

    def next_hand(self) -> None:
        """Deal the next hand (a game that deals at a hand's end has nothing to deal here).
        Raises the game's state error (a ``ValueError``) while the current hand is in play."""
        # One check-then-deal at a time: two threads could otherwise both see the hand over
        # and deal twice (a hand recorded twice and a number skipped).
        with self._LOCK:
            if self.DEALS_AT_HAND_END:
                raise self._STATE_ERROR("this match deals each hand as the last one ends")
            if not self._game.is_over:
                raise self._STATE_ERROR(self._not_over_message())
            self._close_hand()

    def _not_over_message(self) -> str:
        return "the hand is not over yet: finish it before dealing the next"
