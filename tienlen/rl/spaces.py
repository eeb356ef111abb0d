"""The action space of every game's single-seat Gymnasium env: a ``Discrete`` that samples
the actions legal now (:class:`MaskedDiscrete`), and the positions (epochs) that tell a
stale sample from a fresh one. It belongs to no game and imports none.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from gymnasium import spaces

from .common import SampleMaskError

__all__ = ["MaskedDiscrete", "SampledAction", "next_epoch"]


class SampledAction(int):
    """An action drawn by :meth:`MaskedDiscrete.sample`: the int, plus the uniform draw it came
    from and the env's position (its epoch) when it was drawn. If the env has moved on since
    (a reset or a step), the env's ``step`` draws it again from the same number against
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


def next_epoch() -> int:
    """A new position of an env (at every reset and step), unique across the envs of every
    game in this process: a :class:`SampledAction` drawn before it is drawn again."""
    return next(_EPOCHS)


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
    """``Discrete(n)`` (487 for Tiến Lên, 2048 for Guandan) whose :meth:`sample` without a mask draws among the actions that
    are legal *now* in its env (uniformly, from the space's own seeded generator), so that
    generic tools that sample the space (Gymnasium's ``check_env``, random baselines) take
    legal actions; it returns a :class:`SampledAction`. ``sample(mask=...)`` behaves as
    ``Discrete``'s, except that a mask or probability it would refuse with a bare
    ``AssertionError`` raises :class:`~tienlen.rl.common.SampleMaskError` saying why.

    >>> space = MaskedDiscrete(487)
    >>> space.sample(mask=np.ones(487, bool))
    Traceback (most recent call last):
    ...
    tienlen.table.encoding.SampleMaskError: mask must be a numpy array of dtype int8 and shape (487,); got bool (487,)
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
