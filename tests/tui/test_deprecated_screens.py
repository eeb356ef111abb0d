"""The terminal screens' old names (before the one session, issue 34) keep working for two
minor releases, each with a DeprecationWarning naming its replacement (docs/versioning.md)."""

from __future__ import annotations

import importlib
import io
from pathlib import Path

import pytest

from tienlen._moved import SHIMS
from tienlen.tui.session import Session
from tienlen.tui.terminal import Terminal

OLD_NAMES = {
    "tienlen.tui.play": ("PlayOptions", "PlaySession", "Command", "parse_command",
                         "cards_from_input", "input_tokens", "check_card_number", "bot_names",
                         "save_path", "moves_listing", "help_table", "BOT_PAUSE", "_bot_seed"),
    "tienlen.tui.guandan_play": ("GuandanOptions", "GuandanSession", "GuandanReplay",
                                 "cards_from_input"),
    "tienlen.tui.replay_view": ("load_replay", "replay_file", "REPLAY_PAUSE"),
}


@pytest.mark.parametrize(("module", "name"), [(m, n) for m, names in OLD_NAMES.items()
                                              for n in names])
def test_every_old_name_warns_with_its_replacement(module: str, name: str) -> None:
    shim = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{name} is deprecated: use "):
        getattr(shim, name)
    assert module in SHIMS


def _piped(lines: str) -> Terminal:
    return Terminal(stdin=io.StringIO(lines), stdout=io.StringIO())


def test_the_old_sessions_still_play_and_replay(tmp_path: Path) -> None:
    with pytest.warns(DeprecationWarning):
        from tienlen.tui.guandan_play import GuandanOptions, GuandanReplay, GuandanSession
        from tienlen.tui.play import PlayOptions, PlaySession
        from tienlen.tui.replay_view import replay_file
    save = tmp_path / "hand.json"
    term = _piped("m\n#1\np\n" * 40 + "n\n")
    tienlen_session = PlaySession(PlayOptions(seed=11, levels=("L1",) * 3, save=save), term)
    assert isinstance(tienlen_session, Session) and tienlen_session.run() == 0
    assert tienlen_session.game.is_over and save.exists()
    out = io.StringIO()
    from tienlen.table.board import Style

    assert replay_file(Terminal(stdin=io.StringIO(), stdout=out), save, style=Style(),
                       fast=True) == 0
    assert "actions verified against the rules" in out.getvalue()

    guandan = GuandanSession(GuandanOptions(seed=3, levels=("L1",) * 3), _piped("p\nt\ny\n" * 30))
    assert guandan.run() == 0 and guandan.match.history
    replay = GuandanReplay(guandan.match, _piped(""), lang="en", style=Style(), fast=True)
    assert replay.run() == 0 and replay.match.history == guandan.match.history
