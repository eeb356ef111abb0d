"""The PettingZoo AEC env: every seat an agent, one native game underneath.

>>> from tienlen.rl import env
>>> e = env(players=4)
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].dtype.name, obs["legal_actions"].shape
((468,), 'int8', (487, 52))
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated else int(obs["action_mask"].argmax()))
>>> sorted(info["place"] for info in e.final_info.values())
[1, 2, 3, 4]
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.rules import Rules
from ..seeds import check_players, check_seed
from .common import EnvStateError, check_render_mode, flag_arg
from .encoding import (NUM_ACTIONS, action_space, check_action, deal_with_a_decision,
                       observation_space, place_rewards, rules_arg)
from .seat_aec import SeatAECEnv

__all__ = ["env", "raw_env", "TienlenAECEnv"]


def env(players: int = 4, rules: Rules | str | None = None, **kwargs: Any) -> AECEnv:
    """The AEC env wrapped in PettingZoo's order enforcing wrapper (see :class:`TienlenAECEnv`)."""
    return wrappers.OrderEnforcingWrapper(TienlenAECEnv(players=players, rules=rules, **kwargs))


def raw_env(players: int = 4, rules: Rules | str | None = None, **kwargs: Any) -> TienlenAECEnv:
    """The AEC env without wrappers."""
    return TienlenAECEnv(players=players, rules=rules, **kwargs)


class TienlenAECEnv(SeatAECEnv):
    """One hand of Tiến Lên per episode, agents ``player_0`` .. ``player_{n-1}`` (seat order).

    Observations are dicts (``tienlen.rl.encoding.observation_space``): the observer's
    encoded view, its int8 ``action_mask`` (zeros when it is not its turn) and, unless
    ``legal_actions=False``, the (487, 52) card vectors of its actions. Action 0 passes;
    action a plays the a-th move of the core's legal list. Everyone is terminated when the
    hand ends, with the reward of their place (``rewards``, default R10.2 points); the
    ``info`` of each agent then holds its ``place`` (1 = first out).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "tienlen_v0", "is_parallelizable": False}

    def __init__(self, players: int = 4, rules: Rules | str | None = None, *,
                 rewards: tuple[float, ...] | None = None, legal_actions: bool = True,
                 render_mode: str | None = None) -> None:
        super().__init__()
        check_players(players)
        rules = rules_arg(rules)
        check_render_mode(render_mode)
        self.rules = rules
        self.render_mode = render_mode
        self.place_rewards = place_rewards(players, rewards)
        self.legal_actions = flag_arg(legal_actions, "legal_actions")
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self._obs_space = observation_space(self.legal_actions)
        self._act_space = action_space()
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self.game = _core.RLGame(players, rules.flags)
        self._rng = random.Random()
        self.final_info: dict[str, dict[str, Any]] = {}
        self._closed = False

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a hand: with ``seed`` the deal is ``tienlen.games.tienlen.core.deal(seed, players)``;
        without, the next deal of the env's own seeded stream. A deal won at once (R11.3)
        is skipped (:func:`~tienlen.rl.encoding.deal_with_a_decision`). A seed that is
        not an int in [0, 2**64) is a ValueError and changes nothing."""
        if self._closed:
            raise EnvStateError("this env is closed: make a new one")
        if seed is not None:
            # Checked before the stream is re-seeded: random.seed takes floats and strings,
            # and the deal would then refuse them with the stream already changed.
            check_seed(seed, or_none=True)
            self._rng.seed(seed)
            deal_seed = seed
        else:
            deal_seed = self._rng.getrandbits(64)
        # A deal won at once (R11.3) would give no agent a turn: the next one is dealt.
        deal_with_a_decision(self.game, deal_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.final_info = {}
        self.agent_selection = self.possible_agents[self.game.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._check_reset("observe")
        seat = self._seat_of(agent)
        g = self.game
        obs: dict[str, np.ndarray] = {"observation": g.observe(seat)}
        if g.turn == seat:
            obs["action_mask"] = g.action_mask()
            if self.legal_actions:
                obs["legal_actions"] = g.legal_action_cards()
        else:
            obs["action_mask"] = np.zeros(NUM_ACTIONS, np.int8)
            if self.legal_actions:
                obs["legal_actions"] = np.zeros((NUM_ACTIONS, 52), np.int8)
        return obs

    def step(self, action: int | None) -> None:
        """Act for :attr:`agent_selection`. An action outside its mask raises
        :class:`~tienlen.rl.common.IllegalActionError` and changes nothing."""
        agent = self._agent_to_step(action)
        if agent is None:
            return
        a = check_action(self.game, action)
        self.game.step(a)
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_over:
            order = self.game.finished
            for place, seat in enumerate(order):
                name = self.possible_agents[seat]
                self.rewards[name] = self.place_rewards[place]
                self.terminations[name] = True
                self.infos[name] = {"place": place + 1}
            self.final_info = {a: dict(i) for a, i in self.infos.items()}
            self._accumulate_rewards()
            # Every agent now steps once with None, in seat order.
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game.turn]

    def _text(self) -> str:
        """Every seat's cards (all of them: this is the env's view, not a player's), the
        pile, the turn."""
        g = self.game
        state = g.state()
        lines = []
        for seat, hand in enumerate(g.hands):
            marks = []
            if seat == g.turn:
                marks.append("to act")
            if state.locked_mask >> seat & 1:
                marks.append("passed")
            if seat in g.finished:
                marks.append(f"place {g.finished.index(seat) + 1}")
            lines.append(f"player_{seat}: {Cards(hand)!s:<40} {', '.join(marks)}".rstrip())
        if state.pile_mask:
            lines.append(f"pile: {Cards(state.pile_mask)} (player_{state.pile_owner})")
        else:
            lines.append("pile: empty")
        return "\n".join(lines)

    def state(self) -> np.ndarray:
        """Not an observation: every seat's hand (4 x 52 uint8), for centralised critics."""
        out = np.zeros((len(self.possible_agents), 52), np.uint8)
        for seat, hand in enumerate(self.game.hands):
            out[seat] = [(hand >> c) & 1 for c in range(52)]
        return out
