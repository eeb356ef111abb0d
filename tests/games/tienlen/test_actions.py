"""tienlen.games.tienlen.actions: PASS, Move and Action are defined once and shared by the game, the
views, the bots, the solver and the replays."""

from __future__ import annotations

import pickle

import tienlen
from tienlen.games.tienlen import actions
from tienlen.games.tienlen import game
from tienlen.games.tienlen import solver
from tienlen.games.tienlen import view
from tienlen.games.tienlen.bots import base
from tienlen.games.tienlen.cards import Cards


def test_one_move_alias_and_one_pass_everywhere() -> None:
    assert game.Move is base.Move is solver.Move is actions.Move
    assert game.PASS is base.PASS is solver.PASS is tienlen.PASS is actions.PASS
    assert game.Action is tienlen.Action is actions.Action is view.Action


def test_pass_survives_pickling_as_the_same_object() -> None:
    assert pickle.loads(pickle.dumps(actions.PASS)) is actions.PASS
    record = actions.Action(2, "pass", None, None)
    assert pickle.loads(pickle.dumps(record)) == record
    assert pickle.loads(pickle.dumps(record)).move is actions.PASS


def test_move_like_is_what_act_takes() -> None:
    g = game.Game.from_hands(["3s 4s", "5s 9h"])
    played = g.act("3s")
    assert played.move == Cards.parse("3s") and played.action == "play"
    assert g.act(actions.PASS).move is actions.PASS
