"""The native Guandan core, re-exported: masks, play codes, classify, beats, legal plays.

See ``src/guandan/README.md`` for the encoding and the contract of every function.
Everything here takes and returns plain ints and NumPy arrays; the noun-like objects live
one layer up (:mod:`tienlen.games.guandan.cards`, :mod:`tienlen.games.guandan.plays`).
"""

from tienlen._guandan import *  # noqa: F401,F403
from tienlen._guandan import __doc__ as _native_doc  # noqa: F401
