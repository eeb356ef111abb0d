"""The native vectorised Guandan env as a ``gymnasium.vector.VectorEnv``.

The raw array API is :class:`tienlen._guandan.GdVecGames` (re-exported here): N tables,
each a match, stepped in C without the GIL. This module wraps it in Gymnasium's vector API
(same-step autoreset: a finished episode's reward and ``terminated`` flag come with the
first observation of the next one; ``info["final_obs"]`` holds what it ended on).

>>> import numpy as np
>>> from tienlen.rl.guandan_vector import GuandanVectorEnv
>>> envs = GuandanVectorEnv(4, policies=("greedy",) * 4)
>>> obs, info = envs.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 747), (4, 2048))
>>> obs, reward, terminated, truncated, info = envs.step(obs["action_mask"].argmax(axis=1))
>>> reward.dtype.name, terminated.shape
('float32', (4,))
>>> envs.close(); envs.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .. import _guandan
from .common import (IllegalActionError, _same_step_final_info, num_envs_arg, threads_arg,
                     vector_actions, vector_seeds)
from .guandan_encoding import (GD_MAX_THREADS, GD_NUM_ACTIONS, GD_OBS_SIZE, gd_observation_high,
                               gd_policy, reward_weights_arg)

__all__ = ["GuandanVectorEnv", "GdVecGames"]

GdVecGames = _guandan.GdVecGames


class GuandanVectorEnv(VectorEnv):
    """``num_envs`` Guandan tables stepped natively for the learner's ``learner_seats``
    (default seat 0; all four: self-play, the observation is then the seat to act's,
    ``info["seat"]``), the other seats playing native ``policies`` (one name per seat:
    ``"random"``, ``"greedy"``, ``"plan"``; a learner seat's entry is unused).
    ``episode="hand"`` or ``"match"`` as in GdVecGames. Observations ``{"observation":
    uint8 (N, 747), "action_mask": int8 (N, 2048)}`` (ids past 2047 are left out of the
    mask; ``info["num_legal"]`` is exact). Actions outside a mask raise
    :class:`~tienlen.rl.common.IllegalActionError` before any table is stepped.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, *, learner_seats: Sequence[int] = (0,),
                 policies: Sequence[str] = ("random",) * 4, episode: str = "hand",
                 reward_weights: Sequence[float] = (0.0, 1.0, 3.0), max_hands: int = 10000,
                 threads: int = 1) -> None:
        num_envs = num_envs_arg(num_envs)
        if isinstance(policies, str) or len(tuple(policies)) != 4:
            raise ValueError(f"policies must name 4 policies, one per seat; got {policies!r:.80}")
        self.games = GdVecGames(num_envs, learner_seats=tuple(learner_seats),
                                policies=tuple(gd_policy(p) for p in policies), seed=0,
                                episode=episode, reward_weights=reward_weights_arg(reward_weights),
                                max_hands=max_hands, final_obs=True)
        self.num_envs = num_envs
        self.threads = threads_arg(threads, GD_MAX_THREADS)
        high = gd_observation_high()
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0, high, (GD_OBS_SIZE,), np.uint8),
            "action_mask": spaces.Box(0, 1, (GD_NUM_ACTIONS,), np.int8)})
        self.single_action_space = spaces.Discrete(GD_NUM_ACTIONS)
        n = self.num_envs
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, np.broadcast_to(high, (n, GD_OBS_SIZE)), (n, GD_OBS_SIZE), np.uint8),
            "action_mask": spaces.Box(0, 1, (n, GD_NUM_ACTIONS), np.int8)})
        self.action_space = spaces.MultiDiscrete(np.full(n, GD_NUM_ACTIONS))
        self._ids = np.arange(GD_NUM_ACTIONS)
        self._closed = False

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new match on every table: ``seed`` an int (table i then plays a match seeded
        from (seed, i)), one match seed per table (``Match(seed[i])``), or None."""
        self.games.reset(vector_seeds(seed))
        return self._obs(), self._info()

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                 np.ndarray, dict[str, Any]]:
        try:
            self.games.step(vector_actions(actions, self.num_envs), self.threads)
        except _guandan.GdActionError as error:
            raise IllegalActionError(str(error)) from None
        g = self.games
        info = self._info()
        if g.terminated.any() or g.truncated.any():
            self._add_final(info)
        return self._obs(), g.reward.copy(), g.terminated.copy(), g.truncated.copy(), info

    def action_masks(self) -> np.ndarray:
        return self._mask().astype(bool)

    def action_features(self, env: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Table ``env``'s variable legal-action list (ids, cards, reading; docs/rl.md)."""
        return self.games.action_features(env)

    def _mask(self) -> np.ndarray:
        g = self.games
        mask = (self._ids[None, :] >= 1) & (self._ids[None, :] <= g.num_legal[:, None])
        mask[:, 0] = g.can_pass.astype(bool)
        return mask.astype(np.int8)

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self.games.obs.copy(), "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        g = self.games
        return {"seat": g.seat.copy(), "phase": g.phase.copy(), "num_legal": g.num_legal.copy(),
                "places": g.places.copy(), "final_rewards": g.final_rewards.copy()}

    def _add_final(self, info: dict[str, Any]) -> None:
        """Gymnasium's same-step autoreset convention (as TienlenVectorEnv)."""
        g = self.games
        assert g.final_obs is not None     # built with final_obs=True
        done = g.terminated | g.truncated
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(done):
            final_obs[i] = {"observation": g.final_obs[i].copy(),
                            "action_mask": np.zeros(GD_NUM_ACTIONS, np.int8)}
        final_info = _same_step_final_info(info, done)      # before final_obs goes in
        info["final_obs"], info["_final_obs"] = final_obs, done.copy()
        info["final_info"], info["_final_info"] = final_info, done.copy()

    def close(self, **kwargs: Any) -> None:
        if not self._closed:
            self.games.close()
            self._closed = True
