"""The Guandan native core, re-exported: masks, play codes, classify, beats, legal plays.
The same module as :mod:`tienlen.games.guandan.core` (its public name)."""
from typing import TYPE_CHECKING

from tienlen._moved import alias

if TYPE_CHECKING:  # what the alias holds, for type checkers
    from tienlen._guandan import *  # noqa: F401,F403

alias(__name__, "tienlen.games.guandan.core", deprecated=False)
