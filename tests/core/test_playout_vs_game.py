"""Native playouts against tienlen.Game.

``core.record_playout`` plays a hand in C (``st_step``) and records every action. Replaying
the actions through ``Game.from_hands(hands, leader=None)`` on the checked path must accept
every one of them, at the seat the native playout had to act, and reach the same finishing
order. Both policies, 2-4 players; ``TIENLEN_SOAK=1`` replays 100 times as many.
"""

from __future__ import annotations

import os

import pytest

from tienlen import core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import PASS, Game
from tienlen.games.tienlen.rules import Rules

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1
PER_CASE = 340 * SOAK  # 6 cases: 2,040 playouts by default
SEED = 0x5EED_CAFE


def replay(hands: tuple[int, ...], actions: list[int], order: tuple[int, ...],
           rules: Rules, label: str) -> None:
    game = Game.from_hands(hands, rules=rules, leader=None)
    for step, mask in enumerate(actions):
        where = f"{label}, action {step} by seat {game.turn}"
        assert not game.is_over, f"{where}: the game is already over"
        if mask == 0:
            assert game.can_pass(), f"{where}: the playout passed, the game refuses"
            game.act(PASS, game.turn)
        else:
            cards = Cards(mask)
            assert cards in game.legal_moves(), f"{where}: {cards} is not a legal move"
            game.act(cards, game.turn)
    assert game.is_over, f"{label}: the game is not over after the playout's actions"
    assert game.finished == tuple(order), f"{label}: {game.finished} != playout {order}"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", [core.RANDOM, core.GREEDY, core.PLAN], ids=["random", "greedy", "plan"])
def test_native_playouts_replay_through_game(policy: int, players: int) -> None:
    for index in range(PER_CASE):
        hands, actions, order = core.record_playout(SEED, index, players, 0, policy)
        replay(hands, actions, order, Rules(), f"playout {index} ({players}p, policy {policy})")


@pytest.mark.parametrize("policy", [core.RANDOM, core.GREEDY, core.PLAN], ids=["random", "greedy", "plan"])
def test_native_playouts_replay_through_game_without_twos_in_sequences(policy: int) -> None:
    rules = Rules(twos_in_sequences=False)
    for index in range(60 * SOAK):
        players = 2 + index % 3
        hands, actions, order = core.record_playout(SEED, index, players, rules.flags, policy)
        replay(hands, actions, order, rules, f"no-twos playout {index} ({players}p)")


def test_recorded_playout_orders_match_the_batch_playouts() -> None:
    # record_playout(seed, i) is game i of random_playouts(seed): the same hands and play.
    for players in (2, 3, 4):
        batch = core.random_playouts(40, players, SEED)
        for index in range(40):
            _, _, order = core.record_playout(SEED, index, players, 0, core.RANDOM)
            assert tuple(batch[index].tolist()) == tuple(order)


@pytest.mark.parametrize("policy", [core.RANDOM, core.GREEDY, core.PLAN], ids=["random", "greedy", "plan"])
@pytest.mark.parametrize("rules", [
    Rules.southern(),
    # A house table: every bomb cuts every 2-combo and every bomb, none out of turn.
    Rules(cuts=frozenset((b, t) for b in ("quad", "3ds", "4ds", "5ds")
                         for t in ("2", "22", "222", "quad", "3ds", "4ds", "5ds")),
          out_of_turn=frozenset()),
], ids=["southern", "house"])
def test_native_playouts_replay_through_game_under_other_tables(policy: int, rules: Rules) -> None:
    # Issue 13: the playouts read the same rule table as the checked path. A deal won at
    # once (R11.3) records no action; its winner holds the instant win.
    for index in range(60 * SOAK):
        players = 2 + index % 3
        hands, actions, order = core.record_playout(SEED, index, players, rules.flags, policy)
        if not actions:
            assert core.instant_win(hands[order[0]], rules.flags) >= 0
            continue
        replay(hands, actions, order, rules, f"{rules.name} playout {index} ({players}p)")
