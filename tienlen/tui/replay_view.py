"""Deprecated (0.2.0, issue 34): ``tienlen replay`` of a Tiến Lên hand is the one terminal
session (:func:`tienlen.tui.session.replay`) on Tiến Lên's board
(:meth:`tienlen.games.tienlen.board.TienlenBoard.replay`), as for every game. The names
this module had keep working for two minor releases (docs/versioning.md); each warns on
first use with its replacement.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from tienlen.games.tienlen.board import TienlenBoard
from tienlen.games.tienlen.board import load_replay as _load_replay
from tienlen.table.board import ReplaySettings, Style
from tienlen.tui import common as _common
from tienlen.tui.session import Session
from tienlen.tui.terminal import Terminal

__all__ = ["load_replay", "replay_file", "REPLAY_PAUSE"]


def _replay_file(terminal: Terminal, path: Path, *, style: Style, step: bool = False,
                 fast: bool = False) -> int:
    """Verify ``path``, then show it action by action; the exit status."""
    settings = ReplaySettings(style=style, step=step, fast=fast)
    return Session(TienlenBoard.replay(path, settings), terminal, replay=True, step=step,
                   fast=fast).run()


# name -> (the object, its replacement)
_DEPRECATED: dict[str, tuple[object, str]] = {
    "load_replay": (_load_replay, "tienlen.games.tienlen.board.load_replay"),
    "replay_file": (_replay_file, "tienlen.tui.session.replay('tienlen', path, settings, "
                                  "terminal)"),
    "REPLAY_PAUSE": (_common.REPLAY_PAUSE, "tienlen.tui.common.REPLAY_PAUSE"),
}


def __getattr__(name: str) -> object:
    if name in _DEPRECATED:
        value, use = _DEPRECATED[name]
        warnings.warn(f"tienlen.tui.replay_view.{name} is deprecated: use {use} (the one "
                      "terminal session, 0.2.0)", DeprecationWarning, stacklevel=2)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_DEPRECATED})
