"""The RL encoding: observation layout, action numbering, rewards and the Gymnasium spaces.

The encoder itself is native (``src/rlenv.pxi``) and shared by the AEC, Gymnasium and
vectorised envs; this module names its layout (documented in ``docs/rl.md``) and builds the
spaces. Seats inside an observation are *relative* to the observer: 0 is itself, 1 the
next seat in turn order, and so on.

>>> OBS_SIZE, NUM_ACTIONS, FIELDS["hand"], FIELDS["history"]
(468, 487, (0, 52), (240, 228))
>>> place_rewards(4)              # R10.2 points: first out scores players - 1
(3.0, 2.0, 1.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from tienlen.games.tienlen.rules import Rules
from ..seeds import check_players, splitmix64
# The envs' errors and argument checks belong to no game; their names stay importable here.
from .common import (EnvStateError, IllegalActionError, OpponentError, SampleMaskError,
                     UnknownAgentError, check_render_mode, flag_arg, opponents_arg,
                     threads_arg as _threads_arg, vector_actions, vector_seeds)

if TYPE_CHECKING:
    import gymnasium

__all__ = ["rules_arg", "check_render_mode", "deal_with_a_decision", "OBS_SIZE", "NUM_ACTIONS", "MAX_LEGAL", "HISTORY", "FIELDS", "IllegalActionError",
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
