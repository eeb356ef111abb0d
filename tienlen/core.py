"""The Tiến Lên native core, re-exported: masks, combo codes, legal moves, game state,
playouts. The same module as :mod:`tienlen.games.tienlen.core` (its public name)."""
from typing import TYPE_CHECKING

from tienlen._moved import alias

if TYPE_CHECKING:  # what the alias holds, for type checkers
    from tienlen._core import *  # noqa: F401,F403

alias(__name__, "tienlen.games.tienlen.core", deprecated=False)
