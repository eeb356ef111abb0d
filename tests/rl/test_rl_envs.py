"""The RL environments (tienlen.rl, issue 16): the encoding against an independent Python
encoder, the three envs against each other, the PettingZoo / Gymnasium checkers, and
robustness (illegal actions, bad arrays, close, Ctrl-C)."""

from __future__ import annotations

from paths import REPO

import os
import random
import signal
import sys

import numpy as np
import pytest

from tienlen import _core
from tienlen.games.tienlen.bots import Bot
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import PASS, Game

pytest.importorskip("gymnasium")

# TIENLEN_SOAK=1: 100x more seeded games through the encoder comparison.
SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1

from tienlen.games.tienlen.encoding import FIELDS, NUM_ACTIONS, OBS_SIZE, VecGames  # noqa: E402
from tienlen.games.tienlen.learned import PolicyBot, observation_from_view  # noqa: E402
from tienlen.rl import IllegalActionError, TienlenEnv, TienlenVectorEnv  # noqa: E402


# ---------------------------------------------------------------- an independent encoder
# Written from docs/rl.md with tienlen.Game's public properties, sharing nothing with the
# native encoder but the layout.

def _bits(mask: int) -> list[int]:
    return [(mask >> c) & 1 for c in range(52)]


def reference_observation(game: Game, seat: int, leader: int | None) -> np.ndarray:
    n = game.players
    rel = lambda s: (s - seat) % n  # noqa: E731
    o = np.zeros(OBS_SIZE, np.uint8)

    def put(name, values, at=0):
        off, _ = FIELDS[name]
        o[off + at: off + at + len(values)] = values

    put("hand", _bits(game.hand(seat).mask))
    put("played", _bits(game.played.mask))
    pile = game.pile
    put("pile", _bits(pile.cards.mask if pile else 0))
    put("pile_kind", [1], int(pile.kind) if pile else 0)
    put("pile_length", [len(pile.cards) if pile else 0])
    if game.pile_owner is not None:
        put("pile_owner", [1], rel(game.pile_owner))
    for s in range(n):
        put("cards_left", [len(game.hand(s))], rel(s))
        put("passed", [int(s in game.locked_seats)], rel(s))
        put("out", [int(len(game.hand(s)) == 0)], rel(s))
    if game.turn is not None:
        put("to_act", [1], rel(game.turn))
    if leader is not None:
        put("pile_leader", [1], rel(leader))
    if game.must_include is not None:
        put("must_include", [1], int(game.must_include))
    off = FIELDS["history"][0]
    for k, action in enumerate(reversed(game.history[-4:])):
        base = off + 57 * k
        if action.cards is None:
            o[base + 52] = 1
        else:
            o[base: base + 52] = _bits(action.cards.mask)
        o[base + 53 + rel(action.seat)] = 1
    return o


def _random_action(mask: np.ndarray, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


@pytest.mark.parametrize("players,flags", [(2, 0), (3, 0), (4, 0), (4, 1)])
def test_encoder_matches_independent_reference(players, flags):
    from tienlen.games.tienlen.rules import Rules

    rng = random.Random(players + 10 * flags)
    for seed in range(12 * SOAK):
        g = _core.RLGame(players, flags)
        g.reset(seed)
        game = Game.from_hands(_core.deal(seed, players), rules=Rules.from_flags(flags))
        leader = None
        while True:
            for seat in range(players):
                assert np.array_equal(g.observe(seat), reference_observation(game, seat, leader)), \
                    (seed, seat, len(game.history))
            if game.is_over:
                assert g.is_over and g.finished == game.finished
                break
            mask = g.action_mask()
            moves = [m.mask for m in game.legal_moves()]
            # The action numbering: 0 = pass, a = the a-th move of the core's ordered list.
            assert mask[0] == game.can_pass()
            assert mask[1:len(moves) + 1].all() and not mask[len(moves) + 1:].any()
            cards = g.legal_action_cards()
            assert not cards[0].any() and not cards[len(moves) + 1:].any()
            for a, m in enumerate(moves, start=1):
                assert cards[a].tolist() == _bits(m)
            a = _random_action(mask, rng)
            seat = game.turn
            was_lead = game.pile is None
            game.act(PASS if a == 0 else moves[a - 1])
            g.step(a)
            if game.pile is None:
                leader = None
            elif was_lead:
                leader = seat


# ---------------------------------------------------------------- one game, three envs

def _aec_game(seed: int, players: int = 4):
    """Play one seeded AEC game with random legal actions; returns the steps
    (seat, observation, mask, action) and the final rewards."""
    from tienlen.rl import env as make_env

    e = make_env(players=players)
    e.reset(seed=seed)
    rng = random.Random(seed)
    steps = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated:
            e.step(None)
            continue
        a = _random_action(obs["action_mask"], rng)
        steps.append((int(agent.split("_")[1]), obs["observation"].copy(),
                      obs["action_mask"].copy(), a))
        e.step(a)
    return steps


class ReplayBot(Bot):
    """Plays a recorded list of moves."""

    def __init__(self, moves):
        super().__init__(0)
        self.moves = list(moves)

    def choose(self, view):
        return self.moves.pop(0)


def test_three_envs_same_observations():
    pytest.importorskip("pettingzoo")
    for seed in (3, 8, 21):
        steps = _aec_game(seed)
        # Native vectorised env, self-play: env 0 is dealt exactly deal(seed).
        v = VecGames(1, opponents=None, seed=np.array([seed], np.uint64))
        for seat, obs, mask, a in steps:
            assert v.seat[0] == seat
            assert np.array_equal(v.obs[0], obs) and np.array_equal(v.action_mask[0], mask)
            v.step(np.array([a], np.int64))
        assert v.terminated[0] and v.episodes[0] == 1
        v.close()
        # Gymnasium env: the learner at seat 0, the other seats replaying the same moves.
        g = _core.RLGame(4)
        g.reset(seed)
        moves = {s: [] for s in range(4)}
        for seat, _, _, a in steps:
            mask = g.action_mask_of(a)
            moves[seat].append(PASS if mask == 0 else Cards(mask))
            g.step(a)
        env = TienlenEnv(opponents=[ReplayBot(moves[s]) for s in (1, 2, 3)],
                         legal_actions=False)
        obs, _ = env.reset(seed=seed)
        for seat, o, mask, a in steps:
            if seat != 0:
                continue
            assert np.array_equal(obs["observation"], o) and np.array_equal(obs["action_mask"], mask)
            obs, reward, done, _, info = env.step(a)
            if done:
                break


def test_vector_learner_mode_outputs_fit_the_state():
    # With native opponents the learner always acts, and its outputs describe its state.
    v = VecGames(2, opponents=(1, 0, 2), seed=np.array([5, 6], np.uint64))
    rng = random.Random(0)
    assert v.seat[0] == 0 and v.seat[1] == 0
    for _ in range(40):
        acts = np.array([_random_action(v.action_mask[i], rng) for i in range(2)], np.int64)
        v.step(acts)
        for i in range(2):
            assert v.seat[i] == 0
            st = v.game_state(i)
            assert st.turn == 0
            assert v.num_legal[i] == len(st.legal_moves())
            assert v.action_mask[i, 0] == st.can_pass()
            assert int(v.action_mask[i].sum()) == v.num_legal[i] + st.can_pass()
            assert v.obs[i, :52].tolist() == _bits(st.hand(0))
            assert v.obs[i, 52:104].tolist() == _bits(st.played_mask)


# ---------------------------------------------------------------- checkers

@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_and_seed(players):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from tienlen.rl import env as make_env

    api_test(make_env(players=players), num_cycles=100)
    seed_test(lambda: make_env(players=players), num_cycles=100)


def test_aec_render_ansi():
    pytest.importorskip("pettingzoo")
    from tienlen.rl import env as make_env

    e = make_env(players=4, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "player_3" in text and "pile: empty" in text and "to act" in text
    import contextlib
    import io

    from pettingzoo.test import render_test

    with contextlib.redirect_stdout(io.StringIO()):
        render_test(make_env)


def test_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env

    check_env(TienlenEnv(opponents=("L2", "L2", "L2")), skip_render_check=True)
    for seat in range(4):
        check_env(TienlenEnv(opponents=("L1", "random", "L2"), learner_seat=seat,
                             illegal_action="terminate"), skip_render_check=True)


@pytest.mark.parametrize("opponents", [("L1", "random", "L2"), ("L2", "L2"), ("random",)])
def test_gymnasium_check_env_raise_every_seat(opponents):
    # check_env samples an action before it resets; with the default illegal_action="raise"
    # that sample must still be legal where it is used, for every seat and player count.
    from gymnasium.utils.env_checker import check_env

    for seat in range(len(opponents) + 1):
        check_env(TienlenEnv(opponents=opponents, learner_seat=seat), skip_render_check=True)


def test_stale_sample_is_redrawn_but_a_stale_int_is_refused():
    from tienlen.rl.gym_env import SampledAction

    env = TienlenEnv(opponents=("random",) * 3, learner_seat=2, legal_actions=False)
    found = False
    for seed in range(60):
        obs, _ = env.reset(seed=seed)
        sample = env.action_space.sample()
        assert isinstance(sample, SampledAction) and obs["action_mask"][sample] == 1
        obs, *_ = env.reset(seed=seed + 1000)
        if obs["action_mask"][int(sample)]:
            continue                       # legal in the new state too: nothing to show
        found = True
        with pytest.raises(IllegalActionError):
            env.step(int(sample))          # a plain int is never reinterpreted
        twin = TienlenEnv(opponents=("random",) * 3, learner_seat=2, legal_actions=False)
        twin.reset(seed=seed + 1000)
        a = env.step(sample)
        b = twin.step(sample)              # the same draw in the same state: the same action
        assert a[1] == b[1] and (a[0]["observation"] == b[0]["observation"]).all()
        break
    assert found


class _LyingShape(np.ndarray):
    @property  # type: ignore[override]
    def shape(self):
        return (NUM_ACTIONS,)


@pytest.mark.parametrize("bad", [
    dict(mask=[1] * NUM_ACTIONS), dict(mask=np.ones(NUM_ACTIONS, bool)),
    dict(mask=np.ones(NUM_ACTIONS + 1, np.int8)), dict(mask=np.full(NUM_ACTIONS, 2, np.int8)),
    dict(mask=np.ones((1, NUM_ACTIONS), np.int8)),
    dict(mask=np.ones(1, np.int8).view(_LyingShape)),
    dict(probability=np.full(NUM_ACTIONS, 0.5)), dict(probability=np.ones(NUM_ACTIONS, np.float32)),
    dict(probability=np.full(NUM_ACTIONS, np.nan)),
    dict(mask=np.ones(NUM_ACTIONS, np.int8), probability=np.full(NUM_ACTIONS, 1 / NUM_ACTIONS)),
])
def test_sample_with_a_bad_mask_raises_a_sample_mask_error_not_a_bare_assertion(bad):
    """Issue 24, item 13: TienlenEnv.action_space.sample(bad_mask) raised Gymnasium's bare
    AssertionError (or a plain ValueError for mask and probability together). Now a
    SampleMaskError (a ValueError) with the reason, and no draw is taken from the space."""
    from tienlen.rl.common import SampleMaskError

    env = TienlenEnv(opponents=("L1",))
    env.action_space.seed(3)
    with pytest.raises(SampleMaskError) as info:
        env.action_space.sample(**bad)
    assert isinstance(info.value, ValueError) and str(info.value)
    twin = TienlenEnv(opponents=("L1",))
    twin.action_space.seed(3)
    assert env.action_space.sample() == twin.action_space.sample()    # nothing was drawn


def test_sample_with_a_good_mask_draws_among_its_ones():
    space = TienlenEnv(opponents=("L1",)).action_space
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[[0, 7, 40]] = 1
    assert {int(space.sample(mask=mask)) for _ in range(60)} == {0, 7, 40}
    p = np.zeros(NUM_ACTIONS)
    p[5] = 1.0
    assert int(space.sample(probability=p)) == 5


# ---------------------------------------------------------------- rewards (R10.2)

def test_R10_2_rewards_are_place_points():
    env = TienlenEnv(opponents=("random",) * 3, legal_actions=False)
    rng = random.Random(1)
    seen = set()
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(_random_action(obs["action_mask"], rng))
            if not done:
                assert reward == 0
        assert reward == 4 - info["place"]      # R10.2: place p scores players - p
        seen.add(info["place"])
    assert seen == {1, 2, 3, 4}
    custom = TienlenEnv(opponents=("random",), rewards=(1, -1), legal_actions=False)
    obs, _ = custom.reset(seed=2)
    done = False
    while not done:
        obs, reward, done, _, info = custom.step(_random_action(obs["action_mask"], rng))
    assert reward == (1 if info["place"] == 1 else -1)


def test_R10_2_vector_rewards_and_places():
    v = VecGames(64, opponents=(0, 0, 0), seed=3, rewards=(10, 5, 2, 0))
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(60):
        n, p = v.num_legal.astype(np.int64), v.action_mask[:, 0].astype(np.int64)
        v.step((rng.random(64) * (n + p)).astype(np.int64) + (1 - p))
        for i in np.flatnonzero(v.terminated):
            place = v.places[i, 0]
            assert 0 <= place <= 3
            assert v.reward[i] == (10, 5, 2, 0)[place]
            ends += 1
        assert not v.reward[~v.terminated].any()
    assert ends > 50


# ---------------------------------------------------------------- robustness

def test_aec_illegal_action_raises_and_changes_nothing():
    pytest.importorskip("pettingzoo")
    from tienlen.rl import raw_env

    e = raw_env(players=4)
    e.reset(seed=4)
    agent = e.agent_selection
    before = e.observe(agent)["observation"].copy()
    n = e.game.num_legal
    with pytest.raises(IllegalActionError, match=rf"action {n + 1} .*{n} legal plays"):
        e.step(n + 1)
    with pytest.raises(IllegalActionError, match="action 0 .*no pass"):
        e.step(0)                       # the first lead cannot pass
    with pytest.raises(IllegalActionError):
        e.step(1.0)
    assert e.agent_selection == agent and np.array_equal(e.observe(agent)["observation"], before)
    e.close()
    e.close()


def test_gym_illegal_action_raises_and_changes_nothing():
    env = TienlenEnv(opponents=("L1",) * 3)
    obs, _ = env.reset(seed=9)
    n = env.game.num_legal
    with pytest.raises(IllegalActionError, match=rf"action 486 .*{n} legal plays"):
        env.step(486)
    assert np.array_equal(env._observation()["observation"], obs["observation"])
    env.close()
    env.close()


def test_vector_illegal_actions_raise_or_flag():
    v = VecGames(4, opponents=(1, 1, 1), seed=np.arange(4, dtype=np.uint64))
    obs = v.obs.copy()
    bad = np.full(4, 487, np.int64)
    with pytest.raises(_core.ActionOutsideMaskError,
                       match=r"action 487 of env 0 .*legal plays.*nothing was stepped"):
        v.step(bad)
    assert np.array_equal(v.obs, obs) and not v.episodes.any()
    # a wrong array is a different mistake, and a plain ValueError
    with pytest.raises(ValueError) as wrong:
        v.step(np.zeros(3, np.int64))
    assert not isinstance(wrong.value, _core.ActionOutsideMaskError)
    g = _core.RLGame(4)
    with pytest.raises(_core.ActionOutsideMaskError, match="not in the action mask"):
        g.step(0)                       # pass on the first lead
    v.close()
    f = VecGames(4, opponents=(1, 1, 1), seed=np.arange(4, dtype=np.uint64), on_error="flag")
    obs, states = f.obs.copy(), [f.game_state(i) for i in range(4)]
    acts = np.array([np.flatnonzero(f.action_mask[i])[0] for i in range(4)], np.int64)
    acts[2] = -1
    assert f.step(acts) == 1
    assert f.error.tolist() == [0, 0, 1, 0]
    assert f.game_state(2) == states[2] and np.array_equal(f.obs[2], obs[2])
    assert f.game_state(0) != states[0]


def test_vector_refuses_bad_arrays():
    v = VecGames(3, opponents=(0, 0, 0))
    good = np.zeros(3, np.int64)
    for bad in (good.astype(np.int32), good.astype(np.float64), np.zeros(4, np.int64),
                np.zeros((3, 1), np.int64), [0, 0, 0], np.zeros(6, np.int64)[::2]):
        with pytest.raises(ValueError):
            v.step(bad)
    with pytest.raises(ValueError):
        v.reset(np.zeros(2, np.uint64))
    with pytest.raises(ValueError):
        v.obs[0, 0] = 1                  # outputs are read-only views
    for kwargs in ({"opponents": (0, 0)}, {"opponents": (0, 0, 7)}, {"players": 5},
                   {"rewards": (1, 2)}, {"learner_seat": 4}, {"on_error": "ignore"}):
        with pytest.raises(ValueError):
            VecGames(2, **kwargs)
    with pytest.raises(ValueError):
        VecGames(0)
    g = _core.RLGame(4)
    for bad in (np.zeros(468, np.int8), np.zeros(467, np.uint8), np.zeros((468, 1), np.uint8)):
        with pytest.raises(ValueError):
            g.observe(0, out=bad)
    frozen = np.zeros(468, np.uint8)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        g.observe(0, out=frozen)
    with pytest.raises(ValueError):
        g.action_mask(out=np.zeros(487, np.uint8))
    with pytest.raises(ValueError):
        g.observe(4)


def test_vector_env_checks_threads_when_made():
    # refused at construction, with the core's own limit in the message, not at the first step
    for bad in (0, -1, 65, 2.0, True, "2", None):
        with pytest.raises(ValueError, match="threads must be an int from 1 to 64"):
            TienlenVectorEnv(2, threads=bad)
    env = TienlenVectorEnv(2, threads=np.int64(2))
    env.reset(seed=1)
    env.step(env.games.action_mask.argmax(axis=1))
    assert env.threads == 2 and type(env.threads) is int
    env.close()


def test_vector_close_is_idempotent():
    v = VecGames(2, opponents=None)
    v.close()
    v.close()
    with pytest.raises(ValueError, match="closed"):
        v.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="closed"):
        v.reset(0)
    env = TienlenVectorEnv(2)
    env.close()
    env.close()


def _mem_available() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def test_vector_too_large_a_batch_is_refused_before_anything_is_allocated():
    # Each env holds a game of a few kB (its 486-move list alone is 3.9 kB): a batch needing
    # more than the memory available is a MemoryError with the numbers, at once, not the
    # kernel's OOM killer half way through dealing.
    avail = _mem_available()
    if avail is None:
        pytest.skip("this system does not report MemAvailable")
    n = avail // 4000 + 1            # at least 4 kB per env: more than is available
    if n > 1 << 24:
        pytest.skip("this machine has room for the largest batch VecGames accepts")
    v = VecGames.__new__(VecGames)
    with pytest.raises(MemoryError, match=r"envs need about .* GiB .* available"):
        v.__init__(n, opponents=None)
    assert v.closed
    with pytest.raises(ValueError, match="closed"):
        v.step(np.zeros(n, np.int64))


def test_vector_seeds_reproducible_and_threads_agree():
    def run(threads):
        v = VecGames(256, opponents=(0, 2, 1), seed=77)
        rng = np.random.default_rng(5)
        out = []
        for _ in range(30):
            n, p = v.num_legal.astype(np.int64), v.action_mask[:, 0].astype(np.int64)
            v.step((rng.random(256) * (n + p)).astype(np.int64) + (1 - p), threads=threads)
            out.append((v.obs.copy(), v.reward.copy(), v.terminated.copy()))
        v.close()
        return out

    one, again, two = run(1), run(1), run(2)
    for a, b, c in zip(one, again, two):
        for x, y, z in zip(a, b, c):
            assert np.array_equal(x, y) and np.array_equal(x, z)


def test_vector_threads_split_blocks_yet_agree_with_one_thread():
    # Threads claim blocks of envs from a shared counter: any thread count, and an env count
    # that is no multiple of the block, must give the one-thread result env by env.
    def run(threads):
        v = VecGames(1000, opponents=(2, 0, 1), seed=8)
        rng = np.random.default_rng(9)
        out = []
        for _ in range(12):
            n, p = v.num_legal.astype(np.int64), v.action_mask[:, 0].astype(np.int64)
            v.step((rng.random(1000) * (n + p)).astype(np.int64) + (1 - p), threads=threads)
            out.append((v.obs.copy(), v.action_mask.copy(), v.reward.copy(), v.episodes.copy()))
        v.close()
        return out

    one = run(1)
    for t in (2, 3, 7):
        for a, b in zip(one, run(t)):
            assert all(np.array_equal(x, y) for x, y in zip(a, b)), t


def test_vector_workers_park_only_between_back_to_back_steps():
    # A worker stays parked (spinning, up to 1 ms) after a step only while steps come back
    # to back; after a caller's longer pause (a network's forward pass) the next step's
    # workers leave as soon as their share is done instead of taking a core meanwhile.
    # The rule's decision is read back (timing the workers' CPU from here would also count
    # other libraries' threads, such as a BLAS pool spinning after its own work).
    import time

    v = VecGames(64, opponents=None, seed=1)
    limit = 1_000_000                      # RL_SPIN_US, in ns
    v.step(v.action_mask.argmax(axis=1).astype(np.int64), threads=2)
    assert v._park_ns == limit             # the first step: no gap known yet
    for _ in range(3):
        time.sleep(0.02)                   # a long pause before this step
        v.step(v.action_mask.argmax(axis=1).astype(np.int64), threads=2)
        assert v._park_ns == 0
        # Back to back: the gap is one argmax, microseconds. A loaded host (CI under
        # AddressSanitizer beside other work) can still preempt this thread for over the
        # 1 ms limit between two steps, so the next back-to-back step is given a few tries;
        # a rule that never parked would fail all of them.
        parked = []
        for _ in range(5):
            v.step(v.action_mask.argmax(axis=1).astype(np.int64), threads=2)
            parked.append(v._park_ns)
            if parked[-1] == limit:
                break
        assert parked[-1] == limit, parked
        assert set(parked) <= {0, limit}
    v.close()


def test_vector_flag_mode_flags_exactly_the_actions_outside_the_mask():
    # The pre-check counts illegal actions from compact per-env limits; it must agree with
    # the masks the env published, action by action, including pass on a lead.
    f = VecGames(600, opponents=(0, 0, 0), seed=3, on_error="flag")
    rng = np.random.default_rng(1)
    edges = np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max, -1, 0, 1, 486, 487,
                      2**32, 2**32 + 1, -(2**32)], np.int64)
    for k in range(8):
        acts = rng.integers(-2, 60, 600).astype(np.int64)
        # the bounds of each env's own list, and values that wrap or truncate if the
        # check ever narrowed or subtracted in signed arithmetic
        acts[:100] = f.num_legal[:100]
        acts[100:200] = f.num_legal[100:200] + 1
        acts[200:300] = edges[np.arange(100) % len(edges)]
        acts = np.roll(acts, 37 * k)
        mask = f.action_mask.copy()
        inside = np.array([0 <= a < 487 and mask[i, a] == 1 for i, a in enumerate(acts)])
        assert f.step(acts, threads=2) == int((~inside).sum())
        assert np.array_equal(f.error == 1, ~inside)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_vector_threads_work_in_a_forked_child():
    # A child forked after a threaded step inherits the worker pool object but not its
    # threads: stepping there must start new ones, not wait forever on the dead pool.
    import multiprocessing as mp

    v = VecGames(512, opponents=(0, 0, 0), seed=2)
    v.step(np.minimum(v.num_legal, 1).astype(np.int64), threads=2)

    def child(q):
        v.step(np.minimum(v.num_legal, 1).astype(np.int64), threads=2)
        q.put(int(v.episodes.sum()) >= 0)

    ctx = mp.get_context("fork")
    q = ctx.Queue()
    proc = ctx.Process(target=child, args=(q,))
    proc.start()
    proc.join(60)
    if proc.is_alive():
        proc.kill()
        pytest.fail("the forked child hung stepping with threads=2")
    assert proc.exitcode == 0 and q.get(timeout=5) is True


def test_vector_first_deal_is_the_seeds_deal():
    seeds = np.array([11, 12, 13], np.uint64)
    v = VecGames(3, opponents=None, seed=seeds)
    for i, s in enumerate(seeds.tolist()):
        assert v.game_state(i).hands == _core.deal(s)


def test_vector_final_obs_is_what_the_finished_episode_ended_on():
    # Self-play, mirrored move by move on RLGame (env i's first deal is deal(seeds[i])):
    # when env i's game ends, final_obs[i] is the view of the seat that made the last move,
    # after it, while obs[i] already shows the next deal.
    seeds = np.arange(100, 112, dtype=np.uint64)
    v = VecGames(12, opponents=None, seed=seeds, final_obs=True)
    mirrors = [_core.RLGame(4) for _ in seeds]
    for g, s in zip(mirrors, seeds.tolist()):
        g.reset(s)
    rng = np.random.default_rng(5)
    open_ = set(range(12))
    for _ in range(400):
        legal = v.num_legal.astype(np.int64)
        can_pass = v.action_mask[:, 0].astype(np.int64)
        acts = (rng.random(12) * (legal + can_pass)).astype(np.int64) + (1 - can_pass)
        before = v.final_obs.copy()
        v.step(acts)
        for i in sorted(open_):
            seat = mirrors[i].turn
            mirrors[i].step(int(acts[i]))
            if v.terminated[i]:
                assert mirrors[i].is_over
                assert np.array_equal(v.final_obs[i], mirrors[i].observe(seat)), i
                assert not np.array_equal(v.obs[i], v.final_obs[i])
                open_.discard(i)
            else:
                assert not mirrors[i].is_over
                assert np.array_equal(v.obs[i], mirrors[i].observe(mirrors[i].turn)), i
                # a row is only written when its episode ends
                assert np.array_equal(v.final_obs[i], before[i]), i
        if not open_:
            break
    assert not open_
    assert VecGames(2, opponents=None).final_obs is None


def test_gymnasium_vector_env_final_obs_follows_same_step_autoreset():
    env = TienlenVectorEnv(16, opponents=("greedy",) * 3)
    obs, info = env.reset(seed=4)
    assert "final_obs" not in info
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(60):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, reward, terminated, truncated, info = env.step(acts)
        if not terminated.any():
            assert "final_obs" not in info
            continue
        assert np.array_equal(info["_final_obs"], terminated)
        assert np.array_equal(info["_final_info"], terminated)
        for i in range(16):
            if terminated[i]:
                seen += 1
                final = info["final_obs"][i]
                assert env.single_observation_space.contains(final)
                assert not final["action_mask"].any()
                # the learner's episode ends when its hand is empty or the hand is over
                hand = final["observation"][:52]
                places = info["final_info"]["places"][i]
                assert hand.sum() == 0 or (places >= 0).sum() >= 3
                assert places[0] >= 0 and info["final_info"]["final_rewards"][i][0] == reward[i]
            else:
                assert info["final_obs"][i] is None
                assert not info["final_info"]["places"][i].any()
    assert seen > 0
    env.close()


def test_vector_legal_masks_on_request():
    v = VecGames(8, opponents=(0, 0, 0), seed=2, legal_masks=True)
    for i in range(8):
        moves = v.game_state(i).legal_moves()
        assert v.legal[i, :len(moves)].tolist() == moves.tolist()
        assert not v.legal[i, len(moves):].any()
    assert VecGames(1).legal is None


def test_vector_masks_stay_exact_as_the_counts_grow_and_shrink():
    # Each step rewrites only the part of a mask row (and legal row) between the previous
    # count and the new one: over many steps, with leads (long lists) and follows (short),
    # every row must still equal the state's own legal list, zeros after it.
    v = VecGames(64, opponents=(2, 1, 0), seed=12, legal_masks=True)
    rng = np.random.default_rng(3)
    grew = shrank = 0
    for _ in range(60):
        before = v.num_legal.copy()
        n, p = v.num_legal.astype(np.int64), v.action_mask[:, 0].astype(np.int64)
        v.step((rng.random(64) * (n + p)).astype(np.int64) + (1 - p), threads=2)
        grew += int((v.num_legal > before).sum())
        shrank += int((v.num_legal < before).sum())
        for i in range(64):
            st = v.game_state(i)
            moves = st.legal_moves()
            want = np.zeros(NUM_ACTIONS, np.int8)
            want[0] = st.pile_code != 0
            want[1:1 + len(moves)] = 1
            assert np.array_equal(v.action_mask[i], want), i
            assert v.legal[i, :len(moves)].tolist() == moves.tolist()
            assert not v.legal[i, len(moves):].any()
    assert grew and shrank


@pytest.mark.parametrize("threads", [1, 2])
def test_vector_ctrl_c_leaves_games_whole(threads):
    # A step over many envs honours Ctrl-C between blocks; the envs no thread reached are
    # flagged (error 2) and untouched, every other env was stepped whole.
    v = VecGames(20_000, opponents=(0, 0, 0), seed=1)
    acts = np.array([np.flatnonzero(m)[0] for m in v.action_mask], np.int64)
    obs = v.obs.copy()
    states = [v.game_state(i) for i in range(0, 20_000, 50)]

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.002)
        try:
            v.step(acts, threads=threads)
            interrupted = False
        except KeyboardInterrupt:
            interrupted = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    if not interrupted:
        pytest.skip("the step finished before the signal arrived")
    # The batch splits into one equal range per thread and each range is claimed in order,
    # so the envs not reached are a tail of each range (empty when the signal landed after
    # the last claim: then every env was stepped).
    n = len(acts)
    flagged = v.error == 2
    stepped_until = []
    for k in range(threads):
        lo, hi = n * k // threads, n * (k + 1) // threads
        part = np.flatnonzero(flagged[lo:hi]) + lo
        first = int(part[0]) if len(part) else hi
        assert np.array_equal(part, np.arange(first, hi)), k
        stepped_until.append((lo, first, hi))
    assert np.array_equal(v.obs[flagged], obs[flagged])
    assert not (v.error == 1).any()
    for k, st in enumerate(states):
        i = 50 * k
        first = next(f for lo, f, hi in stepped_until if lo <= i < hi)
        assert (v.game_state(i) == st) == (i >= first), i
    # The games are whole: the next step goes on from where each env stands.
    v.step(np.array([np.flatnonzero(m)[0] for m in v.action_mask], np.int64), threads=threads)
    assert not v.error.any()
    v.close()


def test_gymnasium_vector_env():
    env = TienlenVectorEnv(16, opponents=("plan", "greedy", "random"), legal_masks=True)
    obs, info = env.reset(seed=[1] * 16)
    assert np.array_equal(obs["observation"][0], obs["observation"][15])   # same deal
    assert obs["legal_moves"].dtype == np.uint64
    actions = obs["action_mask"].argmax(axis=1)
    obs, reward, terminated, truncated, info = env.step(actions)
    assert obs["observation"].shape == (16, OBS_SIZE) and not truncated.any()
    with pytest.raises(IllegalActionError):
        env.step(np.full(16, NUM_ACTIONS - 1))
    with pytest.raises(ValueError):
        env.step(np.zeros(16, np.float32))


# ---------------------------------------------------------------- the policy bot

def test_policy_bot_sees_the_env_observation():
    env = TienlenEnv(opponents=("random",) * 3, legal_actions=False)
    rng = random.Random(3)
    for seed in range(10):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            o, mask, moves = observation_from_view(env._table.view(0))
            assert np.array_equal(o, obs["observation"]) and np.array_equal(mask, obs["action_mask"])
            obs, _, done, _, _ = env.step(_random_action(obs["action_mask"], rng))


def test_policy_bot_in_the_arena():
    from functools import partial

    from tienlen.arena import simulate
    from tienlen.games.tienlen.bots import BotError, make_bot

    last_legal = lambda obs, mask: int(np.flatnonzero(mask)[-1])  # noqa: E731
    result = simulate("tienlen", [partial(PolicyBot, policy=last_legal), "random", "random",
                                  "random"], 8)
    assert result.bot(0).games == 8
    with pytest.raises(BotError, match="no policy file"):
        make_bot("ppo:/nonexistent/policy.zip")


def test_training_smoke(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    import subprocess
    import sys
    from pathlib import Path

    script = REPO / "examples" / "train_maskable_ppo.py"
    out = tmp_path / "policy"
    subprocess.run([sys.executable, str(script), "--minutes", "1", "--timesteps", "1024",
                    "--n-envs", "2", "--n-steps", "256", "--batch", "256", "--out", str(out),
                    "--eval-games", "4", "--eval-against", "random"],
                   check=True, timeout=600, capture_output=True)
    from tienlen.games.tienlen.bots import make_bot
    from tienlen.arena import simulate

    assert make_bot(f"ppo:{out}.zip", seed=1).name == "ppo:policy.zip"
    assert simulate("tienlen", [f"ppo:{out}.zip", "L1", "L1", "L1"], 4).bot(0).games == 4


def test_vector_concurrent_steps_are_refused_not_raced():
    # Two Python threads stepping one VecGames: each call either runs alone or is refused
    # with ValueError; the games stay whole (their states still satisfy the invariants).
    import threading

    v = VecGames(2048, opponents=(0, 1, 2), seed=4)
    refused, errors = [], []

    def worker(k):
        rng = np.random.default_rng(k)
        for _ in range(20):
            n, p = v.num_legal.astype(np.int64), v.action_mask[:, 0].astype(np.int64)
            acts = (rng.random(2048) * (n + p)).astype(np.int64) + (1 - p)
            try:
                v.step(acts)
            except ValueError as e:
                (refused if "another thread" in str(e) or "not in its action mask" in str(e)
                 else errors).append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(0, 2048, 97):
        st = v.game_state(i)
        assert st.turn == 0 and sum(bin(h).count("1") for h in st.hands) + bin(st.played_mask).count("1") == 52
    v.close()


def test_native_vec_env_for_sb3():
    pytest.importorskip("stable_baselines3")
    from tienlen.rl.sb3 import NativeVecEnv

    env = NativeVecEnv(6, ("greedy", "plan", "random"), seed=3)
    obs = env.reset()
    assert obs.shape == (6, OBS_SIZE) and env.has_attr("action_masks")
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (6, NUM_ACTIONS) and masks.dtype == bool
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(200):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in env.env_method("action_masks")])
        obs, reward, done, infos = env.step(acts)
        for i in np.flatnonzero(done):
            finished += 1
            assert reward[i] == 4 - infos[i]["place"]      # R10.2 points
            # the observation the episode ended on, not the next deal's first one: the
            # learner's hand is empty, or the hand is over with the learner last
            term = infos[i]["terminal_observation"]
            assert term.shape == (OBS_SIZE,) and not np.array_equal(term, obs[i])
            assert term[:52].sum() == 0 or infos[i]["place"] == 4
        assert not reward[~done].any()
    assert finished > 10
    env.close()
    env.close()


# ---------------------------------------------------------------- issue 28: first use

def test_vector_final_info_holds_exactly_seat_places_and_final_rewards() -> None:
    """Issue 28 #2: final_info also held final_obs, _final_obs and __final_obs (final_obs
    went into info before the copy), 0 where the top level held None. docs/rl.md promises
    seat, places and final_rewards, each with its _ mask."""
    env = TienlenVectorEnv(16, opponents=("greedy",) * 3)
    obs, _ = env.reset(seed=4)
    ended = 0
    for _ in range(80):
        obs, reward, terminated, _, info = env.step(env.action_space.sample())
        if not terminated.any():
            continue
        ended += 1
        assert sorted(info["final_info"]) == ["_final_rewards", "_places", "_seat",
                                              "final_rewards", "places", "seat"]
        assert sorted(info) == ["_final_info", "_final_obs", "final_info", "final_obs",
                                "final_rewards", "places", "seat"]
        for key in ("seat", "places", "final_rewards"):
            assert np.array_equal(info["final_info"][f"_{key}"], terminated)
            # where no episode ended the copy is zero, as SyncVectorEnv fills it
            assert not info["final_info"][key][~terminated].any()
    assert ended > 0
    env.close()


def test_vector_action_space_samples_legal_actions_and_takes_a_mask() -> None:
    """Issue 28 #3: TienlenVectorEnv.action_space.sample() ignored the masks ("4 envs had
    illegal actions"), unlike TienlenEnv's. It now draws a legal action per env, from its
    own seeded generator, and takes a mask as Gymnasium's MultiDiscrete does."""
    import pickle

    from gymnasium import spaces

    env = TienlenVectorEnv(8, opponents=("random",) * 3)
    obs, _ = env.reset(seed=3)
    env.action_space.seed(5)
    first = []
    for _ in range(60):
        action = env.action_space.sample()
        first.append(action.copy())
        assert action.shape == (8,)
        assert all(obs["action_mask"][i, a] == 1 for i, a in enumerate(action))
        obs, *_ = env.step(action)
    # the same seeds give the same draws
    obs, _ = env.reset(seed=3)
    env.action_space.seed(5)
    for expected in first:
        action = env.action_space.sample()
        assert np.array_equal(action, expected)
        obs, *_ = env.step(action)
    # an explicit mask: Gymnasium's tuple, or the observation's (N, 487) array
    only_pass_or_first = np.zeros((8, NUM_ACTIONS), np.int8)
    only_pass_or_first[:, 1] = 1
    assert (env.action_space.sample(mask=tuple(only_pass_or_first)) == 1).all()
    assert (env.action_space.sample(mask=only_pass_or_first) == 1).all()
    # a saved policy pickles the space as the plain MultiDiscrete
    plain = pickle.loads(pickle.dumps(env.action_space))
    assert type(plain) is spaces.MultiDiscrete and plain == env.action_space
    env.close()
    assert env.action_space.sample().shape == (8,)       # closed: a plain draw, no crash


def test_vector_refusal_of_a_pass_only_env_names_no_plays() -> None:
    """Issue 28 #3: an env whose only action is pass read "0 legal plays (actions 1..0)"."""
    env = TienlenVectorEnv(8, opponents=("greedy",) * 3)
    obs, _ = env.reset(seed=1)
    for _ in range(300):
        mask = obs["action_mask"]
        stuck = np.flatnonzero((mask[:, 1:].sum(axis=1) == 0) & (mask[:, 0] == 1))
        if len(stuck):
            bad = env.action_space.sample()
            bad[stuck[0]] = 5
            with pytest.raises(IllegalActionError) as refused:
                env.step(bad)
            text = str(refused.value)
            assert "no legal play, and pass (action 0)" in text and "1..0" not in text
            break
        obs, *_ = env.step(env.action_space.sample())
    else:
        pytest.fail("no env was left with only a pass")
    env.close()
