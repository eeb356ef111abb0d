"""The native core, re-exported: masks, combo codes, legal moves, game state, playouts.

See ``src/README.md`` for the value layout and the contract of every function. Everything
here takes and returns plain ints and NumPy arrays; the noun-like objects live one layer up
(:mod:`tienlen.games.tienlen.cards`, :mod:`tienlen.games.tienlen.plays`).
"""

from tienlen._core import *  # noqa: F401,F403
from tienlen._core import __doc__ as _native_doc  # noqa: F401
