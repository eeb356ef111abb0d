"""A uniform random legal action per env from an (N, A) 0/1 action mask, vectorised: what
``MaskedMultiDiscrete.sample`` draws (:mod:`tienlen.rl.vector`) and the benchmarks'
learner picks. It belongs to no game and imports none.

>>> import numpy as np
>>> mask = np.zeros((3, 16), np.int8)
>>> mask[0, 5] = mask[1, [2, 9]] = 1             # row 2: nothing legal
>>> picks = draw_legal(mask, np.random.default_rng(0))
>>> int(picks[0]), int(picks[1]) in (2, 9), int(picks[2])
(5, True, 0)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["draw_legal"]

_BYTES = np.uint64(0x0101010101010101)


def draw_legal(mask: np.ndarray, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniform draw among each row's legal ids (its entries that are 1) of ``mask``,
    an (N, A) array of 0/1 bytes (int8, uint8 or bool: not checked here), from ``rng``;
    a row with no legal id draws 0, as Gymnasium's masked ``Discrete`` does. One uniform
    number a row, whatever A."""
    n, width = mask.shape
    if width % 8 == 0 and mask.flags.c_contiguous and mask.itemsize == 1:
        return _by_words(mask, rng)
    return _by_entries(mask, rng)


def _by_entries(mask: np.ndarray, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """Any width: the legal entries found in one pass over the mask as bool."""
    n, width = mask.shape
    at = np.flatnonzero(np.ascontiguousarray(mask).view(np.bool_))
    row = at // width
    legal = np.bincount(row, minlength=n)
    draw = np.cumsum(legal) - legal + (rng.random(n) * legal).astype(np.int64)
    picks = np.zeros(n, np.int64)
    has = legal > 0
    picks[has] = at[draw[has]] - np.flatnonzero(has) * width
    return picks


def _by_words(mask: np.ndarray, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A width that is a multiple of 8: the mask read as uint64 words (8 entries each, the
    same bytes). One pass finds the words holding a legal id (a 2,048-wide row has 256
    words, and most rows' legal ids fill a few); a word's count of legal ids is its byte
    sum (one multiply: every byte is 0 or 1), and each row's draw is found among those few
    words. For (1024, 2048) about a third of :func:`_by_entries`' time, and a tenth of
    NumPy's ``nonzero`` of the int8 mask."""
    n = len(mask)
    words = mask.view(np.uint64)
    per_row = words.shape[1]
    at = np.flatnonzero(words != 0)                 # the words holding a legal id
    picks = np.zeros(n, np.int64)
    if at.size == 0:
        return picks
    word = words.ravel()[at]
    count = ((word * _BYTES) >> np.uint64(56)).astype(np.int64)    # legal ids in each word
    row = at // per_row
    cum = np.cumsum(count)
    legal = np.bincount(row, weights=count, minlength=n).astype(np.int64)
    draw = np.cumsum(legal) - legal + (rng.random(n) * legal).astype(np.int64)
    has = legal > 0
    draw = draw[has]
    k = np.searchsorted(cum, draw, side="right")   # the word holding each row's draw
    within = (draw - (cum[k] - count[k])).astype(np.uint8)
    # In a word's byte sums, byte j of word * _BYTES is the count of legal ids in bytes
    # 0..j; the draw's byte is the number of bytes whose count is at most `within`, and a
    # row of 0/1 bytes is counted by the same multiply.
    seen = (word[k] * _BYTES).view(np.uint8).reshape(-1, 8) <= within[:, None]
    byte = ((seen.view(np.uint64).ravel() * _BYTES) >> np.uint64(56)).astype(np.int64)
    picks[has] = (at[k] - row[k] * per_row) * 8 + byte
    return picks
