"""The native vectorised env as a Stable-Baselines3 ``VecEnv`` (needs ``stable-baselines3``,
in the ``[train]`` extra), so that sb3-contrib's MaskablePPO can train on N native games.

Observations are the encoder's uint8 vectors (``tienlen.rl.encoding.observation_box``),
actions ``Discrete(487)``; ``env_method("action_masks")`` gives the masks MaskablePPO
applies. A finished game is dealt afresh in the same step (SB3's own convention); its
``info`` holds ``place`` (1 = first out).

Two games, the learner passing whenever it may and otherwise playing its first legal
action, until one of them ends:

>>> import numpy as np
>>> from tienlen.rl.sb3 import NativeVecEnv
>>> env = NativeVecEnv(2, seed=7)
>>> obs = env.reset()
>>> obs.shape, obs.dtype
((2, 468), dtype('uint8'))
>>> masks = env.env_method("action_masks")          # what MaskablePPO asks for
>>> len(masks), masks[0].shape
(2, (487,))
>>> done = np.zeros(2, bool)
>>> while not done.any():
...     actions = np.array([np.flatnonzero(m)[0] for m in env.action_masks()])
...     obs, reward, done, infos = env.step(actions)
>>> ended = int(np.flatnonzero(done)[0])
>>> sorted(infos[ended])
['place', 'terminal_observation']
>>> place = infos[ended]["place"]          # the reward is R10.2's points: 4 - place
>>> 1 <= place <= 4 and float(reward[ended]) == 4 - place
True
>>> bool((obs[ended] != infos[ended]["terminal_observation"]).any())   # a new deal
True

MaskablePPO trains on it as on any ``VecEnv`` (a few steps here; a real run is in
``examples/train_maskable_ppo.py``), and its masked prediction plays only legal actions:

>>> from sb3_contrib import MaskablePPO
>>> model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0,
...                     device="cpu").learn(32)
>>> actions, _ = model.predict(env.reset(), action_masks=env.action_masks())
>>> bool(env.action_masks()[np.arange(2), actions].all())
True
>>> env.close()
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from .. import _core
from .common import opponents_arg
from .encoding import NUM_ACTIONS, observation_box, place_rewards, threads_arg
from .vector import _policy

__all__ = ["NativeVecEnv"]


# stable-baselines3 is an optional extra: where it is absent VecEnv is Any to mypy, which
# cannot check a class built on it (where it is installed the ignore is unused).
class NativeVecEnv(VecEnv):  # type: ignore[misc, unused-ignore]
    """``num_envs`` native games, the learner at seat 0 against native ``opponents``."""

    def __init__(self, num_envs: int, opponents: Sequence[str] = ("greedy",) * 3, *,
                 rewards: Sequence[float] | None = None, seed: int = 0, threads: int = 1) -> None:
        opponents = opponents_arg(opponents)
        players = len(opponents) + 1
        self.games: _core.VecGames = _core.VecGames(num_envs, players=players,
                                    opponents=tuple(_policy(o) for o in opponents),
                                    rewards=place_rewards(players, rewards), seed=seed,
                                    final_obs=True)
        self.threads = threads_arg(threads)
        self._base_seed = seed
        self._actions = np.zeros(num_envs, np.int64)
        super().__init__(num_envs, observation_box(), spaces.Discrete(NUM_ACTIONS))

    def reset(self) -> np.ndarray:
        seeds = [s for s in self._seeds if s is not None] if self._seeds else []
        self.games.reset(int(seeds[0]) if seeds else self._base_seed)
        self._reset_seeds()
        obs: np.ndarray = self.games.obs.copy()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        # Ints only, one per env: a cast would take 1.7 as action 1 (TienlenVectorEnv
        # refuses it the same way). A column (N, 1) is accepted: some policies give one.
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu" or actions.size != self.num_envs:
            raise ValueError(f"actions must be {self.num_envs} ints; got dtype {actions.dtype} "
                             f"shape {actions.shape}")
        self._actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        g = self.games
        g.step(self._actions, self.threads)
        obs, reward, done = g.obs.copy(), g.reward.copy(), g.terminated.copy()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        assert g.final_obs is not None  # built with final_obs=True
        for i in np.flatnonzero(done):
            # SB3's convention: the observation the episode ended on (obs[i] is already the
            # next deal's).
            infos[i] = {"place": int(g.places[i, 0]) + 1,
                        "terminal_observation": g.final_obs[i].copy()}
        return obs, reward, done, infos

    def action_masks(self) -> np.ndarray:
        return self.games.action_mask.astype(bool)

    def close(self) -> None:
        self.games.close()

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        if attr_name == "render_mode":          # nothing to render: SB3 asks at start-up
            rows = range(self.num_envs) if indices is None else self._get_indices(indices)
            return [None for _ in rows]
        raise AttributeError(f"NativeVecEnv has no per-env attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None) -> None:
        raise AttributeError(f"NativeVecEnv has no per-env attribute {attr_name!r}")

    def env_method(self, method_name: str, *args: Any, indices: int | Iterable[int] | None = None, **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"NativeVecEnv has no per-env method {method_name!r}")
        masks = self.action_masks()
        rows = range(self.num_envs) if indices is None else self._get_indices(indices)
        return [masks[i] for i in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: int | Iterable[int] | None = None) -> list[bool]:
        rows = range(self.num_envs) if indices is None else self._get_indices(indices)
        return [False for _ in rows]
