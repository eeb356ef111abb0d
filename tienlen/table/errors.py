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
  Guandan's ``tienlen.games.guandan.game.IllegalActionError``, the RL envs'
  ``tienlen.rl.common.IllegalActionError`` and the table layer's refusals are this very
  class (an alias each); Tiến Lên's :class:`tienlen.games.tienlen.refusals.IllegalMoveError`
  subclasses it.
- :class:`ReplayError`: a saved game, match or replay that cannot be read; ``field`` names
  the first bad part. Tiến Lên's ``tienlen.games.tienlen.replay.ReplayError`` and
  Guandan's ``tienlen.games.guandan.match.ReplayError`` are this very class.

The three are defined once, in :mod:`tienlen.errors` (a module that imports nothing), and
re-exported here, the table layer's home for them.

Every one is a :class:`ValueError`.

>>> error = IllegalActionError("CANNOT_PASS", "the leader must play")
>>> str(error), error.reason_code, isinstance(error, ValueError)
('CANNOT_PASS: the leader must play', 'CANNOT_PASS', True)
>>> str(ReplayError("must be a list", "actions"))
'actions: must be a list'
"""

from __future__ import annotations

from ..errors import IllegalActionError, ReplayError, TienlenError

__all__ = ["TienlenError", "IllegalActionError", "ReplayError"]
