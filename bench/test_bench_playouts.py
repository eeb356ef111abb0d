"""Native playouts and the compact GameState."""

from __future__ import annotations

import pytest

from tienlen import core


@pytest.fixture(scope="module")
def states(seed):
    return [core.GameState(core.deal(seed * 1000 + i)) for i in range(200)]


def test_random_playouts_4p(per_item, seed):
    per_item(core.random_playouts, 1000, 1000, 4, seed)


def test_random_playouts_2p(per_item, seed):
    per_item(core.random_playouts, 1000, 1000, 2, seed)


def test_greedy_playouts_4p(per_item, seed):
    per_item(lambda: core.random_playouts(1000, 4, seed, 0, core.GREEDY), 1000)


def test_plan_playouts_4p(per_item, seed):
    per_item(lambda: core.random_playouts(1000, 4, seed, 0, core.PLAN), 1000)


def test_sampled_places_plan_following(per_item, states):
    """L3's inner loop: 20 sampled deals x every candidate reply to a lead, PLAN playouts."""
    positions = []
    for s0 in states[:20]:
        s = s0.copy()
        s.apply(s.legal_moves()[0])
        candidates = s.legal_moves().tolist() + [0]
        unseen = core.FULL_DECK & ~s.hand(s.turn) & ~s.played_mask
        positions.append((s, unseen, candidates))
    playouts = 20 * sum(len(c) for _, _, c in positions)

    def run():
        for i, (s, unseen, candidates) in enumerate(positions):
            core.sampled_places(s, unseen, candidates, 20, i, core.PLAN)

    per_item(run, playouts)


def test_gamestate_playout(per_item, states):
    def run():
        for i, s in enumerate(states):
            s.playout(i)

    per_item(run, len(states))


def test_gamestate_copy(per_item, states):
    def run():
        for s in states:
            s.copy()

    per_item(run, len(states))


def test_gamestate_random_game_apply(per_item, states):
    """A random game driven from Python through GameState.apply (the unchecked core path)."""
    import random

    def run():
        rng = random.Random(1)
        for s0 in states[:50]:
            s = s0.copy()
            while not s.is_over:
                moves = s.legal_moves().tolist()
                if s.can_pass():
                    moves.append(0)
                s.apply(moves[rng.randrange(len(moves))])

    per_item(run, 50)
