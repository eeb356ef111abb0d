"""The exact Guandan endgame solver (issue 29, src/guandan/gd_solver.pxi) against a plain
minimax written here over the independent reference model (tests/guandan_reference_game.py's
RefHand, whose legality is tests/guandan_reference.py's), on random small positions: every
RuleConfig flag combination, every double_down_levels that changes a value, the three team
formations, positions with seats already out and mid-trick piles. Both directions are
checked (a solver WIN the reference calls a LOSS and the other way round), the exact value,
its negation for the other team, and solve_after's value of every legal action.

TIENLEN_SOAK=1 runs twenty times as many positions.
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections import Counter
from functools import lru_cache

import pytest

import guandan_reference as ref
import guandan_reference_game as model
from tienlen import _guandan as core
from tienlen.guandan import Cards

SOAK = os.environ.get("TIENLEN_SOAK") == "1"
KINDS = ("", "single", "pair", "triple", "full_house", "straight", "three_pairs", "plate",
         "bomb", "straight_flush", "joker_bomb")
TEAMS = {0b0101: ((0, 2), (1, 3)), 0b0011: ((0, 1), (2, 3)), 0b1001: ((0, 3), (1, 2))}


def ref_cfg(flags: int, dd: int) -> dict:
    return {**ref.STANDARD,
            "same_suit_straight_beats_bomb": not flags & core.NO_STRAIGHT_FLUSH,
            "straight_extends_to_ace": not flags & core.NO_ACE_TOP,
            "bomb_compare_priority": "BY_RANK" if flags & core.BOMB_BY_RANK else "BY_COUNT",
            "wild_count": 0 if flags & core.NO_WILDS else 2,
            "double_down_levels": dd}


def reading(code: int) -> tuple[str, int, int]:
    return (KINDS[core.code_kind(code)], core.code_size(code), core.code_rank(code))


def ids_of(once: int, twice: int) -> tuple[int, ...]:
    return Cards.from_masks(once, twice).ids


# ---------------------------------------------------------------- the plain minimax

def ref_score(rh: model.RefHand, team: tuple[int, int], dd: int) -> int:
    """G7.1 for a finished hand: the first out's team gains dd / 2 / 1 by its partner's place."""
    first = rh.out[0]
    mate = model.partner_of(first, rh.teams)
    place = rh.out.index(mate) + 1 if mate in rh.out else 4
    gain = {2: dd, 3: 2, 4: 1}[place]
    return gain if first in team else -gain


def clone(rh: model.RefHand) -> model.RefHand:
    c = model.RefHand(rh.hands, rh.level, rh.turn, rh.teams, rh.cfg)
    c.turn, c.pile, c.owner = rh.turn, rh.pile, rh.owner
    c.passed, c.out = set(rh.passed), list(rh.out)
    return c


def ref_moves(rh: model.RefHand) -> list:
    hand = list(rh.hands[rh.turn].elements())
    plays = sorted(ref.legal_plays(hand, rh.level, rh.pile, rh.cfg))
    return plays + ([None] if rh.can_pass() else [])


def ref_apply(rh: model.RefHand, move) -> model.RefHand:
    c = clone(rh)
    if move is None:
        c.pass_()
    else:
        c.play(*move)
    return c


def ref_value(rh: model.RefHand, team: tuple[int, int], dd: int) -> int:
    """Plain minimax over every reference legal play and pass (memoised on the position)."""

    @lru_cache(maxsize=None)
    def value(key) -> int:
        node = positions[key]
        if node.turn is None:
            return ref_score(node, team, dd)
        vals = []
        for m in ref_moves(node):
            child = ref_apply(node, m)
            k = ref_key(child)
            positions[k] = child
            vals.append(value(k))
        return max(vals) if node.turn in team else min(vals)

    positions = {ref_key(rh): rh}
    return value(ref_key(rh))


def ref_key(rh: model.RefHand):
    return (tuple(tuple(sorted(h.elements())) for h in rh.hands), rh.pile, rh.owner,
            frozenset(rh.passed), rh.turn, tuple(rh.out))


# ---------------------------------------------------------------- random small positions

def random_position(rng: random.Random, total: int):
    """A core GdState and the same position in the reference model."""
    level = rng.randint(2, 14)
    flags = rng.randrange(16)
    dd = rng.choice([1, 2, 3, 4])
    team0 = rng.choice(list(TEAMS))
    teams = TEAMS[team0]
    low = rng.randint(2, 11)
    # Four neighbouring ranks and the level rank (its ♥ is the wild), and the jokers: small
    # hands that still make pairs, bombs, windows and wild plays.
    ranks = sorted(set(range(low, low + 4)) | {level})
    pool = [(r - 2) * 4 + s for r in ranks for s in range(4) for _ in range(2)]
    pool += [52, 52, 53, 53]
    cards = rng.sample(pool, total)
    cnt = Counter(cards)
    assert max(cnt.values()) <= 2
    # Who is already out: nobody, one seat, or one seat of each team.
    finished: list[int] = []
    roll = rng.random()
    if roll < 0.3:
        finished = [rng.randrange(4)]
    elif roll < 0.4:
        a = rng.choice(teams[0])
        b = rng.choice(teams[1])
        finished = [a, b] if rng.random() < 0.5 else [b, a]
    holders = [s for s in range(4) if s not in finished]
    if total < len(holders):
        return None
    # Every holder gets at least one card.
    rng.shuffle(cards)
    split = [1] * len(holders)
    for _ in range(total - len(holders)):
        split[rng.randrange(len(holders))] += 1
    hands_ids: list[list[int]] = [[] for _ in range(4)]
    pos = 0
    for s, k in zip(holders, split):
        hands_ids[s] = cards[pos:pos + k]
        pos += k
    leader = rng.choice(holders)
    masks = [Cards.from_ids(h).masks if h else (0, 0) for h in hands_ids]
    state = core.GdState.from_fields(masks, level, leader, flags, team0, finished=tuple(finished))
    rh = model.RefHand([Counter(h) for h in hands_ids], level, leader, teams, ref_cfg(flags, dd))
    rh.out = list(finished)
    # A few random actions, applied to both, to reach mid-trick positions.
    for _ in range(rng.randint(0, 3)):
        if state.is_over:
            break
        ms, cs = state.legal_plays()
        options = [(int(ms[i, 0]), int(ms[i, 1]), int(cs[i])) for i in range(len(cs))]
        if state.can_pass():
            options.append((0, 0, 0))
        a, b, c = rng.choice(options)
        state.apply(a, b, c)
        if a:
            rh.play(ids_of(a, b), reading(c))
        else:
            rh.pass_()
    if state.is_over:
        return None
    assert rh.turn == state.turn
    return state, rh, dd, teams


def positions(seed: int, count: int, sizes=None):
    sizes = SIZES if sizes is None else sizes
    rng = random.Random(seed)
    made = 0
    while made < count:
        p = random_position(rng, rng.choice(list(sizes)))
        if p is not None:
            made += 1
            yield p


COUNT = 40 * (20 if SOAK else 1)
# The plain minimax takes ~0.4 s on 8 cards and ~2 s on 10: the soak goes to 10.
SIZES = range(4, 11) if SOAK else range(4, 9)


@pytest.mark.parametrize("chunk", range(4))
def test_solver_value_agrees_with_plain_minimax_both_directions(chunk: int) -> None:
    win_not_ref = loss_not_ref = 0
    wrong_values = []
    flags_seen = set()
    for state, rh, dd, teams in positions(2900 + chunk, COUNT):
        flags_seen.add(state.flags)
        seat = state.turn
        team = next(t for t in teams if seat in t)
        want = ref_value(rh, team, dd)
        got, nodes = core.solve_value(state, seat=seat, double_down=dd)
        if got != want:
            wrong_values.append((state.key(), dd, got, want))
        # The other team's value is the negation (a zero-sum game between the teams).
        other = next(t for t in teams if seat not in t)
        got_o, _ = core.solve_value(state, seat=other[0], double_down=dd)
        if got_o != -want:
            wrong_values.append((state.key(), dd, "other", got_o, -want))
        for t in (-2, 1, 2, 3):
            r, _, limit = core.solve(state, seat=seat, threshold=t, double_down=dd)
            assert limit is None
            if r == core.GD_SOLVE_WIN and want < t:
                win_not_ref += 1
            if r == core.GD_SOLVE_LOSS and want >= t:
                loss_not_ref += 1
    assert not wrong_values, wrong_values[:3]
    assert (win_not_ref, loss_not_ref) == (0, 0)
    assert len(flags_seen) >= 8 or not SOAK


def test_solver_covers_every_flag() -> None:
    """Every one of the 16 flag combinations comes up in the differential positions."""
    seen = set()
    for chunk in range(4):
        for state, *_ in positions(2900 + chunk, COUNT):
            seen.add(state.flags)
    assert seen == set(range(16))


def test_solve_after_agrees_with_plain_minimax_for_every_action() -> None:
    checked = 0
    for state, rh, dd, teams in positions(2950, COUNT // 2, sizes=range(4, 8)):
        seat = state.turn
        team = next(t for t in teams if seat in t)
        ms, cs = state.legal_plays()
        actions = [(int(ms[i, 0]), int(ms[i, 1]), int(cs[i])) for i in range(len(cs))]
        if state.can_pass():
            actions.append((0, 0, 0))
        values, _ = core.solve_after(state, actions, seat=seat, double_down=dd)
        for (a, b, c), v in zip(actions, values):
            child = ref_apply(rh, None if a == 0 else (ids_of(a, b), reading(c)))
            assert v == ref_value(child, team, dd), (state.key(), (a, b, c))
            checked += 1
        # The best action's value is the position's value.
        assert max(values) == core.solve_value(state, seat=seat, double_down=dd)[0]
    assert checked > COUNT // 2


def test_solver_win_is_first_out_and_the_threshold_is_the_level_gain() -> None:
    # Seat 0 (team 0, 2) leads its A♠ and goes out; nobody can beat it, so its partner
    # takes the lead (接风) and goes out too: first and second, worth double_down levels.
    s = core.GdState.from_fields([(1 << 48, 0), (1 << 0, 0), (1 << 4, 0), (1 << 8, 0)],
                                 level=5, turn=0)
    assert core.solve_value(s)[0] == 3
    assert core.solve_value(s, double_down=4)[0] == 4
    assert core.solve_value(s, seat=1)[0] == -3
    # Give seat 1 a K♠ beside its 2♠: seat 0 still goes out first (+1 at least), but
    # whether its partner follows depends on the play: the thresholds above the exact value
    # are refused.
    s = core.GdState.from_fields([(1 << 48, 0), (1 << 0 | 1 << 44, 0), (1 << 4, 0), (1 << 8, 0)],
                                 level=5, turn=0)
    v = core.solve_value(s)[0]
    assert v >= 1
    assert core.solve(s, threshold=1)[0] == core.GD_SOLVE_WIN
    assert core.solve(s, threshold=v + 1)[0] == core.GD_SOLVE_LOSS


def test_solver_jiefeng_passes_the_lead_to_the_partner() -> None:
    # Seat 0 goes out with its A♠, which nobody can beat (the others hold pairs); by 接风 its
    # partner, seat 2, leads its pair of 6s and goes out too: 1st and 2nd, double_down levels.
    # (Had the lead gone on to seat 1, its 3s would lead and seat 3's 4s beat them.)
    hands = [[48], [4, 6], [16, 18], [8, 10]]
    s = core.GdState.from_fields([Cards.from_ids(h).masks for h in hands], level=5, turn=0)
    rh = model.RefHand([Counter(h) for h in hands], 5, 0, TEAMS[0b0101], ref_cfg(0, 3))
    assert core.solve_value(s)[0] == 3 == ref_value(rh, (0, 2), 3)
    # With seat 2 holding only 3s of its own, seat 3's 4s take its lead: the value drops.
    hands = [[48], [12, 14], [5, 7], [8, 10, 9]]
    s = core.GdState.from_fields([Cards.from_ids(h).masks for h in hands], level=5, turn=0)
    rh = model.RefHand([Counter(h) for h in hands], 5, 0, TEAMS[0b0101], ref_cfg(0, 3))
    assert core.solve_value(s)[0] == ref_value(rh, (0, 2), 3) < 3


def test_solver_reports_unknown_past_the_node_limit() -> None:
    hands = core.deal(7)
    s = core.GdState(hands, level=2, leader=0)
    r, nodes, limit = core.solve(s, max_nodes=50)
    assert (r, limit) == (core.GD_SOLVE_UNKNOWN, "nodes")
    assert nodes == 50
    value, nodes = core.solve_value(s, max_nodes=50)
    assert value is None
    ms, cs = s.legal_plays()
    values, _ = core.solve_after(s, [(int(ms[0, 0]), int(ms[0, 1]), int(cs[0]))], max_nodes=20)
    assert values == [None]


def test_solver_refuses_bad_input_and_leaves_the_state_alone() -> None:
    s = core.GdState(core.deal(3), level=2, leader=1)
    before = s.key()
    with pytest.raises(ValueError, match="GdState"):
        core.solve("not a state")
    with pytest.raises(ValueError, match="seat"):
        core.solve(s, seat=4)
    with pytest.raises(ValueError, match="double_down"):
        core.solve_value(s, double_down=0)
    with pytest.raises(ValueError, match="max_nodes"):
        core.solve(s, max_nodes=0)
    with pytest.raises(ValueError, match="actions\\[0\\]"):
        core.solve_after(s, [(0, 0, 0)])            # a pass on a lead
    with pytest.raises(ValueError, match="actions\\[0\\]"):
        core.solve_after(s, [(1, 0, 1)])
    core.solve(s, max_nodes=100)
    assert s.key() == before
    over = core.GdState.from_fields([(0, 0), (1, 0), (0, 0), (2, 0)], level=5, turn=-1,
                                    finished=(0, 2))
    with pytest.raises(ValueError, match="over"):
        core.solve(over)
    assert core.solve_value(over, seat=0)[0] == 3


def test_solver_honours_ctrl_c() -> None:
    """A search of a whole deal runs far past a second; a signal 50 ms in stops it."""

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop

    old = signal.signal(signal.SIGALRM, handler)
    s = core.GdState(core.deal(11), level=2, leader=0)
    start = time.perf_counter()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Stop):
            core.solve(s, max_nodes=1 << 40)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert time.perf_counter() - start < 5
