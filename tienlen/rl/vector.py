"""The native vectorised env: N hands stepped in C, as a ``gymnasium.vector.VectorEnv``.

The raw array API is :class:`tienlen.games.tienlen.core.VecGames` (re-exported here): it writes
observations, masks, rewards and flags into arrays it owns, with no Python per env. This
module wraps it in Gymnasium's vector API (same-step autoreset: a finished game's reward and
``terminated`` flag come with the first observation of the next deal).

>>> import numpy as np
>>> from tienlen.rl import TienlenVectorEnv
>>> envs = TienlenVectorEnv(8, opponents=("greedy", "greedy", "greedy"))
>>> obs, info = envs.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 468), (8, 487))
>>> first_legal = obs["action_mask"].argmax(axis=1)        # pass if it is the only choice
>>> obs, reward, terminated, truncated, info = envs.step(first_legal)
>>> reward.dtype.name, terminated.shape
('float32', (8,))
>>> envs.close(); envs.close()                             # idempotent
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .. import _core
from tienlen.games.tienlen.rules import Rules
from ..seeds import check_players
from .common import (IllegalActionError, flag_arg, native_policy, num_envs_arg, opponents_arg,
                     _same_step_final_info, vector_actions, vector_seeds)
from .encoding import NUM_ACTIONS, observation_box, place_rewards, rules_arg, threads_arg

__all__ = ["TienlenVectorEnv", "MaskedMultiDiscrete", "VecGames", "POLICIES"]

VecGames = _core.VecGames

#: Native opponent policies by name.
POLICIES: dict[str, int] = {"random": _core.RANDOM, "greedy": _core.GREEDY, "plan": _core.PLAN}


def _policy(spec: str | int) -> int:
    return native_policy(spec, POLICIES, "a native opponent")


class MaskedMultiDiscrete(spaces.MultiDiscrete):
    """``MultiDiscrete([487] * N)`` whose :meth:`sample` without a mask draws, for each env,
    among the actions legal *now* (uniformly, from the space's own seeded generator), as
    :class:`~tienlen.rl.gym_env.MaskedDiscrete` does for one env: a random baseline or a
    generic tool that samples the space takes legal actions. ``sample(mask=...)`` takes
    Gymnasium's form, a tuple of one int8 mask per env, or the (N, 487) ``action_mask`` array
    of an observation."""

    def __init__(self, num_envs: int, mask_source: Any = None, seed: int | None = None) -> None:
        super().__init__(np.full(num_envs, NUM_ACTIONS), seed=seed)
        self._mask_source = mask_source

    def sample(self, mask: Any = None, probability: Any = None) -> npt.NDArray[np.int64]:
        if mask is None and probability is None and self._mask_source is not None:
            mask = self._mask_source()
        if isinstance(mask, np.ndarray):
            # the rows of an (N, 487) array: Gymnasium's tuple of per-env masks
            mask = tuple(np.asarray(mask, dtype=np.int8))
        result: npt.NDArray[np.int64] = super().sample(mask=mask, probability=probability)
        return result

    def __reduce__(self) -> tuple[type[spaces.MultiDiscrete], tuple[np.ndarray]]:
        # Pickles (as in a saved policy) as the plain MultiDiscrete: the env link is not data.
        return (spaces.MultiDiscrete, (self.nvec.copy(),))


class TienlenVectorEnv(VectorEnv):
    """``num_envs`` hands stepped natively (GIL released), for a learner at ``learner_seat``
    against native ``opponents`` (``"random"``, ``"greedy"`` or ``"plan"`` per other seat)
    or, with ``opponents=None``, self-play: the observation is then for the seat to act
    (``info["seat"]``) and the reward is that of the seat that just acted.

    Observations: ``{"observation": uint8 (N, 468), "action_mask": int8 (N, 487)}`` and, with
    ``legal_masks=True``, ``"legal_moves"``: uint64 (N, 486) card masks of actions 1..486.
    Where an episode ended, ``info["final_obs"]`` and ``info["final_info"]`` hold what it
    ended on, as Gymnasium's ``SyncVectorEnv`` gives them in same-step autoreset.
    The returned arrays are copies unless ``copy=False`` (then they are read-only views the
    next step overwrites). ``action_space.sample()`` draws a legal action for every env
    (:class:`MaskedMultiDiscrete`). Actions outside a mask raise :class:`IllegalActionError`
    before any env is stepped. ``threads`` > 1 steps slices of the batch on worker threads.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, opponents: Sequence[str] | None = ("random",) * 3, *,
                 players: int | None = None, rules: Rules | str | None = None, learner_seat: int = 0,
                 rewards: Sequence[float] | None = None, legal_masks: bool = False,
                 threads: int = 1, copy: bool = True) -> None:
        num_envs = num_envs_arg(num_envs)
        legal_masks = flag_arg(legal_masks, "legal_masks")
        copy = flag_arg(copy, "copy")
        opponents = None if opponents is None else opponents_arg(opponents)
        if players is None:
            players = 4 if opponents is None else len(opponents) + 1
        check_players(players)
        rules = rules_arg(rules)
        policies = None if opponents is None else tuple(_policy(o) for o in opponents)
        self.games = VecGames(num_envs, players=players, opponents=policies,
                              learner_seat=learner_seat,
                              rewards=place_rewards(players, rewards), seed=0,
                              flags=rules.flags, legal_masks=legal_masks, on_error="raise",
                              final_obs=True)
        self.num_envs = num_envs
        self.threads = threads_arg(threads)
        self.copy = copy
        self.legal_masks = legal_masks
        single: dict[str, spaces.Box] = {"observation": observation_box(),
                  "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)}
        if legal_masks:
            single["legal_moves"] = spaces.Box(0, (1 << 52) - 1, (NUM_ACTIONS - 1,), np.uint64)
        # A copy typed as the Space mapping spaces.Dict takes (dict is invariant).
        self.single_observation_space = spaces.Dict(dict[str, spaces.Space[Any]](single))
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Dict({
            k: spaces.Box(np.broadcast_to(v.low, (num_envs,) + v.shape),
                          np.broadcast_to(v.high, (num_envs,) + v.shape),
                          (num_envs,) + v.shape, v.dtype)
            for k, v in single.items()})
        self._closed = False
        self.action_space = MaskedMultiDiscrete(num_envs, self._current_masks)

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every game. ``seed``: an int (env i uses the stream (seed, i)), one seed per
        env (env i's first deal is ``tienlen.games.tienlen.core.deal(seed[i], players)``), or None (fresh
        entropy)."""
        self.games.reset(vector_seeds(seed))
        return self._obs(), self._info()

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                 np.ndarray, dict[str, Any]]:
        try:
            self.games.step(vector_actions(actions, self.num_envs), self.threads)
        except _core.ActionOutsideMaskError as error:
            raise IllegalActionError(str(error)) from None
        g = self.games
        reward = g.reward.copy() if self.copy else g.reward
        terminated = g.terminated.copy() if self.copy else g.terminated
        info = self._info()
        if g.terminated.any():
            self._add_final(info)
        return self._obs(), reward, terminated, np.zeros(self.num_envs, np.bool_), info

    def _current_masks(self) -> np.ndarray | None:
        """The masks the action space samples from (None once closed: then it samples as a
        plain ``MultiDiscrete``)."""
        return None if self._closed else self.games.action_mask

    def action_masks(self) -> np.ndarray:
        """The current masks as bool (N, 487)."""
        return self.games.action_mask.astype(bool)

    def _obs(self) -> dict[str, np.ndarray]:
        g = self.games
        def pick(a: np.ndarray) -> np.ndarray:
            return a.copy() if self.copy else a
        obs = {"observation": pick(g.obs), "action_mask": pick(g.action_mask)}
        if self.legal_masks:
            assert g.legal is not None  # VecGames keeps them when built with legal_masks
            obs["legal_moves"] = pick(g.legal)
        return obs

    def _add_final(self, info: dict[str, Any]) -> None:
        """Gymnasium's same-step autoreset convention: where an episode ended,
        ``info["final_obs"][i]`` is the observation it ended on (a dict like any
        observation, its mask all zeros: no action is left) and ``info["final_info"]`` that
        env's info then, each with its ``_`` mask, as ``SyncVectorEnv`` builds them."""
        g = self.games
        assert g.final_obs is not None  # built with final_obs=True
        done = g.terminated.copy()
        rows = np.flatnonzero(done)
        ended = g.final_obs[rows]
        no_mask = np.zeros(NUM_ACTIONS, np.int8)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for k, i in enumerate(rows):
            obs = {"observation": ended[k], "action_mask": no_mask.copy()}
            if self.legal_masks:
                obs["legal_moves"] = np.zeros(NUM_ACTIONS - 1, np.uint64)
            final_obs[i] = obs
        # The step's own info (its arrays are already copies): seat, places, final_rewards.
        final_info = _same_step_final_info(info, done)
        info["final_obs"], info["_final_obs"] = final_obs, done
        info["final_info"], info["_final_info"] = final_info, done.copy()

    def _info(self) -> dict[str, Any]:
        g = self.games
        return {"seat": g.seat.copy(), "places": g.places.copy(),
                "final_rewards": g.final_rewards.copy()}

    def close(self, **kwargs: Any) -> None:
        """Free the native games; idempotent."""
        if not self._closed:
            self.games.close()
            self._closed = True
