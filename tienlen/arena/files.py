"""Results files of every game, written once (issue 34): one row per game, written as each
work unit completes, read back with every value checked, resumed, one writer at a time.

A long run (:func:`tienlen.arena.simulate`, ``tienlen sim --out``) streams its units here
through ``on_unit``, so that an interrupted run loses only the units still being played,
and ``done=`` picks it up again. Two formats, chosen by the file name:

``NAME.jsonl``
    JSON lines: a header line naming the run, then per work unit one line per game and a
    closing ``{"unit": [start, stop], ...}`` line, written and fsynced in one go. A unit
    counts only once its closing line is on disk, so a file cut anywhere (a crash, a full
    disk) still reads: the torn tail is ignored, and cut off when the run is resumed.
    Needs nothing installed.
``NAME.parquet``
    A Parquet dataset (a directory, as Spark and Dask write them; needs ``pyarrow``, the
    ``dask`` extra): ``_run.json`` names the run, and each unit is one file
    ``unit-START-STOP.parquet``, written under a temporary name and renamed into place, so
    every file in it is complete. ``pyarrow.dataset``, pandas, Polars and DuckDB read the
    directory as one table (they skip the ``_`` file).

What a row holds comes from the run's seating (:mod:`tienlen.arena.seatings`): a rotation
run's rows (:class:`RotationRows`, schema ``tienlen.games``, any game: the header names
it) or a team run's (:class:`TeamRows`, the schema its game's loop names:
``tienlen.guandan.games``). The header (:class:`RunHeader`, :class:`TeamHeader`) is the
run's identity: a file belongs to one run, and a resume of another run is refused, saying
what differs. It records the games the run asked for (the last request, when a resume asks
for more), so that a reader can tell a finished run from an interrupted one. Every file
ever written reads back, and writes back byte for byte: version 1 (before the header named
its game) and version 2.

One run writes a file at a time: :meth:`GamesFile.open` takes an operating-system lock on
``NAME.lock`` beside it (:mod:`tienlen.arena.lockfile`) and holds it until the file is
closed. Reading is bounded: a line longer than :data:`MAX_LINE_BYTES` or nested deeper than
:data:`MAX_DEPTH` is a clean error, as is any value no run writes (:func:`int_column` ...).

>>> import tempfile, pathlib
>>> from tienlen.arena.runs import plan
>>> run = plan("tienlen", ["L1", "random"], 20, seed=5)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> with GamesFile.open(path, run.header, games=run.games) as out:
...     result = run.play(unit_deals=4, on_unit=out.write)
>>> load(path).places.tolist() == result.places.tolist()
True
>>> int_field(True, 0, 1, "won")      # a bool is not an int here: JSON true is not 1
Traceback (most recent call last):
...
ValueError: won must be an int in 0..1; got True
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO, ClassVar, Final, Union

import numpy as np

from tienlen.arena.engine import MAX_GAMES, ArenaError, unique_names
from tienlen.arena.lockfile import WriterLock
from tienlen.arena.loops import loop_of, title_of
from tienlen.arena.seatings import MODES, TEAMS, TeamUnit, Unit
from tienlen.arena.stats import ArenaResult, DuplicateResult
from tienlen.seeds import SEED_LIMIT, check_seed
from tienlen.table.registry import DEFAULT_GAME
from tienlen.table.decode import DecodeError, Limits
from tienlen.table.decode import decode_json as decode_bounded

__all__ = ["ResultsError", "int_field", "int_column", "float_column", "span_field",
           "durable", "json_line", "decode_json", "ParquetUnits", "HEADER_FILE", "SCHEMA",
           "RotationRows", "TeamRows", "RunHeader", "TeamHeader", "GamesFile", "GamesOnFile",
           "read", "load", "engine_version", "MAX_LINE_BYTES", "MAX_DEPTH"]

#: The schema of a rotation run's file, of any game (its header names the game).
SCHEMA: Final = "tienlen.games"
#: The longest line (a JSON-lines file) or header (``_run.json``) a reader takes: a real
#: one is well under a kilobyte, a header with a long lineup of factories a few.
MAX_LINE_BYTES: Final = 1 << 20
#: The deepest nesting of lists and objects a reader takes (a real line nests two deep).
MAX_DEPTH: Final = 16


class ResultsError(ArenaError):
    """A games file that cannot be read, or that belongs to a different run."""


def engine_version() -> str:
    """The version of tienlen that writes a rotation run's header (a resume by another
    version is another run: it may play other games)."""
    from tienlen import __version__

    return __version__


# --- field checks --------------------------------------------------------------------
#
# Every number read from a games file (either seating, either format) passes one of these,
# before any cast: a JSON line holds Python objects of any type and size, a Parquet column
# any Arrow type, and a cast to the in-memory dtype would wrap (257 -> 1 in an int8) or
# round silently.


def int_field(value: object, low: int, high: int, what: str) -> int:
    """``value`` if it is an int (not a bool, float or text) in ``low..high``."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} must be an int in {low}..{high}; got {value!r:.40}")
    return value


def int_column(values: Any, low: int, high: int, what: str) -> np.ndarray:
    """``values`` (nested lists from JSON, or an array from Parquet) as an int64 array,
    if every value is an int in ``low..high``; else ValueError saying which field.

    >>> int_column([[1, 2], [3, 4]], 1, 4, "places").tolist()
    [[1, 2], [3, 4]]
    """
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


# --- bounded JSON ---------------------------------------------------------------------------
#
# This module's JSON (lines and Parquet headers) goes through the program's one bounded
# decoder (tienlen.table.decode), with a games file's limits: json.loads of a line of
# 100,000 "[" raised RecursionError (issue 36).

_LINE: Final = Limits(MAX_LINE_BYTES, MAX_DEPTH, "line of a games file")


def decode_json(data: bytes, where: str, error: type[ResultsError] = ResultsError) -> Any:
    """The JSON value of ``data``, or ``error`` (one line, naming ``where``) for text that
    is longer than :data:`MAX_LINE_BYTES`, nested deeper than :data:`MAX_DEPTH`, or not
    JSON.

    >>> decode_json(b'{"games": 8}', "f:2")
    {'games': 8}
    >>> decode_json(b"[" * 100_000, "f:2")
    Traceback (most recent call last):
    ...
    tienlen.arena.files.ResultsError: f:2: nested deeper than 16: not a line of a games file
    """
    try:
        return decode_bounded(data, _LINE)
    except DecodeError as refused:
        if refused.code == "TOO_BIG":
            raise error(f"{where}: larger than {MAX_LINE_BYTES:,} bytes: not a line of a "
                        "games file") from None
        if refused.code == "TOO_DEEP":
            raise error(f"{where}: nested deeper than {MAX_DEPTH}: not a line of a games "
                        "file") from None
        detail = refused.message.removeprefix(f"{_LINE.what}: ")
        if detail.startswith("not JSON (") and detail.endswith(")"):
            detail = detail[len("not JSON ("):-1]
        raise error(f"{where}: not a JSON line: {detail}") from None


def json_line(line: bytes, path: Path, number: int,
              error: type[ResultsError] = ResultsError) -> dict[str, Any]:
    """Line ``number`` of ``path``: a JSON object (bounded: :func:`decode_json`)."""
    record = decode_json(line, f"{path}:{number}", error)
    if not isinstance(record, dict):
        raise error(f"{path}:{number}: not a JSON object")
    return record


def durable(stream: Any, data: bytes) -> None:
    """Write ``data``, then flush it to the disk (a unit lands whole or not at all)."""
    stream.write(data)
    stream.flush()
    os.fsync(stream.fileno())


_durable = durable
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
        durable(stream, data)
    os.replace(temporary, path)


class ParquetUnits:
    """A directory of games as Spark and Dask write a Parquet dataset, for any run's rows:
    :data:`HEADER_FILE` holds the run's header (a JSON object), and each work unit is one
    file ``unit-START-STOP.parquet``, written under a temporary name, flushed to disk and
    renamed into place, so that every file in it is complete, whenever the run was cut
    short. A unit's columns are one value per game row (1-D arrays) or a fixed number per
    row (2-D arrays, as fixed-size lists).

    ``error`` is the :class:`ResultsError` class raised for every problem."""

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
        """The header as written (bounded, unchecked: the header's class checks its fields)."""
        where = self.path / HEADER_FILE
        try:
            with where.open("rb") as stream:
                data = stream.read(MAX_LINE_BYTES + 1)
        except OSError as error:
            raise self.error(f"{self.path}: no readable {HEADER_FILE} "
                             f"({error.strerror or error}): not a tienlen games dataset") from None
        record = decode_json(data, str(where), self.error)
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

    def units(self, names: tuple[str, ...], per_deal: int = 1, max_deals: int = MAX_GAMES
              ) -> list[tuple[int, int, dict[str, np.ndarray], Path]]:
        """Every complete unit on file as (start, stop, its columns ``names``, its file), in
        file-name order; a 1-D column comes back 1-D, a list column as rows x values. A
        unit's span (its file name) must be within ``max_deals`` and its rows
        ``per_deal`` a deal, which is checked before its columns are read. The values are
        not checked: the rows' class checks them (:func:`int_column`, ...)."""
        pa = self.pa
        found: list[tuple[int, int, dict[str, np.ndarray], Path]] = []
        for file in sorted(self.path.iterdir()):
            match = _UNIT_FILE.fullmatch(file.name)
            if not match:
                continue
            start, stop = int(match[1]), int(match[2])
            try:
                if not 0 <= start < stop <= max_deals:
                    raise ValueError(f"its deals {start}..{stop - 1} are past any run's")
                rows = pa.parquet.ParquetFile(file).metadata.num_rows
                if rows != (stop - start) * per_deal:
                    raise ValueError(f"it holds {rows} games, not {(stop - start) * per_deal}")
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
            found.append((start, stop, cols, file))
        return found

    def discard(self) -> None:
        """Remove a dataset that holds no unit yet (a run that could not start)."""
        (self.path / HEADER_FILE).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.path.rmdir()




# --- the header: the run a file belongs to ---------------------------------------------------


def _label(entry: Any) -> str:
    """A lineup entry as stable text: a level name, or a factory's qualified name and
    arguments (never an object address, which differs from run to run)."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, functools.partial):
        args = [repr(a) for a in entry.args] + [f"{k}={v!r}" for k, v in sorted(entry.keywords.items())]
        return f"{_label(entry.func)}({', '.join(args)})"
    return (f"{getattr(entry, '__module__', '?')}."
            f"{getattr(entry, '__qualname__', type(entry).__qualname__)}")


def _show(value: Any) -> str:
    """A header field in a refusal's words: a lineup as a list, rules by their name (or,
    for rules with no name, their fields)."""
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    name, to_dict = getattr(value, "name", None), getattr(value, "to_dict", None)
    if isinstance(name, str) and callable(to_dict):
        return name if name != "custom" else json.dumps(to_dict())
    return str(value)


def _rules_from_json(game: str, value: Any) -> Any:
    """A header's rules: the game's (its loop reads them); null for a game that has none,
    which need not be registered here to be read."""
    from tienlen.table.registry import spec_names

    if value is None and game not in spec_names():
        return None
    return loop_of(game).rules_from_json(value)


@dataclass(frozen=True, slots=True)
class RunHeader:
    """What makes a rotation run's games comparable (schema ``tienlen.games``): a file holds
    the games of one such run. ``rules`` is the game's rules (every field of them: a file of
    games under other rules is another run), None for a game without; ``engine`` the
    version of tienlen; ``game`` the registered game (:mod:`tienlen.table.registry`); a file
    of version 1 (before issue 25) is the first game's, Tiến Lên's."""

    lineup: tuple[str, ...]
    names: tuple[str, ...]
    players: int
    seed: int
    rules: Any
    engine: str
    game: str = DEFAULT_GAME

    schema: ClassVar[str] = SCHEMA
    #: Version 2 (issue 25) adds the ``game`` field; version 1 files still load.
    version: ClassVar[int] = 2
    reads: ClassVar[tuple[int, ...]] = (1, 2)
    noun: ClassVar[str] = "games"
    deal_word: ClassVar[str] = "deal"
    #: The fewest games a ``{"games": N}`` line may say.
    min_games: ClassVar[int] = 1

    @classmethod
    def of(cls, lineup: Sequence[Any], players: int, *, seed: int, rules: Any = None,
           game: str = DEFAULT_GAME) -> RunHeader:
        """The header of the run of ``game`` between ``lineup`` (levels or bot factories)
        by ``players``, with ``seed`` and ``rules`` (None: the game's default)."""
        try:
            loop = loop_of(game)
            rules = loop.rules(rules)
            names = unique_names(loop.entry_name(e) for e in lineup)
        except ValueError as error:
            raise ResultsError(str(error)) from None
        return cls(tuple(loop.label(e) for e in lineup), names, players, seed, rules,
                   engine_version(), game)

    @classmethod
    def of_table(cls, game: str, lineup: Sequence[str], names: Sequence[str], players: int, *,
                 seed: int) -> RunHeader:
        """The header of ``tienlen.arena.runs.run_table(game, lineup, ..., seed=)``,
        ``names`` the entries' names in its result."""
        return cls(tuple(lineup), tuple(names), players, seed, None, engine_version(), game)

    @property
    def per_deal(self) -> int:
        return self.players

    def rows(self) -> RotationRows:
        return RotationRows(self.players)

    def to_json(self) -> dict[str, Any]:
        rules = None if self.rules is None else loop_of(self.game).rules_to_json(self.rules)
        return {"schema": SCHEMA, "version": self.version, "game": self.game,
                "lineup": list(self.lineup), "names": list(self.names),
                "players": self.players, "seed": self.seed, "rules": rules,
                "engine": self.engine}

    @classmethod
    def from_json(cls, record: Any, where: str,
                  error: type[ResultsError] = ResultsError) -> RunHeader:
        if not isinstance(record, dict) or record.get("schema") != SCHEMA:
            raise error(f"{where}: not a tienlen games file (no {SCHEMA!r} header)")
        version = record.get("version")
        if version not in cls.reads:
            raise error(f"{where}: games file version {version!r:.20}; this tienlen "
                        f"reads versions {', '.join(map(str, cls.reads))}")
        try:
            lineup, names = record["lineup"], record["names"]
            texts = (lineup, names, [record["engine"]])
            if not all(isinstance(t, list) and all(type(x) is str for x in t) for t in texts):
                raise ValueError("lineup, names and engine must be text")
            players = int_field(record["players"], 2, 16, "players")
            seed = int_field(record["seed"], 0, SEED_LIMIT - 1, "seed")
            # Version 1 (before issue 25) has no game field: the first game's.
            game = record["game"] if version >= 2 else DEFAULT_GAME
            if type(game) is not str or not game.isidentifier():
                raise ValueError(f"game must be a game's name; got {game!r:.40}")
            # (files written before rulesets were data hold a preset's name: the game
            # reads it the same way)
            rules = _rules_from_json(game, record["rules"])
            header = cls(tuple(lineup), tuple(names), players, seed, rules, record["engine"],
                         game)
        except (KeyError, TypeError, ValueError) as problem:
            raise error(f"{where}: a bad header ({problem})") from None
        if len(header.lineup) != header.players or len(header.names) != header.players:
            raise error(f"{where}: the header's lineup does not have one entry per seat")
        return header

    def planned(self, record: Mapping[str, Any]) -> int | None:
        """The games the header line itself says (none: a line of its own says them)."""
        return None

    def mismatch(self, other: RunHeader | TeamHeader) -> str | None:
        """Why a file with header ``self`` cannot hold the games of run ``other``."""
        if not isinstance(other, RunHeader):
            return f"its schema is {self.schema}, this run's is {other.schema}"
        for name in ("game", "lineup", "players", "seed", "rules", "engine"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                what = "tienlen version" if name == "engine" else name
                return f"its {what} is {_show(mine)}, this run's is {_show(theirs)}"
        return None

    @staticmethod
    def refusal(path: Path, why: str) -> str:
        return f"{path} holds games of a different run ({why}): not resuming it"

    # The layout of the file around its rows.
    def opening(self, games: int) -> bytes:
        """A new JSON-lines file's first lines: the header, then the games asked for."""
        return (json.dumps(self.to_json()) + "\n" + json.dumps({"games": games}) + "\n").encode()

    def dataset_header(self, games: int) -> dict[str, Any]:
        return {**self.to_json(), "games": games}

    def metadata(self, games: int) -> dict[str, Any]:
        return self.to_json()

    @staticmethod
    def unit_line(unit: Unit | TeamUnit) -> dict[str, Any]:
        return {"unit": [unit.start, unit.stop], "games": unit.games}

    def result(self, path: Path, found: GamesOnFile,
               error: type[ResultsError]) -> ArenaResult:
        """The result of a finished run's file (an interrupted run needs resuming first:
        a rotation result holds every deal)."""
        if found.games is not None and found.played != found.games:
            raise error(f"{path}: {found.played} of the run's {found.games} games are on "
                        f"file, deals missing (resume the run to complete it)")
        try:
            return ArenaResult.from_units(self.names, self.players, self.seed,
                                          [u for u in found.units if isinstance(u, Unit)])
        except ArenaError as problem:
            raise error(f"{path}: {problem} (resume the run to complete it)") from None


@dataclass(frozen=True, slots=True)
class TeamHeader:
    """What makes a team run's games comparable: team A's and team B's names, the ``mode``
    (a board is a whole match, or its first hand), ``seed``, ``hand_cap`` and the game's
    ``rules`` (written as ``config``), under the ``schema`` the game's loop names
    (``tienlen.guandan.games``). Version 2 (issue 25) adds ``game`` and the ``{"games": N}``
    line of a resumed run; version 1 files still load."""

    teams: tuple[str, str]
    mode: str
    seed: int
    hand_cap: int
    rules: Any
    game: str
    schema: str

    version: ClassVar[int] = 2
    reads: ClassVar[tuple[int, ...]] = (1, 2)
    deal_word: ClassVar[str] = "board"
    per_deal: ClassVar[int] = 2
    min_games: ClassVar[int] = 2

    @property
    def noun(self) -> str:
        return "matches" if self.mode == "match" else "hands"

    def rows(self) -> TeamRows:
        loop: Any = loop_of(self.game)
        return TeamRows(1 if self.mode == "hand" else self.hand_cap, loop.max_gain,
                        loop.max_games // 2)

    def to_json(self, games: int) -> dict[str, Any]:
        return {"schema": self.schema, "version": self.version, "game": self.game,
                "teams": list(self.teams), "mode": self.mode, "seed": self.seed,
                "hand_cap": self.hand_cap, "games": games,
                "config": loop_of(self.game).rules_to_json(self.rules)}

    @classmethod
    def from_json(cls, record: Any, where: str, game: str,
                  error: type[ResultsError] = ResultsError) -> TeamHeader:
        """The header of ``game``'s team file (the game read from the record, or for a
        version 1 file, the game whose loop writes its schema)."""
        loop: Any = loop_of(game)
        if (not isinstance(record, dict) or record.get("schema") != loop.schema
                or record.get("version") not in cls.reads):
            raise error(f"{where}: not a {title_of(game)} games file (versions "
                        f"{', '.join(map(str, cls.reads))} of {loop.schema!r})")
        try:
            teams = record["teams"]
            if not isinstance(teams, list) or len(teams) != 2 or not all(type(t) is str for t in teams):
                raise ValueError("teams must be two names")
            mode = record["mode"]
            if mode not in MODES:
                raise ValueError(f"a bad mode {mode!r:.40}")
            seed = check_seed(record["seed"])
            cap = int_field(record["hand_cap"], 1, loop.max_hand_cap, "hand_cap")
            rules = loop.rules_from_json(record["config"])
        except (KeyError, TypeError, ValueError) as problem:
            raise error(f"{where}: a bad header ({problem})") from None
        return cls((teams[0], teams[1]), mode, seed, cap, rules, game, loop.schema)

    @staticmethod
    def planned(record: Mapping[str, Any]) -> int | None:
        games = record.get("games")
        return games if type(games) is int else None

    def mismatch(self, other: RunHeader | TeamHeader) -> str | None:
        if not isinstance(other, TeamHeader) or other.schema != self.schema:
            return f"its schema is {self.schema}, this run's is {other.schema}"
        for name in ("game", "teams", "mode", "seed", "hand_cap", "rules"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                if name == "rules":
                    name = "config"
                    loop = loop_of(self.game)
                    mine, theirs = loop.rules_to_json(mine), loop.rules_to_json(theirs)
                elif name == "teams":
                    mine, theirs = list(mine), list(theirs)
                return f"its {name} is {mine}, this run's is {theirs}"
        return None

    @staticmethod
    def refusal(path: Path, why: str) -> str:
        return f"{path} holds another run's games: {why}"

    def opening(self, games: int) -> bytes:
        return (json.dumps(self.to_json(games)) + "\n").encode()

    def dataset_header(self, games: int) -> dict[str, Any]:
        return self.to_json(games)

    def metadata(self, games: int) -> dict[str, Any]:
        return self.to_json(games)

    @staticmethod
    def unit_line(unit: Unit | TeamUnit) -> dict[str, Any]:
        return {"unit": [unit.start, unit.stop]}

    def result(self, path: Path, found: GamesOnFile,
               error: type[ResultsError]) -> DuplicateResult:
        """The result of the complete units on file (an interrupted run's file gives the
        boards it completed)."""
        if not found.units:
            raise error(f"{path}: no complete unit of games")
        try:
            return DuplicateResult(self.teams, self.mode, self.seed,  # type: ignore[arg-type]
                                   self.hand_cap,
                                   [u for u in found.units if isinstance(u, TeamUnit)])
        except ArenaError as problem:
            raise error(f"{path}: {problem}") from None


#: The header of either kind of run.
Header = Union[RunHeader, TeamHeader]


def _team_game(schema: object) -> str | None:
    """The registered game whose loop writes team files of ``schema`` (for a version 1
    file, which does not name its game): each spec is loaded to be asked."""
    from tienlen.table.registry import spec_names

    if not isinstance(schema, str):
        return None
    return next((name for name in spec_names() if _team_game_named(name, schema)), None)


def _header(record: dict[str, Any], where: str, error: type[ResultsError],
            expect: str | None) -> tuple[Header, int | None]:
    """A file's header record read: the header and the games it says were asked for.
    ``expect``: the schema the caller reads (another is refused in its words)."""
    schema = record.get("schema")
    if expect is not None and schema != expect:
        if expect == SCHEMA:
            raise error(f"{where}: not a tienlen games file (no {SCHEMA!r} header)")
        game = _team_game(expect)
        what = f"a {title_of(game)}" if game is not None else "this kind of"
        raise error(f"{where}: not {what} games file (versions 1, 2 of {expect!r})")
    header: Header
    if schema == SCHEMA:
        header = RunHeader.from_json(record, where, error)
    else:
        game = record.get("game")
        named = (type(game) is str and record.get("version") != 1
                 and _team_game_named(game, schema))
        game = game if named else _team_game(schema)
        if game is None:
            raise error(f"{where}: not a tienlen games file (its schema is {schema!r:.60})")
        header = TeamHeader.from_json(record, where, game, error)
    return header, header.planned(record)


def _team_game_named(game: str, schema: object) -> bool:
    """Whether the registered ``game`` writes team files of ``schema``."""
    from tienlen.table.registry import get_spec, spec_names

    if game not in spec_names():
        return False
    loop = getattr(get_spec(game), "arena", None)
    return getattr(loop, "seating", None) == TEAMS and getattr(loop, "schema", None) == schema


# --- a unit as rows on file, and back --------------------------------------------------------
#
# A row is one game. Writing gives columns (one value, or one per entry or team, per row);
# reading takes the columns a file held (lists from JSON lines, arrays from Parquet) and
# checks every value, against the range a game can give, before it is stored: a file may
# hold anything. A bad value is a ValueError; the file module says which file and line.

#: The most decisions one entry makes in a game that the int32 column holds.
_MAX_DECISIONS: Final = 2**31 - 1
#: The most seconds a game's entry may have spent deciding (a year: any real run is less).
_MAX_SECONDS: Final = 365 * 86400.0


@dataclass(frozen=True, slots=True)
class RotationRows:
    """The rows of a rotation run of ``players`` (one entry per seat): ``deal`` (0-based),
    ``rotation``, and per lineup entry (lists in lineup order) its ``seats``, finishing
    ``places`` (1 = first out), ``decisions`` and ``seconds`` spent deciding."""

    players: int
    columns: ClassVar[tuple[str, ...]] = ("deal", "rotation", "seats", "places", "decisions",
                                          "seconds")
    #: Past any run's deals (MAX_GAMES games of two players at most): a unit's bound.
    max_deals: ClassVar[int] = MAX_GAMES // 2

    @property
    def per_deal(self) -> int:
        return self.players

    def of(self, unit: Unit) -> dict[str, np.ndarray]:
        """``unit`` as columns, one row per game, in (deal, rotation) order."""
        players = self.players
        k, _, n = unit.places.shape
        rotation = np.tile(np.arange(players, dtype=np.int8), k)
        seats = (np.arange(n, dtype=np.int8)[None, :] + rotation[:, None]) % players
        return {
            "deal": np.repeat(np.arange(unit.start, unit.stop, dtype=np.int64), players),
            "rotation": rotation,
            "seats": seats.astype(np.int8),
            "places": unit.places.reshape(-1, n),
            "decisions": unit.decisions.reshape(-1, n),
            "seconds": unit.seconds.reshape(-1, n),
        }

    def unit(self, start: int, stop: int, cols: Mapping[str, Any]) -> Unit:
        """The unit ``start..stop-1`` from its rows' columns, checking that they are exactly
        its games."""
        players = n = self.players
        k = stop - start
        deal = int_column(cols["deal"], start, stop - 1, "deal")
        rotation = int_column(cols["rotation"], 0, players - 1, "rotation")
        if deal.shape != (k * players,) or rotation.shape != deal.shape:
            raise ValueError(f"unit {start}..{stop - 1} has {len(deal)} games, not {k * players}")
        slot = (deal - start) * players + rotation
        if len(np.unique(slot)) != len(slot):
            raise ValueError(f"unit {start}..{stop - 1} holds a game twice")
        expected_seats = (np.arange(n)[None, :] + rotation[:, None]) % players
        # Range-checked before the casts, which cannot wrap then.
        arrays: dict[str, np.ndarray] = {
            "seats": int_column(cols["seats"], 0, players - 1, "seats").astype(np.int8),
            "places": int_column(cols["places"], 1, players, "places").astype(np.int8),
            "decisions": int_column(cols["decisions"], 0, _MAX_DECISIONS,
                                    "decisions").astype(np.int32),
            "seconds": float_column(cols["seconds"], 0.0, _MAX_SECONDS, "seconds"),
        }
        for name, values in arrays.items():
            if values.shape != (k * players, n):
                raise ValueError(f"unit {start}..{stop - 1}: {name} is not one value per "
                                 "entry in every game")
        if (arrays["seats"] != expected_seats).any():
            raise ValueError(f"unit {start}..{stop - 1}: seats do not follow the rotation")
        ordered = np.sort(arrays["places"], axis=1)
        # A hand played out has places 1..players; an instant win (Tiến Lên's R11.3) one
        # first place and every other seat sharing last place.
        played_out = (ordered == np.arange(1, players + 1)).all(axis=1)
        instant = (ordered[:, 0] == 1) & (ordered[:, 1:] == players).all(axis=1)
        if not (played_out | instant).all():
            raise ValueError(f"unit {start}..{stop - 1}: a game without places 1..{players}"
                             " (or an instant win's first and shared last places)")
        order = np.argsort(slot)

        def shaped(values: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(values[order].reshape(k, players, n))

        return Unit(start, stop, shaped(arrays["places"]), shaped(arrays["decisions"]),
                    shaped(arrays["seconds"]))


@dataclass(frozen=True, slots=True)
class TeamRows:
    """The rows of a team-seatings run: ``board``, ``seating``, ``a_seats`` (team A's two
    seats), ``hands``, and per team (A, B) ``match_won``, ``hands_won``, ``place_sum``,
    ``levels``, ``decisions`` and ``seconds``. ``cap`` is the most hands a game plays (1 in
    hand mode), ``max_gain`` the most levels a won hand gains under the game's rules,
    ``max_deals`` past the boards of any run."""

    cap: int
    max_gain: int
    max_deals: int
    columns: ClassVar[tuple[str, ...]] = ("board", "seating", "a_seats", "hands", "match_won",
                                          "hands_won", "place_sum", "levels", "decisions",
                                          "seconds")
    per_deal: ClassVar[int] = 2

    def of(self, unit: TeamUnit) -> dict[str, np.ndarray]:
        """``unit`` as columns, one row per game in (board, seating) order: per team fields
        as rows x 2 (team A, team B)."""
        boards = unit.stop - unit.start
        return {
            "board": np.repeat(np.arange(unit.start, unit.stop, dtype=np.int64), 2),
            "seating": np.tile(np.arange(2, dtype=np.int8), boards),
            "a_seats": unit.a_seats.reshape(-1, 2), "hands": unit.hands.reshape(-1),
            "match_won": unit.match_wins.reshape(-1, 2),
            "hands_won": unit.hand_wins.reshape(-1, 2),
            "place_sum": unit.place_sums.reshape(-1, 2), "levels": unit.levels.reshape(-1, 2),
            "decisions": unit.decisions.reshape(-1, 2), "seconds": unit.seconds.reshape(-1, 2),
        }

    def unit(self, start: int, stop: int, cols: Mapping[str, Any]) -> TeamUnit:
        """The unit ``start..stop-1`` from its rows' columns, every field checked once,
        against the range a game can give, before it is stored."""
        count = len(cols["board"])
        if count != 2 * (stop - start):
            raise ValueError(f"{count} games for boards {start}..{stop - 1}")
        unit = TeamUnit.empty(start, stop - start)
        seen = set()
        for r in range(count):
            board = int_field(_plain(cols["board"][r]), start, stop - 1, "board")
            s = int_field(_plain(cols["seating"][r]), 0, 1, "seating")
            if (board, s) in seen:
                raise ValueError(f"game (board {board}, seating {s}) repeated")
            seen.add((board, s))
            i = board - start
            hands = int_field(_plain(cols["hands"][r]), 1, self.cap, "hands")
            pair = {}
            for key in ("a_seats", "match_won", "hands_won", "place_sum", "levels", "decisions"):
                pair[key] = int_column(_plain(cols[key][r]), 0, 2**31 - 1, key)
                if pair[key].shape != (2,):
                    raise ValueError(f"{key} is not one value per team")
            seconds = float_column(_plain(cols["seconds"][r]), 0.0, _MAX_SECONDS, "seconds")
            if seconds.shape != (2,):
                raise ValueError("seconds is not one value per team")
            a_seats, won, hand_wins = pair["a_seats"], pair["match_won"], pair["hands_won"]
            # Team A holds two of the four seats; a match has one winner at most; every hand
            # has one first out; each hand's four places 1..4 sum to 10, a team's two to 3..7.
            if a_seats.max() > 3 or a_seats[0] == a_seats[1]:
                raise ValueError(f"a_seats {a_seats.tolist()} are not two of the seats 0..3")
            if won.max() > 1 or won.sum() > 1:
                raise ValueError(f"match_won {won.tolist()}: a match has one winner at most")
            if hand_wins.sum() != hands:
                raise ValueError(f"hands_won {hand_wins.tolist()} do not add up to {hands} hands")
            if (pair["place_sum"] < 3 * hands).any() or pair["place_sum"].sum() != 10 * hands:
                raise ValueError(f"place_sum {pair['place_sum'].tolist()} is not two partners' "
                                 f"places over {hands} hands")
            if (pair["levels"] > self.max_gain * hand_wins).any():
                raise ValueError(f"levels {pair['levels'].tolist()}: more than {self.max_gain} "
                                 f"a hand won ({hand_wins.tolist()})")
            unit.hands[i, s] = hands
            unit.a_seats[i, s] = a_seats
            unit.match_wins[i, s] = won
            unit.hand_wins[i, s] = hand_wins
            unit.place_sums[i, s] = pair["place_sum"]
            unit.levels[i, s] = pair["levels"]
            unit.decisions[i, s] = pair["decisions"]
            unit.seconds[i, s] = seconds
        return unit


def _plain(value: Any) -> Any:
    """A value read from a Parquet column as JSON lines hold it (a NumPy scalar or row as
    Python numbers), so that both formats pass the same checks."""
    return value.tolist() if isinstance(value, (np.ndarray, np.generic)) else value


# --- the file ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GamesOnFile:
    """A games file's contents: its run, the games that run asked for (``None`` if not
    recorded) and its complete units, in deal order."""

    header: Header
    games: int | None
    units: list[Any]

    @property
    def played(self) -> int:
        """Games on file."""
        return sum(u.games for u in self.units)


class GamesFile:
    """A games file open for a run: :attr:`units` were on disk when it was opened (what a
    resumed run passes as ``done=``), :meth:`write` adds one (the run's ``on_unit``).

    Use :meth:`open`, and close it (or use it as a context manager)."""

    def __init__(self, path: Path, header: Header, games: int, units: list[Any],
                 error: type[ResultsError]) -> None:
        self.path = path
        self.header = header
        self.games = games
        self.units = units
        self.error = error
        self._rows = header.rows()

    @staticmethod
    def open(path: str | os.PathLike[str], header: Header, *, games: int,
             resume: bool = False, error: type[ResultsError] = ResultsError) -> GamesFile:
        """Create ``path`` for the run ``header`` of ``games`` games (refusing to
        overwrite a file), or with ``resume``, reopen it (or create it if absent) after
        checking that it holds games of this run. ``error`` is raised for every refusal."""
        path = _path(path, error)
        kind = _kind(path, error)
        if type(games) is not int or games < 1:
            raise error(f"games must be a positive int; got {games!r:.20}")
        # First, before the file is looked at: one writer per file, held until close().
        lock = WriterLock.acquire(path, error)
        try:
            if path.exists() and not resume:
                raise error(f"{path} already exists: pass --resume to continue its run, or "
                            "name another file")
            opened: GamesFile
            if kind == "jsonl":
                opened = _JsonLines.start(path, header, games, error)
            else:
                opened = _ParquetDir.start(path, header, games, error)
        except BaseException:
            lock.release()
            raise
        opened._lock = lock
        return opened

    #: Whether :meth:`open` created the file (rather than reopening it to resume).
    created = False
    _lock: WriterLock | None = None
    _closed = False

    def write(self, unit: Any) -> None:
        """Add a completed unit, whole, on disk."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the file and its writer lock (everything written is already on disk)."""
        if self._closed:
            return
        self._closed = True
        self._close()
        if self._lock is not None:
            self._lock.release()

    def _close(self) -> None:
        """The format's own closing."""

    def discard(self) -> None:
        """Close, and remove the file if :meth:`open` created it and nothing was written
        (the run could not start): a failed start leaves no file behind."""
        if self._closed:
            return
        self._close()
        try:
            if self.created and not self.units:
                if self.path.is_dir():
                    ParquetUnits(self.path, self.error).discard()
                else:
                    self.path.unlink(missing_ok=True)
        finally:
            # Removed while still locked: no other run sees the file half-removed.
            self._closed = True
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> GamesFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def played(self) -> int:
        """Games on file (an earlier run's and this one's)."""
        return sum(u.games for u in self.units)


def _path(path: object, error: type[ResultsError]) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise error(f"path must be a file path; got {path!r:.80}")
    return Path(path)


def _kind(path: Path, error: type[ResultsError] = ResultsError) -> str:
    if path.suffix == ".jsonl":
        return "jsonl"
    if path.suffix == ".parquet":
        return "parquet"
    raise error(f"{path}: name a .jsonl (JSON lines) or .parquet (pyarrow) file")


def _check_resumable(path: Path, found: GamesOnFile, header: Header, games: int,
                     error: type[ResultsError]) -> None:
    """Refuse, before touching the file, to resume another run or a shorter one."""
    why = found.header.mismatch(header)
    if why is not None:
        raise error(found.header.refusal(path, why))
    stop = max((u.stop for u in found.units), default=0)
    if stop * header.per_deal > games:
        noun = header.noun
        raise error(f"{path} already holds {header.deal_word}s up to {stop - 1}, more than "
                    f"{games} {noun} have: ask for at least {stop * header.per_deal} {noun}")


class _JsonLines(GamesFile):
    _stream: BinaryIO

    @classmethod
    def start(cls, path: Path, header: Header, games: int,
              error: type[ResultsError]) -> _JsonLines:
        created = not path.exists()
        stream: BinaryIO
        if not created:
            found, end = _read_jsonl(path, error, header.schema)
            _check_resumable(path, found, header, games, error)
            try:
                stream = path.open("r+b")
            except OSError as problem:
                raise error(f"cannot write {path}: {problem.strerror or problem}") from None
            stream.truncate(end)  # cut a unit torn by the interruption
            stream.seek(end)
            if found.games != games:
                durable(stream, (json.dumps({"games": games}) + "\n").encode())
            units = found.units
        else:
            units = []
            try:
                stream = path.open("xb")
            except FileExistsError:
                raise error(f"{path} already exists: pass --resume to continue its run, or "
                            "name another file") from None
            except OSError as problem:
                raise error(f"cannot create {path}: {problem.strerror or problem}") from None
            durable(stream, header.opening(games))
        self = cls(path, header, games, units, error)
        self._stream = stream
        self.created = created
        return self

    def write(self, unit: Any) -> None:
        cols = self._rows.of(unit)
        names = self._rows.columns
        lines = [json.dumps({name: cols[name][i].tolist() for name in names},
                            separators=(",", ":")) for i in range(len(cols[names[0]]))]
        lines.append(json.dumps(self.header.unit_line(unit)))
        # One write per unit, then fsync: the closing line lands last or not at all.
        durable(self._stream, ("\n".join(lines) + "\n").encode())
        self.units.append(unit)

    def _close(self) -> None:
        self._stream.close()


class _ParquetDir(GamesFile):
    _dataset: ParquetUnits

    @classmethod
    def start(cls, path: Path, header: Header, games: int,
              error: type[ResultsError]) -> _ParquetDir:
        dataset = ParquetUnits(path, error)
        created = False
        if path.exists():
            found = _read_parquet(path, error, header.schema)
            _check_resumable(path, found, header, games, error)
            dataset.clean()
            units = found.units
            if found.games != games:
                dataset.set_header(header.dataset_header(games))
        else:
            dataset.create(header.dataset_header(games))
            units = []
            created = True
        self = cls(path, header, games, units, error)
        self.created = created
        self._dataset = dataset
        return self

    def write(self, unit: Any) -> None:
        self._dataset.write(unit.start, unit.stop, self._rows.of(unit),
                            self.header.metadata(self.games))
        self.units.append(unit)


# --- reading -------------------------------------------------------------------------


def _lines(stream: BinaryIO, path: Path, error: type[ResultsError]) -> Iterator[bytes]:
    """The complete lines of a JSON-lines file, each with its newline, each at most
    :data:`MAX_LINE_BYTES`; the text after the last newline (empty, or a line cut short by
    an interruption) is not part of the file."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 2)
        if not line.endswith(b"\n"):
            if len(line) > MAX_LINE_BYTES:
                raise error(f"{path}:{number + 1}: larger than {MAX_LINE_BYTES:,} bytes: not "
                            "a line of a games file")
            return
        number += 1
        yield line


def _read_jsonl(path: Path, error: type[ResultsError],
                expect: str | None) -> tuple[GamesOnFile, int]:
    """The file's contents, and the byte offset where its complete units end."""
    try:
        stream = path.open("rb")
    except OSError as problem:
        raise error(f"cannot read {path}: {problem.strerror or problem}") from None
    with stream:
        lines = _lines(stream, path, error)
        first = next(lines, None)
        if first is None:
            raise error(f"{path}: empty, not a tienlen games file")
        header, planned = _header(json_line(first[:-1], path, 1, error), f"{path}:1", error,
                                  expect)
        layout = header.rows()
        units: list[Any] = []
        rows: list[dict[str, Any]] = []
        offset = end = len(first)
        for number, line in enumerate(lines, start=2):
            offset += len(line)
            record = json_line(line[:-1], path, number, error)
            # (a games line is never a row: every row names its deal. Version 1 files of
            # team runs were written with none, but a resume adds one.)
            if set(record) == {"games"}:
                if type(record["games"]) is not int or record["games"] < header.min_games:
                    raise error(f"{path}:{number}: a bad games count")
                if not rows:   # between units: part of the file
                    planned, end = record["games"], offset
                continue
            if "unit" in record:
                units.append(_unit(layout, record["unit"], rows, f"{path}:{number}", error))
                rows, end = [], offset
                continue
            rows.append(record)
            if len(rows) > MAX_GAMES:
                raise error(f"{path}:{number}: more games than a unit holds, with no unit line")
    return GamesOnFile(header, planned, units), end


def _unit(layout: RotationRows | TeamRows, span: object, rows: list[dict[str, Any]],
          where: str, error: type[ResultsError]) -> Any:
    """The unit ``span`` of its game lines ``rows``, every value checked."""
    try:
        start, stop = span_field(span, layout.max_deals, "unit")
        cols = {key: [row.get(key) for row in rows] for key in layout.columns}
        return layout.unit(start, stop, cols)
    except (TypeError, ValueError, IndexError) as problem:
        raise error(f"{where}: a bad unit ({problem})") from None


def _read_parquet(path: Path, error: type[ResultsError], expect: str | None) -> GamesOnFile:
    dataset = ParquetUnits(path, error)
    record = dataset.header()
    where = f"{path}/{HEADER_FILE}"
    header, planned = _header(record, where, error, expect)
    if isinstance(header, RunHeader):
        planned = record.get("games")
        if planned is not None and (type(planned) is not int or planned < 1):
            raise error(f"{where}: a bad games count")
    layout = header.rows()
    units = []
    for start, stop, cols, file in dataset.units(layout.columns, layout.per_deal,
                                                 layout.max_deals):
        try:
            units.append(layout.unit(start, stop, cols))
        except (TypeError, ValueError, IndexError) as problem:
            raise error(f"{file}: a bad unit ({problem})") from None
    return GamesOnFile(header, planned, units)


def read(path: str | os.PathLike[str], *, error: type[ResultsError] = ResultsError,
         schema: str | None = None) -> GamesOnFile:
    """What a games file of any run holds, whether its run finished or not (``schema``: the
    only kind of file the caller reads)."""
    path = _path(path, error)
    if not path.exists():
        raise error(f"{path}: no such file")
    if path.suffix == ".parquet" or path.is_dir():
        found = _read_parquet(path, error, schema)
    else:
        found = _read_jsonl(path, error, schema)[0]
    found.units.sort(key=lambda u: u.start)
    for a, b in zip(found.units, found.units[1:]):
        if b.start < a.stop:
            raise error(f"{path}: {found.header.deal_word}s {b.start}.."
                        f"{min(a.stop, b.stop) - 1} are on file twice")
    return found


def load(path: str | os.PathLike[str], *, error: type[ResultsError] = ResultsError,
         schema: str | None = None) -> ArenaResult | DuplicateResult:
    """The result of a games file: a rotation run's :class:`~tienlen.arena.stats.ArenaResult`
    (of a finished run: an interrupted one needs resuming first), a team run's
    :class:`~tienlen.arena.stats.DuplicateResult` (of its complete units)."""
    found = read(path, error=error, schema=schema)
    return found.header.result(Path(path), found, error)
