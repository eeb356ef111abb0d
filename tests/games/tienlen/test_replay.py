"""Replays: Game.to_json / Game.from_json round-trip, and every kind of damaged file is refused
with a ReplayError naming the first bad field or action."""

from __future__ import annotations

import json
import random

import pytest

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import PASS, Game
from tienlen.games.tienlen.replay import SCHEMA, VERSION, ReplayError, game_from_json, game_to_json
from tienlen.games.tienlen.rules import Rules


def play_randomly(game: Game, rng: random.Random, limit: int | None = None) -> Game:
    steps = 0
    while not game.is_over and (limit is None or steps < limit):
        options = list(game.legal_moves())
        choice = rng.randrange(len(options) + game.can_pass())
        game.act(options[choice] if choice < len(options) else PASS)
        steps += 1
    return game


def finished_game(seed: int = 1, players: int = 4) -> Game:
    return play_randomly(Game(players, seed=seed), random.Random(seed))


def record(game: Game) -> dict:
    return json.loads(game.to_json())


def refused(data: dict | str | bytes) -> ReplayError:
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    with pytest.raises(ReplayError) as info:
        Game.from_json(text)
    return info.value


# ------------------------------------------------------------------------ round trip


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip_of_finished_dealt_games(players: int) -> None:
    for seed in range(5):
        game = finished_game(seed, players)
        again = Game.from_json(game.to_json())
        assert again == game
        assert again.history == game.history and again.finished == game.finished
        assert again.seed == seed and again.is_over


def test_round_trip_of_a_game_in_progress_from_given_hands_and_leader() -> None:
    game = Game.from_hands(["3s 4s 5s 9h Kh", "6d 7d 8d Jc", "Qs Qh"], leader=2)
    play_randomly(game, random.Random(3), limit=4)
    again = Game.from_json(game.to_json(indent=2))
    assert again == game and again.leader == 2 and again.seed is None
    # The replayed game plays on like the original.
    assert list(again.legal_moves()) == list(game.legal_moves())


def test_round_trip_keeps_the_rules_variant() -> None:
    game = Game.from_hands(["Js Qs Ks As 2s 3c", "4d 5d"], leader=0,
                           rules=Rules(twos_in_sequences=False))
    game.play("Js Qs Ks As")
    again = game_from_json(game_to_json(game))
    assert again == game and again.rules == Rules(twos_in_sequences=False)


def test_written_replay_has_the_documented_fields() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h"])
    game.play("3s")
    game.pass_turn()
    assert record(game) == {
        "schema": SCHEMA, "version": VERSION, "players": 2, "rules": Rules().to_dict(),
        "seed": None, "hands": ["3s 4s", "5s 9h"], "leader": None,
        "actions": [{"seat": 0, "action": "play", "cards": "3s"},
                    {"seat": 1, "action": "pass"}],
        "finished": [],
    }


def test_from_json_accepts_bytes() -> None:
    game = finished_game(2)
    assert Game.from_json(game.to_json().encode()) == game


# --------------------------------------------------------------------- damaged files


def test_non_json_file() -> None:
    error = refused("this is not json")
    assert error.field is None and "not a JSON replay" in str(error)
    assert "not a JSON replay" in str(refused(b"\x89PNG\r\n\x1a\n\x00\xff"))


def test_truncated_file() -> None:
    text = finished_game(3).to_json()
    for cut in (1, len(text) // 3, len(text) - 1):
        assert "not a JSON replay" in str(refused(text[:cut]))


def test_truncated_action_list_does_not_match_the_finishing_order() -> None:
    data = record(finished_game(4))
    data["actions"] = data["actions"][:-3]
    error = refused(data)
    assert error.field == "finished"


def test_not_an_object() -> None:
    assert "JSON object" in str(refused("[1, 2, 3]"))
    assert "not a JSON replay" in str(refused("[" * 100_000 + "]" * 100_000))


@pytest.mark.parametrize("version", [2, 0, "1", True, None, 1.0])
def test_bad_version(version) -> None:
    data = record(finished_game(5))
    data["version"] = version
    error = refused(data)
    assert error.field == "version" and "unsupported version" in str(error)


def test_bad_schema() -> None:
    data = record(finished_game(5))
    data["schema"] = "chess.pgn"
    assert refused(data).field == "schema"


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("players", "4", "expected an integer, got a string"),
        ("players", 5, "out of range"),
        ("players", True, "got a boolean"),
        ("seed", 1.5, "got a number"),
        ("seed", -1, "out of range"),
        ("rules", 0, "expected a preset name or an object"),
        ("rules", "house", "unknown rules"),
        ("hands", "3s 4s", "expected a list"),
        ("leader", "0", "expected an integer"),
        ("actions", {}, "expected a list"),
        ("finished", "0 1 2 3", "expected a list"),
    ],
)
def test_mistyped_fields_are_named(field: str, value, words: str) -> None:
    data = record(finished_game(6))
    data[field] = value
    error = refused(data)
    assert error.field == field and words in str(error)
    assert str(error).startswith(f"{field}: ")


def test_unknown_and_missing_fields() -> None:
    data = record(finished_game(6))
    data["comment"] = "hi"
    assert refused(data).field == "comment"
    data = record(finished_game(6))
    del data["leader"]
    error = refused(data)
    assert error.field == "leader" and "missing" in str(error)


def test_hands_that_are_not_what_the_seed_deals() -> None:
    data = record(finished_game(7))
    data["hands"][2], data["hands"][3] = data["hands"][3], data["hands"][2]
    error = refused(data)
    assert error.field == "hands[2]" and "seed 7" in str(error)


def test_bad_card_text_in_hands() -> None:
    data = record(Game.from_hands(["3s 4s", "5s 9h"]))
    data["hands"][1] = "5s 9x"
    error = refused(data)
    assert error.field == "hands[1]" and "not a card" in str(error)


def test_overlapping_given_hands() -> None:
    data = record(Game.from_hands(["3s 4s", "5s 9h"]))
    data["hands"][1] = "4s 9h"
    error = refused(data)
    assert error.field == "hands" and "shares cards" in str(error)


def test_a_card_changed_in_an_action() -> None:
    game = finished_game(8)
    data = record(game)
    index = next(i for i, a in enumerate(data["actions"]) if a["action"] == "play" and i > 5)
    seat = data["actions"][index]["seat"]
    other = game.initial_hands[(seat + 1) % 4]
    data["actions"][index]["cards"] = Cards([next(iter(other))]).ascii()
    error = refused(data)
    assert error.field == f"actions[{index}]"
    assert str(error).startswith(f"actions[{index}]: seat {seat} cannot play ")


def test_an_action_out_of_turn() -> None:
    data = record(finished_game(9))
    index = 4
    actual = data["actions"][index]["seat"]
    data["actions"][index]["seat"] = (actual + 1) % 4
    error = refused(data)
    assert error.field == f"actions[{index}]"
    assert f"it is seat {actual}'s turn, not seat {(actual + 1) % 4}'s" in str(error)


def test_an_illegal_play_is_explained() -> None:
    game = Game.from_hands(["3s 7d 8d 9d Kh", "4s 5s 6h 9s 9h"], leader=0)
    game.play("7d 8d 9d")
    data = record(game)
    data["actions"].append({"seat": 1, "action": "play", "cards": "4s 5s 6h"})
    error = refused(data)
    assert str(error) == ("actions[1]: seat 1 cannot play 4♠ 5♠ 6♥: it does not beat "
                          "7♦ 8♦ 9♦: it has a lower top card (6♥ against 9♦)")


def test_an_illegal_pass_is_explained() -> None:
    data = record(Game.from_hands(["3s 4s", "5s 9h"]))
    data["actions"] = [{"seat": 0, "action": "pass"}]
    assert str(refused(data)) == "actions[0]: seat 0 cannot pass: you lead: you cannot pass"


def test_an_action_after_the_end() -> None:
    game = finished_game(10, players=2)
    data = record(game)
    data["actions"].append({"seat": 0, "action": "pass"})
    error = refused(data)
    assert error.field == f"actions[{len(game.history)}]" and "the hand is over" in str(error)


@pytest.mark.parametrize(
    "entry, words",
    [
        ("pass", "expected an object"),
        ({"seat": 0, "action": "fold"}, "must be \"play\" or \"pass\""),
        ({"seat": 0, "action": "play"}, "exactly the fields"),
        ({"seat": 0, "action": "pass", "cards": "3s"}, "exactly the fields"),
        ({"seat": "0", "action": "play", "cards": "3s"}, "expected an integer"),
        ({"seat": 0, "action": "play", "cards": ["3s"]}, "expected a string"),
        ({"seat": 0, "action": "play", "cards": "3z"}, "not a card"),
    ],
)
def test_malformed_actions_are_named(entry, words: str) -> None:
    data = record(Game.from_hands(["3s 4s", "5s 9h"]))
    data["actions"] = [entry]
    error = refused(data)
    assert error.field is not None and error.field.startswith("actions[0]")
    assert words in str(error)


def test_replay_error_is_a_value_error() -> None:
    assert issubclass(ReplayError, ValueError)
