"""Guandan's RL encoder: sizes, the observation's per-entry maxima, the padded action mask,
native policy names, rewards and action checks, and the adapters the envs of
:mod:`tienlen.rl` step this game through (:data:`ENCODER`, found by the envs as
``get_spec("guandan").encoder()``).

The encoder itself is native (the core's ``GdTable.observe``, ``GdTable.action_features``
and ``GdVecGames``); the layout is documented in ``docs/rl.md`` ("Guandan").

>>> GD_OBS_SIZE, GD_NUM_ACTIONS, GD_FIELDS["hand"], GD_FIELDS["tribute_role"]
(747, 2048, (0, 108), (743, 4))
>>> hand_rewards(((0, 1, 2, 3), 0, 3, False), (0.0, 1.0, 3.0))   # seats 0 and 2 won, +3 levels
(3.0, -3.0, 3.0, -3.0)
>>> ENCODER.title, ENCODER.obs_size, ENCODER.num_actions
('Guandan', 747, 2048)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tienlen import _guandan
from tienlen.errors import TienlenError
from tienlen.table.encoding import (IllegalActionError, Settled, num_envs_arg,
                                    native_policy)

from .cards import Cards

__all__ = ["ENCODER", "Encoder", "GdVecGames", "GD_OBS_SIZE", "GD_NUM_ACTIONS", "GD_FIELDS", "GD_POLICIES", "gd_policy",
           "gd_observation_high", "hand_rewards", "reward_weights_arg",
           "gd_check_action", "GuandanEnvError"]

#: Length of one observation vector (uint8).
GD_OBS_SIZE: int = _guandan.GR_OBS_SIZE
#: The padded action space: ids 0 (pass) .. 2047; num_legal may be larger (docs/rl.md).
GD_NUM_ACTIONS: int = _guandan.GR_PADDED_ACTIONS
#: Field name -> (offset, length) in the observation.
GD_FIELDS: dict[str, tuple[int, int]] = {name: (at, n) for name, at, n in _guandan.GR_FIELDS}
#: The most threads a vectorised step splits over (the core's ``GR_MAX_THREADS``).
GD_MAX_THREADS = 64
#: Native seat policies by name.
GD_POLICIES: dict[str, int] = {"random": _guandan.RANDOM, "greedy": _guandan.GREEDY,
                               "plan": _guandan.PLAN}


class GuandanEnvError(TienlenError):
    """A call out of order (a step before reset, after the episode or after close); the
    env is left as it was."""


def gd_policy(spec: object) -> int:
    """A native policy given by name (``"random"``, ``"greedy"``, ``"plan"``) or value."""
    return native_policy(spec, GD_POLICIES, "a native Guandan policy")


def gd_observation_high() -> np.ndarray:
    """The per-entry maximum of an observation (for its Box)."""
    high = np.ones(GD_OBS_SIZE, np.uint8)
    at, n = GD_FIELDS["cards_left"]
    high[at:at + n] = 28
    high[GD_FIELDS["pile_size"][0]] = 10
    at, n = GD_FIELDS["place"]
    high[at:at + n] = 3
    at, n = GD_FIELDS["attempts"]
    high[at:at + n] = 255
    at, n = GD_FIELDS["tribute_role"]
    high[at:at + n] = 2
    return high


def reward_weights_arg(weights: Sequence[float]) -> tuple[float, float, float]:
    try:
        w = tuple(float(x) for x in weights)
    except (TypeError, ValueError):
        raise ValueError(f"reward_weights must be 3 numbers; got {weights!r:.80}") from None
    if len(w) != 3 or any(x != x or abs(x) == float("inf") for x in w):
        raise ValueError(f"reward_weights must be 3 finite numbers; got {weights!r:.80}")
    return w[0], w[1], w[2]


def hand_rewards(last_hand: tuple[tuple[int, ...], int, int, bool],
                 weights: tuple[float, float, float]) -> tuple[float, float, float, float]:
    """Every seat's reward for a settled hand (``GdTable.last_hand``), as GdVecGames
    computes it: sign * (w_hand + w_gain * gain + w_match * match won), sign +1 for the
    winning team (seat % 2 == winner)."""
    _, winner, gain, won = last_hand
    value = weights[0] + weights[1] * gain + (weights[2] if won else 0.0)
    return tuple(value if seat % 2 == winner else -value for seat in range(4))  # type: ignore[return-value]


def gd_check_action(table: _guandan.GdTable, action: object) -> int:
    """``action`` as an int id if legal in ``table`` and inside the padded space; else
    IllegalActionError naming it and the legal count."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = int(action.item())
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"an action is an int id in 0..{GD_NUM_ACTIONS - 1}; got {action!r:.80}")
    a = int(action)
    if not (0 <= a < GD_NUM_ACTIONS and table.is_legal(a)):
        passing = "and pass (id 0)" if table.can_pass else "and no pass"
        raise IllegalActionError(f"action {a} is outside the action mask: {table.num_legal} "
                                 f"legal actions (ids 1..{table.num_legal}) {passing}")
    return a


# ---------------------------------------------------------------- the envs' adapters

#: The raw array API of the vectorised env (the core's).
GdVecGames = _guandan.GdVecGames


def _episode_arg(episode: object) -> str:
    if episode not in ("hand", "match"):
        raise ValueError(f"episode must be 'hand' or 'match'; got {episode!r:.80}")
    return str(episode)


def _spaces() -> dict[str, Any]:
    return {"observation": (0, gd_observation_high(), (GD_OBS_SIZE,), np.uint8),
            "action_mask": (0, 1, (GD_NUM_ACTIONS,), np.int8)}


class Vector:
    """``num_envs`` tables in the core's ``GdVecGames``, for
    :class:`tienlen.rl.vector.NativeVectorEnv` (``GuandanVectorEnv``): the learner's
    ``learner_seats`` (default seat 0; all four: self-play, the observation is then the seat
    to act's, ``info["seat"]``), the other seats playing native ``policies`` (one name per
    seat: ``"random"``, ``"greedy"``, ``"plan"``; a learner seat's entry is unused).
    ``episode="hand"`` or ``"match"`` as in GdVecGames.

    ``action_form`` says how the learner sees its legal actions, each form built without
    the other: ``"mask"`` (default), the fixed 2,048-wide int8 ``action_mask`` in every
    observation (SB3's MaskablePPO; ids past 2047 are left out of it, ``info["num_legal"]``
    is exact), kept natively by rewriting only the bytes that change; or ``"features"``,
    the variable list of every table's legal actions with their features,
    ``legal_features()`` (DMC-style Q(s, a) learners; docs/rl.md)."""

    exposed = ("games", "action_form")
    #: Output banks of the core: the env hands out three without copying them and writes
    #: into the fourth (handing out copies) only when a learner still holds all three.
    banks = 4

    def __init__(self, num_envs: int, *, learner_seats: Sequence[int] = (0,),
                 policies: Sequence[str] = ("random",) * 4, episode: str = "hand",
                 reward_weights: Sequence[float] = (0.0, 1.0, 3.0),
                 max_hands: int = 10000, action_form: str = "mask") -> None:
        num_envs = num_envs_arg(num_envs)
        if isinstance(policies, str) or len(tuple(policies)) != 4:
            raise ValueError(f"policies must name 4 policies, one per seat; got {policies!r:.80}")
        if action_form not in ("mask", "features"):
            raise ValueError(f"action_form must be 'mask' or 'features'; got {action_form!r:.80}")
        self.action_form = action_form
        self.games = GdVecGames(num_envs, learner_seats=tuple(learner_seats),
                                policies=tuple(gd_policy(p) for p in policies), seed=0,
                                episode=_episode_arg(episode),
                                reward_weights=reward_weights_arg(reward_weights),
                                max_hands=max_hands, final_obs=True,
                                action_mask=action_form == "mask", banks=self.banks)
        self.num_envs = num_envs
        self.spaces = _spaces()
        if action_form == "features":
            del self.spaces["action_mask"]
        self._ids = np.arange(GD_NUM_ACTIONS)

    def reset(self, seeds: int | np.ndarray, bank: int | None = None) -> None:
        self.games.reset(seeds, bank)

    def step(self, actions: np.ndarray, threads: int, bank: int | None = None) -> None:
        try:
            self.games.step(actions, threads, bank)
        except _guandan.GdActionError as error:
            raise IllegalActionError(str(error)) from None

    def bank_arrays(self) -> list[list[np.ndarray]]:
        """Every output bank's arrays (read-only, rewritten only by a reset or step into
        that bank), in the order of :meth:`arrays`' keys."""
        g = self.games
        return [[o] if m is None else [o, m] for o, m in zip(g.obs_banks, g.mask_banks)]

    @property
    def mask(self) -> np.ndarray:
        """The (N, 2048) int8 masks: the core's (``"mask"`` form), or made now from the
        legal counts (``"features"``: for ``action_masks()`` and sampling only)."""
        g = self.games
        if g.action_mask is not None:
            return g.action_mask
        mask = (self._ids[None, :] >= 1) & (self._ids[None, :] <= g.num_legal[:, None])
        mask[:, 0] = g.can_pass.astype(bool)
        return mask.astype(np.int8)

    def arrays(self) -> dict[str, np.ndarray]:
        g = self.games
        if g.action_mask is None:
            return {"observation": g.obs}
        return {"observation": g.obs, "action_mask": g.action_mask}

    @property
    def reward(self) -> np.ndarray:
        return self.games.reward

    @property
    def terminated(self) -> np.ndarray:
        return self.games.terminated

    @property
    def truncated(self) -> np.ndarray:
        return self.games.truncated

    def info(self) -> dict[str, np.ndarray]:
        g = self.games
        return {"seat": g.seat.copy(), "phase": g.phase.copy(), "num_legal": g.num_legal.copy(),
                "places": g.places.copy(), "final_rewards": g.final_rewards.copy()}

    def final_observation(self, row: int) -> np.ndarray:
        assert self.games.final_obs is not None     # built with final_obs=True
        return self.games.final_obs[row]  # type: ignore[no-any-return]

    def final_observations(self, rows: np.ndarray) -> np.ndarray:
        """Copies of the final observations of ``rows`` (the tables whose episode just
        ended), in one array."""
        assert self.games.final_obs is not None     # built with final_obs=True
        return self.games.final_obs[rows]  # type: ignore[no-any-return]

    def action_features(self, env: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Table ``env``'s variable legal-action list (ids, cards, reading; docs/rl.md)."""
        return self.games.action_features(env)

    def legal_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every table's variable legal-action list in one native call: (offsets, ids,
        cards, reading), table i's rows offsets[i]:offsets[i + 1]."""
        return self.games.legal_features()

    def close(self) -> None:
        self.games.close()


def _places(last: tuple[tuple[int, ...], int, int, bool]) -> tuple[int, ...]:
    """0-based place per seat of a settled hand."""
    places = [0] * 4
    for k, seat in enumerate(last[0]):
        places[seat] = k
    return tuple(places)


class Table:
    """A Guandan match per episode (``episode="match"``, capped at ``max_hands`` hands:
    then truncated) or one hand (``"hand"``: the match goes on at the next reset without a
    seed), for :class:`tienlen.rl.aec.NativeAECEnv` (``GuandanAECEnv``). Every action of
    the match is an agent's turn, tribute and return cards included. Rewards come with every
    settled hand, to all four agents: sign * (w_hand + w_gain * level gain + w_match *
    match won) (``reward_weights``, default (0, 1, 3)), sign +1 for the winning team.
    ``infos`` hold each agent's ``team`` and ``seat``, and after a hand its ``places``
    (0-based by seat)."""

    exposed = ("table", "hand_results", "episode", "weights")
    env_name = "guandan_v0"

    def __init__(self, *, episode: str = "match", max_hands: int = 10000,
                 reward_weights: Sequence[float] = (0.0, 1.0, 3.0)) -> None:
        self.episode = _episode_arg(episode)
        self.weights = reward_weights_arg(reward_weights)
        self.players = 4
        self.spaces = _spaces()
        self.num_actions = GD_NUM_ACTIONS
        self.table = _guandan.GdTable(seed=0, max_hands=max_hands)
        self.hand_results: list[tuple[tuple[int, ...], int, int, bool]] = []
        self._started = False

    def restart(self, seed: int | None, rng: random.Random) -> None:
        """With ``seed``: the match ``tienlen.guandan.Match(seed)``. Without: in
        ``episode="hand"`` the running match's next hand (a new match from ``rng`` once one
        is over), in ``"match"`` a new match from ``rng``."""
        if seed is not None:
            self.table.reset(seed)
        elif self.episode == "hand" and self._started and self.table.phase == "hand_over":
            self.table.next_hand()
        else:
            self.table.reset(rng.getrandbits(64))
        self._started = True
        self.hand_results = []

    @property
    def turn(self) -> int:
        return self.table.turn

    def info(self, seat: int) -> dict[str, Any]:
        return {"team": seat % 2, "seat": seat}

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        t = self.table
        return {"observation": t.observe(seat),
                "action_mask": t.action_mask() if t.turn == seat
                else np.zeros(GD_NUM_ACTIONS, np.int8)}

    def action_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.table.action_features()

    def check(self, action: object) -> int:
        return gd_check_action(self.table, action)

    def apply(self, action: int) -> Settled | None:
        t = self.table
        if not t.step(action):
            return None
        last = t.last_hand
        assert last is not None    # a hand was just settled
        self.hand_results.append(last)
        places = _places(last)
        infos = {seat: {**self.info(seat), "places": places} for seat in range(4)}
        over = t.is_over or self.episode == "hand"
        if not over:
            t.next_hand()
        return Settled(hand_rewards(last, self.weights), infos, over=over,
                       truncated=bool(t.is_over and t.winner < 0))

    def text(self) -> str:
        """Every seat's cards, the phase, the levels, the turn."""
        t = self.table
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


class Single:
    """One Guandan hand (``episode="hand"``) or match (``"match"``) per episode from
    ``learner_seat``, for :class:`tienlen.rl.gym_env.NativeEnv` (``GuandanEnv``); the
    partner and the opponents (in turn order after the learner) are native policies:
    ``"random"``, ``"greedy"`` or ``"plan"`` (the core's playout policies; ``plan`` is the
    policy L2 plays). A reset with a seed starts ``Match(seed)``; without one it deals the
    running match's next hand (with its tribute), or a new match once one is over. Rewards
    at each settled hand, the learner team's: sign * (w_hand + w_gain * gain + w_match *
    match won), default weights (0, 1, 3)."""

    exposed = ("table", "policies", "episode", "weights")

    def __init__(self, partner: str = "plan", opponents: Sequence[str] = ("plan", "plan"), *,
                 learner_seat: int = 0, episode: str = "hand", max_hands: int = 10000,
                 reward_weights: Sequence[float] = (0.0, 1.0, 3.0)) -> None:
        if isinstance(opponents, str) or len(tuple(opponents)) != 2:
            raise ValueError(f"opponents must name 2 policies; got {opponents!r:.80}")
        if type(learner_seat) is not int or not 0 <= learner_seat <= 3:
            raise ValueError(f"learner_seat must be a seat 0..3; got {learner_seat!r:.80}")
        self.episode = _episode_arg(episode)
        opp = tuple(gd_policy(o) for o in opponents)
        self.policies = {learner_seat ^ 2: gd_policy(partner),
                         (learner_seat + 1) % 4: opp[0], (learner_seat + 3) % 4: opp[1]}
        self.learner_seat = learner_seat
        self.weights = reward_weights_arg(reward_weights)
        self.spaces = _spaces()
        self.num_actions = GD_NUM_ACTIONS
        self.illegal_reward = -(self.weights[0] + 3 * self.weights[1] + self.weights[2]) - 1.0
        self.table = _guandan.GdTable(seed=0, max_hands=max_hands)
        self.started = False
        self.done = False
        self._dealt = False

    def restart(self, seed: int | None, draw: Callable[[], int]) -> dict[str, Any]:
        t = self.table
        if seed is not None:
            t.reset(seed)
        elif self._dealt and t.phase == "hand_over":
            t.next_hand()
        else:
            t.reset(draw())
        self._dealt = True
        self.started, self.done = True, False
        reward, ended = self._play_others()
        assert not ended    # the learner holds cards at a deal: it acts before the hand ends
        return self._info()

    def mask(self) -> np.ndarray:
        return self.table.action_mask()

    def check(self, action: object) -> int:
        return gd_check_action(self.table, action)

    def step(self, action: int) -> tuple[float, bool, bool, dict[str, Any]]:
        t = self.table
        reward, ended = 0.0, False
        if t.step(action):
            reward, ended = self._hand_over()
        if not ended:
            more, ended = self._play_others()
            reward += more
        info = self._info()
        truncated = False
        if ended:
            self.started, self.done = False, True
            last = t.last_hand
            assert last is not None
            info["places"] = _places(last)
            truncated = bool(t.is_over and t.winner < 0)
        return reward, ended and not truncated, truncated, info

    def abandon(self) -> None:
        self.started = False

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

    def observation(self) -> dict[str, np.ndarray]:
        t = self.table
        mine = self.started and t.turn == self.learner_seat
        return {"observation": t.observe(self.learner_seat),
                "action_mask": t.action_mask() if mine
                else np.zeros(GD_NUM_ACTIONS, np.int8)}

    def action_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The learner's variable legal-action list (ids, cards, reading; docs/rl.md)."""
        return self.table.action_features()

    def text(self) -> str:
        t = self.table
        return (f"seat {self.learner_seat} (learner), phase {t.phase}, level {t.level}, "
                f"levels {t.levels}, cards left "
                f"{[bin(a).count('1') + bin(b).count('1') for a, b in t.hands]}")


class Encoder:
    """Guandan's entry for :mod:`tienlen.rl`: sizes, and the adapters the envs are written
    once against (:mod:`tienlen.table.encoding`)."""

    name = "guandan"
    title = "Guandan"
    obs_size = GD_OBS_SIZE
    num_actions = GD_NUM_ACTIONS
    fields = GD_FIELDS
    max_threads = GD_MAX_THREADS
    vector = Vector
    table = Table
    single = Single

    @staticmethod
    def observation_high() -> np.ndarray:
        return gd_observation_high()


#: The encoder the Guandan spec hands the RL envs.
ENCODER = Encoder()

