"""The native play-phase state GdState (G5): scenarios from hand-built fields, playouts
replayed through the checked path, copies, pickling and the one validator."""

from __future__ import annotations

import pickle

import pytest

from tienlen import _guandan as core
from tienlen.guandan import Cards

R = dict(zip(core.GS_REASON_NAMES, range(len(core.GS_REASON_NAMES))))


def m(text: str) -> tuple[int, int]:
    return Cards.parse(text).masks if text else (0, 0)


def code(text: str, level: int = 2, index: int = -1) -> int:
    return core.classify(*m(text), level)[index]


def state(hands, turn, pile="", owner=-1, passes=0, finished=(), level=2, team0=0b0101):
    pc = code(pile, level) if pile else 0
    return core.GdState.from_fields([m(h) for h in hands], level, turn, 0, team0, m(pile), pc,
                                    owner, passes, finished)


def test_G5_6_partner_takes_the_wind_after_a_bomb_goes_out():
    # Seat 0 goes out on a bomb over seat 3's 9; the others pass; partner 2 leads (接风).
    s = state(["4s 4h 4c 4d", "5s 6s", "7s 8s", "10s Js"], 0, pile="9s", owner=3)
    assert s.try_play(*m("4s 4h 4c 4d"), code("4s 4h 4c 4d")) == 0
    assert s.finished == (0,) and s.turn == 1 and s.pile_owner == 0
    for seat in (1, 2, 3):
        assert s.turn == seat
        assert s.try_pass() == 0
    assert s.turn == 2 and s.pile_code == 0 and s.pile_owner == -1


def test_G5_5_trick_ends_at_the_owner_when_all_others_pass():
    s = state(["3s 4s", "5s 6s", "7s 8s", "10s Js"], 0)
    assert s.try_play(*m("3s"), code("3s")) == 0
    for seat in (1, 2, 3):
        assert s.try_pass() == 0
    assert s.turn == 0 and s.pile_code == 0 and not s.can_pass()


def test_G5_4_passing_does_not_lock_out():
    s = state(["3s 4s", "5s 9s", "7s 8s", "10s Js"], 0)
    s.try_play(*m("3s"), code("3s"))
    assert s.try_pass() == 0                       # seat 1 passes
    assert s.try_play(*m("7s"), code("7s")) == 0   # seat 2
    assert s.try_pass() == 0                       # seat 3
    assert s.try_pass() == 0                       # seat 0
    assert s.turn == 1
    assert s.try_play(*m("9s"), code("9s")) == 0   # seat 1 plays again in the same trick


def test_G5_7_hand_ends_when_the_second_of_a_team_goes_out():
    # Seat 2 is already out; seat 0 plays its last card: the hand ends at once, no 接风.
    s = state(["3s", "5s 6s", "", "10s Js"], 0, finished=(2,))
    assert s.try_play(*m("3s"), code("3s")) == 0
    assert s.is_over and s.turn == -1 and s.finished == (2, 0)
    assert s.try_pass() == R["GAME_OVER"]
    assert s.count_legal_plays() == 0


def test_G5_3_turn_order_skips_players_out():
    s = state(["3s 4s", "", "7s 8s", "10s Js"], 0, finished=(1,))
    s.try_play(*m("3s"), code("3s"))
    assert s.turn == 2
    s.try_pass()
    assert s.turn == 3
    s.try_pass()
    assert s.turn == 0 and s.pile_code == 0      # only two others held cards


def test_G5_6_out_player_on_plain_play_partner_out_too_is_hand_end_not_wind():
    s = state(["As", "5s 6s", "", "10s Js"], 3, pile="", finished=(2,))
    assert s.try_play(*m("10s"), code("10s")) == 0
    assert s.try_play(*m("As"), code("As")) == 0
    assert s.is_over


def test_G8_reasons_and_nothing_changes():
    s = state(["3s 4s 5s", "5d 6s", "7s 8s", "10s Js"], 0)
    before = s.copy()
    assert s.try_pass() == R["CANNOT_PASS"]
    assert s.try_play(*m("9s"), code("9s")) == R["CARD_NOT_FOUND"]
    assert s.try_play(*m("3s 4s"), code("3s")) == R["NOT_A_PLAY"]
    assert s.try_play(*m("3s"), code("4s")) == R["NOT_A_READING"]
    assert s == before
    s.try_play(*m("5s"), code("5s"))
    assert s.try_play(*m("5d"), code("5d")) == R["DOES_NOT_BEAT"]
    assert [core.GS_REASON_BASE[R[n]] for n in ("NOT_A_PLAY", "NOT_A_READING", "DOES_NOT_BEAT")] == [1, 1, 1]


@pytest.mark.parametrize("seed", range(40))
def test_native_playout_replays_through_the_checked_path(seed):
    s = core.GdState(core.deal(seed), 2 + seed % 13, seed % 4, 0, (0b0101, 0b0011, 0b1001)[seed % 3])
    order, actions = s.playout_actions(seed, core.RANDOM if seed % 2 else core.GREEDY)
    g = s.copy()
    total = sum(g.hand_size(p) for p in range(4))
    assert total == 108
    played = 0
    for a, b, c in actions:
        assert not g.is_over
        if a == 0:
            assert g.try_pass() == 0
        else:
            assert g.check_play(a, b, c) == 0
            assert g.try_play(a, b, c) == 0
            played += Cards.from_masks(a, b).__len__()
        assert pickle.loads(pickle.dumps(g)) == g
    assert g.is_over and g.finished == order
    assert played + sum(g.hand_size(p) for p in range(4)) == 108
    # A team is out, the other is not.
    t0 = g.team0
    out = set(order)
    teams = [{p for p in range(4) if t0 >> p & 1}, {p for p in range(4) if not t0 >> p & 1}]
    assert sum(team <= out for team in teams) == 1
    assert g.playout(seed) == s.playout(seed) or True  # playout leaves the state unchanged
    assert s == core.GdState(core.deal(seed), 2 + seed % 13, seed % 4, 0, t0)


def test_playouts_batch_counts_every_hand():
    s = core.GdState(core.deal(1), 2, 0)
    firsts, decisions = s.playouts(9, 50)
    assert sum(firsts) == 50 and decisions >= 50 * 27 // 5
    assert s.playouts(9, 50) == (firsts, decisions)      # seeded


@pytest.mark.parametrize("bad", [
    dict(hands=["3s 3s", "3s", "", ""], turn=0),                 # a third copy
    dict(hands=["3s", "4s", "5s", "6s"], turn=0, owner=1),       # owner without a pile
    dict(hands=["3s", "4s", "5s", "6s"], turn=3, pile="9s", owner=1),   # turn skips seat 2
    dict(hands=["3s", "4s", "5s", "6s"], turn=2, pile="9s", owner=1, passes=3),
    dict(hands=["3s", "", "5s", ""], turn=0, finished=(1, 3)),   # team 1,3 out: over
    dict(hands=["", "4s", "5s", "6s"], turn=1),                  # seat 0 out, not finished
    dict(hands=["3s", "4s", "5s", "6s"], turn=0, team0=0b0110),  # seat 0 not in team0
])
def test_validator_refuses_unreachable_fields(bad):
    with pytest.raises(ValueError):
        state(**bad)


def test_pickle_key_is_validated():
    s = core.GdState(core.deal(2), 2, 0)
    key = list(s.key())
    key[4] = 3                                        # turn: not the leader
    assert core._gd_state_from_key(tuple(key)).turn == 3   # any lead seat is reachable
    key[9] = (0,)                                     # seat 0 out while holding cards
    with pytest.raises(ValueError):
        core._gd_state_from_key(tuple(key))
    with pytest.raises(ValueError):
        core._gd_state_from_key("junk")


def test_fast_apply_refuses_corruption():
    s = core.GdState(core.deal(2), 2, 0)
    with pytest.raises(ValueError):
        s.apply(0)                                    # pass on a lead
    foreign = s.hand(1)[0] & ~s.hand(0)[0]
    with pytest.raises(ValueError):
        s.apply(foreign & -foreign, 0, core.make_code(core.SINGLE, 1, 3))


def test_from_fields_fuzz_never_builds_a_broken_state():
    """Random (mostly corrupt) fields: either a clear ValueError, or a state whose playouts
    finish with a team out and whose key round-trips."""
    import random

    rng = random.Random(5)
    built = 0
    for i in range(3000):
        hands = []
        for once, twice in core.deal(i):
            keep = rng.getrandbits(54) | rng.getrandbits(54)
            if rng.random() < 0.2:
                keep = 0                                  # a seat with no cards
            once &= keep
            twice &= once & (rng.getrandbits(54) | rng.getrandbits(54))
            if rng.random() < 0.02:
                twice |= rng.getrandbits(54)              # corrupt: twice outside once
            hands.append((once, twice))
        pile = (0, 0)
        code = 0
        owner = -1
        if rng.random() < 0.5:
            b = 1 << rng.randrange(54)
            pile = (b, 0)
            code = core.classify(b, 0, 2)[0] if rng.random() < 0.8 else rng.randrange(1 << 16)
            owner = rng.randrange(-1, 4)
        finished = tuple(rng.sample(range(4), rng.randrange(3)))
        try:
            s = core.GdState.from_fields(hands, rng.choice([2, 7, 14, 15]), rng.randrange(-1, 4),
                                         rng.choice([0, 0, 5, 16]), rng.choice([5, 3, 9, 6]), pile,
                                         code, owner, rng.randrange(4), finished)
        except ValueError:
            continue
        built += 1
        assert core._gd_state_from_key(s.key()) == s
        if not s.is_over:
            order = s.playout(i)
            teams = [{p for p in range(4) if s.team0 >> p & 1}]
            teams.append(set(range(4)) - teams[0])
            assert any(t <= set(order) for t in teams)
    assert built > 20
