"""One vocabulary (issue 34, docs/architecture.md): where the two games had two names for
one idea, each game now answers to both, and the two names mean the same thing."""

from __future__ import annotations

import pytest

from tienlen.games.guandan.game import Game as GuandanGame
from tienlen.games.guandan.rules import RuleConfig
from tienlen.games.tienlen.game import Game as TienlenGame


def test_tienlen_game_answers_to_guandans_names() -> None:
    game = TienlenGame(3, seed=5)
    assert game.legal_plays() == game.legal_moves()
    assert game.config is game.rules and game.phase == "play" and game.winners is None
    assert game.state.key() == game.snapshot()[4]
    view = game.view(game.turn)
    assert view.legal_plays == view.legal_moves() and view.hand_sizes == view.card_counts
    assert view.config is view.rules and view.phase == "play"
    while not game.is_over:
        moves = game.legal_plays()
        if moves:
            game.play(moves[0])
        else:
            game.pass_turn()
    assert game.phase == "over" and game.winners == (game.finished[0],)
    assert game.view(0).phase == "over"


def test_guandan_game_answers_to_tien_lens_names() -> None:
    game = GuandanGame(seed=5)
    assert game.legal_moves() == game.legal_plays()
    assert game.players == 4 and game.rules is game.config
    assert game.played == GuandanGame(seed=5).played and len(game.played) == 0
    assert game.snapshot() == game.copy().snapshot()
    hands = ["3s 3d", "4s", "5s", "6s"]
    assert GuandanGame.from_hands(hands, leader=0) == GuandanGame(hands=hands, leader=0)
    view = game.view(game.turn)
    assert view.legal_moves() == list(view.legal_plays) and view.is_my_turn
    assert view.card_counts == view.hand_sizes and view.players == 4 and view.rules is view.config
    first = game.legal_plays()[-1]
    game.act("play", first.cards, None, first)
    after = game.view(game.turn)
    assert after.played == first.cards == game.played
    assert len(after.unseen) == 108 - len(after.hand) - len(first.cards)
    while not game.is_over:
        plays = game.legal_plays()
        if game.can_pass():
            game.pass_turn()
        else:
            game.act("play", plays[0].cards, None, plays[0])
    assert game.winners == game.winning_team and game.loser == game.places[-1]


def test_guandan_takes_rules_as_the_keyword_for_config() -> None:
    huaian = RuleConfig.huaian()
    assert GuandanGame(seed=2, rules=huaian).config == huaian
    assert GuandanGame(seed=2, rules=huaian) == GuandanGame(seed=2, config=huaian)
    with pytest.raises(ValueError, match="not both"):
        GuandanGame(seed=2, rules=huaian, config=RuleConfig(wild_count=0))
