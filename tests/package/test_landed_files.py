"""Files written by the landed code (``main`` before issue 25's match driver; how:
tests/data/landed/make_landed.py) still load, replay and show, through the one match driver.
"""

from __future__ import annotations

from paths import DATA as TEST_DATA

import json
from pathlib import Path

import pytest

DATA = TEST_DATA / "landed"


def test_landed_guandan_match_file_loads_and_plays_on() -> None:
    from tienlen.games.guandan.match import Match

    text = (DATA / "guandan_match_v1.json").read_text(encoding="utf-8")
    match = Match.from_json(text)
    record = json.loads(text)
    assert list(match.levels) == record["levels"] and match.winner == record["winner"]
    assert len(match.history) == len(record["actions"]) and len(match.results) == 3
    assert match.to_json(indent=1) + "\n" == text      # written back byte for byte
    assert not match.is_over and match.turn is not None  # the next hand was dealt


def test_landed_capped_guandan_match_file_loads() -> None:
    from tienlen.games.guandan.match import Match

    text = (DATA / "guandan_match_v1_capped.json").read_text(encoding="utf-8")
    match = Match.from_json(text)
    assert match.capped and match.is_over and match.max_hands == 1
    assert match.to_json() + "\n" == text


@pytest.mark.parametrize("hand", [1, 2])
def test_landed_tienlen_match_hands_load_with_their_match_labels(hand: int) -> None:
    from tienlen.games.tienlen.match import Match
    from tienlen.games.tienlen.replay import game_from_json, replay_labels

    text = (DATA / f"tienlen_match_hand{hand}_v1.json").read_text(encoding="utf-8")
    game = game_from_json(text)
    labels = replay_labels(text)
    assert labels.hand == hand and labels.match_seed == 21
    # The match driver deals the same hand from the same match seed.
    match = Match(3, seed=21)
    if hand == 2:
        first = game_from_json((DATA / "tienlen_match_hand1_v1.json").read_text(encoding="utf-8"))
        for action in first.history:
            match.game.act(action.move, seat=action.seat)
        match.next_hand()
    assert match.game.initial_hands == game.initial_hands and game.is_over
    assert match.game.turn == game.history[0].seat


@pytest.mark.parametrize("name", ["guandan_match_v1.json", "tienlen_match_hand2_v1.json"])
def test_landed_files_replay_in_the_cli(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    from tienlen.cli import main

    assert main(["replay", str(DATA / name), "--fast", "--ascii"]) == 0
    assert capsys.readouterr().out.strip()
