"""Deprecated (0.2.0, issue 34): Tiến Lên's games files are the arena's results files,
written once for every game (:mod:`tienlen.arena.files`). Every old name still resolves
here, with a ``DeprecationWarning`` naming its new home, until 0.4.0; ``read`` and ``load``
still read Tiến Lên's kind of file only (a rotation run's, schema ``tienlen.games``), with
the same errors. (A deprecation re-export: the game imports no service.)"""

from __future__ import annotations

import importlib
import os
import warnings
from typing import Any

__all__: list[str] = []

_SCHEMA = "tienlen.games"
#: Old names lent as they are: the same objects as in :mod:`tienlen.arena.files`.
_MOVED = ("RunHeader", "GamesFile", "GamesOnFile", "ResultsError", "SCHEMA", "int_field",
          "int_column", "float_column", "span_field")


def _read(path: str | os.PathLike[str]) -> Any:
    """The old ``read(path)``: :func:`tienlen.arena.files.read` of a rotation run's file."""
    return importlib.import_module("tienlen.arena.files").read(path, schema=_SCHEMA)


def _load(path: str | os.PathLike[str]) -> Any:
    """The old ``load(path)``: :func:`tienlen.arena.files.load` of a rotation run's file."""
    return importlib.import_module("tienlen.arena.files").load(path, schema=_SCHEMA)


def __getattr__(name: str) -> Any:
    if name in ("read", "load"):
        warnings.warn(f"tienlen.games.tienlen.results.{name} is deprecated: use "
                      f"tienlen.arena.files.{name} (moved in 0.2.0)", DeprecationWarning,
                      stacklevel=2)
        return _read if name == "read" else _load
    if name in _MOVED:
        warnings.warn(f"tienlen.games.tienlen.results.{name} is deprecated: use "
                      f"tienlen.arena.files.{name} (moved in 0.2.0)", DeprecationWarning,
                      stacklevel=2)
        return getattr(importlib.import_module("tienlen.arena.files"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "read", "load", *_MOVED})
