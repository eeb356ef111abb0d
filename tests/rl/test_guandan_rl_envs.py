"""The Python envelopes of the Guandan RL core (tienlen.rl over the Guandan encoder): PettingZoo's
api_test and seed_test, Gymnasium's check_env, and each env's rewards and episodes against
tienlen.guandan.Match fed the same actions."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tienlen import _guandan  # noqa: E402
from tienlen.games.guandan.match import Match  # noqa: E402
from tienlen.rl import IllegalActionError  # noqa: E402
from tienlen.games.guandan.encoding import GD_NUM_ACTIONS, hand_rewards  # noqa: E402
from tienlen.rl import GuandanAECEnv, GuandanEnv, GuandanVectorEnv, guandan_env  # noqa: E402


@pytest.mark.parametrize("episode", ["hand", "match"])
def test_aec_env_passes_api_test(episode: str) -> None:
    api_test(guandan_env(episode=episode, max_hands=3), num_cycles=400)


def test_aec_env_passes_seed_test() -> None:
    seed_test(lambda: guandan_env(max_hands=3), num_cycles=400)


@pytest.mark.parametrize("seat", range(4))
def test_gym_env_passes_check_env(seat: int) -> None:
    check_env(GuandanEnv(learner_seat=seat, partner="random", opponents=("greedy", "plan")),
              skip_render_check=True)


def test_gym_env_passes_check_env_for_whole_matches() -> None:
    check_env(GuandanEnv(episode="match", max_hands=2), skip_render_check=True)


def test_aec_rewards_and_agent_selection_follow_match() -> None:
    """Random legal actions through the AEC env and Match(seed) side by side: the agent to
    act is Match's turn (tribute and return included), every settled hand rewards the four
    agents by the hand's result, teams sit in infos, and the episode ends with the match."""
    env = GuandanAECEnv(max_hands=6, reward_weights=(1.0, 1.0, 2.0))
    env.reset(seed=21)
    match = Match(21, max_hands=6)
    rng = np.random.default_rng(3)
    rewards = [0.0] * 4
    assert [env.infos[a]["team"] for a in env.possible_agents] == [0, 1, 0, 1]
    while not all(env.terminations.values()) and not all(env.truncations.values()):
        agent = env.agent_selection
        assert agent == f"player_{match.turn}"
        mask = env.observe(agent)["action_mask"]
        assert mask.sum() == min(env.table.num_legal, GD_NUM_ACTIONS - 1) + env.table.can_pass
        a = int(rng.choice(np.flatnonzero(mask)))
        t = env.table
        if t.phase == "play":
            match.pass_turn() if a == 0 else match.play(match.game.legal_plays()[a - 1])
        elif t.phase == "tribute":
            match.give_tribute(int(t.legal_actions()[0][a - 1, 0]).bit_length() - 1)
        else:
            match.return_tribute(int(t.legal_actions()[0][a - 1, 0]).bit_length() - 1)
        hands = len(match.results)
        env.step(a)
        for p, name in enumerate(env.possible_agents):
            rewards[p] += env.rewards[name]
        if len(match.results) > hands and not match.is_over:
            assert env.table.levels == match.levels
    r = match.results
    assert len(env.hand_results) == len(r) and match.is_over
    want = [sum(hand_rewards((h.places, h.winner, h.gain, h.match_won), (1.0, 1.0, 2.0))[p]
                for h in r) for p in range(4)]
    assert rewards == pytest.approx(want)
    assert all(env.truncations.values()) == match.capped


def test_gym_env_plays_to_the_learner_and_refuses_illegal_actions() -> None:
    env = GuandanEnv(partner="greedy", opponents=("random", "plan"), learner_seat=1)
    obs, info = env.reset(seed=8)
    assert env.table.turn == 1 and obs["action_mask"].any()
    before = env.table.hands
    with pytest.raises(IllegalActionError):
        env.step(GD_NUM_ACTIONS)
    with pytest.raises(IllegalActionError):
        env.step(0 if not env.table.can_pass else env.table.num_legal + 1)
    assert env.table.hands == before
    ids, cards, reading = env.action_features()
    assert len(ids) == env.table.num_legal + env.table.can_pass


def test_gym_reset_without_seed_goes_on_with_the_match() -> None:
    env = GuandanEnv(partner="random", opponents=("random", "random"))
    obs, _ = env.reset(seed=2)
    for _ in range(3):
        done = False
        while not done:
            obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        obs, _ = env.reset()
    assert env.table.hand_index == 3 and env.table.seed == 2


def test_vector_env_is_the_native_env() -> None:
    envs = GuandanVectorEnv(6, learner_seats=(0, 2), policies=("plan",) * 4)
    raw = _guandan.GdVecGames(6, learner_seats=(0, 2), policies=(_guandan.PLAN,) * 4, seed=5)
    obs, info = envs.reset(seed=5)
    rng = np.random.default_rng(4)
    for _ in range(200):
        assert np.array_equal(obs["observation"], raw.obs)
        mask = obs["action_mask"]
        assert (mask.sum(axis=1) == np.minimum(raw.num_legal, GD_NUM_ACTIONS - 1) + raw.can_pass).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs, reward, terminated, truncated, info = envs.step(actions)
        raw.step(actions.astype(np.int64))
        assert np.array_equal(reward, raw.reward) and np.array_equal(terminated, raw.terminated)
        for i in np.flatnonzero(terminated):
            assert info["_final_obs"][i] and info["final_obs"][i]["observation"].shape == (747,)
            # final_info holds the step's own info, final_rewards included (as Tiến Lên's,
            # issue 28 #2: it was left out with the final_obs entries)
            assert sorted(k for k in info["final_info"] if not k.startswith("_")) == [
                "final_rewards", "num_legal", "phase", "places", "seat"]
            assert info["final_info"]["final_rewards"][i].tolist() == raw.final_rewards[i].tolist()
    with pytest.raises(IllegalActionError):
        envs.step(np.full(6, GD_NUM_ACTIONS + 5))
    envs.close()
    envs.close()


def test_vector_env_gives_both_action_forms_each_without_the_other() -> None:
    """issue 37: the fixed 2,048-wide mask (default) and the variable list with action
    features (action_form="features", no mask built), stepping the same tables."""
    masked = GuandanVectorEnv(8, policies=("random",) * 4)
    listed = GuandanVectorEnv(8, policies=("random",) * 4, action_form="features")
    assert listed.core.games.action_mask is None and "action_mask" not in listed.observation_space
    om, _ = masked.reset(seed=3)
    ol, _ = listed.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(150):
        assert set(ol) == {"observation"} and np.array_equal(om["observation"], ol["observation"])
        offsets, ids, cards, reading = listed.legal_features()
        for i in range(8):
            legal = ids[offsets[i]:offsets[i + 1]]
            assert np.array_equal(np.flatnonzero(om["action_mask"][i]), legal[legal < GD_NUM_ACTIONS])
        pick = ids[offsets[:-1] + (rng.random(8) * np.diff(offsets)).astype(np.int64)]
        om = masked.step(pick)[0]
        ol = listed.step(pick)[0]
    with pytest.raises(ValueError, match="action_form"):
        GuandanVectorEnv(2, action_form="both")


def test_vector_env_copy_false_returns_the_cores_read_only_views() -> None:
    envs = GuandanVectorEnv(4, copy=False)
    obs, _ = envs.reset(seed=1)
    assert obs["action_mask"] is envs.core.games.action_mask
    assert not obs["observation"].flags.writeable
    obs2 = envs.step(envs.action_space.sample())[0]
    assert obs2["observation"] is obs["observation"]


def test_vector_env_copy_mask_false_is_the_default() -> None:
    """copy_mask=False (issue 37) is kept for compatibility: since the core's output banks
    the default hands out the mask without copying it too. Both envs give the same arrays,
    read-only, every step, final observations included."""
    shared, copied = GuandanVectorEnv(8, copy_mask=False), GuandanVectorEnv(8)
    a, _ = shared.reset(seed=3)
    b, _ = copied.reset(seed=3)
    assert not a["action_mask"].flags.writeable and not b["observation"].flags.writeable
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(300):
        assert np.array_equal(a["action_mask"], b["action_mask"])
        assert np.array_equal(a["observation"], b["observation"])
        legal = [np.flatnonzero(row) for row in b["action_mask"]]
        pick = np.array([ids[int(rng.integers(len(ids)))] for ids in legal])
        a, _, _, _, ia = shared.step(pick)
        b, _, _, _, ib = copied.step(pick)
        if "final_obs" in ib:
            ended += int(ib["_final_obs"].sum())
            for i in np.flatnonzero(ib["_final_obs"]):
                fa, fb = ia["final_obs"][i], ib["final_obs"][i]
                assert set(fa) == set(fb) and np.array_equal(fa["observation"], fb["observation"])
                assert not fa["action_mask"].any()
    assert ended > 0
    with pytest.raises(ValueError, match="copy_mask"):
        GuandanVectorEnv(2, copy_mask="no")


def test_vector_action_space_samples_legal_actions_and_takes_the_obs_mask() -> None:
    """issue 39 #4: GuandanVectorEnv.action_space.sample() draws legal actions (as
    TienlenVectorEnv's does), sample(mask=obs["action_mask"]) works, and a bad mask is a
    SampleMaskError saying why, not a bare AssertionError."""
    from tienlen.rl.common import SampleMaskError

    envs = GuandanVectorEnv(16, policies=("random",) * 4)
    obs, _ = envs.reset(seed=8)
    envs.action_space.seed(8)
    for step in range(120):
        drawn = envs.action_space.sample() if step % 2 else \
            envs.action_space.sample(mask=obs["action_mask"])
        assert obs["action_mask"][np.arange(16), drawn].all()
        obs = envs.step(drawn)[0]              # an illegal id would raise here
    assert obs["action_mask"][np.arange(16), envs.action_space.sample(
        mask=obs["action_mask"].astype(bool))].all()
    for bad in (np.ones((3, GD_NUM_ACTIONS), np.int8), np.ones((16, 5), np.int8),
                np.full((16, GD_NUM_ACTIONS), 2, np.int8), [1, 2], "mask"):
        with pytest.raises(SampleMaskError):
            envs.action_space.sample(mask=bad)


@pytest.mark.parametrize("form", ["mask", "features"])
def test_vector_env_banks_never_change_an_observation_someone_holds(form: str) -> None:
    """issue 37: the env hands out its core's output banks themselves (read-only) and
    writes each step into a bank nobody refers to any more. Differential: on many seeds,
    every observation equals what the single-bank path gives (copy=False, copied at once),
    and every observation kept (whole, or a view of one row), however many at a time
    (past the three banks: then copies), still equals its copy at the end."""
    for seed in range(6):
        banked = GuandanVectorEnv(16, action_form=form)
        plain = GuandanVectorEnv(16, action_form=form, copy=False)
        a, _ = banked.reset(seed=seed)
        b, _ = plain.reset(seed=seed)
        rng = np.random.default_rng(seed)
        kept: list[tuple[np.ndarray, np.ndarray]] = []
        banks_seen: set[int] = set()
        for step in range(120):
            for key in b:
                assert np.array_equal(a[key], b[key]) and not a[key].flags.writeable
            banks_seen.add(id(a["observation"]))
            if step % 7 == 0:                                  # keep whole observations
                kept += [(a[key], a[key].copy()) for key in a]
            if step % 11 == 0:                                 # keep a view of a row
                kept.append((a["observation"][step % 16], a["observation"][step % 16].copy()))
            if form == "mask":
                legal = [np.flatnonzero(row) for row in b["action_mask"]]
            else:
                offsets, ids = plain.legal_features()[:2]
                legal = [ids[offsets[i]:offsets[i + 1]] for i in range(16)]
            pick = np.array([ids[int(rng.integers(len(ids)))] for ids in legal])
            a = banked.step(pick)[0]
            b = plain.step(pick)[0]
        for held, copy in kept:
            assert np.array_equal(held, copy)
        assert len(banks_seen) > 3            # held banks were not written: new arrays came
    # Nothing kept: two banks take turns (the observation in hand and the next one).
    envs = GuandanVectorEnv(4)
    obs, _ = envs.reset(seed=1)
    seen = set()
    for _ in range(20):
        obs = envs.step(envs.action_space.sample())[0]
        seen.add(id(obs["action_mask"]))
    assert len(seen) == 2


def test_tienlen_vector_env_recycles_only_copies_nobody_holds() -> None:
    """issue 37: a core without output banks (Tien Len's) hands out writable copies from a
    pool, reused for a later step only once nothing refers to them: an observation (or a
    view of it) the learner keeps never changes, one it drops is written again."""
    from tienlen.rl import TienlenVectorEnv

    envs = TienlenVectorEnv(8, opponents=("greedy",) * 3)
    obs, _ = envs.reset(seed=5)
    kept = [obs, {k: v.copy() for k, v in obs.items()}]
    row_view = obs["action_mask"][3]
    row_copy = row_view.copy()
    seen: set[int] = set()
    for _ in range(40):
        obs = envs.step(envs.action_space.sample())[0]
        seen.add(id(obs["observation"]))
        assert obs["observation"] is not kept[0]["observation"]
        obs["observation"][:] = 1                     # the learner's to write into
    for key in kept[0]:
        assert np.array_equal(kept[0][key], kept[1][key])
    assert np.array_equal(row_view, row_copy)
    assert len(seen) <= 3                              # dropped ones were reused
    obs = envs.step(envs.action_space.sample())[0]
    for key, value in envs.core.arrays().items():
        assert np.array_equal(obs[key], value)
