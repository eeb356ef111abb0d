"""What every game's results files share (issue 25): the error, durable appends, JSON
lines, the checks every number read from a file passes, and the Parquet dataset of units
(:class:`ParquetUnits`) every game's ``--out NAME.parquet`` is. Imports no game.

>>> int_column([[1, 2], [3, 4]], 1, 4, "places").tolist()
[[1, 2], [3, 4]]
>>> int_field(True, 0, 1, "won")      # a bool is not an int here: JSON true is not 1
Traceback (most recent call last):
...
ValueError: won must be an int in 0..1; got True
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from tienlen.arena.engine import ArenaError

__all__ = ["ResultsError", "int_field", "int_column", "float_column", "span_field",
           "durable", "json_line", "ParquetUnits", "HEADER_FILE"]


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


# --- Parquet datasets of units -------------------------------------------------------

#: The file naming the run in a Parquet dataset of games (``_``: readers skip it).
HEADER_FILE = "_run.json"
_UNIT_FILE = re.compile(r"unit-(\d+)-(\d+)\.parquet")


def _pyarrow(error: type[ResultsError]) -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise error('writing .parquet needs pyarrow: pip install "tienlen[dask]" '
                    "(or write .jsonl)") from None
    return pyarrow


def _replace(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("wb") as stream:
        _durable(stream, data)
    os.replace(temporary, path)


class ParquetUnits:
    """A directory of games as Spark and Dask write a Parquet dataset, for any game's
    rows (written once for every game, issue 25): :data:`HEADER_FILE` holds the run's
    header (a JSON object), and each work unit is one file ``unit-START-STOP.parquet``,
    written under a temporary name, flushed to disk and renamed into place, so that every
    file in it is complete, whenever the run was cut short. A unit's columns are one value
    per game row (1-D arrays) or a fixed number per row (2-D arrays, as fixed-size lists).
    ``pyarrow.dataset``, pandas, Polars and DuckDB read the directory as one table.

    ``error`` is the game's :class:`ResultsError` class, raised for every problem."""

    def __init__(self, path: Path, error: type[ResultsError] = ResultsError) -> None:
        self.path = path
        self.error = error
        self.pa = _pyarrow(error)

    def create(self, header: Mapping[str, Any]) -> None:
        """Make the directory (not if anything is at ``path``) and its header."""
        try:
            self.path.mkdir(parents=False)
            self.set_header(header)
        except OSError as error:
            raise self.error(f"cannot create {self.path}: {error.strerror or error}") from None

    def set_header(self, header: Mapping[str, Any]) -> None:
        """Replace the header (a resumed run's new games count), atomically."""
        _replace(self.path / HEADER_FILE, (json.dumps(header, indent=1) + "\n").encode())

    def header(self) -> dict[str, Any]:
        """The header as written (unchecked: the game checks its fields)."""
        where = self.path / HEADER_FILE
        try:
            record = json.loads(where.read_text(encoding="utf-8"))
        except OSError as error:
            raise self.error(f"{self.path}: no readable {HEADER_FILE} "
                             f"({error.strerror or error}): not a tienlen games dataset") from None
        except ValueError:
            raise self.error(f"{where}: not JSON") from None
        if not isinstance(record, dict):
            raise self.error(f"{where}: not a JSON object")
        return record

    def clean(self) -> None:
        """Remove the unit an interruption caught half-written (only when resuming, after
        the header was found to be this run's: a foreign dataset stays untouched)."""
        for leftover in self.path.glob(".unit-*.tmp"):
            leftover.unlink()

    def write(self, start: int, stop: int, columns: Mapping[str, np.ndarray],
              header: Mapping[str, Any]) -> None:
        """Unit ``start..stop-1``'s rows (``header`` is kept in the file's metadata)."""
        pa = self.pa
        arrays: dict[str, Any] = {}
        for name, values in columns.items():
            if values.ndim == 1:
                arrays[name] = pa.array(values)
            else:
                arrays[name] = pa.FixedSizeListArray.from_arrays(
                    pa.array(np.ascontiguousarray(values).reshape(-1)), values.shape[1])
        table = pa.table(arrays).replace_schema_metadata({"tienlen": json.dumps(header)})
        name = f"unit-{start:010d}-{stop:010d}.parquet"
        temporary = self.path / f".{name}.tmp"
        pa.parquet.write_table(table, temporary)
        with temporary.open("rb") as stream:
            os.fsync(stream.fileno())
        os.replace(temporary, self.path / name)

    def units(self, names: tuple[str, ...]) -> list[tuple[int, int, dict[str, np.ndarray], Path]]:
        """Every complete unit on file as (start, stop, its columns ``names``, its file), in
        file-name order; a 1-D column comes back 1-D, a list column as rows x values. The
        values are not checked: the game checks them (:func:`int_column`, ...)."""
        pa = self.pa
        found: list[tuple[int, int, dict[str, np.ndarray], Path]] = []
        for file in sorted(self.path.iterdir()):
            match = _UNIT_FILE.fullmatch(file.name)
            if not match:
                continue
            try:
                table = pa.parquet.read_table(file)
                cols: dict[str, np.ndarray] = {}
                for name in names:
                    column = table.column(name).combine_chunks()
                    if pa.types.is_fixed_size_list(column.type) or pa.types.is_list(column.type):
                        flat = column.flatten().to_numpy(zero_copy_only=False)
                        if table.num_rows and flat.size % table.num_rows:
                            raise ValueError(f"{name} has rows of different lengths")
                        cols[name] = flat.reshape(table.num_rows, -1)
                    else:
                        cols[name] = column.to_numpy(zero_copy_only=False)
            except (OSError, KeyError, ValueError, pa.ArrowException) as error:
                raise self.error(f"{file}: not a readable unit ({error})") from None
            found.append((int(match[1]), int(match[2]), cols, file))
        return found

    def discard(self) -> None:
        """Remove a dataset that holds no unit yet (a run that could not start)."""
        (self.path / HEADER_FILE).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.path.rmdir()
