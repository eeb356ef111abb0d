"""The game-agnostic table layer (issue 25's seed): what a service needs to seat players at
a game without knowing which game it is.

A game registers a :class:`GameSpec` by name (:func:`get_spec` loads it lazily, so
importing this package, or one game, loads no other game). A spec starts a
:class:`TableState` from a seed; the state says whose turn it is, lists the legal actions
as JSON-able data, verifies / checks / applies an action (:class:`IllegalActionError`,
nothing changed, on refusal), gives one seat's view as JSON-able data and the outcome of
each hand. Bots come from the spec by level and answer the game's own view.

This package imports no game. Written against it, once for every game: the server
(:mod:`tienlen.server`), the arena and sim (:mod:`tienlen.arena.engine`), the match driver
(:mod:`tienlen.table.match`) and the terminal session (:mod:`tienlen.tui.session`); the
shared errors are :mod:`tienlen.table.errors` (see docs/architecture.md).

>>> from tienlen.table import get_spec, spec_names
>>> spec_names()
('guandan', 'tienlen')
>>> state = get_spec("guandan").new_match(seed=3, options={"max_hands": 1})
>>> state.phase, state.turn == state.view(state.turn)["turn"], len(state.view(0)["hand"])
('play', True, 27)
>>> state.verify({"kind": "pass"}, seat=state.turn)      # the leader may not pass
Traceback (most recent call last):
...
tienlen.errors.IllegalActionError: CANNOT_PASS: ...
"""

from .errors import ReplayError, TienlenError
from .registry import get_spec, register, spec_names
from .spec import (Action, GameSpec, IllegalActionError, TableBot, TableState, bot_seed,
                   check_action)

__all__ = ["Action", "GameSpec", "IllegalActionError", "ReplayError", "TableBot", "TableState",
           "TienlenError", "bot_seed", "check_action", "get_spec", "register", "spec_names"]
