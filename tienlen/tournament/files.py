"""A tournament's matches on disk, one row per match, written as each match ends: the same
two formats, the same lock and the same resume as ``tienlen sim --out`` (:mod:`tienlen.arena`):

``NAME.jsonl``
    a header line naming the run, then one JSON line per match. A line counts once it is
    whole on disk; a torn last line (a crash, a full disk) is ignored, and cut off when the
    run is resumed.
``NAME.parquet``
    a Parquet dataset: ``_run.json`` names the run, and each match is one file
    ``unit-START-STOP.parquet`` (:class:`tienlen.arena.files.ParquetUnits`), complete
    whenever the run was cut short.

One run writes a file at a time (:class:`tienlen.arena.lockfile.WriterLock`). A file
belongs to one run: resuming it with other entrants, schedule or seed is refused. Every
line read passes the one bounded decoder (:mod:`tienlen.table.decode`).

A row: ``match`` (its index in the schedule), ``a``, ``b`` (the two entrants), ``board``,
``side``, ``winner`` (the winning entrant, -1 for a draw), ``team_won`` (0, 1 or -1),
``hands``, ``hands_a``, ``hands_b`` (hands won, by first out), ``failed`` (a bit per seat
whose agent failed: did not connect, crashed, hung or went past the time limit),
``forfeit`` (1 when the result is a forfeit, not the board) and ``seconds``.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "t.jsonl"
>>> header = {"game": "guandan", "entrants": ["L1", "L2"], "matches": 2}
>>> with MatchesFile.open(path, header) as out:
...     out.write(dict(ROW_DEFAULTS, match=1, a=0, b=1, winner=1, hands=9))
>>> with MatchesFile.open(path, header, resume=True) as out:
...     sorted(out.done)
[1]
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from tienlen.arena.lockfile import WriterLock
from tienlen.table.decode import RESULTS_LINE, DecodeError, decode_object

from .schedule import TournamentError

__all__ = ["MatchesFile", "FORMAT", "VERSION", "ROW_FIELDS", "ROW_DEFAULTS"]

#: The ``format`` named in a matches file's header line.
FORMAT = "tienlen.tournament"
#: The version of that format this release writes and reads.
VERSION = 1
#: A row's fields, and what each holds: all ints but ``seconds``.
ROW_FIELDS = ("match", "a", "b", "board", "side", "winner", "team_won", "hands", "hands_a",
              "hands_b", "failed", "forfeit", "seconds")
#: The value of each row field a line may leave out.
ROW_DEFAULTS: dict[str, Any] = {name: 0 for name in ROW_FIELDS} | {"winner": -1, "team_won": -1,
                                                                   "seconds": 0.0}
_LIMIT = 1 << 40


def _check_row(row: Mapping[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ROW_FIELDS:
        value = row.get(name)
        if name == "seconds":
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not 0 <= value < 1e9:
                raise TournamentError(f"{where}: seconds is not a number of seconds")
            out[name] = float(value)
            continue
        low = -1 if name in ("winner", "team_won") else 0
        if type(value) is not int or not low <= value < _LIMIT:
            raise TournamentError(f"{where}: {name} is not an int >= {low}; got {value!r:.30}")
        out[name] = value
    return out


class MatchesFile:
    """The matches of one run, opened with :meth:`open` (a context manager)."""

    def __init__(self, path: Path, header: dict[str, Any], lock: WriterLock) -> None:
        self.path = path
        self.header = header
        self._lock = lock
        self.rows: dict[int, dict[str, Any]] = {}
        self._stream: Any = None
        self._parquet: Any = None

    @property
    def done(self) -> set[int]:
        """The indices of the matches on file."""
        return set(self.rows)

    @classmethod
    def open(cls, path: str | os.PathLike[str], header: Mapping[str, Any], *,
             resume: bool = False) -> MatchesFile:
        """Lock ``path`` and create it (or, with ``resume``, read the matches on it: its run
        must be ``header``'s)."""
        path = Path(path)
        if path.suffix not in (".jsonl", ".parquet"):
            raise TournamentError(f"--out {path}: name it .jsonl or .parquet")
        run = {"format": FORMAT, "version": VERSION, **header}
        lock = WriterLock.acquire(path, TournamentError)
        try:
            out = cls(path, run, lock)
            exists = path.exists()
            if exists and not resume:
                raise TournamentError(f"--out {path} exists: give --resume to continue its run, "
                                      "or another name")
            if not exists and resume:
                raise TournamentError(f"--resume: {path} does not exist")
            if path.suffix == ".parquet":
                out._open_parquet(exists)
            else:
                out._open_jsonl(exists)
        except BaseException:
            lock.release()
            raise
        return out

    # ---------------------------------------------------------------- JSON lines

    def _open_jsonl(self, exists: bool) -> None:
        if not exists:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            fd = os.open(self.path, flags, 0o644)
            self._stream = os.fdopen(fd, "ab")
            self._append(self.header)
            return
        flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags)
        except OSError as error:
            raise TournamentError(f"cannot open {self.path}: {error.strerror or error}") from None
        self._stream = os.fdopen(fd, "r+b")
        whole = 0
        number = 0
        for line in iter(lambda: self._stream.readline(RESULTS_LINE.max_bytes + 1), b""):
            number += 1
            if not line.endswith(b"\n"):
                break                                 # a torn tail: cut off below
            try:
                record = decode_object(line, RESULTS_LINE)
            except DecodeError as error:
                raise TournamentError(f"{self.path}:{number}: {error.message}") from None
            if number == 1:
                self._check_header(record)
            else:
                self._add(record, f"{self.path}:{number}")
            whole += len(line)
        if number == 0:
            raise TournamentError(f"{self.path}: empty: not a tournament's matches")
        self._stream.seek(whole)
        self._stream.truncate()

    def _append(self, record: Mapping[str, Any]) -> None:
        self._stream.write((json.dumps(record, separators=(",", ":")) + "\n").encode())
        self._stream.flush()
        os.fsync(self._stream.fileno())

    # ---------------------------------------------------------------- Parquet

    def _open_parquet(self, exists: bool) -> None:
        from tienlen.arena.files import ParquetUnits, ResultsError

        class Refused(TournamentError, ResultsError):
            pass

        self._parquet = ParquetUnits(self.path, Refused)
        if not exists:
            self._parquet.create(self.header)
            return
        self._check_header(self._parquet.header())
        self._parquet.clean()
        for start, stop, columns, file in self._parquet.units(ROW_FIELDS):
            for i in range(len(columns["match"])):
                self._add({name: columns[name][i].item() for name in ROW_FIELDS}, str(file))

    # ---------------------------------------------------------------- both

    def _check_header(self, record: Mapping[str, Any]) -> None:
        if record.get("format") != FORMAT:
            raise TournamentError(f"{self.path}: not a tournament's matches (format "
                                  f"{record.get('format')!r:.40})")
        differs = sorted(k for k in set(record) | set(self.header)
                         if record.get(k) != self.header.get(k))
        if differs:
            raise TournamentError(f"{self.path} holds another run: its {', '.join(differs)} "
                                  "differ from this command's")

    def _add(self, record: Mapping[str, Any], where: str) -> None:
        row = _check_row(record, where)
        if row["match"] in self.rows:
            raise TournamentError(f"{where}: match {row['match']} is on file twice")
        self.rows[row["match"]] = row

    def write(self, row: Mapping[str, Any]) -> None:
        """Put one finished match on disk (once: a match on file is refused)."""
        clean = _check_row(row, "a new row")
        if clean["match"] in self.rows:
            raise TournamentError(f"match {clean['match']} is on file already")
        if self._parquet is not None:
            columns = {name: np.array([clean[name]]) for name in ROW_FIELDS}
            self._parquet.write(clean["match"], clean["match"] + 1, columns, self.header)
        else:
            self._append(clean)
        self.rows[clean["match"]] = clean

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        self._lock.release()

    def __enter__(self) -> MatchesFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
