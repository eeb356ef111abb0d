"""Exceptions raised by :mod:`tienlen.guandan`.

Every error is a :class:`ValueError`, and a :class:`~tienlen.table.errors.TienlenError`
(the base of every error of the package, whichever game raised it: a decision, not an
accident of history, see :mod:`tienlen.table.errors`), so a caller that only wants to reject bad input catches one type; the subclasses say
which input was wrong. A refused action (:class:`tienlen.games.guandan.game.IllegalActionError`) and an
unreadable match file (:class:`tienlen.games.guandan.match.ReplayError`) are also the table
layer's shared :class:`~tienlen.table.errors.IllegalActionError` and
:class:`~tienlen.table.errors.ReplayError`.

>>> from tienlen.guandan import Cards
>>> try:
...     Cards.parse("5h 5h 5h")
... except ValueError as error:
...     print(error)
a third copy of 5♥ ('5h'): a hand holds at most two of each card
"""

from __future__ import annotations

from tienlen.errors import TienlenError

__all__ = ["GuandanError", "CardError", "PlayError"]


class GuandanError(TienlenError):
    """Base class of the errors raised by :mod:`tienlen.guandan`."""


class CardError(GuandanError):
    """Text, ids or masks that do not describe Guandan cards (or a third copy of a card).

    ``token`` is the offending piece of text, when there is one.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class PlayError(GuandanError):
    """A play, pile, level or rule configuration that cannot be used (G1-G4)."""
