"""Exceptions raised by :mod:`tienlen.guandan`.

Every error is a :class:`ValueError`, and a :class:`~tienlen.table.errors.TienlenError`
(the base of every error of the package, whichever game raised it: a decision, not an
accident of history, see :mod:`tienlen.table.errors`), so a caller that only wants to reject bad input catches one type; the subclasses say
which input was wrong. A refused action (``tienlen.games.guandan.game.IllegalActionError``) and an
unreadable match file (``tienlen.games.guandan.match.ReplayError``) are the package's one
:class:`~tienlen.errors.IllegalActionError` and :class:`~tienlen.errors.ReplayError`
(the same class objects), which are :class:`GuandanError` too; :class:`GuandanError` itself
is defined in :mod:`tienlen.errors` for that reason and re-exported here.

>>> from tienlen.guandan import Cards
>>> try:
...     Cards.parse("5h 5h 5h")
... except ValueError as error:
...     print(error)
a third copy of 5♥ ('5h'): a hand holds at most two of each card
"""

from __future__ import annotations

from tienlen.errors import GuandanError, TienlenError

__all__ = ["GuandanError", "TienlenError", "CardError", "PlayError"]


class CardError(GuandanError):
    """Text, ids or masks that do not describe Guandan cards (or a third copy of a card).

    ``token`` is the offending piece of text, when there is one.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class PlayError(GuandanError):
    """A play, pile, level or rule configuration that cannot be used (G1-G4)."""
