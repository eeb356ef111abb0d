"""The native vectorised env of every game: N games stepped in C, as a
``gymnasium.vector.VectorEnv``, written once over a game's encoder.

:class:`NativeVectorEnv` takes the game by name (``NativeVectorEnv("guandan", 1024,
policies=...)``); ``TienlenVectorEnv`` and ``GuandanVectorEnv`` are the same class with the
game bound (:mod:`tienlen.rl.games`), each taking its game's keywords. The game's encoder
(``tienlen/games/<game>/encoding.py``: ``Vector``) owns the native arrays; this module
adds Gymnasium's vector API (same-step autoreset: a finished episode's reward and
``terminated`` flag come with the first observation of the next one, and
``info["final_obs"]`` holds what it ended on).

>>> import numpy as np
>>> from tienlen.rl import TienlenVectorEnv
>>> envs = TienlenVectorEnv(8, opponents=("greedy", "greedy", "greedy"))
>>> obs, info = envs.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 468), (8, 487))
>>> first_legal = obs["action_mask"].argmax(axis=1)        # pass if it is the only choice
>>> obs, reward, terminated, truncated, info = envs.step(first_legal)
>>> reward.dtype.name, terminated.shape
('float32', (8,))
>>> envs.close(); envs.close()                             # idempotent
>>> g = NativeVectorEnv("guandan", 4, policies=("greedy",) * 4)
>>> obs, info = g.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape, type(g).__name__
((4, 747), (4, 2048), 'NativeVectorEnv')
>>> g.step(obs["action_mask"].argmax(axis=1))[1].dtype.name
'float32'
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .._moved import moved_name
from ..table.encoding import (SampleMaskError, _same_step_final_info, flag_arg, threads_arg,
                              vector_actions, vector_seeds)
from .games import bind_signature, encoder, env_name, made

__all__ = ["NativeVectorEnv", "MaskedMultiDiscrete"]


class MaskedMultiDiscrete(spaces.MultiDiscrete):
    """``MultiDiscrete([A] * N)`` (A: the game's action count) whose :meth:`sample` without a
    mask draws, for each env, among the actions legal *now* (uniformly, from the space's
    own seeded generator), as :class:`~tienlen.rl.spaces.MaskedDiscrete` does for one env:
    a random baseline or a generic tool that samples the space takes legal actions.
    ``sample(mask=...)`` takes Gymnasium's form, a tuple of one int8 mask per env, or the
    (N, A) ``action_mask`` array of an observation (bool too); a mask or probability
    Gymnasium would refuse with a bare ``AssertionError`` raises
    :class:`~tienlen.rl.common.SampleMaskError` saying why.

    >>> space = MaskedMultiDiscrete(2, 4)
    >>> space.sample(mask=np.array([[0, 1, 0, 0], [0, 0, 0, 1]], np.int8)).tolist()
    [1, 3]
    >>> space.sample(mask=np.ones((3, 4), np.int8))
    Traceback (most recent call last):
    ...
    tienlen.table.encoding.SampleMaskError: mask must be an (2, 4) array or 2 arrays of shape (4,), of dtype int8; got int8 (3, 4)
    """

    def __init__(self, num_envs: int, num_actions: int, mask_source: Any = None,
                 seed: int | None = None) -> None:
        super().__init__(np.full(num_envs, num_actions), seed=seed)
        self._mask_source = mask_source

    def sample(self, mask: Any = None, probability: Any = None) -> npt.NDArray[np.int64]:
        if mask is None and probability is None and self._mask_source is not None:
            mask = self._mask_source()
        if mask is not None and probability is not None:
            raise SampleMaskError("give a mask or a probability, not both")
        if mask is not None:
            mask = self._rows(mask, "mask", np.int8)
            if not all(((m == 0) | (m == 1)).all() for m in mask):
                raise SampleMaskError("mask values must be 0 or 1 (1: a legal action)")
        if probability is not None:
            probability = self._rows(probability, "probability", np.float64)
            if not all(np.isfinite(p).all() and (p >= 0).all() and np.isclose(p.sum(), 1)
                       for p in probability):
                raise SampleMaskError("each env's probability values must be >= 0 and sum to 1")
        result: npt.NDArray[np.int64] = super().sample(mask=mask, probability=probability)
        return result

    def _rows(self, value: Any, name: str, dtype: type[np.generic]) -> tuple[np.ndarray, ...]:
        """``sample``'s mask or probability as Gymnasium's tuple of one row per env: from the
        (N, A) array of an observation (a bool mask too) or a tuple of N rows, each checked
        as Gymnasium checks it (which raises a bare AssertionError): SampleMaskError
        instead, with the reason. Nothing is drawn from a refused one."""
        n, width = len(self.nvec), int(self.nvec[0])
        want = f"an ({n}, {width}) array or {n} arrays of shape ({width},), of dtype " \
               f"{np.dtype(dtype).name}"
        if isinstance(value, np.ndarray):
            array = np.asarray(value)
            if array.shape != (n, width) or not (array.dtype == dtype or (
                    dtype is np.int8 and array.dtype == np.bool_)):
                raise SampleMaskError(f"{name} must be {want}; got {array.dtype} {array.shape}")
            return tuple(array.astype(dtype, copy=False))
        if isinstance(value, (tuple, list)) and len(value) == n and all(
                isinstance(row, np.ndarray) and np.asarray(row).shape == (width,)
                and np.asarray(row).dtype == dtype for row in value):
            return tuple(np.asarray(row) for row in value)
        raise SampleMaskError(f"{name} must be {want}; got {type(value).__name__}")

    def __reduce__(self) -> tuple[type[spaces.MultiDiscrete], tuple[np.ndarray]]:
        # Pickles (as in a saved policy) as the plain MultiDiscrete: the env link is not data.
        return (spaces.MultiDiscrete, (self.nvec.copy(),))


def _most_refs(arrays: list[np.ndarray]) -> int:
    """The highest reference count among ``arrays`` (a pool entry's list), as this very
    function sees it: compared with :data:`_UNSHARED`, what it sees for an entry nothing
    else refers to, it tells whether anyone outside the pool still holds one of them."""
    return max(sys.getrefcount(a) for a in arrays)


#: :func:`_most_refs` of a list no one else refers to (measured, not assumed: the count a
#: function sees for its own locals differs between Python versions).
_UNSHARED = _most_refs([np.empty(1)])


class _OutputPool:
    """The arrays a vectorised env hands out as observations, recycled: a step copies the
    core's arrays into an entry of arrays nobody outside the pool refers to any more (the
    learner dropped the observation, its views and any buffer export of it), allocating a
    new entry only when every pooled one is still held. A handed-out observation is thus
    never written again while anyone can read it (the learner may keep it, or write into
    it); what recycling saves is allocating fresh arrays every step, whose first writes
    fault in new pages of memory: for (1024, 2048) masks that cost more than the copy."""

    #: At most this many entries are kept (a learner that keeps every observation gets new
    #: arrays, as without a pool).
    size = 4

    def __init__(self, specs: dict[str, tuple[tuple[int, ...], Any]]) -> None:
        self._specs = specs
        self._entries: list[list[np.ndarray]] = []

    def take(self) -> list[np.ndarray]:
        """A free entry (one array per spec, in the specs' order), its contents stale."""
        for entry in self._entries:
            if _most_refs(entry) <= _UNSHARED:
                return entry
        entry = [np.empty(shape, dtype) for shape, dtype in self._specs.values()]
        if len(self._entries) < self.size:
            self._entries.append(entry)
        return entry


def _box(spec: tuple[Any, Any, tuple[int, ...], Any], rows: int | None = None) -> spaces.Box:
    low, high, shape, dtype = spec
    if rows is None:
        return spaces.Box(low, high, shape, dtype)
    full = (rows,) + shape
    return spaces.Box(np.broadcast_to(low, full), np.broadcast_to(high, full), full, dtype)


class NativeVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` stepped natively (GIL released), with the game's
    keywords (``options``: see its ``*VectorEnv``).

    Observations: a dict of arrays, ``"observation"`` (N, obs) and ``"action_mask"`` int8
    (N, A), plus the game's extras. Where an episode ended, ``info["final_obs"]`` and
    ``info["final_info"]`` hold what it ended on, as Gymnasium's ``SyncVectorEnv`` gives
    them in same-step autoreset. The returned arrays are the learner's to keep: no later
    step changes them while anything refers to them (``copy=False``: read-only views the
    next step overwrites). A game whose core keeps output banks (Guandan) hands out a
    bank's read-only arrays themselves and writes each step into a bank nobody refers to
    any more (copying only when a learner holds every bank: then the copies are read-only
    too; ``np.array(obs[key])`` is a writable copy); the others hand out writable copies,
    from arrays reused once nothing refers to them (no new arrays, and no fresh pages,
    every step). ``copy_mask`` is kept for compatibility: with output banks the default
    already hands out the mask without a copy; ``copy_mask=False`` hands out only
    the ``action_mask`` that way (the core's, read-only, rewritten in place by the next step:
    for a learner that reads the mask before it steps and keeps no reference to it, which
    saves copying (N, A) bytes a step). ``action_space.sample()`` draws a
    legal action for every env (:class:`MaskedMultiDiscrete`). Actions outside a mask raise
    :class:`~tienlen.rl.common.IllegalActionError` before any env is stepped. ``threads``
    > 1 steps slices of the batch on native worker threads.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}
    #: The game, for a game-named subclass (``TienlenVectorEnv``).
    game_name: str | None = None

    def __init__(self, game: str, num_envs: int, *args: Any, threads: int = 1,
                 copy: bool = True, copy_mask: bool = True, **options: Any) -> None:
        self._closed = True
        enc = encoder(game)
        self.core = enc.vector(num_envs, *args, **options)
        self._exposed = frozenset(type(self.core).exposed)
        self.num_envs = self.core.num_envs
        self.num_actions = enc.num_actions
        self.threads = threads_arg(threads, enc.max_threads)
        self.copy = flag_arg(copy, "copy")
        self.copy_mask = flag_arg(copy_mask, "copy_mask")
        single = self.core.spaces
        self.single_observation_space = spaces.Dict({k: _box(v) for k, v in single.items()})
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = spaces.Dict({k: _box(v, self.num_envs)
                                              for k, v in single.items()})
        # A final observation's mask and extras: zeros, one read-only array each, shared.
        self._final_zeros = {k: np.zeros(v[2], v[3]) for k, v in single.items()
                             if k != "observation"}
        for z in self._final_zeros.values():
            z.flags.writeable = False
        shared = () if self.copy_mask else ("action_mask",)
        self._pooled = tuple(k for k in single if k not in shared)
        # Output banks (a core that keeps them): one list of arrays per bank, the last
        # private (written only when every other one is held, and then copied).
        banks = getattr(self.core, "bank_arrays", None)
        self._banks: list[list[np.ndarray]] | None = banks() if banks and self.copy else None
        self._unshared_bank = _most_refs(self._banks[0]) if self._banks else 0
        self._bank: int | None = None
        self._pool = _OutputPool({k: ((self.num_envs,) + single[k][2], single[k][3])
                                  for k in self._pooled})
        self._closed = False
        self.action_space = MaskedMultiDiscrete(self.num_envs, self.num_actions,
                                                self._current_masks)

    def __getattr__(self, name: str) -> Any:
        # The game's own attributes of its native core (TienlenVectorEnv.games ...).
        if name.startswith("__") or name in ("core", "_exposed"):
            raise AttributeError(name)
        if name in self._exposed:
            return getattr(self.core, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def named_class(cls, game: str, enc: Any) -> type[NativeVectorEnv]:
        """The class ``<Title>VectorEnv``: this class with ``game`` bound, its signature
        the game's ``Vector``'s (plus ``threads`` and ``copy``)."""

        def __init__(self: NativeVectorEnv, num_envs: int, *args: Any, threads: int = 1,
                     copy: bool = True, copy_mask: bool = True, **options: Any) -> None:
            NativeVectorEnv.__init__(self, game, num_envs, *args, threads=threads, copy=copy,
                                     copy_mask=copy_mask,
                                     **options)

        bind_signature(__init__, enc.vector.__init__, ("threads", 1), ("copy", True),
                       ("copy_mask", True))
        doc = (f"``num_envs`` {enc.title} games stepped natively: :class:`NativeVectorEnv` "
               f"with the game bound.\n\n{inspect.cleandoc(enc.vector.__doc__ or '')}")
        return type(f"{enc.title}VectorEnv", (cls,),
                    {"__init__": __init__, "game_name": game, "__doc__": doc,
                     "__module__": "tienlen.rl.vector"})

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new episode in every env. ``seed``: an int (env i uses the stream (seed, i)),
        one seed per env (env i's first deal or match is that seed's), or None (fresh
        entropy)."""
        seeds = vector_seeds(seed)
        bank = self._free_bank()
        if bank is None:
            self.core.reset(seeds)
        else:
            self.core.reset(seeds, bank)
        self._bank = bank
        return self._obs(), self.core.info()

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                 np.ndarray, dict[str, Any]]:
        core = self.core
        acts = vector_actions(actions, self.num_envs)
        bank = self._free_bank()
        if bank is None:
            core.step(acts, self.threads)
        else:
            core.step(acts, self.threads, bank)      # (raises before switching banks)
        self._bank = bank
        reward, terminated, truncated = core.reward, core.terminated, core.truncated
        if self.copy:
            reward, terminated, truncated = reward.copy(), terminated.copy(), truncated.copy()
        info = core.info()
        done = core.terminated | core.truncated
        if done.any():
            self._add_final(info, done)
        return self._obs(), reward, terminated, truncated, info

    def _free_bank(self) -> int | None:
        """The output bank the next reset or step writes: the first one nothing outside
        the env and its core refers to, else the private last one; None without banks."""
        banks = self._banks
        if banks is None:
            return None
        for k in range(len(banks) - 1):
            if _most_refs(banks[k]) <= self._unshared_bank:
                return k
        return len(banks) - 1

    def _current_masks(self) -> np.ndarray | None:
        """The masks the action space samples from (None once closed: then it samples as a
        plain ``MultiDiscrete``)."""
        return None if self._closed else self.core.mask

    def action_masks(self) -> np.ndarray:
        """The current masks as bool (N, A)."""
        return self.core.mask.astype(bool)  # type: ignore[no-any-return]

    def action_features(self, env: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Env ``env``'s variable legal-action list (ids, cards, reading; docs/rl.md), where
        the game lists one."""
        features = getattr(self.core, "action_features", None)
        if features is None:
            raise AttributeError(f"{type(self).__name__} lists no action features")
        return features(env)  # type: ignore[no-any-return]

    def legal_features(self) -> tuple[np.ndarray, ...]:
        """Every env's variable legal-action list with its features, in one call, where the
        game lists them (Guandan: ``(offsets, ids, cards, reading)``, env i's rows
        ``offsets[i]:offsets[i + 1]``; docs/rl.md): the form of DMC-style Q(s, a)
        learners, with ``action_form="features"`` built without the 2,048-wide mask."""
        features = getattr(self.core, "legal_features", None)
        if features is None:
            raise AttributeError(f"{type(self).__name__} lists no action features")
        return features()  # type: ignore[no-any-return]

    def _obs(self) -> dict[str, np.ndarray]:
        arrays: dict[str, np.ndarray] = self.core.arrays()
        if not self.copy:
            return arrays
        if self._banks is not None:
            if self._bank != len(self._banks) - 1:
                return arrays                    # a bank's own arrays, read-only
            for key, value in arrays.items():    # the private bank: read-only copies
                arrays[key] = value.copy()
                arrays[key].flags.writeable = False
            return arrays
        for key, out in zip(self._pooled, self._pool.take()):
            np.copyto(out, arrays[key])
            arrays[key] = out
        return arrays

    def _add_final(self, info: dict[str, Any], done: np.ndarray) -> None:
        """Gymnasium's same-step autoreset convention: where an episode ended,
        ``info["final_obs"][i]`` is the observation it ended on (a dict like any
        observation, its mask and extras all zeros: no action is left) and
        ``info["final_info"]`` that env's info then, each with its ``_`` mask, as
        ``SyncVectorEnv`` builds them."""
        done = np.array(done, dtype=np.bool_)
        final_obs = np.full(self.num_envs, None, dtype=object)
        zeros = self._final_zeros
        ended = np.flatnonzero(done)
        many = getattr(self.core, "final_observations", None)
        rows = many(ended) if many is not None else [self.core.final_observation(int(i)).copy()
                                                     for i in ended]
        for i, row in zip(ended, rows):
            final_obs[i] = {"observation": row, **zeros}
        # The step's own info (its arrays are already copies), before final_obs goes in.
        final_info = _same_step_final_info(info, done)
        info["final_obs"], info["_final_obs"] = final_obs, done
        info["final_info"], info["_final_info"] = final_info, done.copy()

    def close(self, **kwargs: Any) -> None:
        """Free the native games; idempotent."""
        if not self._closed:
            self.core.close()
            self._closed = True


def __getattr__(name: str) -> Any:
    found = env_name(name)
    if found is not None and found[1] == "vector":
        return made(name, lambda: NativeVectorEnv.named_class(found[0], encoder(found[0])))
    return moved_name(__name__, name)
