"""The PettingZoo AEC env of every game: every seat an agent, one native table underneath,
written once over a game's encoder.

:class:`NativeAECEnv` takes the game by name; ``TienlenAECEnv`` and ``GuandanAECEnv`` are the
same class with the game bound, and ``env()`` / ``guandan_env()`` (``raw_env()`` /
``guandan_raw_env()``) their factories, with and without PettingZoo's order enforcing
wrapper (:mod:`tienlen.rl.games`). The game's encoder (``Table``) says how an episode starts
and what a step settles; this module keeps PettingZoo's conventions.

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
>>> g = NativeAECEnv("guandan", max_hands=2)
>>> g.reset(seed=3)
>>> g.observe(g.agent_selection)["action_mask"].shape, g.infos["player_1"]["team"]
((2048,), 1)
"""

from __future__ import annotations

import inspect
import random
from typing import Any, Callable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._moved import moved_name
from ..seeds import check_seed
from ..table.encoding import EnvStateError, check_render_mode
from .games import bind_signature, encoder, env_name, made
from .seat_aec import SeatAECEnv

__all__ = ["NativeAECEnv", "make_env"]


def _box(spec: tuple[Any, Any, tuple[int, ...], Any]) -> spaces.Box:
    low, high, shape, dtype = spec
    return spaces.Box(low, high, shape, dtype)


class NativeAECEnv(SeatAECEnv):
    """Episodes of ``game`` (one hand, or a match: the game's ``Table`` says), agents
    ``player_0`` .. ``player_{n-1}`` by seat, with the game's keywords (``options``).

    Observations are dicts: the observer's encoded view and its int8 ``action_mask``
    (zeros when it is not its turn), plus the game's extras. Every action of the episode is
    an agent's turn (``agent_selection`` follows the seat to act). When a step settles a
    hand, every agent gets its reward and ``infos``; at the episode's end every agent is
    terminated (or truncated, at a cap) and steps once more with None, in seat order.
    ``final_info`` holds the infos the episode ended with.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "native_v0",
                "is_parallelizable": False}
    game_name: str | None = None

    def __init__(self, game: str, *args: Any, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self._closed = False
        self.table_adapter = encoder(game).table(*args, **options)
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": self.table_adapter.env_name}
        self._exposed = frozenset(type(self.table_adapter).exposed)
        players = self.table_adapter.players
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        space = spaces.Dict({k: _box(v) for k, v in self.table_adapter.spaces.items()})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table_adapter.num_actions)
                              for a in self.possible_agents}
        self._rng = random.Random()
        self.final_info: dict[str, dict[str, Any]] = {}

    def __getattr__(self, name: str) -> Any:
        # The game's own attributes (TienlenAECEnv.game, GuandanAECEnv.hand_results ...).
        if name.startswith("__") or name in ("table_adapter", "_exposed"):
            raise AttributeError(name)
        if name in self._exposed:
            return getattr(self.table_adapter, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def named_class(cls, game: str, enc: Any) -> type[NativeAECEnv]:
        """The class ``<Title>AECEnv``: this class with ``game`` bound."""

        def __init__(self: NativeAECEnv, *args: Any, render_mode: str | None = None,
                     **options: Any) -> None:
            NativeAECEnv.__init__(self, game, *args, render_mode=render_mode, **options)

        bind_signature(__init__, enc.table.__init__, ("render_mode", None))
        doc = (f"{enc.title} as a PettingZoo AEC env: :class:`NativeAECEnv` with the game "
               f"bound.\n\n{inspect.cleandoc(enc.table.__doc__ or '')}")
        return type(f"{enc.title}AECEnv", (cls,),
                    {"__init__": __init__, "game_name": game, "__doc__": doc,
                     "metadata": {**cls.metadata, "name": f"{game}_v0"},
                     "__module__": "tienlen.rl.aec"})

    @staticmethod
    def factory(game: str, *, raw: bool, name: str) -> Callable[..., AECEnv]:
        """``<name>_env`` (wrapped in PettingZoo's order enforcing wrapper) or
        ``<name>_raw_env`` (unwrapped) of ``game``."""
        cls = __getattr__(f"{encoder(game).title}AECEnv")

        def make(*args: Any, **kwargs: Any) -> AECEnv:
            made = cls(*args, **kwargs)
            return made if raw else wrappers.OrderEnforcingWrapper(made)

        make.__name__ = make.__qualname__ = name
        make.__module__ = "tienlen.rl.aec"
        make.__doc__ = (f"The {'unwrapped ' if raw else ''}AEC env of {encoder(game).title}"
                        f"{'' if raw else ' in PettingZoo order enforcing wrapper'} "
                        f"(:class:`{cls.__name__}`).")
        make.__signature__ = inspect.signature(cls.__init__).replace(  # type: ignore[attr-defined]
            parameters=list(inspect.signature(cls.__init__).parameters.values())[1:])
        return make

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode: with ``seed`` the game's episode of that seed (a deal, or a
        match); without, the next one of the env's own seeded stream (the game's ``Table``
        says which). A seed that is not an int in [0, 2**64) is a ValueError and changes
        nothing."""
        if self._closed:
            raise EnvStateError("this env is closed: make a new one")
        if seed is not None:
            # Checked before the stream is re-seeded: random.seed takes floats and strings.
            check_seed(seed, or_none=True)
            self._rng.seed(seed)
        self.table_adapter.restart(seed, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {
            a: self.table_adapter.info(p) for p, a in enumerate(self.agents)}
        self.final_info = {}
        self.agent_selection = self.possible_agents[self.table_adapter.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._check_reset("observe")
        return self.table_adapter.observe(self._seat_of(agent))  # type: ignore[no-any-return]

    def action_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The acting agent's variable legal-action list (ids, cards, reading; docs/rl.md),
        where the game lists one."""
        self._check_reset("action_features")
        features = getattr(self.table_adapter, "action_features", None)
        if features is None:
            raise AttributeError(f"{type(self).__name__} lists no action features")
        return features()  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        """Act for :attr:`agent_selection`. An action outside its mask raises
        :class:`~tienlen.rl.common.IllegalActionError` and changes nothing."""
        agent = self._agent_to_step(action)
        if agent is None:
            return
        t = self.table_adapter
        a = t.check(action)
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.rewards[name] = 0.0
        settled = t.apply(a)
        if settled is not None:
            for seat, reward in enumerate(settled.rewards):
                name = self.possible_agents[seat]
                self.rewards[name] = reward
            for seat, info in settled.infos.items():
                self.infos[self.possible_agents[seat]] = info
            if settled.over:
                for name in self.agents:
                    if settled.truncated:
                        self.truncations[name] = True
                    else:
                        self.terminations[name] = True
                self.final_info = {a: dict(i) for a, i in self.infos.items()}
            self._accumulate_rewards()
            if settled.over:
                # Every agent now steps once with None, in seat order.
                self.agent_selection = self.agents[0]
                return
        self.agent_selection = self.possible_agents[t.turn]

    def _text(self) -> str:
        return self.table_adapter.text()  # type: ignore[no-any-return]

    def state(self) -> np.ndarray:
        """Not an observation: every seat's hand as card vectors (a centralised critic)."""
        return self.table_adapter.state()  # type: ignore[no-any-return]


def make_env(game: str, *, raw: bool = False, **options: Any) -> AECEnv:
    """The AEC env of ``game`` (by name) with its keywords, wrapped in PettingZoo's order
    enforcing wrapper unless ``raw``.

    >>> e = make_env("guandan", max_hands=1)
    >>> e.reset(seed=1); e.agent_selection in e.possible_agents
    True
    """
    made = NativeAECEnv(game, **options)
    return made if raw else wrappers.OrderEnforcingWrapper(made)


def __getattr__(name: str) -> Any:
    found = env_name(name)
    if found is None or not found[1].startswith("aec"):
        return moved_name(__name__, name)
    game, kind = found
    if kind == "aec":
        return made(name, lambda: NativeAECEnv.named_class(game, encoder(game)))
    return made(name, lambda: NativeAECEnv.factory(game, raw=kind == "aec_raw_env", name=name))
