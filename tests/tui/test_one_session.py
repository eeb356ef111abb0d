"""The one terminal session (issue 34): every game's ``play`` and ``replay`` go through
``tienlen.tui.session``, whose command loop is the only one; each game plugs in only its
board, its words and its parse. The same commands behave the same in both games."""

from __future__ import annotations

import ast
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

import tienlen
from tienlen.cli import main
from tienlen.games.guandan.board import GuandanBoard
from tienlen.games.tienlen.board import TienlenBoard
from tienlen.table import get_spec
from tienlen.table.board import Board, PlaySettings, ReplaySettings, TableWords
from tienlen.tui import session as one
from tienlen.tui.plain import TableBoard
from tienlen.tui.terminal import Terminal

PACKAGE = Path(tienlen.__file__).resolve().parent
GAMES = ("tienlen", "guandan")


class Scripted(Terminal):
    """A piped terminal answering the prompts with ``lines``, then the end of input."""

    def __init__(self, lines: Iterable[str]) -> None:
        super().__init__(stdin=io.StringIO(), stdout=io.StringIO())
        self.lines = iter(lines)
        self.prompts: list[str] = []

    def ask(self, prompt: object) -> str:
        self.prompts.append(str(prompt))
        line = next(self.lines, None)
        if line is None:
            raise EOFError
        return line

    @property
    def out(self) -> str:
        file = self.console.file
        assert isinstance(file, io.StringIO)
        return file.getvalue()


def _board(game: str, **settings: Any) -> Board:
    levels = ("L1",) * 3
    return get_spec(game).board(PlaySettings(levels=levels, **settings))


def _leading_seed(game: str) -> int:
    """A seed whose first hand the person (seat 0) leads."""
    return next(s for s in range(300) if _board(game, seed=s).turn() == 0)


# --- one path ---------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_play_of_every_game_runs_the_one_session_on_the_games_board(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    monkeypatch.setattr(one.Session, "run", lambda self: seen.append(self.board) or 0)
    assert main(["play", "--game", game, "--seed", "3", "--bots", "L1"]) == 0
    expected = TienlenBoard if game == "tienlen" else GuandanBoard
    assert len(seen) == 1 and type(seen[0]) is expected


def test_play_of_a_game_with_no_board_runs_the_one_session_on_the_plain_board(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from toy_game import registered

    seen: list[object] = []
    monkeypatch.setattr(one.Session, "run", lambda self: seen.append(self.board) or 0)
    with registered():
        assert main(["play", "--game", "toy", "--players", "2", "--seed", "3"]) == 0
    assert len(seen) == 1 and type(seen[0]) is TableBoard


@pytest.mark.parametrize("game", GAMES)
def test_replay_of_every_game_runs_the_one_session(game: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    if game == "tienlen":
        from tienlen.games.tienlen.game import Game

        text = Game(4, seed=3).to_json()
    else:
        from tienlen.games.guandan.match import Match

        match = Match(seed=3, max_hands=1)
        match.play(match.game.legal_plays()[0])
        text = match.to_json()
    path = tmp_path / "saved.json"
    path.write_text(text, encoding="utf-8")
    seen: list[one.Session] = []
    monkeypatch.setattr(one.Session, "run", lambda self: seen.append(self) or 0)
    assert main(["replay", str(path)]) == 0
    assert len(seen) == 1 and seen[0].replay


def test_the_command_loop_is_written_once() -> None:
    # No module but the one session reads the person's commands: no game board asks the
    # terminal anything, and there is one _handle in the package (the shims aside).
    handles, asks = set(), set()
    from tienlen._moved import SHIMS

    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if name in SHIMS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "_handle":
                handles.add(name)
            if isinstance(node, ast.Attribute) and node.attr in ("ask", "confirm",
                                                                 "wait_for_enter"):
                asks.add(name)
    assert handles == {"tienlen.tui.session"}
    assert asks <= {"tienlen.tui.session", "tienlen.tui.terminal"}, asks


@pytest.mark.parametrize("game", GAMES)
def test_each_games_words_hold_every_word_of_the_session(game: str) -> None:
    words = get_spec(game).words("en")
    assert isinstance(words, TableWords) and words.lang == "en"
    assert get_spec(game).words("xx").lang == "en"          # a language it lacks: English
    assert all(getattr(words, f) is not None or f == "another_hand"
               for f in TableWords.__dataclass_fields__)


# --- the same commands in both games -------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_m_then_hash_n_plays_the_listed_move_at_once(game: str) -> None:
    board = _board(game, seed=_leading_seed(game))
    term = Scripted(["m", "#1"])
    first = board.actions(0)[0]
    one.Session(board, term).run()
    assert "(type #N to play one):" in term.out and "#1 " in term.out
    played = board.action_text(first).plain.split("  ")[0]
    assert f"You lead {played}" in term.out
    assert "Type y to play it, n not to" not in term.out


@pytest.mark.parametrize("game", GAMES)
def test_help_quit_declined_and_the_end_of_input(game: str) -> None:
    board = _board(game, seed=_leading_seed(game))
    term = Scripted(["?", "q", "n", "n"])
    assert one.Session(board, term).run() == 0
    words = board.words
    assert words.help_title in term.out
    assert any(p.startswith(words.quit_confirm) for p in term.prompts)
    assert "there is no suggestion to decline" in term.out
    assert words.eof in term.out and term.out.rstrip().endswith(words.thanks)
    assert board.turn() == 0 and len(board.actions(0)) > 0     # nothing was played


@pytest.mark.parametrize("game", GAMES)
def test_hints_off_refuses_h_in_the_games_words(game: str) -> None:
    board = _board(game, seed=_leading_seed(game))
    term = Scripted(["h", "y"])
    one.Session(board, term, hints=False).run()
    assert board.words.hints_off in term.out and board.words.no_suggestion in term.out


@pytest.mark.parametrize("game", GAMES)
def test_a_hash_out_of_range_and_a_bad_hash_are_refused(game: str) -> None:
    board = _board(game, seed=_leading_seed(game))
    term = Scripted(["#999", "#x"])
    one.Session(board, term).run()
    count = len(board.actions(0))
    assert board.words.no_move.format(n=999, count=count) in term.out
    assert "'#x': after # give the number of a" in term.out


@pytest.mark.parametrize("game", GAMES)
def test_a_file_that_cannot_be_saved_makes_the_exit_status_1(game: str, tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "gone"
    folder.mkdir()
    board = _board(game, seed=2, save=folder / "x.json")
    shutil.rmtree(folder)
    term = Scripted(["p", "t", "y", "m", "#1"] * 400)
    assert one.Session(board, term).run() == 1
    out = "".join(term.out.split())                         # however it wrapped
    assert f"couldnotsavethereplayto{folder / 'x.json'}:" in out
    assert out.count(f"{folder / 'x.json'}:") == 1          # said once a file


def test_ctrl_c_saves_the_guandan_match_and_propagates(tmp_path: Path) -> None:
    class Interrupting(Scripted):
        def ask(self, prompt: object) -> str:
            raise KeyboardInterrupt

    save = tmp_path / "m.json"
    board = _board("guandan", seed=_leading_seed("guandan"), save=save)
    term = Interrupting([])
    with pytest.raises(KeyboardInterrupt):
        one.Session(board, term).run()
    assert json.loads(save.read_text(encoding="utf-8"))["schema"] == "tienlen.guandan.match"
    assert f"Replaysavedto{save}" in "".join(term.out.split())


# --- Guandan's own commands, as data and hooks ----------------------------------------


def test_guandans_own_words_are_the_sessions_commands() -> None:
    board = _board("guandan", seed=_leading_seed("guandan"), lang="zh")
    assert board.commands["提示"] == "tip" and board.commands["过"] == "pass"
    term = Scripted(["提示", "出牌"])
    one.Session(board, term).run()
    assert "提示 1/" in term.out and "你首出 " in term.out


def test_replays_wait_for_enter_before_each_action_in_both_games(tmp_path: Path) -> None:
    from tienlen.games.guandan.match import Match

    match = Match(seed=3, max_hands=1)
    for _ in range(3):
        match.play(match.game.legal_plays()[0]) if match.game.pile is None else \
            match.pass_turn()
    path = tmp_path / "m.json"
    path.write_text(match.to_json(), encoding="utf-8")
    term = Scripted(["", "", "q"])
    board = get_spec("guandan").replay_board(path, ReplaySettings(lang="en", step=True))
    assert one.Session(board, term, replay=True, step=True).run() == 0
    assert term.prompts.count(board.words.step) == 3
    assert len(board.match.history) == 2                    # two Enters, then q
