"""Tiến Lên's RL encoder: observation layout, action numbering, rewards, and the adapters
the envs of :mod:`tienlen.rl` step this game through (:data:`ENCODER`, found by the envs as
``get_spec("tienlen").encoder()``).

The encoder itself is native (the core's ``RLGame`` and ``VecGames``) and shared by the AEC,
Gymnasium and vectorised envs; this module names its layout (documented in ``docs/rl.md``)
and builds the spaces. Seats inside an observation are *relative* to the observer: 0 is
itself, 1 the next seat in turn order, and so on.

>>> OBS_SIZE, NUM_ACTIONS, FIELDS["hand"], FIELDS["history"]
(468, 487, (0, 52), (240, 228))
>>> place_rewards(4)              # R10.2 points: first out scores players - 1
(3.0, 2.0, 1.0, 0.0)
>>> ENCODER.title, ENCODER.obs_size, ENCODER.num_actions
('Tienlen', 468, 487)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tienlen import _core
from tienlen.seeds import check_players, mix, splitmix64
# The envs' errors and argument checks belong to no game (the table layer's); their names
# stay importable here.
from tienlen.table.encoding import (EnvStateError, IllegalActionError, OpponentError,
                                    SampleMaskError, Settled, UnknownAgentError,
                                    check_render_mode, flag_arg, native_policy, num_envs_arg,
                                    opponents_arg, threads_arg as _threads_arg,
                                    vector_actions, vector_seeds)

from .actions import PASS, _PassType
from .bots import Bot, make_bot
from .cards import Cards
from .game import Game
from .rules import Rules

if TYPE_CHECKING:
    import gymnasium

__all__ = ["ENCODER", "Encoder", "POLICIES", "VecGames", "rules_arg", "check_render_mode", "deal_with_a_decision", "OBS_SIZE", "NUM_ACTIONS", "MAX_LEGAL", "HISTORY", "FIELDS", "IllegalActionError",
           "place_rewards", "observation_box", "observation_high", "observation_space",
           "action_space"]

#: Length of one observation vector (uint8).
OBS_SIZE: int = _core.RL_OBS_SIZE
#: ``Discrete(487)``: 0 is pass, 1..486 index the core's ordered legal-move list.
NUM_ACTIONS: int = _core.RL_NUM_ACTIONS
#: The most legal plays a hand of 13 cards can have (a proven bound; tests/test_move_bound.py).
MAX_LEGAL: int = _core.MAX_MOVES_13_CARDS
#: How many past actions an observation shows, newest first.
HISTORY: int = _core.RL_HISTORY

#: Field name -> (offset, length) in the observation vector (docs/rl.md).
FIELDS: dict[str, tuple[int, int]] = {
    "hand": (0, 52),           # own cards
    "played": (52, 52),        # every card played so far (by anyone)
    "pile": (104, 52),         # the cards on top of the pile
    "pile_kind": (156, 7),     # one-hot combo kind, index 0 = empty pile (a lead)
    "pile_length": (163, 1),   # cards in the pile's combination
    "pile_owner": (164, 4),    # one-hot relative seat that played the pile
    "cards_left": (168, 4),    # cards held, per relative seat
    "passed": (172, 4),        # passed on this pile (locked out, R5), per relative seat
    "out": (176, 4),           # holds no cards (finished), per relative seat
    "to_act": (180, 4),        # one-hot relative seat to act
    "pile_leader": (184, 4),   # one-hot relative seat that led this pile
    "must_include": (188, 52), # one-hot card the lead must contain (R7.2)
    "history": (240, 228),     # last 4 actions, each: 52 cards, pass bit, 4 relative-seat bits
}


def threads_arg(value: object) -> int:
    """A vectorised env's ``threads=``: an int from 1 to the core's limit
    (:func:`tienlen.rl.common.threads_arg`).

    >>> threads_arg(0)
    Traceback (most recent call last):
    ...
    ValueError: threads must be an int from 1 to 64; got 0
    """
    return _threads_arg(value, _core.VEC_MAX_THREADS)


def rules_arg(rules: Rules | str | None) -> Rules:
    """The ``rules=`` argument every env takes: a :class:`Rules`, a preset's name, or None
    for the contract. Anything else is a ValueError."""
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        return Rules.from_name(rules)
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a tienlen.Rules; got {rules!r}")
    return rules


_MAX_REDEALS = 10_000


def deal_with_a_decision(game: _core.RLGame, seed: int) -> int:
    """Reset ``game`` to the deal of ``seed`` and return the seed dealt. A deal that one
    seat wins at once (R11.3, under rules that enable instant wins) gives no seat a
    decision, so it is skipped, as ``VecGames`` does: the next seed of a splitmix64 stream
    from ``seed`` is dealt instead, until a hand is in play. Deterministic in ``seed``."""
    for _ in range(_MAX_REDEALS):
        game.reset(seed)
        if not game.is_over:
            return seed
        seed = splitmix64(seed)[1]
    raise ValueError(f"{_MAX_REDEALS} deals in a row were instant wins: these rules leave "
                     "no hand to play")


def place_rewards(players: int, rewards: Sequence[float] | None = None) -> tuple[float, ...]:
    """The reward of each finishing place, first out first. Default: R10.2 points
    (``players - place``: 3, 2, 1, 0 with four players).

    >>> place_rewards(3, (1, 0, -1))
    (1.0, 0.0, -1.0)
    >>> place_rewards(4, (1, 0))
    Traceback (most recent call last):
    ...
    ValueError: rewards must give 4 numbers, one per place; got 2
    """
    check_players(players)        # 5 (or True, or 0) gave rewards for a game that is not one
    if rewards is None:
        return tuple(float(players - 1 - k) for k in range(players))
    try:
        values = tuple(float(r) for r in rewards)
    except (TypeError, ValueError):     # not iterable, or an entry float() refuses (None)
        raise ValueError(f"rewards must give {players} numbers, one per place; "
                         f"got {rewards!r:.80}") from None
    if len(values) != players:
        raise ValueError(f"rewards must give {players} numbers, one per place; got {len(values)}")
    if not all(np.isfinite(values)):
        raise ValueError(f"rewards must be finite; got {values}")
    return values


def observation_high() -> np.ndarray:
    """The largest value of each observation entry (1 for the bits, 13 for card counts)."""
    high = np.ones(OBS_SIZE, np.uint8)
    for name in ("pile_length", "cards_left"):
        off, n = FIELDS[name]
        high[off:off + n] = 13
    return high


def observation_box() -> gymnasium.spaces.Box:
    """The Box of one observation vector."""
    from gymnasium import spaces

    return spaces.Box(0, observation_high(), (OBS_SIZE,), np.uint8)


def action_space() -> gymnasium.spaces.Discrete:
    from gymnasium import spaces

    return spaces.Discrete(NUM_ACTIONS)


def observation_space(legal_actions: bool = True) -> gymnasium.spaces.Dict:
    """The Dict space of the AEC and Gymnasium observations: ``observation``,
    ``action_mask`` (int8, 487) and, if ``legal_actions``, ``legal_actions`` (int8,
    (487, 52): row a is the cards action a plays; row 0, pass, is all zeros)."""
    from gymnasium import spaces

    parts: dict[str, spaces.Space[Any]] = {
        "observation": observation_box(),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    }
    if legal_actions:
        parts["legal_actions"] = spaces.Box(0, 1, (NUM_ACTIONS, 52), np.int8)
    return spaces.Dict(parts)


def check_action(game: _core.RLGame, action: object) -> int:
    """``action`` as an int if it is in ``game``'s mask; else IllegalActionError naming it
    and the legal count."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            a = int(action.item())
        else:
            raise IllegalActionError(
                f"an action is an int in 0..{NUM_ACTIONS - 1}; got {action!r}")
    else:
        a = int(action)
    if not game.is_legal(a):
        raise IllegalActionError(_illegal_message(game, a))
    return a


def _illegal_message(game: _core.RLGame, action: int) -> str:
    if game.is_over:
        return f"action {action} is not legal: the hand is over"
    passing = ("and pass (action 0)" if game.can_pass
               else "and no pass (action 0): the seat leads")
    n = game.num_legal
    # With no play legal the only action is pass: say so rather than "actions 1..0".
    plays = (f"{n} legal plays (actions 1..{n})" if n > 1 else
             "1 legal play (action 1)" if n == 1 else "no legal play")
    return f"action {action} is outside the action mask: {plays} {passing}"


# ---------------------------------------------------------------- the envs' adapters

#: Native opponent policies by name.
POLICIES: dict[str, int] = {"random": _core.RANDOM, "greedy": _core.GREEDY, "plan": _core.PLAN}
#: The raw array API of the vectorised env (the core's).
VecGames = _core.VecGames


def _policy(spec: str | int) -> int:
    return native_policy(spec, POLICIES, "a native opponent")


def _spaces(legal_actions: bool) -> dict[str, Any]:
    parts: dict[str, Any] = {"observation": (0, observation_high(), (OBS_SIZE,), np.uint8),
                             "action_mask": (0, 1, (NUM_ACTIONS,), np.int8)}
    if legal_actions:
        parts["legal_actions"] = (0, 1, (NUM_ACTIONS, 52), np.int8)
    return parts


class Vector:
    """``num_envs`` hands in the core's ``VecGames``, for :class:`tienlen.rl.vector.NativeVectorEnv`
    (``TienlenVectorEnv``): the learner at ``learner_seat`` against native ``opponents``
    (``"random"``, ``"greedy"`` or ``"plan"`` per other seat) or, with ``opponents=None``,
    self-play. ``legal_masks=True`` adds ``"legal_moves"``: uint64 (N, 486) card masks of
    actions 1..486."""

    exposed = ("games", "legal_masks")

    def __init__(self, num_envs: int, opponents: Sequence[str] | None = ("random",) * 3, *,
                 players: int | None = None, rules: Rules | str | None = None,
                 learner_seat: int = 0, rewards: Sequence[float] | None = None,
                 legal_masks: bool = False) -> None:
        num_envs = num_envs_arg(num_envs)
        legal_masks = flag_arg(legal_masks, "legal_masks")
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
        self.legal_masks = legal_masks
        self.spaces = {"observation": (0, observation_high(), (OBS_SIZE,), np.uint8),
                       "action_mask": (0, 1, (NUM_ACTIONS,), np.int8)}
        if legal_masks:
            self.spaces["legal_moves"] = (0, (1 << 52) - 1, (NUM_ACTIONS - 1,), np.uint64)
        self.truncated = np.zeros(num_envs, np.bool_)
        self.truncated.flags.writeable = False

    def reset(self, seeds: int | np.ndarray) -> None:
        self.games.reset(seeds)

    def step(self, actions: np.ndarray, threads: int) -> None:
        try:
            self.games.step(actions, threads)
        except _core.ActionOutsideMaskError as error:
            raise IllegalActionError(str(error)) from None

    def arrays(self) -> dict[str, np.ndarray]:
        """The observation's arrays, as the core's read-only views."""
        g = self.games
        out: dict[str, np.ndarray] = {"observation": g.obs, "action_mask": g.action_mask}
        if self.legal_masks:
            assert g.legal is not None  # built with legal_masks
            out["legal_moves"] = g.legal
        return out

    @property
    def mask(self) -> np.ndarray:
        return self.games.action_mask

    @property
    def reward(self) -> np.ndarray:
        return self.games.reward

    @property
    def terminated(self) -> np.ndarray:
        return self.games.terminated

    def info(self) -> dict[str, np.ndarray]:
        g = self.games
        return {"seat": g.seat.copy(), "places": g.places.copy(),
                "final_rewards": g.final_rewards.copy()}

    def final_observation(self, row: int) -> np.ndarray:
        """What env ``row``'s ended episode ended on (its observation vector)."""
        assert self.games.final_obs is not None  # built with final_obs=True
        return self.games.final_obs[row]  # type: ignore[no-any-return]

    def close(self) -> None:
        self.games.close()


class Table:
    """One hand per episode on a native ``RLGame``, every seat an agent, for
    :class:`tienlen.rl.aec.NativeAECEnv` (``TienlenAECEnv``): observations with the seat's
    int8 ``action_mask`` (zeros when it is not its turn) and, unless
    ``legal_actions=False``, the (487, 52) card vectors of its actions. Everyone is
    terminated when the hand ends, with the reward of their place (``rewards``, default
    R10.2 points) and ``info["place"]`` (1 = first out)."""

    exposed = ("game", "rules", "place_rewards", "legal_actions")
    env_name = "tienlen_v0"

    def __init__(self, players: int = 4, rules: Rules | str | None = None, *,
                 rewards: tuple[float, ...] | None = None, legal_actions: bool = True) -> None:
        check_players(players)
        self.rules = rules_arg(rules)
        self.players = players
        self.place_rewards = place_rewards(players, rewards)
        self.legal_actions = flag_arg(legal_actions, "legal_actions")
        self.spaces = _spaces(self.legal_actions)
        self.num_actions = NUM_ACTIONS
        self.game = _core.RLGame(players, self.rules.flags)

    def restart(self, seed: int | None, rng: random.Random) -> None:
        """Deal a hand: the deal of ``seed``, or the next deal of ``rng`` (already seeded
        from the last seed). A deal won at once (R11.3) is skipped
        (:func:`deal_with_a_decision`)."""
        deal_with_a_decision(self.game, rng.getrandbits(64) if seed is None else seed)

    @property
    def turn(self) -> int:
        return self.game.turn

    def info(self, seat: int) -> dict[str, Any]:
        return {}

    def observe(self, seat: int) -> dict[str, np.ndarray]:
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

    def check(self, action: object) -> int:
        return check_action(self.game, action)

    def apply(self, action: int) -> Settled | None:
        g = self.game
        g.step(action)
        if not g.is_over:
            return None
        rewards = [0.0] * self.players
        infos: dict[int, dict[str, Any]] = {}
        for place, seat in enumerate(g.finished):
            rewards[seat] = self.place_rewards[place]
            infos[seat] = {"place": place + 1}
        return Settled(tuple(rewards), infos, over=True)

    def text(self) -> str:
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
        """Not an observation: every seat's hand (players x 52 uint8), for centralised critics."""
        out = np.zeros((self.players, 52), np.uint8)
        for seat, hand in enumerate(self.game.hands):
            out[seat] = [(hand >> c) & 1 for c in range(52)]
        return out


class Single:
    """One hand per episode from the learner's seat, every other seat played by a bot, for
    :class:`tienlen.rl.gym_env.NativeEnv` (``TienlenEnv``).

    ``opponents``: one entry per other seat, in turn order after the learner: a level name
    (``"random"``, ``"L1"``, ``"L2"``, ``"L3"``), rebuilt with seeds derived from the reset
    seed, or a :class:`~tienlen.games.tienlen.bots.Bot` instance, used as given. The player
    count is ``len(opponents) + 1``. The episode ends when the learner goes out or the hand
    ends, with the reward of its place (``rewards``, default R10.2 points) and
    ``info["place"]`` (1 = first out)."""

    exposed = ("game", "_table", "rules", "players", "place_rewards", "opponent_specs",
               "legal_actions")

    def __init__(self, opponents: Sequence[str | Bot] = ("L2", "L2", "L2"), *,
                 rules: Rules | str | None = None, learner_seat: int = 0,
                 rewards: Sequence[float] | None = None, legal_actions: bool = True) -> None:
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
        self.rules = rules_arg(rules)
        self.learner_seat = learner_seat
        self.opponent_specs = opponents
        self.place_rewards = place_rewards(self.players, rewards)
        self.legal_actions = flag_arg(legal_actions, "legal_actions")
        self.spaces = _spaces(self.legal_actions)
        self.num_actions = NUM_ACTIONS
        self.illegal_reward = min(self.place_rewards) - 1.0
        self.game = _core.RLGame(self.players, self.rules.flags)
        self._table: Game | None = None
        self._bots: dict[int, Bot] = {}
        self._seat_of_opponent = [(learner_seat + 1 + k) % self.players
                                  for k in range(len(opponents))]

    @property
    def started(self) -> bool:
        """Whether an episode was dealt and not abandoned."""
        return self._table is not None

    @property
    def done(self) -> bool:
        return bool(self.game.is_over or self.game.hands[self.learner_seat] == 0)

    def restart(self, seed: int | None, draw: Callable[[], int]) -> dict[str, Any]:
        """Deal a hand (``seed``, or ``draw()``); level-named bots are rebuilt with seeds
        derived from the deal. A deal won at once (R11.3) is skipped for the next one of a
        stream from the seed (:func:`deal_with_a_decision`): an episode always has a
        decision."""
        deal_seed = deal_with_a_decision(self.game, seed if seed is not None else draw())
        self._table = Game.from_hands(self.game.hands, rules=self.rules)
        self._bots = {}
        for k, spec in enumerate(self.opponent_specs):
            seat = self._seat_of_opponent[k]
            self._bots[seat] = (make_bot(spec, seed=mix(deal_seed, seat))
                                if isinstance(spec, str) else spec)
        self._play_opponents()
        return {"seat": self.learner_seat}

    def mask(self) -> np.ndarray:
        return self.game.action_mask()

    def check(self, action: object) -> int:
        return check_action(self.game, action)

    def step(self, action: int) -> tuple[float, bool, bool, dict[str, Any]]:
        table = self._table
        assert table is not None     # the env steps only a started episode
        mask = self.game.action_mask_of(action)
        self.game.step(action)
        table.apply_unchecked(PASS if mask == 0 else mask)
        if not self.done:
            self._play_opponents()
        if self.done:
            place = self.game.finished.index(self.learner_seat)
            return self.place_rewards[place], True, False, {"place": place + 1}
        return 0.0, False, False, {}

    def abandon(self) -> None:
        """End the episode where it stands (the next call must reset)."""
        self._table = None
        self._bots = {}

    def _play_opponents(self) -> None:
        """Let the bots act until it is the learner's turn or the hand is over. A bot that
        fails (raises, or answers with what is not a legal move) ends the episode: the
        learner's action already stood, and stepping on would have the learner act for
        the bot's seat, so nothing goes on until a reset."""
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

    def observation(self) -> dict[str, np.ndarray]:
        g = self.game
        mine = g.turn == self.learner_seat
        obs = {"observation": g.observe(self.learner_seat),
               "action_mask": g.action_mask() if mine else np.zeros(NUM_ACTIONS, np.int8)}
        if self.legal_actions:
            obs["legal_actions"] = (g.legal_action_cards() if mine
                                    else np.zeros((NUM_ACTIONS, 52), np.int8))
        return obs

    def text(self) -> str:
        state = self.game.state()
        lines = [f"seat {s}{' (learner)' if s == self.learner_seat else ''}: "
                 f"{Cards(h) if s == self.learner_seat else f'{h.bit_count()} cards'}"
                 for s, h in enumerate(self.game.hands)]
        lines.append(f"pile: {Cards(state.pile_mask)}" if state.pile_mask else "pile: empty")
        return "\n".join(lines)


class Encoder:
    """Tiến Lên's entry for :mod:`tienlen.rl`: sizes, and the adapters the envs are
    written once against (:mod:`tienlen.table.encoding`)."""

    name = "tienlen"
    title = "Tienlen"
    obs_size = OBS_SIZE
    num_actions = NUM_ACTIONS
    fields = FIELDS
    max_threads: int = _core.VEC_MAX_THREADS
    vector = Vector
    table = Table
    single = Single

    @staticmethod
    def observation_high() -> np.ndarray:
        return observation_high()


#: The encoder the Tiến Lên spec hands the RL envs.
ENCODER = Encoder()

