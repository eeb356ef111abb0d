"""tienlen: a fast, correct Tiến Lên (Thirteen) engine.

>>> import tienlen
>>> hand = tienlen.Cards.parse("3s 4s 5s 5h 6d 7c")
>>> len(tienlen.legal_moves(hand))
19
"""

from tienlen import core

__version__ = "0.1.0"

__all__ = ["core", "__version__"]
