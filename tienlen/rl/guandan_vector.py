"""Deprecated alias of :mod:`tienlen.rl.vector` (moved in 0.2.0, issue 34; see docs/versioning.md)."""
from tienlen._moved import alias; alias(__name__, "tienlen.rl.vector")  # noqa: E702
