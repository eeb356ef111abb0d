"""The match around a hand in every view (GUANDAN.md G7.7): both teams' levels and failed
attempts as dealt, the declarer, the hand's number; a hand alone has none."""

from __future__ import annotations

import json
import pickle

import pytest

from tienlen.guandan import Game, GuandanError, Match, ReplayError
from tienlen.games.guandan.bots import make_bot
from tienlen.games.guandan.view import Standing


def _play_hands(match: Match, hands: int) -> None:
    bots = [make_bot("L2", seed=seat) for seat in range(4)]
    while match.hand_number < hands:
        seat = match.turn
        assert seat is not None
        match.act(*bots[seat].decide(match.game.view(seat)), seat=seat)


def test_G7_7_every_view_of_a_match_carries_its_standing() -> None:
    match = Match(seed=3)
    for seat in range(4):
        assert match.game.view(seat).standing == Standing((2, 2), None, 0, (0, 0))
    levels, failed, declarer = match.levels, match.failed_attempts, match.declarer
    for number in range(1, 5):
        _play_hands(match, number)
        # the standing as the hand was dealt: the levels settled after the last hand
        assert match.results[-1].levels == match.levels
        levels, failed, declarer = match.levels, match.failed_attempts, match.declarer
        for seat in range(4):
            view = match.game.view(seat)
            assert view.standing == Standing(levels, declarer, number, failed)
            assert view.level == levels[declarer]               # G1.4: the declarer's level


def test_G7_7_a_hand_alone_has_no_standing() -> None:
    assert Game(seed=3).view(0).standing is None


def test_G7_7_the_standing_survives_copies_pickles_and_hand_files() -> None:
    match = Match(seed=8)
    _play_hands(match, 3)
    game = match.game
    standing = game.view(0).standing
    assert standing is not None and standing.hand_number == 3
    for other in (game.copy(), pickle.loads(pickle.dumps(game)), Game.from_json(game.to_json())):
        assert other == game and other.view(1).standing == standing
    data = json.loads(game.to_json())
    assert data["standing"]["hand_number"] == 3
    assert "standing" not in json.loads(Game(seed=3).to_json())     # a hand alone: as before
    assert Match.from_json(match.to_json()) == match
    # a game with another standing is another game
    other = Game(seed=3, standing=Standing((2, 2), None, 0))
    assert other != Game(seed=3) and other.view(0).standing == Standing((2, 2), None, 0)


@pytest.mark.parametrize("args, match", [
    (((15, 2), None, 0), "levels must be two ints 2..14"),
    (((2, 2), 2, 3), "declarer must be None, 0 or 1"),
    (((2, 2), 0, -1), "hand_number must be an int >= 0"),
    (((2, 2), 0, 1, (0, -1)), "failed_attempts must be two ints >= 0"),
    (((2, 5), None, 4), "first hand"),
    (((2, 5), 1, 0), "first hand"),
    (([2, 5], 1, 3), "levels must be two ints"),
])
def test_a_bad_standing_is_refused_in_one_line(args: tuple[object, ...], match: str) -> None:
    with pytest.raises(GuandanError, match=match) as info:
        Standing(*args)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_a_standing_whose_declarer_is_not_at_the_hands_level_is_refused() -> None:
    with pytest.raises(GuandanError, match="declarer's level"):
        Game(seed=3, level=5, standing=Standing((4, 9), 1, 2))
    with pytest.raises(GuandanError, match="declarer's level"):
        Game(seed=3, level=5, standing=Standing((2, 2), None, 0))
    with pytest.raises(GuandanError, match="must be a Standing"):
        Game(seed=3, standing=((2, 2), None, 0))  # type: ignore[arg-type]
    assert Game(seed=3, level=9, standing=Standing((4, 9), 1, 2)).view(0).standing.levels == (4, 9)  # type: ignore[union-attr]


def test_a_hand_file_with_a_bad_standing_is_refused() -> None:
    data = json.loads(Game(seed=3, standing=Standing((2, 2), None, 0)).to_json())
    data["standing"]["levels"] = [2, 20]
    with pytest.raises(ReplayError, match="standing"):
        Game.from_json(json.dumps(data))
    data["standing"] = {"levels": [2, 2]}
    with pytest.raises(ReplayError, match="standing"):
        Game.from_json(json.dumps(data))
