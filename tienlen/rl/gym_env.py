"""The Gymnasium single-agent env: the learner's seat against bots.

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
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import _core
from ..bots import Bot, make_bot
from ..cards import Cards
from ..actions import PASS, _PassType
from ..game import Game
from ..rules import Rules
from ..seeds import check_seed, mix
from .encoding import (OpponentError, SampleMaskError, check_render_mode, deal_with_a_decision,
                       flag_arg, rules_arg, NUM_ACTIONS,
                       IllegalActionError, check_action, observation_space, opponents_arg,
                       place_rewards)

__all__ = ["TienlenEnv", "MaskedDiscrete", "SampledAction", "VectorObservation"]



class SampledAction(int):
    """An action drawn by :meth:`MaskedDiscrete.sample`: the int, plus the uniform draw it came
    from and the env's position (its epoch) when it was drawn. If the env has moved on since
    (a reset or a step), :meth:`TienlenEnv.step` draws it again from the same number against
    the current mask, so that a sample taken before ``reset(seed=...)`` is a legal action of
    the state it is used in (Gymnasium's ``check_env`` samples before it resets) and the same
    draw in the same state is the same action. An ordinary int is never reinterpreted."""

    draw: float
    epoch: int

    def __new__(cls, value: int, draw: float, epoch: int) -> SampledAction:
        action = super().__new__(cls, value)
        action.draw = draw
        action.epoch = epoch
        return action


# Positions of every env share one counter, so a sample drawn in one env is stale in another.
_EPOCHS = itertools.count(1)


def _pick(mask: np.ndarray, draw: float) -> int:
    """The legal action a uniform draw in [0, 1) selects from an action mask."""
    legal = np.flatnonzero(mask)
    return int(legal[min(int(draw * len(legal)), len(legal) - 1)])


def _sample_array(value: object, name: str, dtype: type[np.generic], n: int) -> np.ndarray:
    """``sample``'s mask or probability as a plain array, checked as Gymnasium checks it
    (which raises a bare AssertionError): SampleMaskError instead, with the reason."""
    if not isinstance(value, np.ndarray):
        raise SampleMaskError(f"{name} must be a numpy array of dtype {np.dtype(dtype).name} "
                              f"and shape ({n},); got {type(value).__name__}")
    array = np.asarray(value)  # its buffer's own dtype and shape, whatever a subclass claims
    if array.dtype != dtype or array.shape != (n,):
        raise SampleMaskError(f"{name} must be a numpy array of dtype {np.dtype(dtype).name} "
                              f"and shape ({n},); got {array.dtype} {array.shape}")
    return array


class MaskedDiscrete(spaces.Discrete):
    """``Discrete(487)`` whose :meth:`sample` without a mask draws among the actions that
    are legal *now* in its env (uniformly, from the space's own seeded generator), so that
    generic tools that sample the space (Gymnasium's ``check_env``, random baselines) take
    legal actions; it returns a :class:`SampledAction`. ``sample(mask=...)`` behaves as
    ``Discrete``'s, except that a mask or probability it would refuse with a bare
    ``AssertionError`` raises :class:`~tienlen.rl.encoding.SampleMaskError` saying why.

    >>> space = TienlenEnv(opponents=("L1",)).action_space
    >>> space.sample(mask=np.ones(487, bool))
    Traceback (most recent call last):
    ...
    tienlen.rl.encoding.SampleMaskError: mask must be a numpy array of dtype int8 and shape (487,); got bool (487,)
    """

    def __init__(self, n: int, mask_source: Any = None, seed: int | None = None,
                 epoch_source: Any = None) -> None:
        super().__init__(n, seed=seed)
        self._mask_source = mask_source
        self._epoch_source = epoch_source

    def sample(self, mask: np.ndarray | None = None,
               probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None and self._mask_source is not None:
            current = self._mask_source()
            if current is not None and current.any():
                draw = float(self.np_random.random())
                epoch = self._epoch_source() if self._epoch_source is not None else 0
                return SampledAction(_pick(current, draw), draw, epoch)  # type: ignore[return-value]
        n = int(self.n)
        if mask is not None and probability is not None:
            raise SampleMaskError("give a mask or a probability, not both")
        if mask is not None:
            mask = _sample_array(mask, "mask", np.int8, n)
            if not ((mask == 0) | (mask == 1)).all():
                raise SampleMaskError("mask values must be 0 or 1 (1: a legal action)")
        if probability is not None:
            probability = _sample_array(probability, "probability", np.float64, n)
            if not (np.isfinite(probability).all() and (probability >= 0).all()
                    and (probability <= 1).all() and np.isclose(probability.sum(), 1)):
                raise SampleMaskError("probability values must be in [0, 1] and sum to 1")
        return super().sample(mask=mask, probability=probability)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, spaces.Discrete) and self.n == other.n and self.start == other.start

    __hash__ = spaces.Discrete.__hash__

    def __reduce__(self) -> tuple[type[spaces.Discrete], tuple[int]]:
        # Pickles (as in a saved policy) as the plain Discrete: the env link is not data.
        return (spaces.Discrete, (int(self.n),))


class TienlenEnv(gymnasium.Env):
    """One hand per episode from the learner's seat; every other seat is played by a bot.

    ``opponents``: one entry per other seat, in turn order after the learner: a level name
    (``"random"``, ``"L1"``, ``"L2"``, ``"L3"``), rebuilt with seeds derived from the reset
    seed, or a :class:`~tienlen.bots.Bot` instance, used as given. The player count is
    ``len(opponents) + 1``. Observations are dicts (see :mod:`tienlen.rl.encoding`); action 0
    passes and action a plays the a-th move of the core's legal list. The episode ends
    when the learner goes out or the hand ends, with the reward of its place (``rewards``,
    default R10.2 points) and ``info["place"]`` (1 = first out). An action outside the mask
    raises :class:`~tienlen.rl.encoding.IllegalActionError` and changes nothing; with
    ``illegal_action="terminate"`` it instead ends the episode (the game untouched) with a
    reward one below the last place's and ``info["illegal_action"] = True``, the
    convention of PettingZoo's TerminateIllegalWrapper, for tools that send unmasked
    actions. :meth:`action_masks` serves sb3-contrib's MaskablePPO.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, opponents: Sequence[str | Bot] = ("L2", "L2", "L2"), *,
                 rules: Rules | str | None = None, learner_seat: int = 0,
                 rewards: Sequence[float] | None = None, legal_actions: bool = True,
                 illegal_action: str = "raise", render_mode: str | None = None) -> None:
        super().__init__()
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action must be 'raise' or 'terminate'; got {illegal_action!r}")
        self.illegal_action = illegal_action
        opponents = opponents_arg(opponents)
        if not 1 <= len(opponents) <= 3:
            raise ValueError(f"opponents must name 1 to 3 bots; got {len(opponents)}")
        for o in opponents:
            if not isinstance(o, (str, Bot)):
                raise ValueError(f"an opponent is a level name or a Bot; got {o!r}")
            if isinstance(o, str):
                make_bot(o, seed=0)          # refuses unknown levels now, not at reset
        self.players = len(opponents) + 1
        if type(learner_seat) is not int or not 0 <= learner_seat < self.players:
            raise ValueError(f"learner_seat must be a seat 0..{self.players - 1}; got {learner_seat!r}")
        rules = rules_arg(rules)
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.rules = rules
        self.learner_seat = learner_seat
        self.opponent_specs = opponents
        self.place_rewards = place_rewards(self.players, rewards)
        self.legal_actions = flag_arg(legal_actions, "legal_actions")
        self.observation_space = observation_space(self.legal_actions)
        self._epoch = next(_EPOCHS)       # renewed by every reset and step (SampledAction)
        self.action_space = MaskedDiscrete(NUM_ACTIONS, self._current_mask,
                                           epoch_source=lambda: self._epoch)
        self.game = _core.RLGame(self.players, rules.flags)
        self._table: Game | None = None
        self._bots: dict[int, Bot] = {}
        self._seat_of_opponent = [(learner_seat + 1 + k) % self.players
                                  for k in range(len(opponents))]

    # -- Gymnasium API ---------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a hand. With ``seed``, the deal is ``tienlen.core.deal(seed, players)`` and
        level-named bots are rebuilt with seeds derived from it. A deal won at once (R11.3)
        is skipped for the next one of a stream from the seed
        (:func:`~tienlen.rl.encoding.deal_with_a_decision`): an episode always has a
        decision."""
        # Checked first: Gymnasium's own check raises its Error (not a ValueError) for a
        # float or a negative seed.
        if seed is not None:
            check_seed(seed, or_none=True)
        super().reset(seed=seed)
        deal_seed = seed if seed is not None else int(self.np_random.integers(1 << 63))
        self._epoch = next(_EPOCHS)
        deal_seed = deal_with_a_decision(self.game, deal_seed)
        self._table = Game.from_hands(self.game.hands, rules=self.rules)
        self._bots = {}
        for k, spec in enumerate(self.opponent_specs):
            seat = self._seat_of_opponent[k]
            self._bots[seat] = (make_bot(spec, seed=mix(deal_seed, seat))
                                if isinstance(spec, str) else spec)
        self._play_opponents()
        return self._observation(), {"seat": self.learner_seat}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._table is None:
            raise gymnasium.error.ResetNeeded("call reset() before step() (and after an episode ends)")
        if self._done():
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        if (isinstance(action, SampledAction) and action.epoch != self._epoch
                and self.game.turn == self.learner_seat):
            action = _pick(self.game.action_mask(), action.draw)   # drawn before we moved on
        try:
            a = check_action(self.game, action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._table = None            # the episode is over; the next call must reset
            return (self._observation(), min(self.place_rewards) - 1.0, True, False,
                    {"illegal_action": True})
        mask = self.game.action_mask_of(a)
        self._epoch = next(_EPOCHS)
        self.game.step(a)
        self._table.apply_unchecked(PASS if mask == 0 else mask)
        if not self._done():
            self._play_opponents()
        obs = self._observation()
        if self._done():
            place = self.game.finished.index(self.learner_seat)
            return obs, self.place_rewards[place], True, False, {"place": place + 1}
        return obs, 0.0, False, False, {}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.game.state()
        from ..cards import Cards

        lines = [f"seat {s}{' (learner)' if s == self.learner_seat else ''}: "
                 f"{Cards(h) if s == self.learner_seat else f'{h.bit_count()} cards'}"
                 for s, h in enumerate(self.game.hands)]
        lines.append(f"pile: {Cards(state.pile_mask)}" if state.pile_mask else "pile: empty")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Drop the table; idempotent."""
        self._table = None
        self._bots = {}

    # -- masks -----------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The current action mask as bool (what sb3-contrib's MaskablePPO asks for)."""
        return self.game.action_mask().astype(bool)

    def _current_mask(self) -> np.ndarray | None:
        if self._table is None or self._done():
            return None
        return self.game.action_mask()

    # -- internals -------------------------------------------------------------------

    def _done(self) -> bool:
        return self.game.is_over or self.game.hands[self.learner_seat] == 0

    def _play_opponents(self) -> None:
        """Let the bots act until it is the learner's turn or the hand is over. A bot that
        fails (raises, or answers with what is not a legal move) ends the episode: the
        learner's action already stood, and stepping on would have the learner act for
        the bot's seat, so nothing goes on until :meth:`reset`."""
        game, table = self.game, self._table
        assert table is not None
        try:
            while not game.is_over and game.turn != self.learner_seat:
                seat = game.turn
                bot = self._bots[seat]
                who = f"the opponent at seat {seat} ({bot.name})"
                try:
                    move = bot.choose(table.view(seat))
                except Exception as error:
                    raise OpponentError(f"{who} raised {type(error).__name__}: "
                                        f"{error}") from error
                if not isinstance(move, (Cards, _PassType)):
                    # Any other answer (text, None, a mask) used to be taken as a pass.
                    raise OpponentError(f"{who} answered {move!r:.80}: a move is Cards "
                                        "or PASS")
                try:
                    game.play_mask(move.mask if isinstance(move, Cards) else 0)   # checked
                except ValueError as error:
                    raise OpponentError(f"{who} made an illegal move {move}: {error}") from error
                table.apply_unchecked(move)
        except BaseException:
            self._table = None    # Ctrl-C inside a bot too: this hand is over
            raise

    def _observation(self) -> dict[str, np.ndarray]:
        g = self.game
        mine = g.turn == self.learner_seat
        obs = {"observation": g.observe(self.learner_seat),
               "action_mask": g.action_mask() if mine else np.zeros(NUM_ACTIONS, np.int8)}
        if self.legal_actions:
            obs["legal_actions"] = (g.legal_action_cards() if mine
                                    else np.zeros((NUM_ACTIONS, 52), np.int8))
        return obs


class VectorObservation(gymnasium.ObservationWrapper):
    """Only the ``observation`` vector of a :class:`TienlenEnv` (a Box), with the mask still
    served by :meth:`action_masks`: the shape sb3-contrib's MaskablePPO ``MlpPolicy`` takes.
    """

    def __init__(self, env: TienlenEnv) -> None:
        super().__init__(env)
        space = env.observation_space
        assert isinstance(space, spaces.Dict)  # TienlenEnv's observations are a Dict
        self.observation_space = space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        env = self.env.unwrapped
        assert isinstance(env, TienlenEnv)  # __init__ wraps a TienlenEnv
        return env.action_masks()
