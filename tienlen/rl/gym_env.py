"""The Gymnasium single-agent env of every game: the learner's seat against the game's
opponents, written once over a game's encoder.

:class:`NativeEnv` takes the game by name; ``TienlenEnv`` (opponents: bots of any level) and
``GuandanEnv`` (partner and opponents: the core's native policies) are the same class with
the game bound (:mod:`tienlen.rl.games`). The game's encoder (``Single``) deals an episode
and plays the other seats; this module keeps Gymnasium's conventions: seeds, the masked
action space (a sample is a legal action), ``ResetNeeded``, render modes, and what an
unmasked action does (``illegal_action``).

>>> from tienlen.rl import TienlenEnv
>>> env = TienlenEnv(opponents=("L1", "L1", "L1"))
>>> obs, info = env.reset(seed=11)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) >= 1
((468,), True)
>>> done = False
>>> while not done:
...     obs, reward, done, truncated, info = env.step(int(obs["action_mask"].argmax()))
>>> info["place"] in (1, 2, 3, 4), reward == 4 - info["place"]
(True, True)
>>> from tienlen.rl import GuandanEnv
>>> env = GuandanEnv(partner="greedy", opponents=("random", "random"))
>>> obs, info = env.reset(seed=4)
>>> obs["observation"].shape, info["seat"], info["phase"]
((747,), 0, 'play')
>>> done = False
>>> while not done:
...     obs, reward, done, truncated, info = env.step(env.action_space.sample())
>>> abs(reward) in (1.0, 2.0, 3.0), sorted(info["places"])     # +-levels gained, 0-based places
(True, [0, 1, 2, 3])
"""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .._moved import moved_name
from ..seeds import check_seed
from ..table.encoding import IllegalActionError, check_render_mode
from .games import bind_signature, encoder, env_name, made
# The masked action space is every game's; its names stay importable from here.
from .spaces import MaskedDiscrete, SampledAction, _pick, next_epoch

__all__ = ["NativeEnv", "MaskedDiscrete", "SampledAction", "VectorObservation"]


def _box(spec: tuple[Any, Any, tuple[int, ...], Any]) -> spaces.Box:
    low, high, shape, dtype = spec
    return spaces.Box(low, high, shape, dtype)


class NativeEnv(gymnasium.Env):
    """Episodes of ``game`` from the learner's seat, the other seats played by the game's
    opponents, with the game's keywords (``options``: see its ``*Env``).

    Observations are dicts (the encoded view, its int8 ``action_mask``, the game's extras).
    An action outside the mask raises :class:`~tienlen.rl.common.IllegalActionError` and
    changes nothing; with ``illegal_action="terminate"`` it instead ends the episode (the
    game untouched) with a reward below any the game gives and ``info["illegal_action"] =
    True``, the convention of PettingZoo's TerminateIllegalWrapper, for tools that send
    unmasked actions. :meth:`action_masks` serves sb3-contrib's MaskablePPO.
    """

    metadata = {"render_modes": ["ansi", "human"]}
    game_name: str | None = None

    def __init__(self, game: str, *args: Any, illegal_action: str = "raise",
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action must be 'raise' or 'terminate'; got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.seat_adapter = encoder(game).single(*args, **options)
        self._exposed = frozenset(type(self.seat_adapter).exposed)
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.learner_seat: int = self.seat_adapter.learner_seat
        self.observation_space = spaces.Dict(
            {k: _box(v) for k, v in self.seat_adapter.spaces.items()})
        self._epoch = next_epoch()       # renewed by every reset and step (SampledAction)
        self.action_space = MaskedDiscrete(self.seat_adapter.num_actions, self._current_mask,
                                           epoch_source=lambda: self._epoch)

    def __getattr__(self, name: str) -> Any:
        # The game's own attributes (TienlenEnv.game, GuandanEnv.table ...).
        if name.startswith("__") or name in ("seat_adapter", "_exposed"):
            raise AttributeError(name)
        if name in self._exposed:
            return getattr(self.seat_adapter, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def named_class(cls, game: str, enc: Any) -> type[NativeEnv]:
        """The class ``<Title>Env``: this class with ``game`` bound."""

        def __init__(self: NativeEnv, *args: Any, illegal_action: str = "raise",
                     render_mode: str | None = None, **options: Any) -> None:
            NativeEnv.__init__(self, game, *args, illegal_action=illegal_action,
                               render_mode=render_mode, **options)

        bind_signature(__init__, enc.single.__init__, ("illegal_action", "raise"),
                       ("render_mode", None))
        doc = (f"{enc.title} from one seat, as a Gymnasium env: :class:`NativeEnv` with the "
               f"game bound.\n\n{inspect.cleandoc(enc.single.__doc__ or '')}")
        return type(f"{enc.title}Env", (cls,),
                    {"__init__": __init__, "game_name": game, "__doc__": doc,
                     "__module__": "tienlen.rl.gym_env"})

    # -- Gymnasium API ---------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start an episode. With ``seed``, the game's episode of that seed (a deal, or a
        match) and, for opponents rebuilt per episode, their seeds derived from it; without,
        the next of the env's own stream (the game's ``Single`` says which)."""
        # Checked first: Gymnasium's own check raises its Error (not a ValueError) for a
        # float or a negative seed.
        if seed is not None:
            check_seed(seed, or_none=True)
        super().reset(seed=seed)
        self._epoch = next_epoch()
        info = self.seat_adapter.restart(seed, lambda: int(self.np_random.integers(1 << 63)))
        return self.seat_adapter.observation(), info

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        s = self.seat_adapter
        if not s.started:
            raise gymnasium.error.ResetNeeded("call reset() before step() (and after an episode ends)")
        if s.done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        if isinstance(action, SampledAction) and action.epoch != self._epoch:
            action = _pick(s.mask(), action.draw)        # drawn before we moved on
        try:
            a = s.check(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            s.abandon()            # the episode is over; the next call must reset
            return s.observation(), s.illegal_reward, True, False, {"illegal_action": True}
        self._epoch = next_epoch()
        reward, terminated, truncated, info = s.step(a)
        return s.observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text: str = self.seat_adapter.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """End the episode; idempotent."""
        self.seat_adapter.abandon()

    # -- masks -----------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The current action mask as bool (what sb3-contrib's MaskablePPO asks for)."""
        return self.seat_adapter.observation()["action_mask"].astype(bool)  # type: ignore[no-any-return]

    def action_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The learner's variable legal-action list (ids, cards, reading; docs/rl.md),
        where the game lists one."""
        features = getattr(self.seat_adapter, "action_features", None)
        if features is None:
            raise AttributeError(f"{type(self).__name__} lists no action features")
        return features()  # type: ignore[no-any-return]

    def _observation(self) -> dict[str, np.ndarray]:
        return self.seat_adapter.observation()  # type: ignore[no-any-return]

    def _current_mask(self) -> np.ndarray | None:
        s = self.seat_adapter
        if not s.started or s.done:
            return None
        return s.mask()  # type: ignore[no-any-return]


class VectorObservation(gymnasium.ObservationWrapper):
    """Only the ``observation`` vector of a :class:`NativeEnv` (a Box), with the mask still
    served by :meth:`action_masks`: the shape sb3-contrib's MaskablePPO ``MlpPolicy`` takes.
    """

    def __init__(self, env: NativeEnv) -> None:
        super().__init__(env)
        space = env.observation_space
        assert isinstance(space, spaces.Dict)  # NativeEnv's observations are a Dict
        self.observation_space = space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        env = self.env.unwrapped
        assert isinstance(env, NativeEnv)  # __init__ wraps a NativeEnv
        return env.action_masks()


def __getattr__(name: str) -> Any:
    found = env_name(name)
    if found is not None and found[1] == "single":
        return made(name, lambda: NativeEnv.named_class(found[0], encoder(found[0])))
    return moved_name(__name__, name)
