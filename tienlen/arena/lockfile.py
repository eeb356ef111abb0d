"""One writer per games file: an operating-system lock held for as long as a run writes.

:func:`WriterLock.acquire` locks ``NAME.lock`` beside the games file ``NAME`` (a JSON-lines
file or a Parquet directory), without waiting: a second run writing the same file at once
(the same command started twice, a job runner retrying) is refused up front with a clear
error, instead of both writing at the same offsets or the same temporary unit.

Why a kernel lock on a sidecar file, and not the lock file's existence or a library:

* the kernel drops the lock when the process ends, however it ends (SIGKILL, a crash), so
  a killed run never blocks the next ``--resume``, and no stale-lock guessing (process ids,
  ages) is needed;
* ``flock`` (Unix) and ``msvcrt.locking`` (Windows) are in the standard library; the
  ``filelock`` package does the same calls on a sidecar file, and would be a dependency of
  the base install for these few lines;
* a sidecar, not the games file itself: the lock is taken before the file is created or
  read, so a second run never sees a half-created file; a Parquet dataset is a directory.

``flock`` locks an open file description, which forked children share: worker processes
of a killed run keep the lock until they exit (within seconds: :mod:`tienlen.games.tienlen.arena` ties
them to the parent). The holder removes the sidecar when it releases the lock; a run that
was killed leaves it, unlocked, and the next run takes it over.

>>> import tempfile
>>> games = Path(tempfile.mkdtemp()) / "games.jsonl"
>>> with WriterLock.acquire(games) as lock:
...     try:
...         WriterLock.acquire(games)
...     except ValueError as error:
...         print(str(error).split(" (process")[0].endswith("being written by another run"))
...     print(lock_path(games).exists())
True
True
>>> lock_path(games).exists(), WriterLock.acquire(games).held    # released and removed
(False, True)
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

__all__ = ["WriterLock", "lock_path"]

_WINDOWS = sys.platform == "win32"


def lock_path(target: Path) -> Path:
    """The sidecar file whose lock stands for writing ``target``."""
    return target.with_name(target.name + ".lock")


# sys.platform tests, not _WINDOWS, so that mypy checks each branch on its own platform.
if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        """Take the lock on ``fd`` without waiting; False if another holder has it."""
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        """Take the lock on ``fd`` without waiting; False if another holder has it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        # Explicitly: forked workers may still hold copies of the descriptor, and the
        # lock belongs to the description they share, not to this process's descriptor.
        fcntl.flock(fd, fcntl.LOCK_UN)


class WriterLock:
    """The lock on writing one games file; :meth:`release` it (or use it as a context
    manager). Not reentrant: a second :meth:`acquire` of the same file, even in this
    process, is refused."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, target: str | os.PathLike[str],
                error: type[ValueError] = ValueError) -> WriterLock:
        """Lock writing ``target``, or raise ``error`` (a ValueError subclass: each caller
        raises its own kind) if another run holds it or the lock cannot be made."""
        target = Path(target)
        path = lock_path(target)
        # O_NOFOLLOW: a symbolic link planted at the sidecar's name is refused, never
        # followed (its target would be truncated below); O_NONBLOCK: a FIFO planted there
        # does not hang the open. A non-regular file is refused after the open.
        flags = (os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
                 | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        while True:
            if path.is_symlink():
                raise error(f"cannot lock {target} for writing: {path} is a symbolic link "
                            "(remove it; the lock file is never followed)")
            try:
                fd = os.open(path, flags, 0o644)
            except OSError as failure:
                raise error(f"cannot lock {target} for writing ({path}: "
                            f"{failure.strerror or failure})") from None
            if not _regular(fd):
                os.close(fd)
                raise error(f"cannot lock {target} for writing: {path} is not a regular file")
            if not _try_lock(fd):
                holder = _read_holder(fd)
                os.close(fd)
                raise error(f"{target} is being written by another run{holder}: wait for it "
                            f"to finish or stop it, then run again (the lock is {path}, "
                            "released when that run ends, however it ends)")
            if _WINDOWS or _same_file(path, fd):
                break
            # The holder released and removed the sidecar between our open and our lock:
            # this lock is on a file nobody else will open. Take the new one instead.
            os.close(fd)
        with contextlib.suppress(OSError):       # who holds it, for the refusal's message
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        return cls(path, fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give the lock up (idempotent). On Unix the sidecar is removed first, while
        still held, so that nobody locks a file that is about to vanish unnoticed (the
        acquirer checks it locked the file that is at the path)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if not _WINDOWS:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        _unlock(fd)
        os.close(fd)

    def __enter__(self) -> WriterLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __del__(self) -> None:
        # A writer dropped without close: the descriptor would close anyway; release tidily.
        with contextlib.suppress(Exception):
            self.release()


def _regular(fd: int) -> bool:
    import stat

    return stat.S_ISREG(os.fstat(fd).st_mode)


def _same_file(path: Path, fd: int) -> bool:
    try:
        on_disk = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)


def _read_holder(fd: int) -> str:
    """`` (process N)`` from the sidecar, when the holder wrote its id there."""
    try:
        text = os.read(fd, 32).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (process {text})" if text.isdigit() else ""
