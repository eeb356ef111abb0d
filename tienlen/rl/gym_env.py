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

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import _core
from tienlen.games.tienlen.bots import Bot, make_bot
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.actions import PASS, _PassType
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.rules import Rules
from ..seeds import check_seed, mix
from .common import (IllegalActionError, OpponentError, check_render_mode, flag_arg,
                     opponents_arg)
from .encoding import (NUM_ACTIONS, check_action, deal_with_a_decision, observation_space,
                       place_rewards, rules_arg)
# The masked action space is every game's; its names stay importable from here.
from .spaces import MaskedDiscrete, SampledAction, next_epoch, _pick

__all__ = ["TienlenEnv", "MaskedDiscrete", "SampledAction", "VectorObservation"]


class TienlenEnv(gymnasium.Env):
    """One hand per episode from the learner's seat; every other seat is played by a bot.

    ``opponents``: one entry per other seat, in turn order after the learner: a level name
    (``"random"``, ``"L1"``, ``"L2"``, ``"L3"``), rebuilt with seeds derived from the reset
    seed, or a :class:`~tienlen.games.tienlen.bots.Bot` instance, used as given. The player count is
    ``len(opponents) + 1``. Observations are dicts (see :mod:`tienlen.rl.encoding`); action 0
    passes and action a plays the a-th move of the core's legal list. The episode ends
    when the learner goes out or the hand ends, with the reward of its place (``rewards``,
    default R10.2 points) and ``info["place"]`` (1 = first out). An action outside the mask
    raises :class:`~tienlen.rl.common.IllegalActionError` and changes nothing; with
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
        self._epoch = next_epoch()       # renewed by every reset and step (SampledAction)
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
        """Deal a hand. With ``seed``, the deal is ``tienlen.games.tienlen.core.deal(seed, players)`` and
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
        self._epoch = next_epoch()
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
        self._epoch = next_epoch()
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
        from tienlen.games.tienlen.cards import Cards

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
