"""The Gymnasium single-seat Guandan env: the learner's seat, the partner and the two
opponents played by native policies.

>>> from tienlen.rl.guandan_gym import GuandanEnv
>>> env = GuandanEnv(partner="greedy", opponents=("random", "random"))
>>> obs, info = env.reset(seed=4)
>>> obs["observation"].shape, info["seat"], info["phase"]
((747,), 0, 'play')
>>> done = False
>>> while not done:
...     obs, reward, done, truncated, info = env.step(int(obs["action_mask"].argmax()))
>>> abs(reward) in (1.0, 2.0, 3.0), sorted(info["places"])     # +-levels gained, 0-based places
(True, [0, 1, 2, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import _guandan
from ..seeds import check_seed
from .common import check_render_mode
from .spaces import MaskedDiscrete, SampledAction, next_epoch, _pick
from .guandan_encoding import (GD_NUM_ACTIONS, GD_OBS_SIZE, gd_check_action,
                               gd_observation_high, gd_policy, hand_rewards,
                               reward_weights_arg)

__all__ = ["GuandanEnv"]


class GuandanEnv(gymnasium.Env):
    """One Guandan hand (``episode="hand"``) or match (``"match"``) per episode from
    ``learner_seat``; the partner and the opponents (in turn order after the learner) are
    native policies: ``"random"``, ``"greedy"`` or ``"plan"`` (the core's playout policies;
    ``plan`` is the policy L2 plays). ``reset(seed=s)`` starts ``Match(s)``; ``reset()``
    without a seed deals the running match's next hand (with its tribute), or a new match
    once one is over. Observations ``{"observation": uint8 (747,), "action_mask": int8
    (2048,)}``; rewards at each settled hand, the learner team's: sign * (w_hand + w_gain *
    gain + w_match * match won), default weights (0, 1, 3). :meth:`action_features` is the
    variable legal-action list, :meth:`action_masks` the mask for sb3-contrib.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, partner: str = "plan", opponents: Sequence[str] = ("plan", "plan"), *,
                 learner_seat: int = 0, episode: str = "hand", max_hands: int = 10000,
                 reward_weights: Sequence[float] = (0.0, 1.0, 3.0),
                 render_mode: str | None = None) -> None:
        super().__init__()
        if isinstance(opponents, str) or len(tuple(opponents)) != 2:
            raise ValueError(f"opponents must name 2 policies; got {opponents!r:.80}")
        if type(learner_seat) is not int or not 0 <= learner_seat <= 3:
            raise ValueError(f"learner_seat must be a seat 0..3; got {learner_seat!r:.80}")
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match'; got {episode!r:.80}")
        check_render_mode(render_mode)
        opp = tuple(gd_policy(o) for o in opponents)
        self.policies = {learner_seat ^ 2: gd_policy(partner),
                         (learner_seat + 1) % 4: opp[0], (learner_seat + 3) % 4: opp[1]}
        self.learner_seat = learner_seat
        self.episode = episode
        self.render_mode = render_mode
        self.weights = reward_weights_arg(reward_weights)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, gd_observation_high(), (GD_OBS_SIZE,), np.uint8),
            "action_mask": spaces.Box(0, 1, (GD_NUM_ACTIONS,), np.int8)})
        self._epoch = next_epoch()
        self.action_space = MaskedDiscrete(GD_NUM_ACTIONS, self._current_mask,
                                           epoch_source=lambda: self._epoch)
        self.table = _guandan.GdTable(seed=0, max_hands=max_hands)
        self._live = False
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is not None:
            check_seed(seed, or_none=True)
        super().reset(seed=seed)
        t = self.table
        if seed is not None:
            t.reset(seed)
        elif self._started and t.phase == "hand_over":
            t.next_hand()
        else:
            t.reset(int(self.np_random.integers(1 << 63)))
        self._started = True
        self._epoch = next_epoch()
        self._live = True
        reward, ended = self._play_others()
        assert not ended    # the learner holds cards at a deal: it acts before the hand ends
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if not self._live:
            raise gymnasium.error.ResetNeeded("call reset() before step() (and after an episode ends)")
        t = self.table
        if isinstance(action, SampledAction) and action.epoch != self._epoch:
            action = _pick(t.action_mask(), action.draw)
        a = gd_check_action(t, action)
        self._epoch = next_epoch()
        reward, ended = 0.0, False
        if t.step(a):
            reward, ended = self._hand_over()
        if not ended:
            more, ended = self._play_others()
            reward += more
        info = self._info()
        truncated = False
        if ended:
            self._live = False
            last = t.last_hand
            assert last is not None
            info["places"] = tuple(last[0].index(s) for s in range(4))
            truncated = t.is_over and t.winner < 0
        return self._observation(), reward, ended and not truncated, truncated, info

    def _hand_over(self) -> tuple[float, bool]:
        t = self.table
        last = t.last_hand
        assert last is not None
        reward = hand_rewards(last, self.weights)[self.learner_seat]
        if self.episode == "hand" or t.is_over:
            return reward, True
        t.next_hand()
        return reward, False

    def _play_others(self) -> tuple[float, bool]:
        t = self.table
        reward = 0.0
        while t.turn >= 0 and t.turn != self.learner_seat:
            if t.step(t.policy_action(self.policies[t.turn])):
                r, ended = self._hand_over()
                reward += r
                if ended:
                    return reward, True
        return reward, False

    def _info(self) -> dict[str, Any]:
        t = self.table
        return {"seat": self.learner_seat, "team": self.learner_seat % 2, "phase": t.phase,
                "levels": t.levels}

    def _observation(self) -> dict[str, np.ndarray]:
        t = self.table
        mine = self._live and t.turn == self.learner_seat
        return {"observation": t.observe(self.learner_seat),
                "action_mask": t.action_mask() if mine
                else np.zeros(GD_NUM_ACTIONS, np.int8)}

    def _current_mask(self) -> np.ndarray | None:
        if not self._live:
            return None
        return self.table.action_mask()

    def action_masks(self) -> np.ndarray:
        return self._observation()["action_mask"].astype(bool)

    def action_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The learner's variable legal-action list (ids, cards, reading; docs/rl.md)."""
        return self.table.action_features()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        t = self.table
        text = (f"seat {self.learner_seat} (learner), phase {t.phase}, level {t.level}, "
                f"levels {t.levels}, cards left {[bin(a).count('1') + bin(b).count('1') for a, b in t.hands]}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._live = False

