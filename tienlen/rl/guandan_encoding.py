"""Deprecated alias of :mod:`tienlen.games.guandan.encoding` (moved in 0.2.0, issue 34; see docs/versioning.md)."""
from tienlen._moved import alias; alias(__name__, "tienlen.games.guandan.encoding")  # noqa: E702
