"""The toy game (tests/toy_game.py) implements the table protocol: the same checks
tests/test_table.py makes of the two real games, on a game tienlen does not know."""

from __future__ import annotations

import json
import random

import pytest

from tienlen.table import IllegalActionError, get_spec, spec_names
from tienlen.table.registry import UnknownGameError

from toy_game import registered


@pytest.fixture
def toy():
    with registered() as spec:
        yield spec


def test_registered_only_inside_the_block():
    assert "toy" not in spec_names()
    with registered() as spec:
        assert get_spec("toy") is spec
    with pytest.raises(UnknownGameError):
        get_spec("toy")


@pytest.mark.parametrize("players", [2, 3])
def test_random_walk_legal_actions_verify_illegal_ones_change_nothing(toy, players):
    for seed in range(30):
        state = toy.new_match(seed, players=players, options={"hands": 2})
        rng = random.Random(seed)
        while not state.is_over:
            if state.phase == "hand_over":
                assert state.turn is None and state.legal_actions() == []
                state.next_hand()
                continue
            turn = state.turn
            before = [json.dumps(state.view(s), sort_keys=True) for s in range(players)]
            other = (turn + 1) % players
            for bad, seat in [({"kind": "pass"}, other), ({"kind": "play", "cards": ["0"]}, turn),
                              ({"kind": "give_tribute", "card": "1"}, turn),
                              ({"kind": "play", "cards": ["3", "4"]}, turn)]:
                assert not state.can(bad, seat)
                with pytest.raises(IllegalActionError):
                    state.apply(bad, seat)
            assert before == [json.dumps(state.view(s), sort_keys=True) for s in range(players)]
            legal = state.legal_actions()
            assert legal and all(state.can(a, turn) for a in legal)
            state.apply(rng.choice(legal), turn)
        out = state.outcome()
        assert sorted(out["places"]) == list(range(1, players + 1))
        assert sum(out["totals"]) == 2 * sum(range(players))


def test_bots_play_legal_actions_and_views_hide_other_hands(toy):
    state = toy.new_match(5, players=3)
    bots = [toy.make_bot(level, seed=s) for s, level in enumerate(("random", "low", "low"))]
    while not state.is_over:
        seat = state.turn
        view = state.view(seat)
        assert view["hand"] == [str(r) for r in state.current.hands[seat]]
        assert view["hand_sizes"] == [len(h) for h in state.current.hands]
        assert {k for k, v in view.items() if isinstance(v, list) and v and
                all(isinstance(c, str) for c in v)} == {"hand"}
        action, reason = bots[seat].explain(state.bot_view(seat))
        assert state.can(action, seat) and reason
        state.apply(bots[seat].act(state.bot_view(seat)), seat)
    with pytest.raises(ValueError, match="unknown toy bot level"):
        toy.make_bot("L9", 0)
    with pytest.raises(ValueError, match="2 or 3"):
        toy.new_match(1, players=4)
