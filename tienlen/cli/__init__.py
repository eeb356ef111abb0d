"""The ``tienlen`` command line: one module per subcommand (:mod:`.play`, :mod:`.sim`,
:mod:`.replay`, :mod:`.moves`, :mod:`.solve`, :mod:`.rules`, :mod:`.serve`), the parser and
the error handling in :mod:`.program`, what they share in :mod:`.common`. A game adds its own
options and runs through the registry (:func:`tienlen.table.registry.get_cli`).

The CLI parses and renders; every rule question goes to the library. Bad input is
reported as one line, ``tienlen: error: ...``, with exit status 2.

>>> from tienlen.cli import main
>>> main(["moves", "3s 3c 4d 5h", "--pile", "3d", "--ascii"])
hand: 3s 3c 4d 5h (4 cards)
pile: single 3d
singles (2):
  4d
  5h
total: 2 legal plays
0
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tienlen.cli.program import build_parser, main

__all__ = ["main", "build_parser"]

# Tiến Lên's --rules helpers lived here before the subcommands moved into modules (0.2.0).
_MOVED = {"add_rules_option": "tienlen.games.tienlen.cli",
          "rules_from_args": "tienlen.games.tienlen.cli"}


def __getattr__(name: str) -> Any:
    # Loaded on first use: `import tienlen.cli.common` (which every game's command line
    # module imports) must not build the parser, which asks the registry for every game.
    if name in __all__:
        value = getattr(importlib.import_module("tienlen.cli.program"), name)
        globals()[name] = value
        return value
    if name in _MOVED:
        warnings.warn(f"tienlen.cli.{name} is deprecated: use {_MOVED[name]}.{name} "
                      "(moved in 0.2.0)", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module 'tienlen.cli' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
