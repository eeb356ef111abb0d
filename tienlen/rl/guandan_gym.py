"""Deprecated alias of :mod:`tienlen.rl.gym_env` (moved in 0.2.0, issue 34; see docs/versioning.md)."""
from tienlen._moved import alias; alias(__name__, "tienlen.rl.gym_env")  # noqa: E702
