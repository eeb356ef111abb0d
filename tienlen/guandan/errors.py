"""Exceptions raised by :mod:`tienlen.guandan`.

Every error is a :class:`ValueError` (through :class:`tienlen.errors.TienlenError`), so a
caller that only wants to reject bad input catches one type; the subclasses say which input
was wrong.

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
