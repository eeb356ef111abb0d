"""Exceptions raised by the ``tienlen`` package.

Every error is a :class:`ValueError`, so callers that only want to reject bad input can
catch that one type; the subclasses say which kind of input was wrong. The errors
every game shares (a refused action, an unreadable file) are in :mod:`tienlen.table.errors`.

>>> from tienlen.games.tienlen.cards import Cards
>>> try:
...     Cards.parse("3s 1h")
... except ValueError as error:
...     print(error)
not a card: '1h' (unknown rank '1')
"""

from __future__ import annotations

__all__ = ["TienlenError", "CardParseError", "ComboError"]


class TienlenError(ValueError):
    """Base class of the errors raised by ``tienlen``, in every game (Guandan's too, on
    purpose: see :mod:`tienlen.table.errors`). This module imports nothing, so that any
    game or layer may use the base without loading another game."""


class CardParseError(TienlenError):
    """Text that does not describe a card or a set of cards.

    ``token`` is the offending piece of the text (``None`` when the input as a whole is
    wrong, for example not a string).

    >>> from tienlen.games.tienlen.cards import Card
    >>> try:
    ...     Card.parse("3x")
    ... except CardParseError as error:
    ...     print(error.token, "|", error)
    3x | not a card: '3x' (unknown suit 'x')
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class ComboError(TienlenError):
    """Cards that were required to form a combination (R2) and do not.

    >>> from tienlen.games.tienlen.plays import Combo
    >>> try:
    ...     Combo.from_cards("3s 5s")
    ... except ComboError as error:
    ...     print(error)
    not a combination: 3♠ 5♠
    """
