"""The Guandan RL encoding as the Python envs use it: sizes, the observation's per-entry
maxima, the padded action mask, native policy names, rewards and action checks.

The encoder itself is native (``src/guandan/gd_rlenv.pxi``: ``GdTable.observe``,
``GdTable.action_features``); the layout is documented in ``docs/rl.md`` ("Guandan").

>>> GD_OBS_SIZE, GD_NUM_ACTIONS, GD_FIELDS["hand"], GD_FIELDS["tribute_role"]
(747, 2048, (0, 108), (743, 4))
>>> hand_rewards(((0, 1, 2, 3), 0, 3, False), (0.0, 1.0, 3.0))   # seats 0 and 2 won, +3 levels
(3.0, -3.0, 3.0, -3.0)
"""

from __future__ import annotations

from collections.abc import Sequence
import numpy as np

from .. import _guandan
from ..errors import TienlenError
from .common import IllegalActionError, native_policy

__all__ = ["GD_OBS_SIZE", "GD_NUM_ACTIONS", "GD_FIELDS", "GD_POLICIES", "gd_policy",
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
