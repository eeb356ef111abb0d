"""One error hierarchy (issue 25): every refused action of either game is the table layer's
IllegalActionError, every unreadable file its ReplayError, and every error a TienlenError;
the old names are the same classes they were."""

from __future__ import annotations

import pickle

import pytest

from tienlen.table import IllegalActionError, ReplayError, TienlenError


def test_tienlen_refusal_is_the_shared_illegal_action_error() -> None:
    from tienlen.games.tienlen.game import Game
    from tienlen.games.tienlen.refusals import IllegalMoveError, Reason

    game = Game.from_hands(["3s 4s", "5s 9h"])
    with pytest.raises(IllegalActionError) as caught:
        game.pass_turn()        # the leader may not pass
    error = caught.value
    assert isinstance(error, IllegalMoveError) and isinstance(error.reason, Reason)
    assert error.reason_code == error.reason.name and error.message == str(error)
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.reason, str(again)) == (IllegalMoveError, error.reason, str(error))


def test_guandan_refusal_is_the_shared_illegal_action_error() -> None:
    from tienlen.games.guandan.errors import GuandanError
    from tienlen.games.guandan.game import Game, IllegalActionError as GuandanIllegal

    game = Game(hands=["3s 3d", "4s", "5s", "6s"], leader=0)
    with pytest.raises(IllegalActionError) as caught:
        game.pass_turn()
    error = caught.value
    assert isinstance(error, GuandanIllegal) and isinstance(error, GuandanError)
    assert error.reason == error.reason_code == "CANNOT_PASS"
    assert str(error) == f"CANNOT_PASS: {error.message}"
    again = pickle.loads(pickle.dumps(error))
    assert (again.reason, again.detail, str(again)) == (error.reason, error.detail, str(error))


def test_table_refusal_is_the_same_class() -> None:
    from tienlen.table import spec

    assert spec.IllegalActionError is IllegalActionError
    with pytest.raises(IllegalActionError, match="BAD_ACTION"):
        spec.check_action({"kind": "jump"})


def test_both_replay_errors_are_the_shared_one() -> None:
    from tienlen.games.guandan.errors import GuandanError
    from tienlen.games.guandan.match import Match, ReplayError as GuandanReplayError
    from tienlen.games.tienlen.replay import ReplayError as TienlenReplayError, game_from_json

    with pytest.raises(ReplayError) as first:
        game_from_json("[]")
    assert isinstance(first.value, TienlenReplayError)
    with pytest.raises(ReplayError) as second:
        Match.from_json("[]")
    assert isinstance(second.value, GuandanReplayError)
    assert isinstance(second.value, GuandanError)


def test_every_error_is_a_tienlen_error_and_a_value_error() -> None:
    from tienlen import errors
    from tienlen.games.guandan.errors import GuandanError

    assert errors.TienlenError is TienlenError
    assert issubclass(GuandanError, TienlenError) and issubclass(TienlenError, ValueError)
    assert issubclass(IllegalActionError, TienlenError) and issubclass(ReplayError, TienlenError)


def test_the_rl_envs_refusal_is_the_shared_illegal_action_error() -> None:
    from tienlen.rl.common import IllegalActionError as EnvIllegal

    error = EnvIllegal("action 9 is outside the action mask")
    assert isinstance(error, IllegalActionError) and error.reason_code == "ILLEGAL_ACTION"
    assert str(error) == error.message == "action 9 is outside the action mask"
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is EnvIllegal and str(again) == str(error)


def test_each_old_name_is_the_one_class_object() -> None:
    # Issue 34: one class per error meaning; every old import path is an alias of it.
    import tienlen
    import tienlen.guandan
    from tienlen import errors
    from tienlen.games.guandan import errors as guandan_errors, game, match
    from tienlen.games.tienlen import replay
    from tienlen.rl import common
    from tienlen.table import encoding, errors as table_errors

    refusals = {errors.IllegalActionError, table_errors.IllegalActionError, IllegalActionError,
                encoding.IllegalActionError, common.IllegalActionError,
                game.IllegalActionError, tienlen.guandan.IllegalActionError}
    unreadable = {errors.ReplayError, table_errors.ReplayError, ReplayError, match.ReplayError,
                  replay.ReplayError, tienlen.guandan.ReplayError}
    assert refusals == {errors.IllegalActionError} and unreadable == {errors.ReplayError}
    assert guandan_errors.GuandanError is errors.GuandanError
    # The forms each game always built it in, one class.
    assert errors.IllegalActionError("CANNOT_PASS", "x", "LEAD").detail == "LEAD"
    assert errors.IllegalActionError("CANNOT_PASS", "x").code == 3
    assert errors.IllegalActionError("BAD_ACTION", "x").code is None
    assert str(errors.IllegalActionError("out of mask")) == "out of mask"
