"""Deprecated (0.2.0, issue 34): Tiến Lên's screen is the one terminal session
(:mod:`tienlen.tui.session`) on Tiến Lên's board
(:class:`tienlen.games.tienlen.board.TienlenBoard`), which the game's spec makes
(``get_spec("tienlen").board(settings)``; ``tienlen.tui.session.play("tienlen", settings,
terminal)`` plays it). The names this module had keep working for two minor releases
(docs/versioning.md); each warns on first use with its replacement.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tienlen.games.tienlen.board import BOT_NAMES as _BOT_NAMES
from tienlen.games.tienlen.board import TienlenBoard, cards_text
from tienlen.games.tienlen.board import bot_names as _bot_names
from tienlen.games.tienlen.board import cards_from_input as _cards_from_input
from tienlen.games.tienlen.board import save_path as _save_path
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import Match
from tienlen.games.tienlen.rules import Rules
from tienlen.games.tienlen.view import View
from tienlen.games.tienlen.words import WORDS
from tienlen.seeds import session_bot_seed
from tienlen.table.board import PlaySettings
from tienlen.table.board import Style as _Style
from tienlen.table.board import check_card_number as _check_card_number
from tienlen.table.board import help_table as _help_table
from tienlen.table.board import input_tokens as _input_tokens
from tienlen.tui import common as _common
from tienlen.tui.session import Session
from tienlen.tui.terminal import Terminal

__all__ = ["PlayOptions", "PlaySession", "Command", "parse_command", "cards_from_input",
           "input_tokens", "check_card_number", "bot_names", "save_path", "moves_listing",
           "help_table"]


@dataclass(frozen=True, slots=True)
class _PlayOptions:
    """Everything ``tienlen play`` was asked for, already parsed (deprecated: use
    :class:`tienlen.table.board.PlaySettings`, Tiến Lên's own options in its ``options``)."""

    players: int = 4
    seat: int = 0
    levels: tuple[str, ...] = ("L2", "L2", "L2")
    seed: int | None = None
    rules: Rules = Rules()
    hints: bool = True
    hint_level: str = "L3"
    style: _Style = _Style()
    save: Path | None = None
    fast: bool = False
    #: L3 opponents' sampled deals per move (``None``: their 50 ms time budget).
    iterations: int | None = None

    def settings(self) -> PlaySettings:
        """The same request as the one session's settings."""
        return PlaySettings(seat=self.seat, levels=self.levels, seed=self.seed,
                            style=self.style, hints=self.hints, save=self.save, fast=self.fast,
                            iterations=self.iterations,
                            options={"players": self.players, "rules": self.rules,
                                     "hint_level": self.hint_level})


class _PlaySession(Session):
    """A Tiến Lên match in the terminal (deprecated: the one :class:`Session` on
    ``TienlenBoard.play(settings)``), with the attributes this class had."""

    def __init__(self, options: _PlayOptions, terminal: Terminal) -> None:
        self.tienlen_board = TienlenBoard.play(options.settings())
        super().__init__(self.tienlen_board, terminal, hints=options.hints, fast=options.fast)
        self.options = options

    @property
    def game(self) -> Game:
        return self.tienlen_board.game

    @property
    def match(self) -> Match | None:
        return self.tienlen_board.match

    @property
    def seats(self) -> Any:
        return self.tienlen_board.seats

    @property
    def you(self) -> int | None:
        return self.tienlen_board.you

    @property
    def style(self) -> _Style:
        return self.tienlen_board.style

    def _situation(self, view: View) -> Text:
        return self.tienlen_board.situation_of(view)

    def _error_words(self, error: ValueError) -> str:
        return self.tienlen_board.refusal(error)

    def _show_hint(self, view: View) -> None:
        self._handle("h", view.seat)


def _moves_listing(view: View, style: _Style) -> RenderableType:
    """Every legal play, numbered for ``#N``, plus passing when allowed."""
    moves = view.legal_moves()
    if not moves:
        return Text("No legal play: pass (p).", style="yellow")
    entries = []
    for number, move in enumerate(moves, start=1):
        entry = Text(f"#{number} ", style="dim")
        entry.append_text(cards_text(move, style))
        entries.append(entry)
    parts: list[RenderableType] = [
        Text(f"{len(moves)} legal play{'s' if len(moves) != 1 else ''} "
             "(type #N to play one):", style="bold"),
        Columns(entries, padding=(0, 3)),
    ]
    if view.can_pass():
        parts.append(Text("or p to pass", style="dim"))
    return Group(*parts)


def _help(style: _Style, rows: Sequence[tuple[str, str]] = WORDS["en"].help_rows, *,
          title: str = "Commands", headers: tuple[str, str] = ("type", "to")) -> Table:
    """The commands, one row each (Tiến Lên's by default)."""
    return _help_table(style, rows, title=title, headers=headers)


# name -> (the object, its replacement)
_DEPRECATED: dict[str, tuple[object, str]] = {
    "PlayOptions": (_PlayOptions, "tienlen.table.board.PlaySettings"),
    "PlaySession": (_PlaySession, "tienlen.tui.session.play('tienlen', settings, terminal)"),
    "Command": (_common.Command, "tienlen.tui.common.Command"),
    "parse_command": (_common.parse_command, "tienlen.tui.common.parse_command"),
    "cards_from_input": (_cards_from_input, "tienlen.games.tienlen.board.cards_from_input"),
    "input_tokens": (_input_tokens, "tienlen.table.board.input_tokens"),
    "check_card_number": (_check_card_number, "tienlen.table.board.check_card_number"),
    "bot_names": (_bot_names, "tienlen.games.tienlen.board.bot_names"),
    "save_path": (_save_path, "tienlen.games.tienlen.board.save_path"),
    "moves_listing": (_moves_listing, "the one session's m (tienlen.tui.session.Session)"),
    "help_table": (_help, "tienlen.table.board.help_table with the game's words' help_rows"),
    "BOT_PAUSE": (_common.BOT_PAUSE, "tienlen.tui.common.BOT_PAUSE"),
    "BOT_NAMES": (_BOT_NAMES, "tienlen.games.tienlen.board.BOT_NAMES"),
    "Style": (_Style, "tienlen.table.board.Style"),
    "_bot_seed": (session_bot_seed, "tienlen.seeds.session_bot_seed"),
}


def __getattr__(name: str) -> object:
    if name in _DEPRECATED:
        value, use = _DEPRECATED[name]
        warnings.warn(f"tienlen.tui.play.{name} is deprecated: use {use} (the one terminal "
                      "session, 0.2.0)", DeprecationWarning, stacklevel=2)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_DEPRECATED})


# --- the game's command line's deprecated entry points (they were
# tienlen.games.tienlen.cli's, which lends them from here: a game imports no front end).

def run_play(args: Any) -> int:
    """Deprecated: ``tienlen play`` runs the one terminal session on Tiến Lên's board
    (:func:`tienlen.tui.session.play` with the game cli's ``play_settings``)."""
    import warnings

    from tienlen.games.tienlen.cli import play_settings
    from tienlen.tui.session import play

    warnings.warn("tienlen.games.tienlen.cli.run_play is deprecated: use "
                  "tienlen.tui.session.play('tienlen', play_settings(args), terminal)",
                  DeprecationWarning, stacklevel=2)
    return play("tienlen", play_settings(args), Terminal())


def run_replay(args: Any) -> int:
    """Deprecated: ``tienlen replay`` of a Tiến Lên hand runs the one terminal session on
    Tiến Lên's board (:func:`tienlen.tui.session.replay` with the game cli's ``replay_settings``)."""
    import warnings

    from tienlen.games.tienlen.cli import replay_settings
    from tienlen.tui.session import replay

    warnings.warn("tienlen.games.tienlen.cli.run_replay is deprecated: use "
                  "tienlen.tui.session.replay('tienlen', path, replay_settings(args), "
                  "terminal)", DeprecationWarning, stacklevel=2)
    return replay("tienlen", args.file, replay_settings(args), Terminal())
