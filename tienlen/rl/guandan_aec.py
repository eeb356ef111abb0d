"""The PettingZoo AEC env for Guandan: four agents, one native match underneath.

>>> from tienlen.rl.guandan_aec import guandan_env
>>> e = guandan_env(max_hands=2)
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, info["team"]
((747,), (2048,), 1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
>>> len(e.hand_results)
2
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import _guandan
from ..seeds import check_seed
from .common import EnvStateError, check_render_mode
from .guandan_encoding import (GD_NUM_ACTIONS, GD_OBS_SIZE, gd_check_action,
                               gd_observation_high, hand_rewards, reward_weights_arg)
from .seat_aec import SeatAECEnv

__all__ = ["guandan_env", "guandan_raw_env", "GuandanAECEnv"]


def guandan_env(**kwargs: Any) -> AECEnv:
    """The AEC env wrapped in PettingZoo's order enforcing wrapper (:class:`GuandanAECEnv`)."""
    return wrappers.OrderEnforcingWrapper(GuandanAECEnv(**kwargs))


def guandan_raw_env(**kwargs: Any) -> GuandanAECEnv:
    return GuandanAECEnv(**kwargs)


class GuandanAECEnv(SeatAECEnv):
    """A Guandan match per episode (``episode="match"``, capped at ``max_hands`` hands: then
    truncated) or one hand (``"hand"``: the match goes on at the next reset without a seed).
    Agents ``player_0`` .. ``player_3`` by seat; seats 0 and 2 are team 0. Every action of
    the match is an agent's turn: tribute and return cards included (``agent_selection``
    follows the seat to act). Observations: ``{"observation": uint8 (747,), "action_mask":
    int8 (2048,)}`` (zeros when it is not the agent's turn); :meth:`action_features` gives
    the acting agent's variable legal-action list. Rewards come with every settled hand, to
    all four agents: sign * (w_hand + w_gain * level gain + w_match * match won)
    (``reward_weights``, default (0, 1, 3)), sign +1 for the winning team. ``infos`` hold
    each agent's ``team`` and ``seat``, and after a hand its ``places`` (0-based by seat).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "guandan_v0", "is_parallelizable": False}

    def __init__(self, *, episode: str = "match", max_hands: int = 10000,
                 reward_weights: Sequence[float] = (0.0, 1.0, 3.0),
                 render_mode: str | None = None) -> None:
        super().__init__()
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match'; got {episode!r:.80}")
        check_render_mode(render_mode)
        self.episode = episode
        self.render_mode = render_mode
        self.weights = reward_weights_arg(reward_weights)
        self.possible_agents = [f"player_{p}" for p in range(4)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        space = spaces.Dict({
            "observation": spaces.Box(0, gd_observation_high(), (GD_OBS_SIZE,), np.uint8),
            "action_mask": spaces.Box(0, 1, (GD_NUM_ACTIONS,), np.int8)})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(GD_NUM_ACTIONS) for a in self.possible_agents}
        self.table = _guandan.GdTable(seed=0, max_hands=max_hands)
        self._rng = random.Random()
        self.hand_results: list[tuple[tuple[int, ...], int, int, bool]] = []
        self._closed = False
        self._started = False

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """With ``seed``: the match ``tienlen.guandan.Match(seed)``. Without: in
        ``episode="hand"`` the running match's next hand (a new match from the env's own
        stream once one is over), in ``"match"`` a new match from that stream."""
        if self._closed:
            raise EnvStateError("this env is closed: make a new one")
        if seed is not None:
            check_seed(seed, or_none=True)
            self._rng.seed(seed)
            self.table.reset(seed)
        elif self.episode == "hand" and self._started and self.table.phase == "hand_over":
            self.table.next_hand()
        else:
            self.table.reset(self._rng.getrandbits(64))
        self._started = True
        self.hand_results = []
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: self._info(p) for p, a in enumerate(self.agents)}
        self.agent_selection = self.possible_agents[self.table.turn]

    def _info(self, seat: int) -> dict[str, Any]:
        return {"team": seat % 2, "seat": seat}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._check_reset("observe")
        seat = self._seat_of(agent)
        t = self.table
        mine = t.turn == seat
        return {"observation": t.observe(seat),
                "action_mask": t.action_mask() if mine
                else np.zeros(GD_NUM_ACTIONS, np.int8)}

    def action_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The acting agent's variable legal-action list (ids, cards, reading; docs/rl.md)."""
        self._check_reset("action_features")
        return self.table.action_features()

    def step(self, action: int | None) -> None:
        """Act for :attr:`agent_selection`. An illegal action raises
        :class:`~tienlen.rl.common.IllegalActionError` and changes nothing."""
        agent = self._agent_to_step(action)
        if agent is None:
            return
        t = self.table
        a = gd_check_action(t, action)
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = 0.0
        if t.step(a):
            last = t.last_hand
            assert last is not None    # a hand was just settled
            self.hand_results.append(last)
            places = [0] * 4
            for k, seat in enumerate(last[0]):
                places[seat] = k
            for seat, r in enumerate(hand_rewards(last, self.weights)):
                name = self.possible_agents[seat]
                self.rewards[name] = r
                self.infos[name] = {**self._info(seat), "places": tuple(places)}
            over = t.is_over or self.episode == "hand"
            if over:
                capped = t.is_over and t.winner < 0
                for name in self.agents:
                    if capped:
                        self.truncations[name] = True
                    else:
                        self.terminations[name] = True
            else:
                t.next_hand()
            self._accumulate_rewards()
            if over:
                self.agent_selection = self.agents[0]
                return
        self.agent_selection = self.possible_agents[t.turn]

    def _text(self) -> str:
        """Every seat's cards, the phase, the levels, the turn."""
        t = self.table
        from tienlen.games.guandan.cards import Cards

        lines = [f"player_{s}: {Cards.from_masks(*h)!s}" for s, h in enumerate(t.hands)]
        lines.append(f"phase {t.phase}, level {t.level}, levels {t.levels}, turn {t.turn}")
        return "\n".join(lines)

    def state(self) -> np.ndarray:
        """Not an observation: every seat's hand as 4 x 108 card vectors (a central critic)."""
        out = np.zeros((4, 108), np.uint8)
        for seat, (once, twice) in enumerate(self.table.hands):
            out[seat, :54] = [(once >> k) & 1 for k in range(54)]
            out[seat, 54:] = [(twice >> k) & 1 for k in range(54)]
        return out
