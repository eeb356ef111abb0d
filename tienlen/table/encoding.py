"""The RL side of the table protocol: what every game's encoder and envs share and no game
decides. A game that can be learned registers an encoder (its spec's ``encoder()``:
``tienlen/games/<game>/encoding.py``); the envs of :mod:`tienlen.rl` are written once
against it. This module holds what both sides need: the envs' errors, the checks of their
arguments and the pieces of Gymnasium's vector conventions. It imports no game (nor
Gymnasium or PettingZoo). :mod:`tienlen.rl.common` re-exports every name.

An encoder (one object per game, found as ``get_spec(name).encoder()``) gives:

- ``name`` and ``title`` (the prefix of the game's env names: ``TienlenVectorEnv``),
  ``obs_size``, ``num_actions``, ``fields`` (name -> (offset, length)), ``max_threads``
  and ``observation_high()`` (each entry's largest value, the Box's ``high``);
- ``vector(num_envs, ...)``: the native vectorised core behind a :class:`VectorCore`
  (the game's keywords: its signature is that of the game's ``*VectorEnv``);
- ``table(...)``: one native table for the AEC env (its keywords are the game's), and
  ``single(...)``: one learner seat against the game's opponents, for the Gymnasium env.

>>> flag_arg(False, "legal_actions"), vector_seeds(7), native_policy("Plan", {"plan": 2}, "a native opponent")
(False, 7, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from ..errors import TienlenError
from ..seeds import check_seed
from ..errors import IllegalActionError

__all__ = ["Settled", "SpaceSpec", "IllegalActionError", "EnvStateError", "UnknownAgentError", "SampleMaskError",
           "OpponentError", "vector_seeds", "vector_actions", "num_envs_arg", "threads_arg",
           "flag_arg", "opponents_arg", "check_render_mode", "native_policy"]


#: One entry of an encoder's observation: (low, high, shape, dtype), a Gymnasium ``Box``'s
#: arguments (the envs build the Box; the games import no Gymnasium).
SpaceSpec = tuple[Any, Any, tuple[int, ...], Any]


class Settled(NamedTuple):
    """What an action that ended a scoring unit (a hand) gives every seat: ``rewards`` per
    seat, ``infos`` per seat, and whether the episode is ``over`` (``truncated``: cut short
    by a cap rather than finished)."""

    rewards: tuple[float, ...]
    infos: dict[int, dict[str, Any]]
    over: bool
    truncated: bool = False


class EnvStateError(TienlenError):
    """A call out of order: a step before the first reset, or a step or reset after
    close. The env is left exactly as it was."""


class UnknownAgentError(TienlenError, KeyError):
    """An agent name the AEC env does not have (a KeyError too, as a dict lookup's)."""


class SampleMaskError(TienlenError):
    """A ``mask`` or ``probability`` given to an action space's ``sample`` that Gymnasium
    would refuse with a bare ``AssertionError`` (not an array, wrong dtype or shape, values
    other than 0 and 1, probabilities that do not sum to 1). Nothing was drawn."""


class OpponentError(TienlenError):
    """An opponent bot of the Gymnasium env raised, or answered with something that is not
    a legal move (the original error is its ``__cause__``). The hand cannot go on: the
    episode is over, and the next call must be ``reset()``."""


def vector_seeds(seed: object) -> int | np.ndarray:
    """A vectorised env's ``reset(seed=)``, for either game: an int (env i then uses the
    stream (seed, i)), one seed per env as a uint64 array, or None (fresh entropy, drawn here
    so that the core sees an int).

    >>> vector_seeds(7), vector_seeds([1, 2]).tolist()
    (7, [1, 2])
    >>> vector_seeds("7")
    Traceback (most recent call last):
    ...
    ValueError: seed must be an int, one int per env, or None; got '7'
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
        return check_seed(int(seed))
    if isinstance(seed, (str, bytes)):
        raise ValueError(f"seed must be an int, one int per env, or None; got {seed!r:.80}")
    # Each seed checked as an int first: a cast to uint64 would take 1.5 as 1 and raise
    # TypeError or OverflowError on None or inf.
    try:
        values = [check_seed(int(s)) if isinstance(s, (int, np.integer))
                  and not isinstance(s, (bool, np.bool_)) else check_seed(s)
                  for s in seed]  # type: ignore[attr-defined]
    except TypeError:
        raise ValueError(f"seed must be an int, one int per env, or None; "
                         f"got {seed!r:.80}") from None
    return np.array(values, dtype=np.uint64)


def vector_actions(actions: object, num_envs: int) -> np.ndarray:
    """A vectorised env's ``step(actions)``, for either game: one int per env, as the int64
    array the core takes (which checks it again from its own copy of the buffer).

    >>> vector_actions([3, 0], 2).dtype
    dtype('int64')
    >>> vector_actions([1.0, 2.0], 2)
    Traceback (most recent call last):
    ...
    ValueError: actions must be 2 ints; got dtype float64 shape (2,)
    """
    arr = np.asarray(actions)
    if arr.dtype.kind not in "iu" or arr.shape != (num_envs,):
        raise ValueError(f"actions must be {num_envs} ints; got dtype {arr.dtype} "
                         f"shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def num_envs_arg(value: object) -> int:
    """A vectorised env's ``num_envs``: an int (NumPy's too, not a bool); its core refuses
    one below 1.

    >>> num_envs_arg(True)
    Traceback (most recent call last):
    ...
    ValueError: num_envs must be an int >= 1; got True
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"num_envs must be an int >= 1; got {value!r:.80}")
    return int(value)


def threads_arg(value: object, top: int) -> int:
    """A vectorised env's ``threads=``: an int from 1 to ``top`` (its core's limit), checked
    when the env is made rather than at its first step.

    >>> threads_arg(2, 64)
    2
    >>> threads_arg(0, 64)
    Traceback (most recent call last):
    ...
    ValueError: threads must be an int from 1 to 64; got 0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not 1 <= int(value) <= top:
        raise ValueError(f"threads must be an int from 1 to {top}; got {value!r:.80}")
    return int(value)


def flag_arg(value: object, name: str) -> bool:
    """A yes/no option of an env (``legal_actions=``, ``copy=``): a bool (NumPy's too).
    Anything else, such as the string ``"False"``, which would count as true, is a
    ValueError.

    >>> flag_arg("no", "legal_actions")
    Traceback (most recent call last):
    ...
    ValueError: legal_actions must be True or False; got 'no'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r:.80}")
    return bool(value)


def opponents_arg(opponents: object) -> tuple[Any, ...]:
    """The ``opponents=`` sequence every env takes, as a tuple; a string (one name, not a
    sequence of them) or anything not iterable is a ValueError."""
    if isinstance(opponents, (str, bytes)):
        raise ValueError(f"opponents must be a sequence, one entry per other seat; "
                         f"got the string {opponents!r:.80}")
    try:
        return tuple(opponents)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"opponents must be a sequence, one entry per other seat; "
                         f"got {opponents!r:.80}") from None


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a ``render_mode`` the envs do not draw."""
    if render_mode not in (None, "ansi", "human"):
        raise ValueError(f"render_mode must be None, 'ansi' or 'human'; got {render_mode!r}")


def native_policy(spec: object, policies: Mapping[str, int], what: str) -> int:
    """A native seat policy of a game's core, given by name (any case) or by value;
    ``what`` names it in the refusal."""
    if isinstance(spec, str) and spec.lower() in policies:
        return policies[spec.lower()]
    if type(spec) is int and spec in policies.values():
        return spec
    raise ValueError(f"{what} is one of {', '.join(policies)}; got {spec!r:.80}")


def _same_step_final_info(info: dict[str, Any], done: np.ndarray) -> dict[str, Any]:
    """Gymnasium's same-step autoreset ``final_info``, as ``SyncVectorEnv`` builds it: each
    array of the step's own ``info`` (read before ``final_obs`` goes in) where an env ended,
    0 where it did not, each with its ``_`` mask.

    >>> info = _same_step_final_info({"seat": np.array([2, 3])}, np.array([False, True]))
    >>> info["seat"].tolist(), info["_seat"].tolist()
    ([0, 3], [False, True])
    """
    final_info: dict[str, Any] = {}
    for key, value in info.items():
        final_info[key] = np.where(done.reshape((-1,) + (1,) * (value.ndim - 1)), value, 0
                                   ).astype(value.dtype)
        final_info[f"_{key}"] = done.copy()
    return final_info
