"""Arena games on disk: one row per game, written as each work unit completes.

A long arena run (:func:`tienlen.games.tienlen.arena.run`) streams its games here through ``on_unit``,
so that an interrupted run loses only the units still being played, and ``done=`` picks
it up again. Two formats, chosen by the file name:

``NAME.jsonl``
    JSON lines: a header line naming the run, then per work unit one line per game and a
    closing ``{"unit": [start, stop], ...}`` line. A unit counts only once its closing
    line is on disk, so a file cut anywhere (a crash, a full disk) still reads: the torn
    tail is ignored, and cut off when the run is resumed. Needs nothing installed.
``NAME.parquet``
    A Parquet dataset (a directory, as Spark and Dask write them; needs ``pyarrow``, the
    ``dask`` extra): ``_run.json`` names the run, and each unit is one file
    ``unit-START-STOP.parquet``, written under a temporary name and renamed into place,
    so every file in it is complete. ``pyarrow.dataset``, pandas, Polars and DuckDB read
    the directory as one table (they skip the ``_`` file).

A game row holds ``deal`` (0-based; its cards come from ``match.hand_seed(seed, deal +
1)``), ``rotation``, and per lineup entry (lists in lineup order) its ``seats``,
finishing ``places`` (1 = first out), ``decisions`` and ``seconds`` spent deciding.

One run writes a file at a time: :meth:`GamesFile.open` takes an operating-system lock
on ``NAME.lock`` beside it (:mod:`tienlen.arena.lockfile`) and holds it until the file is
closed, so a second run on the same file is refused up front; the lock ends with the
process that held it, however it ends, so a killed run never blocks its ``--resume``.

A file belongs to one run: the lineup, players, seed, rules and engine version in its
header must match the run that resumes it, else :class:`ResultsError` says what differs.
It also records the games the run asked for (the last request, when a resume asks for
more), so that a reader can tell a finished run from an interrupted one.

>>> import tempfile, pathlib
>>> from tienlen.games.tienlen.arena import run
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> with GamesFile.open(path, RunHeader.of(["L1", "random"], 2, seed=5), games=20) as out:
...     result = run(["L1", "random"], 20, players=2, seed=5, unit_deals=4,
...                  on_unit=out.write)
>>> load(path).places.tolist() == result.places.tolist()
True
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from tienlen.games.tienlen.arena import ArenaError, ArenaResult, BotSpec, Unit, entry_names
from tienlen.arena.lockfile import WriterLock
from tienlen.games.tienlen.rules import Rules
from tienlen.seeds import SEED_LIMIT
# Written once for every game's files (issue 25); the names stay importable from here.
from tienlen.arena.files import (HEADER_FILE, ParquetUnits, ResultsError, _durable, _json_line,
                          float_column, int_column, int_field, span_field)

__all__ = ["RunHeader", "GamesFile", "GamesOnFile", "ResultsError", "read", "load", "SCHEMA"]

#: The schema name in every games file's header.
SCHEMA = "tienlen.games"
#: Version 2 (issue 25) adds the ``game`` field; version 1 files still load.
_VERSION = 2
_READS = (1, 2)
_HEADER_FILE = HEADER_FILE
#: Past any run's deals (arena.MAX_GAMES games of two players at most): a unit's bound.
_MAX_DEALS = 2**40


def _engine_version() -> str:
    from tienlen import __version__

    return __version__


def _spec_label(spec: BotSpec) -> str:
    """A lineup entry as stable text: the level name, or the factory's qualified name and
    arguments (never an object address, which differs from run to run)."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, functools.partial):
        args = [repr(a) for a in spec.args] + [f"{k}={v!r}" for k, v in sorted(spec.keywords.items())]
        return f"{_spec_label(spec.func)}({', '.join(args)})"
    return f"{getattr(spec, '__module__', '?')}.{getattr(spec, '__qualname__', type(spec).__qualname__)}"


@dataclass(frozen=True, slots=True)
class RunHeader:
    """What makes a run's games comparable: a file holds the games of one such run."""

    lineup: tuple[str, ...]
    names: tuple[str, ...]
    players: int
    seed: int
    #: Every field of the ruleset: a file of games under other rules (a preset, or a
    #: penalty value changed) is another run.
    rules: Rules | None
    engine: str
    #: The registered game (:mod:`tienlen.table.registry`) the games are of; a file of
    #: version 1 (before issue 25) is Tiến Lên's. Games other than Tiến Lên have no
    #: ``rules`` here (None).
    game: str = "tienlen"

    @classmethod
    def of_table(cls, game: str, lineup: Sequence[str], names: Sequence[str], players: int, *,
                 seed: int) -> RunHeader:
        """The header of ``tienlen.arena.engine.run_table(game, lineup, ..., seed=)``,
        ``names`` the entries' names in its result."""
        return cls(tuple(lineup), tuple(names), players, seed, None, _engine_version(), game)

    @classmethod
    def of(cls, lineup: Sequence[BotSpec], players: int, *, seed: int,
           rules: Rules = Rules()) -> RunHeader:
        """The header of the run ``arena.run(lineup, ..., players=, seed=, rules=)``."""
        return cls(tuple(_spec_label(s) for s in lineup), entry_names(lineup), players,
                   seed, rules, _engine_version())

    def to_json(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "version": _VERSION, "game": self.game,
                "lineup": list(self.lineup), "names": list(self.names),
                "players": self.players, "seed": self.seed,
                "rules": None if self.rules is None else self.rules.to_dict(),
                "engine": self.engine}

    @classmethod
    def from_json(cls, record: Any, where: str) -> RunHeader:
        if not isinstance(record, dict) or record.get("schema") != SCHEMA:
            raise ResultsError(f"{where}: not a tienlen games file (no {SCHEMA!r} header)")
        version = record.get("version")
        if version not in _READS:
            raise ResultsError(f"{where}: games file version {version!r:.20}; this tienlen "
                               f"reads versions {', '.join(map(str, _READS))}")
        try:
            lineup, names = record["lineup"], record["names"]
            texts = (lineup, names, [record["engine"]])
            if not all(isinstance(t, list) and all(type(x) is str for x in t) for t in texts):
                raise ValueError("lineup, names and engine must be text")
            players = int_field(record["players"], 2, 4, "players")
            seed = int_field(record["seed"], 0, SEED_LIMIT - 1, "seed")
            # Version 1 (before issue 25) has no game field: Tiến Lên's games.
            game = record["game"] if version >= 2 else "tienlen"
            if type(game) is not str or not game.isidentifier():
                raise ValueError(f"game must be a game's name; got {game!r:.40}")
            # Files written before rulesets were data hold a preset name, read the same way.
            rules = (Rules.from_dict(record["rules"]) if game == "tienlen" or
                     record.get("rules") is not None else None)
            header = cls(tuple(lineup), tuple(names), players, seed, rules, record["engine"],
                         game)
        except (KeyError, TypeError, ValueError) as error:
            raise ResultsError(f"{where}: a bad header ({error})") from None
        if len(header.lineup) != header.players or len(header.names) != header.players:
            raise ResultsError(f"{where}: the header's lineup does not have one entry per seat")
        return header

    def mismatch(self, other: RunHeader) -> str | None:
        """Why a file with header ``self`` cannot hold the games of run ``other``."""
        for field in ("game", "lineup", "players", "seed", "rules", "engine"):
            mine, theirs = getattr(self, field), getattr(other, field)
            if mine != theirs:
                what = "tienlen version" if field == "engine" else field
                return f"its {what} is {_show(mine)}, this run's is {_show(theirs)}"
        return None


def _show(value: Any) -> str:
    if isinstance(value, Rules):
        # A custom ruleset has no name to tell it apart: show its fields.
        return value.name if value.name != "custom" else json.dumps(value.to_dict())
    return ",".join(value) if isinstance(value, tuple) else str(value)


#: The most decisions one entry makes in a game that the int32 column holds.
_MAX_DECISIONS = 2**31 - 1
#: The most seconds a game's entry may have spent deciding (a year: any real run is less).
_MAX_SECONDS = 365 * 86400.0


# --- rows <-> units ------------------------------------------------------------------


def _rows(unit: Unit, players: int) -> dict[str, np.ndarray]:
    """A unit as row columns, one row per game, in (deal, rotation) order."""
    k, _, n = unit.places.shape
    deal = np.repeat(np.arange(unit.start, unit.stop, dtype=np.int64), players)
    rotation = np.tile(np.arange(players, dtype=np.int8), k)
    seats = (np.arange(n, dtype=np.int8)[None, :] + rotation[:, None]) % players
    return {
        "deal": deal,
        "rotation": rotation,
        "seats": seats.astype(np.int8),
        "places": unit.places.reshape(-1, n),
        "decisions": unit.decisions.reshape(-1, n),
        "seconds": unit.seconds.reshape(-1, n),
    }


def _unit(start: int, stop: int, players: int, n: int, cols: Mapping[str, npt.ArrayLike],
          where: str) -> Unit:
    """The unit ``start..stop-1`` from its rows, checking that they are exactly its games."""
    k = stop - start
    deal = int_column(cols["deal"], start, stop - 1, "deal")
    rotation = int_column(cols["rotation"], 0, players - 1, "rotation")
    if deal.shape != (k * players,) or rotation.shape != deal.shape:
        raise ResultsError(f"{where}: unit {start}..{stop - 1} has {len(deal)} games, "
                           f"not {k * players}")
    slot = (deal - start) * players + rotation
    if len(np.unique(slot)) != len(slot):
        raise ResultsError(f"{where}: unit {start}..{stop - 1} holds a game twice")
    expected_seats = (np.arange(n)[None, :] + rotation[:, None]) % players
    # Range-checked before the casts, which cannot wrap then.
    arrays: dict[str, np.ndarray] = {
        "seats": int_column(cols["seats"], 0, players - 1, "seats").astype(np.int8),
        "places": int_column(cols["places"], 1, players, "places").astype(np.int8),
        "decisions": int_column(cols["decisions"], 0, _MAX_DECISIONS, "decisions").astype(np.int32),
        "seconds": float_column(cols["seconds"], 0.0, _MAX_SECONDS, "seconds"),
    }
    for name, values in arrays.items():
        if values.shape != (k * players, n):
            raise ResultsError(f"{where}: unit {start}..{stop - 1}: {name} is not one value "
                               f"per entry in every game")
    if (arrays["seats"] != expected_seats).any():
        raise ResultsError(f"{where}: unit {start}..{stop - 1}: seats do not follow the rotation")
    ordered = np.sort(arrays["places"], axis=1)
    # A hand played out has places 1..players; an instant win (R11.3) one first place and
    # every other seat sharing last place.
    played_out = (ordered == np.arange(1, players + 1)).all(axis=1)
    instant = (ordered[:, 0] == 1) & (ordered[:, 1:] == players).all(axis=1)
    if not (played_out | instant).all():
        raise ResultsError(f"{where}: unit {start}..{stop - 1}: a game without places 1..{players}"
                           " (or an instant win's first and shared last places)")
    order = np.argsort(slot)

    def shaped(values: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(values[order].reshape(k, players, n))

    return Unit(start, stop, shaped(arrays["places"]), shaped(arrays["decisions"]),
                shaped(arrays["seconds"]))


# --- the file ------------------------------------------------------------------------


class GamesFile:
    """A games file open for a run: :attr:`units` were on disk when it was opened (what
    a resumed run passes as ``done=``), :meth:`write` adds one (the run's ``on_unit``).

    Use :meth:`open`, and close it (or use it as a context manager)."""

    def __init__(self, path: Path, header: RunHeader, games: int, units: list[Unit]) -> None:
        self.path = path
        self.header = header
        self.games = games
        self.units = units

    @staticmethod
    def open(path: str | os.PathLike[str], header: RunHeader, *, games: int,
             resume: bool = False) -> GamesFile:
        """Create ``path`` for the run ``header`` of ``games`` games (refusing to
        overwrite a file), or with ``resume``, reopen it (or create it if absent) after
        checking that it holds games of this run."""
        path = Path(path)
        kind = _kind(path)
        if type(games) is not int or games < 1:
            raise ResultsError(f"games must be a positive int; got {games!r}")
        # First, before the file is looked at: one writer per file, held until close().
        lock = WriterLock.acquire(path, ResultsError)
        try:
            if path.exists() and not resume:
                raise ResultsError(f"{path} already exists: pass --resume to continue its "
                                   "run, or name another file")
            opened: GamesFile
            if kind == "jsonl":
                opened = _JsonLines.open(path, header, games)
            else:
                opened = _ParquetDir.open(path, header, games)
        except BaseException:
            lock.release()
            raise
        opened._lock = lock
        return opened

    #: Whether :meth:`open` created the file (rather than reopening it to resume).
    created = False
    _lock: WriterLock | None = None

    def write(self, unit: Unit) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Release the file and its writer lock (everything written is already on disk)."""
        self._close()
        if self._lock is not None:
            self._lock.release()

    def _close(self) -> None:
        """The format's own closing."""

    def discard(self) -> None:
        """Close, and remove the file if :meth:`open` created it and nothing was written
        (the run could not start): a failed start leaves no file behind."""
        self._close()
        try:
            if not self.created or self.units:
                return
            if self.path.is_dir():
                ParquetUnits(self.path, ResultsError).discard()
            else:
                self.path.unlink(missing_ok=True)
        finally:
            # Removed while still locked: no other run sees the file half-removed.
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> GamesFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def played(self) -> int:
        """Games on file."""
        return sum(u.games for u in self.units)


def _kind(path: Path) -> str:
    if path.suffix == ".jsonl":
        return "jsonl"
    if path.suffix == ".parquet":
        return "parquet"
    raise ResultsError(f"{path}: name a .jsonl (JSON lines) or .parquet (pyarrow) file")


def _mismatch_error(path: Path, found: RunHeader, header: RunHeader) -> ResultsError:
    why = found.mismatch(header)
    return ResultsError(f"{path} holds games of a different run ({why}): not resuming it")


def _check_resumable(path: Path, found: GamesOnFile, header: RunHeader, games: int) -> None:
    """Refuse, before touching the file, to resume another run or a shorter one."""
    if found.header.mismatch(header):
        raise _mismatch_error(path, found.header, header)
    stop = max((u.stop for u in found.units), default=0)
    if stop * header.players > games:
        raise ResultsError(f"{path} already holds deals up to {stop - 1}, more than {games} "
                           f"games have: ask for at least {stop * header.players} games")


class _JsonLines(GamesFile):
    _stream: BinaryIO

    @classmethod
    def open(cls, path: Path, header: RunHeader, games: int) -> _JsonLines:  # type: ignore[override]
        created = not path.exists()
        stream: BinaryIO
        if not created:
            found, planned, units, end = _read_jsonl(path)
            _check_resumable(path, found, header, games)
            stream = path.open("r+b")
            stream.truncate(end)  # cut a unit torn by the interruption
            stream.seek(end)
            if planned != games:
                _durable(stream, (json.dumps({"games": games}) + "\n").encode())
        else:
            units = []
            try:
                stream = path.open("xb")
            except OSError as error:
                raise ResultsError(f"cannot create {path}: {error.strerror or error}") from None
            _durable(stream, (json.dumps(header.to_json()) + "\n" +
                              json.dumps({"games": games}) + "\n").encode())
        self = cls(path, header, games, units)
        self._stream = stream
        self.created = created
        return self

    def write(self, unit: Unit) -> None:
        cols = _rows(unit, self.header.players)
        lines = []
        for i in range(len(cols["deal"])):
            lines.append(json.dumps({
                "deal": int(cols["deal"][i]), "rotation": int(cols["rotation"][i]),
                "seats": cols["seats"][i].tolist(), "places": cols["places"][i].tolist(),
                "decisions": cols["decisions"][i].tolist(), "seconds": cols["seconds"][i].tolist(),
            }, separators=(",", ":")))
        lines.append(json.dumps({"unit": [unit.start, unit.stop], "games": unit.games}))
        # One write per unit, then fsync: the closing line lands last or not at all.
        _durable(self._stream, ("\n".join(lines) + "\n").encode())
        self.units.append(unit)

    def _close(self) -> None:
        self._stream.close()


def _read_jsonl(path: Path) -> tuple[GamesOnFile, int | None, list[Unit], int]:
    """The header, the games asked for, the complete units, and the byte offset where they
    end."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ResultsError(f"cannot read {path}: {error.strerror or error}") from None
    lines = data.split(b"\n")
    # A last line without its newline was cut short: it is not part of the file.
    lines.pop()
    if not lines:
        raise ResultsError(f"{path}: empty, not a tienlen games file")
    header = RunHeader.from_json(_json_line(lines[0], path, 1), f"{path}:1")
    n, players = len(header.lineup), header.players
    units: list[Unit] = []
    offset = end = len(lines[0]) + 1
    rows: list[dict[str, Any]] = []
    planned: int | None = None
    for number, line in enumerate(lines[1:], start=2):
        offset += len(line) + 1
        record = _json_line(line, path, number)
        if set(record) == {"games"}:
            if type(record["games"]) is not int or record["games"] < 1:
                raise ResultsError(f"{path}:{number}: a bad games count")
            if not rows:   # between units: part of the file
                planned, end = record["games"], offset
        elif "unit" in record:
            cols: dict[str, list[Any]] = {key: [row.get(key) for row in rows] for key in
                    ("deal", "rotation", "seats", "places", "decisions", "seconds")}
            try:
                start, stop = span_field(record["unit"], _MAX_DEALS, "unit")
                units.append(_unit(start, stop, players, n, cols, f"{path}:{number}"))
            except (TypeError, ValueError) as error:
                if isinstance(error, ResultsError):
                    raise
                raise ResultsError(f"{path}:{number}: a bad unit ({error})") from None
            rows, end = [], offset
        else:
            rows.append(record)
    return GamesOnFile(header, planned, units), planned, units, end


_COLUMNS = ("deal", "rotation", "seats", "places", "decisions", "seconds")


class _ParquetDir(GamesFile):
    _dataset: ParquetUnits

    @classmethod
    def open(cls, path: Path, header: RunHeader, games: int) -> _ParquetDir:  # type: ignore[override]
        dataset = ParquetUnits(path, ResultsError)
        created = False
        if path.exists():
            found = _read_parquet(path)
            _check_resumable(path, found, header, games)
            dataset.clean()
            units = found.units
            if found.games != games:
                dataset.set_header(_header_record(header, games))
        else:
            dataset.create(_header_record(header, games))
            units = []
            created = True
        self = cls(path, header, games, units)
        self.created = created
        self._dataset = dataset
        return self

    def write(self, unit: Unit) -> None:
        self._dataset.write(unit.start, unit.stop, _rows(unit, self.header.players),
                            self.header.to_json())
        self.units.append(unit)


def _header_record(header: RunHeader, games: int) -> dict[str, Any]:
    return {**header.to_json(), "games": games}


def _read_parquet(path: Path) -> GamesOnFile:
    dataset = ParquetUnits(path, ResultsError)
    record = dataset.header()
    header = RunHeader.from_json(record, f"{path}/{HEADER_FILE}")
    planned = record.get("games")
    if planned is not None and (type(planned) is not int or planned < 1):
        raise ResultsError(f"{path}/{HEADER_FILE}: a bad games count")
    units = []
    for start, stop, cols, file in dataset.units(_COLUMNS):
        try:
            start, stop = span_field([start, stop], _MAX_DEALS, "unit")
            units.append(_unit(start, stop, header.players, len(header.lineup), cols,
                               str(file)))
        except ValueError as error:
            if isinstance(error, ResultsError):
                raise
            raise ResultsError(f"{file}: a bad unit ({error})") from None
    return GamesOnFile(header, planned, units)


# --- reading -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GamesOnFile:
    """A games file's contents: its run, the games that run asked for (``None`` if not
    recorded) and its complete units, in deal order."""

    header: RunHeader
    games: int | None
    units: list[Unit]

    @property
    def played(self) -> int:
        return sum(u.games for u in self.units)


def read(path: str | os.PathLike[str]) -> GamesOnFile:
    """What a games file holds, whether its run finished or not."""
    path = Path(path)
    if not path.exists():
        raise ResultsError(f"{path}: no such file")
    found = _read_jsonl(path)[0] if _kind(path) == "jsonl" else _read_parquet(path)
    found.units.sort(key=lambda u: u.start)
    for a, b in zip(found.units, found.units[1:]):
        if b.start < a.stop:
            raise ResultsError(f"{path}: deals {b.start}..{min(a.stop, b.stop) - 1} are on file twice")
    return found


def load(path: str | os.PathLike[str]) -> ArenaResult:
    """The :class:`~tienlen.games.tienlen.arena.ArenaResult` of a finished run's games file (a run that
    was interrupted needs resuming first)."""
    found = read(path)
    if found.games is not None and found.played != found.games:
        raise ResultsError(f"{path}: {found.played} of the run's {found.games} games are on "
                           f"file, deals missing (resume the run to complete it)")
    try:
        return ArenaResult.from_units(found.header.names, found.header.players,
                                      found.header.seed, found.units)
    except ArenaError as error:
        raise ResultsError(f"{path}: {error} (resume the run to complete it)") from None
