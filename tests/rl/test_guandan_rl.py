"""The Guandan RL core (src/guandan/gd_rlenv.pxi): the encoder against a simple Python
encoder written from docs/rl.md, and the native tables against tienlen.guandan.Match (the
checked game) move by move on the same seeds: the legal action lists, the hands, the levels,
the places and the rewards."""

from __future__ import annotations

from paths import REPO

import doctest
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from tienlen import _guandan as core
from tienlen.games.guandan.game import return_candidates, tribute_candidates
from tienlen.games.guandan.match import Match

DOCS = REPO / "docs" / "rl.md"


# ---------------------------------------------------------------- a reference encoder
# Written from docs/rl.md ("Guandan: observation"), from the checked Match's public state
# plus what the test tracks itself (who played what this hand, who led the trick).

def _planes(once: int, twice: int) -> list[int]:
    return [(once >> k) & 1 for k in range(54)] + [(twice >> k) & 1 for k in range(54)]


def _count(once: int, twice: int) -> int:
    return bin(once).count("1") + bin(twice).count("1")


def reference_obs(match: Match, seat: int, played: list[list[int]], leader: int | None) -> np.ndarray:
    game = match.game
    o = np.zeros(747, np.uint8)
    rel = lambda p: (p - seat) % 4  # noqa: E731
    o[0:108] = _planes(*game.hand(seat).masks)
    for p in range(4):
        o[108 + rel(p)] = len(game.hand(p))
        o[112 + 108 * rel(p): 112 + 108 * (rel(p) + 1)] = _planes(*played[p])
    phase = game.phase
    if phase == "play":
        pile = game.pile
        if pile is None:
            o[652] = 1
        else:
            o[544:652] = _planes(*pile.cards.masks)
            o[652 + (pile.code >> 12)] = 1
            o[663 + (pile.code & 63)] = 1
            o[680] = (pile.code >> 6) & 63
            o[681 + rel(game.pile_owner)] = 1
        if leader is not None:
            o[685 + rel(leader)] = 1
        for place, p in enumerate(game.finished):
            o[693 + rel(p)] = place + 1
    else:
        o[652] = 1
    o[689 + rel(match.turn)] = 1
    o[697 + game.level - 2] = 1
    team = 0 if seat in (0, 2) else 1
    o[710 + match.levels[team] - 2] = 1
    o[723 + match.levels[1 - team] - 2] = 1
    if match.declarer is not None:
        o[736 + (0 if match.declarer == team else 1)] = 1
    if phase == "play":
        o[740] = 1
    else:
        o[738 if game._tribute_turn()[0] == "give" else 739] = 1
    o[741] = match.failed_attempts[team]
    o[742] = match.failed_attempts[1 - team]
    for t in game.tributes:
        o[743 + rel(t.payer)] = 1
        if t.receiver is not None:
            o[743 + rel(t.receiver)] = 2
    return o


def reference_features(once: int, twice: int, level: int, pile: int = 0, flags: int = 0):
    masks, codes = core.legal_plays(once, twice, level, pile, flags)
    wild = core.wild_card(level, flags)
    ids, cards, reading = [], [], []
    if pile:
        ids.append(0)
        cards.append([0] * 108)
        reading.append([0, 0, 0, 0])
    for k, ((a, b), c) in enumerate(zip(masks.tolist(), codes.tolist())):
        ids.append(k + 1)
        cards.append(_planes(a, b))
        wilds = 0 if wild < 0 else ((a >> wild) & 1) + ((b >> wild) & 1)
        reading.append([c >> 12, c & 63, (c >> 6) & 63, wilds])
    return ids, cards, reading


# ---------------------------------------------------------------- the encoder

@pytest.mark.parametrize("seed", range(6))
def test_action_features_match_the_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    hand = core.deal(seed)[seed % 4]
    level = int(rng.integers(2, 15))
    flags = int(rng.integers(0, 16))
    for pile in (0, *core.legal_plays(*core.deal(seed + 50)[0], level, 0, flags)[1][::97].tolist()):
        ids, cards, reading = core.legal_action_features(*hand, level, pile, flags)
        want = reference_features(*hand, level, pile, flags)
        assert ids.tolist() == want[0]
        assert cards.tolist() == want[1]
        assert reading.tolist() == want[2]


def test_padded_features_are_the_variable_list_by_id() -> None:
    table = core.GdTable(seed=9)
    table.step(1)                      # a lead, then a pile: pass is id 0
    ids, cards, reading = table.action_features()
    assert ids[0] == 0 and table.can_pass
    mask, pcards, preading = table.padded_action_features(64)
    assert mask.tolist() == [1 if a in set(ids.tolist()) else 0 for a in range(64)]
    for row, a in enumerate(ids.tolist()):
        if a < 64:
            assert pcards[a].tolist() == cards[row].tolist()
            assert preading[a].tolist() == reading[row].tolist()
    assert not pcards[mask == 0].any()
    full = table.padded_action_features()[0]
    assert np.array_equal(table.action_mask(), full) and full.shape == (core.GR_PADDED_ACTIONS,)


def test_a_tribute_phase_lists_cards_as_actions_of_their_own_kind() -> None:
    table = _table_in_phase("tribute")
    ids, cards, reading = table.action_features()
    assert not table.can_pass and ids.tolist() == list(range(1, table.num_legal + 1))
    assert set(reading[:, 0].tolist()) == {core.GR_KIND_TRIBUTE_CODE}
    assert (cards.sum(axis=1) == 1).all() and (reading[:, 2] == 1).all()
    table.step(1)
    while table.phase == "tribute":
        table.step(1)
    assert table.phase == "return"
    _, _, reading = table.action_features()
    assert set(reading[:, 0].tolist()) == {core.GR_KIND_RETURN_CODE}


def _table_in_phase(phase: str) -> core.GdTable:
    for seed in range(50):
        table = core.GdTable(seed=seed)
        for _ in range(5000):
            if table.phase == phase:
                return table
            if table.phase == "hand_over":
                table.next_hand()
            elif table.is_over:
                break
            else:
                table.step(table.policy_action(core.GREEDY))
    raise AssertionError(f"no table reached {phase}")


# ---------------------------------------------------------------- against Match

def _apply_to_match(match: Match, table: core.GdTable, a: int) -> None:
    game = match.game
    masks, _ = table.legal_actions()
    if table.phase == "play":
        if a == 0:
            match.pass_turn()
        else:
            match.play(game.legal_plays()[a - 1])
    elif table.phase == "tribute":
        match.give_tribute(int(masks[a - 1, 0]).bit_length() - 1)
    else:
        match.return_tribute(int(masks[a - 1, 0]).bit_length() - 1)


def _check_against_match(table: core.GdTable, match: Match) -> None:
    game = match.game
    assert table.seed == match.seed
    assert table.levels == match.levels
    assert table.failed_attempts == match.failed_attempts
    assert table.declarer == (-1 if match.declarer is None else match.declarer)
    assert table.level == game.level
    assert table.turn == match.turn
    assert table.hands == tuple(h.masks for h in game.hands)
    masks, codes = table.legal_actions()
    if table.phase == "play":
        assert game.phase == "play"
        want_masks, want_codes = game.state.legal_plays()
        assert np.array_equal(masks, want_masks) and np.array_equal(codes, want_codes)
        assert table.can_pass == game.can_pass()
        assert table.pile_code == (0 if game.pile is None else game.pile.code)
    else:
        assert game.phase == "tribute"
        kind = game._tribute_turn()[0]
        assert kind == ("give" if table.phase == "tribute" else "return")
        pick = tribute_candidates if kind == "give" else return_candidates
        faces = [int(m).bit_length() - 1 for m in masks[:, 0].tolist()]
        assert faces == list(pick(game.hand(table.turn), game.level, game.config))
        assert not table.can_pass


@pytest.mark.parametrize("episode", ["hand", "match"])
def test_vec_tables_agree_with_match_move_by_move(episode: str) -> None:
    """Every seat the learner's, random legal ids: each table's legal list, hands, levels,
    observation, places and rewards equal those of Match(seed) fed the same actions."""
    n = 3
    seeds = np.array([11, 12, 13], np.uint64)
    v = core.GdVecGames(n, learner_seats=(0, 1, 2, 3), seed=seeds, episode=episode,
                        reward_weights=(1.0, 2.0, 5.0), final_obs=True)
    matches = [Match(int(s)) for s in seeds]
    played = [[[0, 0] for _ in range(4)] for _ in range(n)]
    leaders: list[int | None] = [None] * n
    rng = np.random.default_rng(0)
    hands = settled = 0
    seen = [0] * n
    actors = np.zeros(n, np.int64)
    for _ in range(2500):
        actions = np.zeros(n, np.int64)
        for i in range(n):
            table, match = v.table(i), matches[i]
            _check_against_match(table, match)
            assert v.seat[i] == table.turn and v.num_legal[i] == table.num_legal
            assert v.obs[i].tolist() == reference_obs(match, table.turn, played[i], leaders[i]).tolist()
            a = int(rng.integers(0 if table.can_pass else 1, table.num_legal + 1))
            actions[i] = a
            seat, lead = table.turn, table.pile_code == 0
            actors[i] = seat
            _apply_to_match(match, table, a)
            game = match.game
            if table.phase == "play" and a > 0:
                once, twice = played[i][seat]
                pa, pb = table.legal_actions()[0][a - 1].tolist()
                played[i][seat] = [once | pa, twice | pb | (once & pa)]
                if lead:
                    leaders[i] = seat
            elif table.phase == "play" and not game.is_over and game.pile is None:
                leaders[i] = None
        v.step(actions)
        for i in range(n):
            match = matches[i]
            if len(match.results) == seen[i]:
                assert not v.terminated[i] and not v.truncated[i] and v.reward[i] == 0
                continue
            seen[i] = len(match.results)       # a hand was settled in this step
            r = match.results[-1]
            hands += 1
            want = [(1.0 if s % 2 == r.winner else -1.0)
                    * (1.0 + 2.0 * r.gain + (5.0 if r.match_won else 0.0)) for s in range(4)]
            assert v.reward[i] == want[int(actors[i])]
            if episode == "hand" or match.is_over:
                assert v.terminated[i] != v.truncated[i]
                assert tuple(np.argsort(v.places[i]).tolist()) == r.places
                assert v.final_rewards[i].tolist() == want
                assert v.final_obs[i][689:693].sum() == 0          # no one is to act
                settled += 1
            else:
                assert not v.terminated[i] and not v.truncated[i]
            played[i] = [[0, 0] for _ in range(4)]
            leaders[i] = None
            if match.is_over:
                matches[i] = Match(int(v.table(i).seed))
                seen[i] = 0
    assert hands > 20 and settled > 0


# ---------------------------------------------------------------- native seats, threads

@pytest.mark.parametrize("policy", [core.RANDOM, core.GREEDY, core.PLAN])
def test_native_seats_play_legal_matches(policy: int) -> None:
    """The learner at seat 0, the other seats native: at every learner decision the table is
    a consistent state (108 cards between hands and plays, the legal list the core's for
    that hand and pile), and finished hands report places and opposite rewards by team."""
    v = core.GdVecGames(4, learner_seats=(0,), policies=(policy,) * 4, seed=3)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        for i in range(4):
            table = v.table(i)
            assert table.turn == 0 == v.seat[i]
            held = sum(_count(*h) for h in table.hands)
            held += sum(1 for _, to, card, _ in table.tributes if card >= 0 and to < 0)  # given, not delivered
            assert held + sum(_count(*p) for p in table.played) == 108
            if table.phase == "play":
                masks, codes = table.legal_actions()
                want = core.legal_plays(*table.hands[0], table.level, table.pile_code)
                assert np.array_equal(masks, want[0]) and np.array_equal(codes, want[1])
        n = v.num_legal.astype(np.int64)
        actions = (rng.random(4) * (n + v.can_pass)).astype(np.int64) + 1 - v.can_pass
        v.step(actions)
        for i in np.flatnonzero(v.terminated):
            ended += 1
            assert sorted(v.places[i].tolist()) == [0, 1, 2, 3]
            r = v.final_rewards[i]
            assert r[0] == r[2] == -r[1] == -r[3] != 0
    assert ended > 0 and int(v.episodes.sum()) == ended


@pytest.mark.parametrize("policy", [core.RANDOM, core.GREEDY, core.PLAN])
def test_native_seats_take_the_policy_action(policy: int) -> None:
    """The vectorised env's native seats choose without listing their plays (RANDOM counts
    the groups of the list and lists one); each of their moves is still exactly the move
    GdTable.policy_action names on a copy of the table (same draws, same play), so a copy
    stepped by policy_action after the learner's action ends where the env's table does."""
    n = 6
    v = core.GdVecGames(n, learner_seats=(0,), policies=(policy,) * 4, seed=21)
    rng = np.random.default_rng(4)
    checked = 0
    for _ in range(150):
        nl = v.num_legal.astype(np.int64)
        actions = (rng.random(n) * (nl + v.can_pass)).astype(np.int64) + 1 - v.can_pass
        copies = [v.table(i) for i in range(n)]
        v.step(actions)
        for i, c in enumerate(copies):
            c.step(int(actions[i]))
            while c.turn != 0:
                if c.phase == "hand_over":
                    c.next_hand()
                elif c.is_over:
                    break
                else:
                    c.step(c.policy_action(policy))
            if c.is_over:
                continue                 # the env drew a new match: nothing to compare
            t = v.table(i)
            assert (c.hands, c.played, c.pile_code, c.turn, c.levels, c.hand_index) == \
                (t.hands, t.played, t.pile_code, t.turn, t.levels, t.hand_index)
            for a, b in zip(c.legal_actions(), t.legal_actions()):
                assert np.array_equal(a, b)
            assert c.policy_action(core.RANDOM) == t.policy_action(core.RANDOM)   # same stream
            checked += 1
    assert checked > 500


def test_threads_step_the_same_tables() -> None:
    one = core.GdVecGames(300, learner_seats=(0, 2), policies=(core.GREEDY,) * 4, seed=8)
    two = core.GdVecGames(300, learner_seats=(0, 2), policies=(core.GREEDY,) * 4, seed=8)
    rng = np.random.default_rng(2)
    for _ in range(40):
        n = one.num_legal.astype(np.int64)
        actions = (rng.random(300) * (n + one.can_pass)).astype(np.int64) + 1 - one.can_pass
        one.step(actions)
        two.step(actions, threads=2)
        for name in ("obs", "seat", "reward", "terminated", "final_rewards", "num_legal"):
            assert np.array_equal(getattr(one, name), getattr(two, name)), name


def test_reset_with_seed_array_plays_match_of_that_seed() -> None:
    v = core.GdVecGames(2, seed=np.array([5, 77], np.uint64), learner_seats=(0, 1, 2, 3))
    assert [v.table(i).seed for i in range(2)] == [5, 77]
    assert v.table(1).turn == Match(77).turn
    a = core.GdVecGames(2, seed=4)
    b = core.GdVecGames(2, seed=4)
    assert np.array_equal(a.obs, b.obs) and a.table(0).seed != a.table(1).seed


# ---------------------------------------------------------------- bad input

def test_an_illegal_action_changes_nothing() -> None:
    v = core.GdVecGames(2, seed=1)
    before = v.obs.copy(), [v.table(i).hands for i in range(2)]
    with pytest.raises(core.GdActionError, match="env 1 is not legal"):
        v.step(np.array([1, 10**6], np.int64))
    with pytest.raises(core.GdActionError):
        v.step(np.array([0, 1], np.int64))           # no pass on a lead
    assert np.array_equal(v.obs, before[0]) and [v.table(i).hands for i in range(2)] == before[1]
    table = core.GdTable(seed=1)
    key = table.hands, table.turn
    for bad in (0, -1, table.num_legal + 1, 1.0, "1", None, True):
        with pytest.raises(core.GdActionError):
            table.step(bad)
    assert (table.hands, table.turn) == key


@pytest.mark.parametrize("actions", [
    np.ones(2, np.int32), np.ones(3, np.int64), np.ones((2, 1), np.int64),
    np.ones(4, np.int64)[::2], [1, 1], None, "11"])
def test_actions_must_be_an_int64_vector_of_n(actions: object) -> None:
    v = core.GdVecGames(2, seed=1)
    with pytest.raises(ValueError):
        v.step(actions)
    v.step(np.ones(2, np.int64))                      # still usable


def test_arguments_are_checked() -> None:
    for kwargs in ({"learner_seats": ()}, {"learner_seats": (4,)}, {"policies": (0,) * 3},
                   {"policies": (0, 0, 0, 9)}, {"episode": "game"},
                   {"reward_weights": (1, 2)}, {"reward_weights": (1, 2, float("nan"))},
                   {"max_hands": 0}, {"flags": 16}, {"double_down_levels": 13}):
        with pytest.raises(ValueError):
            core.GdVecGames(1, **kwargs)
    with pytest.raises(ValueError):
        core.GdVecGames(0)
    with pytest.raises(ValueError):
        core.GdTable(seed=-1)
    with pytest.raises(ValueError):
        core.GdTable().observe(4)
    with pytest.raises(ValueError):
        core.GdTable().observe(0, out=np.zeros(746, np.uint8))
    with pytest.raises(ValueError):
        core.GdTable().next_hand()


def test_closed_and_unconstructed_objects_are_safe() -> None:
    v = core.GdVecGames(2, seed=1)
    v.close()
    v.close()
    for call in (lambda: v.step(np.ones(2, np.int64)), lambda: v.reset(1), lambda: v.table(0)):
        with pytest.raises(ValueError):
            call()
    blank = core.GdTable.__new__(core.GdTable)
    assert blank.turn == -1 and blank.num_legal == 0 and blank.is_over
    assert blank.observe(0).shape == (747,)
    assert blank.action_features()[0].shape == (0,)
    raw = core.GdVecGames.__new__(core.GdVecGames)
    with pytest.raises(ValueError):
        raw.step(np.ones(1, np.int64))


def test_two_threads_cannot_step_one_env_at_once() -> None:
    v = core.GdVecGames(2000, seed=1)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            for _ in range(5):
                v.step(np.ones(2000, np.int64) + 0 * v.can_pass.astype(np.int64))
        except ValueError as e:
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all("another thread" in str(e) or "not legal" in str(e) for e in errors)


# ---------------------------------------------------------------- the documented example

def test_the_worked_example_in_docs_rl_md() -> None:
    """docs/rl.md's Guandan worked example runs as written."""
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"<!-- guandan-example -->\n```pycon\n(.*?)```", text, re.S)
    assert match, "docs/rl.md lost its Guandan worked example"
    test = doctest.DocTestParser().get_doctest(match.group(1), {"np": np}, "rl.md", str(DOCS), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 3


# ---------------------------------------------------------------- settlement (G7)

@pytest.mark.parametrize("double_down, limit", [(3, 3), (4, 2), (2, 0)])
def test_vec_settlement_equals_the_match_settlement(double_down: int, limit: int) -> None:
    """Many random hands on the vectorised env (learner at seat 0, native RANDOM seats):
    every settled hand's gain, match result and the levels, failed attempts and declarer
    the table goes on with equal tienlen.games.guandan.match.settle's and the independent
    reference's (tests/guandan_reference_game.py RefMatch) for the same places."""
    import guandan_reference_game as model

    from tienlen.guandan import RuleConfig
    from tienlen.games.guandan.match import settle
    n = 48
    cfg = RuleConfig(double_down_levels=double_down, failed_attempts_limit=limit)
    ref_cfg = {"double_down_levels": double_down, "failed_attempts_limit": limit}
    teams = ((0, 2), (1, 3))
    v = core.GdVecGames(n, learner_seats=(0,), policies=(core.RANDOM,) * 4, seed=limit,
                        reward_weights=(0.0, 1.0, 100.0), double_down_levels=double_down,
                        failed_attempts_limit=limit)
    rng = np.random.default_rng(limit)
    hands = at_ace = won = 0
    for _ in range(700):
        before = [v.table(i) for i in range(n)]
        nl = v.num_legal.astype(np.int64)
        v.step((rng.random(n) * (nl + v.can_pass)).astype(np.int64) + 1 - v.can_pass)
        for i in np.flatnonzero(v.terminated | v.truncated):
            b = before[i]
            places = tuple(np.argsort(v.places[i]).tolist())
            declarer = None if b.declarer < 0 else b.declarer
            levels, failed, match_won, gain = settle(b.levels, b.failed_attempts, declarer,
                                                     places, teams, cfg)
            m = model.RefMatch(ref_cfg, teams)
            m.levels, m.failed, m.declarer = list(b.levels), list(b.failed_attempts), declarer
            m.settle(list(places))
            assert match_won == (m.winner is not None)
            assert (levels, failed) == (tuple(m.levels), tuple(m.failed))
            win = places[0] % 2
            assert v.final_rewards[i].tolist() == [
                (1.0 if s % 2 == win else -1.0) * (gain + (100.0 if match_won else 0.0))
                for s in range(4)]
            after = v.table(i)
            if match_won:
                won += 1
                assert after.hand_index == 0        # a new match
            else:
                assert (after.levels, after.failed_attempts, after.declarer) == (levels, failed, win)
                assert after.hand_index == b.hand_index + 1
            hands += 1
            at_ace += 14 in b.levels
    assert hands > 300 and at_ace > 20 and won > 0


def test_the_native_mask_is_every_tables_mask_step_after_step() -> None:
    """GdVecGames(action_mask=True) keeps each row by rewriting only what changed (issue 37):
    after every step of random play, self-play and native seats mixed, each row is exactly
    the mask the table's own copy gives, and the array stays read-only."""
    n = 24
    v = core.GdVecGames(n, learner_seats=(0, 1), policies=(core.RANDOM,) * 4, seed=9,
                        action_mask=True, episode="match", max_hands=3)
    rng = np.random.default_rng(9)
    assert v.action_mask is not None and not v.action_mask.flags.writeable
    for _ in range(400):
        for i in range(n):
            assert np.array_equal(v.action_mask[i], v.table(i).action_mask())
        legal, can_pass = v.num_legal.astype(np.int64), v.can_pass.astype(np.int64)
        v.step((rng.random(n) * (legal + can_pass)).astype(np.int64) + (1 - can_pass))
    assert core.GdVecGames(2, seed=1).action_mask is None      # not built unless asked


def test_legal_features_are_every_tables_list_in_one_call() -> None:
    n = 12
    v = core.GdVecGames(n, learner_seats=(0,), policies=(core.RANDOM,) * 4, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        offsets, ids, cards, reading = v.legal_features()
        assert offsets.shape == (n + 1,) and offsets[0] == 0 and len(ids) == offsets[-1]
        for i in range(n):
            one = v.action_features(i)
            rows = slice(offsets[i], offsets[i + 1])
            for whole, part in zip((ids, cards, reading), one):
                assert np.array_equal(whole[rows], part)
        legal, can_pass = v.num_legal.astype(np.int64), v.can_pass.astype(np.int64)
        v.step((rng.random(n) * (legal + can_pass)).astype(np.int64) + (1 - can_pass))
    v.close()
    with pytest.raises(ValueError, match="closed"):
        v.legal_features()


@pytest.mark.parametrize("seats", [(0,), (0, 1, 2, 3)])
def test_vec_lazy_listing_matches_the_listed_path(seats: tuple[int, ...]) -> None:
    """issue 37: with action masks, a learner seat's plays are only counted at its turn and
    the step takes the chosen play without the list (a set found from the counts, another
    group listed alone). Differential against the eager path (no masks: every list made):
    on several seeds, the same observations, counts, rewards and features, the same tables
    and the same policy choices, step after step."""
    G = core
    for seed in range(4):
        lazy = G.GdVecGames(64, learner_seats=seats, policies=(G.RANDOM,) * 4, seed=seed,
                            action_mask=True, final_obs=True)
        eager = G.GdVecGames(64, learner_seats=seats, policies=(G.RANDOM,) * 4, seed=seed,
                             final_obs=True)
        rng = np.random.default_rng(seed)
        for step in range(150):
            for name in ("obs", "num_legal", "can_pass", "seat", "phase", "reward",
                         "terminated", "final_obs", "final_rewards", "episodes"):
                assert np.array_equal(getattr(lazy, name), getattr(eager, name)), name
            if step % 25 == 3:
                for a, b in zip(lazy.legal_features(), eager.legal_features()):
                    assert np.array_equal(a, b)
                for policy in (G.GREEDY, G.PLAN):
                    assert np.array_equal(lazy.policy_actions(policy), eager.policy_actions(policy))
            if step % 25 == 11:
                for i in (0, 17, 63):
                    ma, ca = lazy.table(i).legal_actions()
                    mb, cb = eager.table(i).legal_actions()
                    assert np.array_equal(ma, mb) and np.array_equal(ca, cb)
                    fa, fb = lazy.action_features(i), eager.action_features(i)
                    assert all(np.array_equal(x, y) for x, y in zip(fa, fb))
            legal = eager.num_legal.astype(np.int64)
            can = eager.can_pass.astype(np.int64)
            actions = (rng.random(64) * (legal + can)).astype(np.int64) + (1 - can)
            lazy.step(actions)
            eager.step(actions)
