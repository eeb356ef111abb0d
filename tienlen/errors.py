"""Exceptions raised by the ``tienlen`` package.

Every error is a :class:`ValueError`, so callers that only want to reject bad input can
catch that one type; the subclasses say which kind of input was wrong. The errors every
game shares are defined here once, one class per meaning: :class:`IllegalActionError` (an
action the game refused) and :class:`ReplayError` (a file that cannot be read). Every other
name they had (``tienlen.table.errors``, ``tienlen.rl.common``, ``tienlen.guandan``'s
``IllegalActionError`` and ``ReplayError``, Tiến Lên's ``replay.ReplayError``) is an alias
of the same class object, so each old import and each ``except`` clause keeps working.

>>> from tienlen.games.tienlen.cards import Cards
>>> try:
...     Cards.parse("3s 1h")
... except ValueError as error:
...     print(error)
not a card: '1h' (unknown rank '1')
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Final

__all__ = ["TienlenError", "GuandanError", "IllegalActionError", "ReplayError",
           "NUMBERED_REASONS", "CardParseError", "ComboError"]


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


class GuandanError(TienlenError):
    """Base class of the errors raised by :mod:`tienlen.guandan` (re-exported by
    :mod:`tienlen.games.guandan.errors`, its home by name).

    It is defined here, below every game, because the one :class:`IllegalActionError` and
    the one :class:`ReplayError` are ``GuandanError`` too: Guandan's refusals and unreadable
    match files always were, and an ``except GuandanError`` around a Guandan call keeps
    catching them. (That a Tiến Lên refusal is one too is the price of one class per
    meaning; nothing in Tiến Lên catches ``GuandanError``.)
    """


#: The refusal codes that have a number (Guandan's plan, G8, in its order: ``code`` 1-8),
#: ``IllegalActionError.code`` for a refusal of one of these reasons.
NUMBERED_REASONS: Final = ("INVALID_CARDS", "NOT_YOUR_TURN", "CANNOT_PASS", "CARD_NOT_FOUND",
                           "HAND_EMPTY", "INVALID_TRIBUTE", "GAME_OVER", "STATE_CONFLICT")


def _restore(cls: type[BaseException], args: tuple[Any, ...],
             state: dict[str, Any]) -> BaseException:
    """An unpickled error: its class, its ``args`` (the text) and its fields, without
    calling a constructor whose arguments differ from ``args``."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class IllegalActionError(GuandanError):
    """An action the game refused; nothing was changed. The one class of this meaning in
    every game, table, front end and RL env.

    ``reason`` is the game's reason: a code such as ``"NOT_YOUR_TURN"`` or a member of the
    game's own reason enum (:attr:`reason_code` is its name as text either way);
    ``message`` says why in words; ``detail`` a finer sub-reason such as ``DOES_NOT_BEAT``
    (the reason's code when there is none); :attr:`code` the reason's number when it has
    one (:data:`NUMBERED_REASONS`). ``str(error)`` is ``"CODE: message"`` unless the game
    words it otherwise (``text``: Tiến Lên's refusals read as the message alone).

    Given the message alone (the RL envs' form), the reason is ``ILLEGAL_ACTION`` and the
    text is the message.

    >>> error = IllegalActionError("CANNOT_PASS", "the leader must play")
    >>> str(error), error.reason_code, error.detail, error.code, isinstance(error, ValueError)
    ('CANNOT_PASS: the leader must play', 'CANNOT_PASS', 'CANNOT_PASS', 3, True)
    >>> str(IllegalActionError("action 9 is outside the action mask"))
    'action 9 is outside the action mask'
    """

    def __init__(self, reason: Any, message: str | None = None, detail: str | None = None,
                 *, text: str | None = None) -> None:
        if message is None:
            message = text = str(reason)
            reason = "ILLEGAL_ACTION"
        code = reason.name if isinstance(reason, Enum) else str(reason)
        super().__init__(f"{code}: {message}" if text is None else text)
        self.reason = reason
        self.message = str(message)
        self.detail = detail or code

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions pickle by their args (the text), which is not the constructor's.
        return (_restore, (type(self), self.args, dict(self.__dict__)))

    @property
    def reason_code(self) -> str:
        """The reason as an upper-case code, whatever form the game gives it in."""
        reason = self.reason
        return reason.name if isinstance(reason, Enum) else str(reason)

    @property
    def code(self) -> int | None:
        """The reason's number in :data:`NUMBERED_REASONS` (1-8), ``None`` for another."""
        name = self.reason_code
        return NUMBERED_REASONS.index(name) + 1 if name in NUMBERED_REASONS else None


class ReplayError(GuandanError):
    """A saved game, match or replay that cannot be read (or labels that could not be read
    back, refused when writing), in either game. ``field`` names the first bad field or
    action, such as ``"version"`` or ``"actions[12]"`` (``None`` when the text is not a
    JSON object at all).

    >>> str(ReplayError("must be a list", "actions"))
    'actions: must be a list'
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
