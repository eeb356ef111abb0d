"""The native vectorised env of any game as a Stable-Baselines3 ``VecEnv`` (needs
``stable-baselines3``, in the ``[train]`` extra), so that sb3-contrib's MaskablePPO can
train on N native games.

Observations are the game's encoder's uint8 vectors, actions ``Discrete(A)`` (487 for Tiến
Lên, the default game; ``game="guandan"``: 2048); ``env_method("action_masks")`` gives the
masks MaskablePPO applies. A finished episode is followed at once by the next in the same
step (SB3's own convention); its ``info`` holds seat 0's ``place`` (1 = first out).

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

from ..table.encoding import threads_arg, vector_seeds
from .games import DEFAULT_GAME, encoder

__all__ = ["NativeVecEnv"]


# stable-baselines3 is an optional extra: where it is absent VecEnv is Any to mypy, which
# cannot check a class built on it (where it is installed the ignore is unused).
class NativeVecEnv(VecEnv):  # type: ignore[misc, unused-ignore]
    """``num_envs`` native games of ``game``, the learner at seat 0 against native
    opponents: Tiến Lên's ``opponents`` (default three ``"greedy"``), or the game's own
    keywords (``options``, as its ``*VectorEnv`` takes them)."""

    def __init__(self, num_envs: int, opponents: Sequence[str] | None = None, *,
                 game: str = DEFAULT_GAME, seed: int = 0, threads: int = 1,
                 **options: Any) -> None:
        enc = encoder(game)
        if opponents is not None:
            options["opponents"] = opponents
        elif game == DEFAULT_GAME:
            options.setdefault("opponents", ("greedy",) * 3)
        self.core = enc.vector(num_envs, **options)
        self.threads = threads_arg(threads, enc.max_threads)
        self._base_seed = vector_seeds(seed)
        self.core.reset(self._base_seed)
        self._actions = np.zeros(num_envs, np.int64)
        low, high, shape, dtype = self.core.spaces["observation"]
        super().__init__(num_envs, spaces.Box(low, high, shape, dtype),
                         spaces.Discrete(enc.num_actions))

    @property
    def games(self) -> Any:
        """The game's native vectorised core (Tiến Lên: ``VecGames``)."""
        return self.core.games

    def reset(self) -> np.ndarray:
        seeds = [s for s in self._seeds if s is not None] if self._seeds else []
        self.core.reset(vector_seeds(int(seeds[0])) if seeds else self._base_seed)
        self._reset_seeds()
        obs: np.ndarray = self.core.arrays()["observation"].copy()
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
        c = self.core
        c.step(self._actions, self.threads)
        obs, reward = c.arrays()["observation"].copy(), c.reward.copy()
        done = c.terminated | c.truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            places = c.info()["places"]
            for i in np.flatnonzero(done):
                # SB3's convention: the observation the episode ended on (obs[i] is already
                # the next episode's).
                infos[i] = {"place": int(places[i, 0]) + 1,
                            "terminal_observation": c.final_observation(int(i)).copy()}
        return obs, reward, done, infos

    def action_masks(self) -> np.ndarray:
        return self.core.mask.astype(bool)  # type: ignore[no-any-return]

    def close(self) -> None:
        self.core.close()

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
