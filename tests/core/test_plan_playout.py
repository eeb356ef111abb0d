"""The core's PLAN playout policy against its Python twin (tests/reference_playout.py),
and the sampled search entry point (core.sampled_places) that L3 runs on.

The reference is the specification in docs/strength.md written in plain Python over the
Python split search; the core must agree with it on every plan and every action."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from tienlen import core
from reference_split import split_score

from reference_playout import Playout, plan_of

SOAK = 100 if os.environ.get("TIENLEN_SOAK") else 1


def _random_hand(rng: random.Random, size: int) -> int:
    return sum(1 << card for card in rng.sample(range(52), size))


@pytest.mark.parametrize("flags", [0, core.NO_TWOS_IN_SEQUENCES], ids=["default", "no-twos"])
def test_native_plans_equal_the_reference_plans(flags: int) -> None:
    rng = random.Random(17 + flags)
    sizes = [1, 2, 3, 4, 5, 6, 8, 10, 12, 13, 13, 13, 13]
    for _ in range(4000 * SOAK):
        hand = _random_hand(rng, rng.choice(sizes))
        assert core.plan(hand, flags) == tuple(m for m, _, _ in plan_of(hand, flags)), hex(hand)


def test_native_plans_of_rank_rich_hands_equal_the_reference() -> None:
    # Hands built from runs, pairs and quads, where the split search has real choices.
    rng = random.Random(5)
    for _ in range(1500 * SOAK):
        hand = 0
        while hand.bit_count() < 13:
            rank = rng.randrange(13)
            hand |= rng.choice([0x3, 0x7, 0xF, 0x1]) << (4 * rank)
            if rng.random() < 0.5 and rank <= 10:
                hand |= (1 << (4 * rank + 4)) | (1 << (4 * rank + 8))
        flags = rng.choice([0, core.NO_TWOS_IN_SEQUENCES])
        native = core.plan(hand, flags)
        assert native == tuple(m for m, _, _ in plan_of(hand, flags)), hex(hand)
        # The groups cover the hand exactly, each is a combination, and there are as few as
        # the split search says.
        assert sum(native) == hand and all(core.classify(m, flags) for m in native)
        assert len(native) == split_score(hand, flags) // 16


def test_native_plans_handle_hands_larger_than_a_deal() -> None:
    rng = random.Random(8)
    for size in (20, 26, 39, 52):
        hand = _random_hand(rng, size)
        native = core.plan(hand)
        assert sum(native) == hand and len(native) <= 13
        assert native == tuple(m for m, _, _ in plan_of(hand))


class _Traced:
    """A GameState stand-in that records what the reference plays and checks it is legal."""

    def __init__(self, state: core.GameState) -> None:
        self.state = state

    def __getattr__(self, name: str):
        return getattr(self.state, name)

    def apply(self, mask: int) -> None:
        self.state.apply_checked(mask)


def _reference(state: core.GameState) -> tuple[tuple[int, ...], list[int]]:
    trace: list[int] = []
    order = Playout(state.flags).run(_Traced(state.copy()), [plan_of(h, state.flags) for h in state.hands], trace)
    return order, trace


@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_plan_playouts_equal_the_reference_move_for_move(players: int) -> None:
    for seed in range(300 * SOAK):
        flags = core.NO_TWOS_IN_SEQUENCES if seed % 4 == 0 else 0
        leader = -1 if seed % 2 else seed % players
        state = core.GameState(core.deal(seed, players), leader, flags)
        order, moves = state.playout_moves(seed, core.PLAN)
        assert (order, moves) == _reference(state), f"seed {seed}"
        assert state.playout(seed, core.PLAN) == order and not state.is_over


def test_native_plan_playouts_equal_the_reference_from_mid_game_states() -> None:
    # Random play first reaches the cases a fresh deal rarely shows: locked-out seats on a
    # pile of 2s, short hands that trigger the danger rules, finished seats.
    rng = random.Random(3)
    checked = 0
    for seed in range(600 * SOAK):
        players = rng.choice([2, 3, 4])
        state = core.GameState(core.deal(seed, players), -1, rng.choice([0, 1]))
        for _ in range(rng.randrange(40)):
            if state.is_over:
                break
            moves = state.legal_moves().tolist() + ([0] if state.can_pass() else [])
            state.apply(rng.choice(moves))
        if state.is_over:
            continue
        order, moves = state.playout_moves(0, core.PLAN)
        assert (order, moves) == _reference(state), f"seed {seed}: {state!r}"
        checked += 1
    assert checked > 300 * SOAK


def test_plan_batch_playouts_are_reproducible_and_match_the_recorded_games() -> None:
    batch = core.random_playouts(60, 4, seed=9, policy=core.PLAN)
    assert np.array_equal(batch, core.random_playouts(60, 4, seed=9, policy=core.PLAN))
    assert all(sorted(row) == [0, 1, 2, 3] for row in batch.tolist())
    for index in range(0, 60, 7):
        hands, actions, order = core.record_playout(9, index, 4, 0, core.PLAN)
        assert tuple(batch[index].tolist()) == order
        assert core.GameState(hands).playout_moves(123, core.PLAN) == (order, actions)


def _position(seed: int) -> tuple[core.GameState, int]:
    state = core.GameState(core.deal(seed))
    state.apply(state.legal_moves()[0])             # the next seat follows a lead
    unseen = core.FULL_DECK & ~state.hand(state.turn) & ~state.played_mask
    return state, unseen


@pytest.mark.parametrize("policy", [core.PLAN, core.GREEDY, core.RANDOM])
def test_sampled_places_share_each_sample_across_actions(policy: int) -> None:
    state, unseen = _position(4)
    actions = state.legal_moves().tolist()[:5] + [0]
    places = core.sampled_places(state, unseen, actions, 64, 77, policy)
    assert places.shape == (len(actions), 64) and places.dtype == np.int8
    assert ((places >= 0) & (places < 4)).all()
    # Common random numbers: each action's row does not depend on the other candidates.
    for i, action in enumerate(actions):
        alone = core.sampled_places(state, unseen, [action], 64, 77, policy)
        assert np.array_equal(alone[0], places[i])
    assert not np.array_equal(places, core.sampled_places(state, unseen, actions, 64, 78, policy))


@pytest.mark.parametrize("policy", [core.PLAN, core.GREEDY])
def test_flat_monte_carlo_sums_the_sampled_places(policy: int) -> None:
    state, unseen = _position(6)
    actions, sums = core.flat_monte_carlo(state, unseen, 50, 5, policy)
    places = core.sampled_places(state, unseen, actions, 50, 5, policy)
    assert np.array_equal(places.sum(axis=1), sums)


def test_sampled_places_of_a_known_deal_are_the_plain_plan_playout() -> None:
    # Two players and a pool that is exactly the opponent's hand: every sample deals the
    # same cards, so every sample must be the PLAN playout of the real position.
    state = core.GameState(core.deal(11, 2))
    seat = state.turn
    moves = state.legal_moves().tolist()[:6]
    got = core.sampled_places(state, state.hand(1 - seat), moves, 4, 3, core.PLAN)
    for i, move in enumerate(moves):
        after = state.copy()
        after.apply(move)
        assert got[i].tolist() == [after.playout(0, core.PLAN).index(seat)] * 4


def test_sampled_places_reject_bad_input_and_change_nothing() -> None:
    state, unseen = _position(2)
    before = state.key()
    legal = state.legal_moves().tolist()
    # A combination in hand that does not beat the pile (a lead of another shape).
    illegal = next(m for m in core.legal_moves(state.hand(state.turn)).tolist()
                   if not core.beats(core.classify(m), state.pile_code))
    with pytest.raises(ValueError, match="not legal here"):
        core.sampled_places(state, unseen, [legal[0], illegal], 4, 1)
    with pytest.raises(ValueError, match="not legal here"):
        core.sampled_places(state, unseen, [state.played_mask], 4, 1)      # not in hand
    with pytest.raises(ValueError):
        core.sampled_places(state, unseen, [1 << 52], 4, 1)
    with pytest.raises(ValueError, match="iterable"):
        core.sampled_places(state, unseen, 5, 4, 1)
    with pytest.raises(ValueError, match="samples"):
        core.sampled_places(state, unseen, legal, -1, 1)
    with pytest.raises(ValueError, match="policy"):
        core.sampled_places(state, unseen, legal, 4, 1, policy=3)
    with pytest.raises(ValueError, match="policy"):
        core.sampled_places(state, unseen, legal, 4, 1, policy=True)
    with pytest.raises(ValueError, match="overlaps"):
        core.sampled_places(state, unseen | state.hand(state.turn), legal, 4, 1)
    assert state.key() == before
    assert core.sampled_places(state, unseen, [], 4, 1).shape == (0, 4)
    assert core.sampled_places(state, unseen, legal, 0, 1).shape == (len(legal), 0)


@pytest.mark.parametrize("rules", ["southern", "only-3ds-out-of-turn", "house-cuts", "no-5ds-cut"])
def test_native_plan_playouts_equal_the_reference_under_other_rules(rules: str) -> None:
    # The twin reads the ruleset's bombs from the cut table and asks the game what a
    # locked-out seat may play; random play first reaches locked-out seats, cuts of cuts and
    # short hands.
    from tienlen import Rules
    from tienlen.games.tienlen.rules import CONTRACT_CUTS

    flags = {
        "southern": Rules.southern(),
        "only-3ds-out-of-turn": Rules(out_of_turn=frozenset({"3ds"})),
        "house-cuts": Rules(cuts=CONTRACT_CUTS | {("quad", "22"), ("4ds", "quad")}),
        "no-5ds-cut": Rules(cuts=CONTRACT_CUTS - {("5ds", "222")}),
    }[rules].flags
    rng = random.Random(31)
    checked = 0
    for seed in range(200 * SOAK):
        players = rng.choice([2, 3, 4])
        state = core.GameState(core.deal(seed, players), -1, flags)
        if state.is_over:  # an instant win at the deal
            continue
        for _ in range(rng.randrange(30)):
            if state.is_over:
                break
            moves = state.legal_moves().tolist() + ([0] if state.can_pass() else [])
            state.apply(rng.choice(moves))
        if state.is_over:
            continue
        order, moves = state.playout_moves(seed, core.PLAN)
        assert (order, moves) == _reference(state), f"seed {seed}: {state!r}"
        checked += 1
    assert checked > 100 * SOAK
