"""The errors every game and service shares: one base, one refused action, one unreadable
file.

- :class:`TienlenError` is the base of every error the ``tienlen`` package raises, whichever
  game raised it: the package is named after its first game, and a caller that wants "any
  error of this library" catches one type. Guandan's errors are ``TienlenError`` on
  purpose, through :class:`tienlen.games.guandan.errors.GuandanError`. It is defined in
  :mod:`tienlen.errors`, a module that imports nothing and belongs to no game (it also
  holds Tiến Lên's two card errors, for history), so importing Guandan loads no Tiến Lên
  module for it.
- :class:`IllegalActionError`: an action the game refused, and changed nothing. ``reason``
  is the game's reason (an upper-case code, or a member of the game's own reason enum),
  :attr:`IllegalActionError.reason_code` its name as text, ``message`` the words.
  Tiến Lên's :class:`tienlen.games.tienlen.refusals.IllegalMoveError`, Guandan's
  :class:`tienlen.games.guandan.game.IllegalActionError` and the table layer's refusals
  (:class:`tienlen.table.IllegalActionError`, this very class) all are one.
- :class:`ReplayError`: a saved game, match or replay that cannot be read; ``field`` names
  the first bad part. Tiến Lên's :class:`tienlen.games.tienlen.replay.ReplayError` and
  Guandan's :class:`tienlen.games.guandan.match.ReplayError` subclass it.

Every one is a :class:`ValueError`.

>>> error = IllegalActionError("CANNOT_PASS", "the leader must play")
>>> str(error), error.reason_code, isinstance(error, ValueError)
('CANNOT_PASS: the leader must play', 'CANNOT_PASS', True)
>>> str(ReplayError("must be a list", "actions"))
'actions: must be a list'
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from ..errors import TienlenError

__all__ = ["TienlenError", "IllegalActionError", "ReplayError"]


class IllegalActionError(TienlenError):
    """A refused action; nothing was changed. ``reason`` is the game's reason (a code such
    as ``"NOT_YOUR_TURN"``, or an :class:`~enum.Enum` member of the game's reasons),
    ``message`` says why in words. ``str(error)`` is ``"CODE: message"`` unless the game
    words it otherwise (``text``: Tiến Lên's refusals read as the message alone)."""

    def __init__(self, reason: Any, message: str, *, text: str | None = None) -> None:
        code = reason.name if isinstance(reason, Enum) else str(reason)
        super().__init__(f"{code}: {message}" if text is None else text)
        self.reason = reason
        self.message = str(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions pickle by their args, which here would be the text alone.
        return (type(self), (self.reason, self.message), dict(self.__dict__))

    @property
    def reason_code(self) -> str:
        """The reason as an upper-case code, whatever form the game gives it in."""
        reason = self.reason
        return reason.name if isinstance(reason, Enum) else str(reason)


class ReplayError(TienlenError):
    """A saved game, match or replay that cannot be read (or labels that could not be read
    back, refused when writing). ``field`` names the first bad field or action, such as
    ``"version"`` or ``"actions[12]"`` (``None`` when the text is not a JSON object at
    all)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
