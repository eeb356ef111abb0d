"""One word per concept (issue 13): ``locked_seats`` is the set of seats locked out of the
pile; ``locked_out`` is the bool "this seat is locked out" (the core, ``legal_moves``). The
old set-valued ``Game.locked_out`` / ``View.locked_out`` stay as deprecated aliases."""

from __future__ import annotations

import io
import json
import warnings

import pytest

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.plays import legal_moves
from tienlen.games.tienlen.rules import Rules
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.replay import game_from_json, game_to_json


def _game_with_a_pass() -> Game:
    # Seat 0 leads 3s; seat 1 passes (locked out, R5.1); seat 2 is to act.
    game = Game.from_hands(["3s 4s", "5s 9h", "6d 7d"])
    game.play("3s")
    game.pass_turn()
    return game


def test_locked_seats_is_the_set_of_seats_that_passed() -> None:
    game = _game_with_a_pass()
    assert game.locked_seats == frozenset({1}) and game.turn == 2
    assert game.view(0).locked_seats == game.view(2).locked_seats == frozenset({1})
    game.pass_turn()                      # seat 2 passes too; the pile comes back to seat 0
    assert game.pile is None and game.locked_seats == frozenset()  # R6.1


@pytest.mark.parametrize("which", ["game", "view"])
def test_locked_out_set_is_a_deprecated_alias(which: str) -> None:
    game = _game_with_a_pass()
    obj = game if which == "game" else game.view(2)
    with pytest.warns(DeprecationWarning, match="locked_seats"):
        alias = obj.locked_out
    assert alias == obj.locked_seats == frozenset({1})


def _view_fields(view: object) -> dict[str, object]:
    from dataclasses import fields

    return {f.name: getattr(view, f.name) for f in fields(view)}  # type: ignore[arg-type]


def test_view_constructor_takes_the_old_keyword_as_a_deprecated_alias() -> None:
    from tienlen.games.tienlen.view import View

    view = _game_with_a_pass().view(2)
    given = _view_fields(view)
    seats = given.pop("locked_seats")
    with pytest.warns(DeprecationWarning, match="locked_seats"):
        old = View(**given, locked_out=seats)  # type: ignore[arg-type]
    assert old == view and old.locked_seats == frozenset({1})
    assert old.legal_moves() == view.legal_moves()
    # The new keyword and positional calls, in the field order, never warn.
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert View(**given, locked_seats=seats) == view  # type: ignore[arg-type]
        assert View(*_view_fields(view).values()) == view  # type: ignore[arg-type]


def test_view_constructor_refuses_both_names_and_a_missing_field() -> None:
    from tienlen.errors import TienlenError
    from tienlen.games.tienlen.view import View

    view = _game_with_a_pass().view(2)
    given = _view_fields(view)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)   # refused before any warning
        with pytest.raises(TienlenError, match="locked_seats.*locked_out") as caught:
            View(**given, locked_out=frozenset({2}))  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)
    positional = list(given.values())
    with pytest.raises(TienlenError, match="both"):
        View(*positional, locked_out=frozenset())  # type: ignore[arg-type]
    # Leaving a field out is still the TypeError any call missing an argument raises.
    del given["locked_seats"]
    with pytest.raises(TypeError, match="locked_seats"):
        View(**given)  # type: ignore[arg-type]
    del given["history"]
    with pytest.raises(TypeError, match="history"):
        View(**given, locked_seats=frozenset())  # type: ignore[arg-type]


def test_playing_and_viewing_never_reads_the_alias() -> None:
    # Bots, hints, the board and search all read locked_seats: a full hand, every view
    # drawn and hinted, raises no DeprecationWarning.
    from tienlen.games.tienlen.bots import make_bot
    from tienlen.games.tienlen.hints import hint
    from rich.console import Console

    from tienlen.games.tienlen.board import SeatInfo, Style, board

    game = Game(3, seed=11)
    seats = [SeatInfo(f"p{i}") for i in range(3)]
    console = Console(file=io.StringIO(), width=80)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        bot = make_bot("L2", seed=1)
        while not game.is_over:
            view = game.view(game.turn)  # type: ignore[arg-type]
            console.print(board(view, seats, Style(), title="t"))
            hint(view, "L2")
            view.search_state()
            game.act(bot.choose(view))


def test_the_bool_keeps_the_name_locked_out() -> None:
    # A locked-out player may bomb a single 2 with a quad (R5.2) and nothing else.
    assert [str(m) for m in legal_moves("3s 3c 3d 3h 9d", "2s", locked_out=True)] == [
        "3♠ 3♣ 3♦ 3♥"]
    assert legal_moves("3s 3c 3d 3h 9d", "8s", locked_out=True) == []


# A replay written before the rename (schema version 1, no "rules" field: before rulesets
# were data). The format never stored the locked seats: they follow from the actions.
OLD_REPLAY = """{"schema": "tienlen.game", "version": 1, "players": 3, "seed": null,
 "hands": ["3s 4s", "5s 9h", "6d 7d"], "leader": null,
 "actions": [{"seat": 0, "action": "play", "cards": "3s"}, {"seat": 1, "action": "pass"}],
 "finished": []}"""


def test_an_old_replay_loads_with_its_locked_seats() -> None:
    game = game_from_json(OLD_REPLAY)
    assert game.locked_seats == frozenset({1}) and game.turn == 2
    # Written again, it holds no set of seats under either name, so old readers read it.
    record = json.loads(game_to_json(game))
    assert "locked_out" not in record and "locked_seats" not in record
    assert game_from_json(game_to_json(game)).locked_seats == frozenset({1})


@pytest.mark.parametrize(("rules", "seat1", "seat2", "then", "words"), [
    # Contract: seat 1 plays a single 2, seat 2 passes: R5.3 gives the locked seat 0 the turn.
    (Rules(), "2h 4c", "3s 6c Jc", None, "only a quad or a double sequence of 3 pairs may cut it"),
    # South: seat 1 plays a single 2, seat 2 cuts it with a quad; four pairs cut a quad out
    # of turn (R11.2), so seat 0 gets the turn.
    (Rules.southern(), "2s 4c", "3s 9s 9c 9d 9h 6c", "9s 9c 9d 9h",
     "only a double sequence of 4 pairs may cut it"),
])
def test_the_play_screen_says_which_bombs_a_locked_seat_may_play(
        rules: Rules, seat1: str, seat2: str, then: str | None, words: str) -> None:
    from tienlen.games.tienlen.actions import PASS
    from tienlen.games.tienlen.board import TienlenBoard
    from tienlen.table.board import PlaySettings, Style

    session = TienlenBoard.play(PlaySettings(seed=1, levels=("L1",) * 2, style=Style(ascii=True),
                                             options={"players": 3, "rules": rules}))
    game = Game.from_hands(["3d 5h Kd", seat1, seat2], rules=rules, leader=2)
    game.play("3s")
    game.pass_turn()                      # seat 0 is locked out of this pile
    game.play(seat1.split()[0])
    game.act(PASS if then is None else Cards.parse(then))
    assert game.turn == 0 and 0 in game.locked_seats
    text = session.situation_of(game.view(0)).plain
    assert f"you passed on this pile: {words}; you hold none: pass" in text
