"""What every game's results files share (issue 25): the error, durable appends, JSON
lines, and the checks every number read from a file passes. Imports no game.

>>> int_column([[1, 2], [3, 4]], 1, 4, "places").tolist()
[[1, 2], [3, 4]]
>>> int_field(True, 0, 1, "won")      # a bool is not an int here: JSON true is not 1
Traceback (most recent call last):
...
ValueError: won must be an int in 0..1; got True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from .arena import ArenaError

__all__ = ["ResultsError", "int_field", "int_column", "float_column", "span_field",
           "durable", "json_line"]


class ResultsError(ArenaError):
    """A games file that cannot be read, or that belongs to a different run."""


# --- field checks --------------------------------------------------------------------
#
# Every number read from a games file (either game, either format) passes one of these,
# before any cast: a JSON line holds Python objects of any type and size, a Parquet column
# any Arrow type, and a cast to the in-memory dtype would wrap (257 -> 1 in an int8) or
# round silently. Readers raise their own error with the file and line.


def int_field(value: object, low: int, high: int, what: str) -> int:
    """``value`` if it is an int (not a bool, float or text) in ``low..high``."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} must be an int in {low}..{high}; got {value!r:.40}")
    return value


def int_column(values: Any, low: int, high: int, what: str) -> np.ndarray:
    """``values`` (nested lists from JSON, or an array from Parquet) as an int64 array,
    if every value is an int in ``low..high``; else ValueError saying which field."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        if values.dtype.kind not in "iu":
            raise ValueError(f"{what} holds {values.dtype} values, not integers")
        if values.size and (int(values.min()) < low or int(values.max()) > high):
            raise ValueError(f"{what} holds a value outside {low}..{high} "
                             f"({int(values.min())}..{int(values.max())})")
        return values.astype(np.int64)
    objects = np.asarray(values, dtype=object)
    for value in objects.flat:
        int_field(value, low, high, what)
    return objects.astype(np.int64)


def float_column(values: Any, low: float, high: float, what: str) -> np.ndarray:
    """``values`` as a float64 array, if every value is a finite number (an int or a
    float, not a bool) in ``low..high``; else ValueError saying which field."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        if values.dtype.kind not in "iuf":
            raise ValueError(f"{what} holds {values.dtype} values, not numbers")
        array = values.astype(np.float64)
    else:
        objects = np.asarray(values, dtype=object)
        if not all(type(v) in (int, float) for v in objects.flat):
            raise ValueError(f"{what} holds a value that is not a number")
        try:
            array = objects.astype(np.float64)
        except OverflowError:
            raise ValueError(f"{what} holds a value outside {low}..{high}") from None
    if not np.isfinite(array).all() or (array.size and (array.min() < low or array.max() > high)):
        raise ValueError(f"{what} holds a value that is not a finite number in {low}..{high}")
    return array


def span_field(value: object, high: int, what: str) -> tuple[int, int]:
    """A unit's ``[start, stop]``: two ints, ``0 <= start < stop <= high``."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{what} must be [start, stop]; got {value!r:.40}")
    start = int_field(value[0], 0, high - 1, f"{what} start")
    stop = int_field(value[1], start + 1, high, f"{what} stop")
    return start, stop


def _durable(stream: Any, data: bytes) -> None:
    stream.write(data)
    stream.flush()
    os.fsync(stream.fileno())


def json_line(line: bytes, path: Path, number: int) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise ResultsError(f"{path}:{number}: not a JSON line") from None
    if not isinstance(record, dict):
        raise ResultsError(f"{path}:{number}: not a JSON object")
    return record


durable = _durable
_json_line = json_line
