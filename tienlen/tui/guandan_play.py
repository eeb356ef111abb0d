"""Deprecated (0.2.0, issue 34): Guandan's training mode is the one terminal session
(:mod:`tienlen.tui.session`) on Guandan's board
(:class:`tienlen.games.guandan.board.GuandanBoard`), which the game's spec makes
(``get_spec("guandan").board(settings)``; ``tienlen.tui.session.play("guandan", settings,
terminal)`` plays it, ``tienlen.tui.session.replay`` shows a saved match). The names this
module had keep working for two minor releases (docs/versioning.md); each warns on first
use with its replacement.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tienlen.games.guandan.board import GuandanBoard
from tienlen.games.guandan.board import cards_from_input as _cards_from_input
from tienlen.games.guandan.match import DEFAULT_MAX_HANDS, Match
from tienlen.games.guandan.rules import RuleConfig
from tienlen.table.board import PlaySettings, ReplaySettings, Style
from tienlen.tui.session import Session
from tienlen.tui.terminal import Terminal

__all__ = ["GuandanOptions", "GuandanSession", "GuandanReplay", "cards_from_input"]


@dataclass(frozen=True, slots=True)
class _GuandanOptions:
    """Everything ``tienlen play --game guandan`` was asked for, already parsed (deprecated:
    use :class:`tienlen.table.board.PlaySettings`, Guandan's own options in its
    ``options``). ``levels`` are the three bots' levels in seat order after the person's
    seat is left out."""

    seat: int = 0
    levels: tuple[str, ...] = ("L2", "L2", "L2")
    seed: int | None = None
    lang: str = "en"
    style: Style = Style()
    hints: bool = True
    save: Path | None = None
    fast: bool = False
    iterations: int | None = None
    config: RuleConfig = RuleConfig()
    #: Hands after which the match stops with no winner (an engine safeguard, not a rule).
    max_hands: int = DEFAULT_MAX_HANDS

    def settings(self) -> PlaySettings:
        """The same request as the one session's settings."""
        return PlaySettings(seat=self.seat, levels=self.levels, seed=self.seed, lang=self.lang,
                            style=self.style, hints=self.hints, save=self.save, fast=self.fast,
                            iterations=self.iterations,
                            options={"config": self.config, "max_hands": self.max_hands})


class _GuandanSession(Session):
    """The training mode in the terminal (deprecated: the one :class:`Session` on
    ``GuandanBoard.play(settings)``), with the attributes this class had."""

    def __init__(self, options: _GuandanOptions, terminal: Terminal) -> None:
        self.guandan_board = GuandanBoard.play(options.settings())
        super().__init__(self.guandan_board, terminal, hints=options.hints, fast=options.fast)
        self.options = options

    @property
    def match(self) -> Match:
        return self.guandan_board.match

    @property
    def seats(self) -> Any:
        return self.guandan_board.seats

    @property
    def you(self) -> int | None:
        return self.guandan_board.you


class _GuandanReplay(Session):
    """A saved match shown action by action (deprecated: the one :class:`Session` on
    ``GuandanBoard.replay_of(match, settings)``, or ``tienlen.tui.session.replay``)."""

    def __init__(self, recorded: Match, terminal: Terminal, *, lang: str, style: Style,
                 step: bool = False, fast: bool = False) -> None:
        settings = ReplaySettings(lang=lang, style=style, step=step, fast=fast)
        self.guandan_board = GuandanBoard.replay_of(recorded, settings)
        super().__init__(self.guandan_board, terminal, replay=True, step=step, fast=fast)

    @property
    def match(self) -> Match:
        return self.guandan_board.match


# name -> (the object, its replacement)
_DEPRECATED: dict[str, tuple[object, str]] = {
    "GuandanOptions": (_GuandanOptions, "tienlen.table.board.PlaySettings"),
    "GuandanSession": (_GuandanSession,
                       "tienlen.tui.session.play('guandan', settings, terminal)"),
    "GuandanReplay": (_GuandanReplay, "tienlen.tui.session.Session on "
                                      "tienlen.games.guandan.board.GuandanBoard.replay_of"),
    "cards_from_input": (_cards_from_input, "tienlen.games.guandan.board.cards_from_input"),
}


def __getattr__(name: str) -> object:
    if name in _DEPRECATED:
        value, use = _DEPRECATED[name]
        warnings.warn(f"tienlen.tui.guandan_play.{name} is deprecated: use {use} (the one "
                      "terminal session, 0.2.0)", DeprecationWarning, stacklevel=2)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_DEPRECATED})


# --- the game's command line's deprecated entry points (they were
# tienlen.games.guandan.cli's, which lends them from here: a game imports no front end).

def run_play(args: Any) -> int:
    """Deprecated: ``tienlen play --game guandan`` runs the one terminal session on
    Guandan's board (:func:`tienlen.tui.session.play` with the game cli's ``play_settings``)."""
    import warnings

    from tienlen.games.guandan.cli import play_settings
    from tienlen.tui.session import play

    warnings.warn("tienlen.games.guandan.cli.run_play is deprecated: use "
                  "tienlen.tui.session.play('guandan', play_settings(args), terminal)",
                  DeprecationWarning, stacklevel=2)
    return play("guandan", play_settings(args), Terminal())


def run_replay(args: Any) -> int:
    """Deprecated: ``tienlen replay`` of a Guandan match runs the one terminal session on
    Guandan's board (:func:`tienlen.tui.session.replay` with the game cli's ``replay_settings``)."""
    import warnings

    from tienlen.games.guandan.cli import replay_settings
    from tienlen.tui.session import replay

    warnings.warn("tienlen.games.guandan.cli.run_replay is deprecated: use "
                  "tienlen.tui.session.replay('guandan', path, replay_settings(args), "
                  "terminal)", DeprecationWarning, stacklevel=2)
    return replay("guandan", args.file, replay_settings(args), Terminal())
